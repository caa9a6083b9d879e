// `warpscope serve [--bind ADDR] [--port N] [--token T] [--web DIR] [--workers W] [--queue Q] [--rate R]
//  [--compiler NAME] [--compile-timeout S] [--max-connections N] [--work-dir DIR]`: the web app and a
// compile service for a classroom (app/cli/serve/, docs/serve.md). Runs until SIGINT or SIGTERM.
// `warpscope serve --compile-child JOB COMPILER TIMEOUT` is the sandboxed child each compile runs in.
#include "cli.hpp"

#include "base/data_dir.hpp"
#include "base/sandbox.hpp"
#include "compile/compile.hpp"
#include "serve/server.hpp"
#include "warpscope_version.hpp"

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <thread>

using namespace warpscope;

namespace {

const char* kServeUsage = R"(usage: warpscope serve [options]
  --bind ADDR          address to listen on (default 127.0.0.1; 0.0.0.0 for a classroom network)
  --port N             port (default 8080; 0 picks a free one)
  --token T            compiles need this token ('random' makes one); the printed link carries it
  --web DIR            the web build's folder (default: <data dir>/web, else build-web/web)
  --workers W          compiles at once (default: the number of cores)
  --queue Q            compiles waiting beyond those, before 503 (default 64)
  --rate R             compiles per client address a minute (default 30; 0: no limit)
  --compiler NAME      auto, nvrtc, nvcc or clang (default auto)
  --compile-timeout S  a compile is stopped after S seconds: 504 (default 20)
  --max-connections N  open connections at once (default 256), at most 64 from one address
                       (--max-per-client N)
  --work-dir DIR       the sandboxed compiles' folder and PTX cache (default <cache>/serve)
)";

std::string randomToken() {
    unsigned char bytes[12] = {};
    std::ifstream f("/dev/urandom", std::ios::binary);
    f.read(reinterpret_cast<char*>(bytes), sizeof bytes);
    std::string s;
    char hex[3];
    for (unsigned char b : bytes) {
        std::snprintf(hex, sizeof hex, "%02x", b);
        s += hex;
    }
    return s;
}

std::string selfExe() {
    std::error_code ec;
    const fs::path p = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : p.string();
}

// --web's default: an install's share/warpscope/web, else the source tree's web build.
std::string defaultWebDir() {
    const fs::path data = base::findDataDir(selfExe());
    std::error_code ec;
    if (data.empty()) return "";
    for (const fs::path& p : {data / "web", data / "build-web" / "web"})
        if (fs::is_directory(p, ec)) return p.string();
    return "";
}

} // namespace

int cmdServe(int argc, char** argv) {
    if (argc >= 1 && std::string(argv[0]) == "--compile-child") {
        if (argc != 4) {
            std::cerr << "warpscope serve --compile-child JOB COMPILER TIMEOUT\n";
            return 2;
        }
        return serve::runCompileChild(argv[1], argv[2], std::atof(argv[3]));
    }
    serve::ServerConfig cfg;
    serve::ServiceConfig svc;
    svc.workers = std::max(1u, std::thread::hardware_concurrency());
    serve::SandboxedCompileConfig cc;
    bool webGiven = false;
    for (int i = 0; i < argc; ++i) {
        const std::string a = argv[i];
        auto count = [&](long lo, long hi) {
            const std::string v = optionValue(argc, argv, i);
            char* end = nullptr;
            const long n = std::strtol(v.c_str(), &end, 10);
            if (v.empty() || *end || n < lo || n > hi)
                throw Error(Error::Kind::Input, a + " takes a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) + ", not '" + v + "'.");
            return n;
        };
        if (a == "--bind") cfg.bind = optionValue(argc, argv, i);
        else if (a == "--port") cfg.port = static_cast<int>(count(0, 65535));
        else if (a == "--token") cfg.token = optionValue(argc, argv, i);
        else if (a == "--web") { cfg.webDir = optionValue(argc, argv, i); webGiven = true; }
        else if (a == "--workers") svc.workers = static_cast<unsigned>(count(1, 256));
        else if (a == "--queue") svc.queue = static_cast<unsigned>(count(0, 100000));
        else if (a == "--rate") cfg.ratePerMinute = static_cast<double>(count(0, 1000000));
        else if (a == "--max-connections") cfg.maxConnections = static_cast<unsigned>(count(1, 100000));
        else if (a == "--max-per-client") cfg.maxPerClient = static_cast<unsigned>(count(1, 100000));
        else if (a == "--compile-timeout") {
            const std::string v = optionValue(argc, argv, i);
            char* end = nullptr;
            const double s = std::strtod(v.c_str(), &end);
            if (v.empty() || *end || !(s > 0) || s > 3600) throw Error(Error::Kind::Input, "--compile-timeout takes seconds (0 < S <= 3600), not '" + v + "'.");
            cc.timeoutSeconds = s;
        } else if (a == "--compiler") {
            const std::string v = optionValue(argc, argv, i);
            auto c = compile::parseCompiler(v);
            if (!c) throw Error(Error::Kind::Input, "--compiler is auto, nvrtc, nvcc or clang, not '" + v + "'.");
            cc.compiler = *c;
        } else if (a == "--work-dir") cc.workRoot = optionValue(argc, argv, i);
        else if (a == "--help" || a == "-h") {
            std::cout << kServeUsage;
            return 0;
        } else {
            std::cerr << "warpscope serve: unknown option '" << a << "'\n" << kServeUsage;
            return 2;
        }
    }
    if (cfg.token == "random") cfg.token = randomToken();
    if (!webGiven) cfg.webDir = defaultWebDir();
    else if (std::error_code ec; !fs::is_directory(cfg.webDir, ec))
        throw Error(Error::Kind::Input, "--web " + cfg.webDir + " is not a folder.");
    cc.executable = selfExe();
    if (cc.executable.empty()) throw Error(Error::Kind::Input, "cannot find warpscope's own executable (/proc/self/exe) to run compiles in.");
    if (cc.workRoot.empty()) cc.workRoot = (fs::path(compile::cacheDir()) / "serve").string();
    std::error_code ec;
    fs::create_directories(cc.workRoot, ec);
    if (!fs::is_directory(cc.workRoot, ec)) throw Error(Error::Kind::Input, "cannot make the work folder " + cc.workRoot + ".");
    cc.workRoot = fs::canonical(cc.workRoot, ec).string();

    cfg.version = kVersion;
    for (auto& c : compile::available())
        if (cc.compiler == compile::Compiler::Auto || c.compiler == cc.compiler) cfg.compilers.push_back(compile::compilerName(c.compiler));
    cfg.compiler = compile::compilerName(cc.compiler);

    // SIGINT and SIGTERM are taken by sigwait below: block them before any thread exists.
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGINT);
    sigaddset(&stopSignals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);

    serve::CompileService service(svc, serve::sandboxedCompiler(cc));
    serve::Server server(cfg, service);
    std::string error;
    if (!server.listen(&error)) {
        std::cerr << "warpscope serve: " << error << "\n";
        return 2;
    }
    const bool anyAddress = cfg.bind == "0.0.0.0" || cfg.bind == "::";
    std::string host = cfg.bind;
    if (anyAddress) {
        char name[256] = "localhost";
        gethostname(name, sizeof name - 1);
        host = name;
    } else if (host.find(':') != std::string::npos) {
        host = "[" + host + "]";
    }
    const std::string url = "http://" + host + ":" + std::to_string(server.port()) + "/" + (cfg.token.empty() ? "" : "?token=" + cfg.token);
    std::cerr << "warpscope serve " << kVersion << ": " << url << "\n";
    std::cerr << "  web app: " << (cfg.webDir.empty() ? std::string("none found (build it, or --web DIR): only /api/ is served") : cfg.webDir) << "\n";
    std::cerr << "  compiles: " << (cfg.compilers.empty() ? std::string("no compiler found (install clang)") : cfg.compiler)
              << ", " << svc.workers << " at once, " << svc.queue << " waiting at most, " << cc.timeoutSeconds << " s limit, "
              << (cfg.ratePerMinute > 0 ? std::to_string(static_cast<int>(cfg.ratePerMinute)) + " a minute per client" : std::string("no rate limit"))
              << "; sandbox folder " << cc.workRoot << "\n";
    if (const std::string note = sandbox::isolationNote(); !note.empty()) std::cerr << "  " << note << "\n";
    if (anyAddress && cfg.token.empty())
        std::cerr << "  warning: listening on every address with no --token: anyone on the network can use the compile service\n";
    server.start();
    int sig = 0;
    sigwait(&stopSignals, &sig);
    std::cerr << "warpscope serve: " << (sig == SIGINT ? "SIGINT" : "SIGTERM") << ", stopping (" << server.openConnections()
              << " connections open)\n";
    server.stop();
    std::cerr << "warpscope serve: stopped\n";
    return 0;
}
