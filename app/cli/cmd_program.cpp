// warpscope run prog.cu / warpscope build prog.cu -o prog: a whole CUDA program (host code and
// kernels) built against warpscope's CUDA runtime (engine/cudart) and run on the simulator.
//
// The program runs as a child process with resource limits (CPU time, address space, file size,
// processes) and a wall-clock limit; its stdout and stderr pass through. Exit codes: the
// program's own; 3 when a kernel faulted or a checker reported (the runtime notes it in
// $WARPSCOPE_STATUS_FILE); 2 for a build error or bad usage; 128+N when a signal ended it; 124
// past the wall-clock limit.
#include "cli.hpp"
#include "base/data_dir.hpp"
#include "base/parse_number.hpp"
#include "cudart/build.hpp"
#include "timing/gpu_spec.hpp"

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

using namespace warpscope;

namespace {

const char* kProgramUsage = R"(usage:
  warpscope run prog.cu [more.cu|.cpp ...] [options] [-- ARGS...]
  warpscope build prog.cu [more.cu|.cpp ...] -o PROG [options]
options:
  -I DIR            add an include folder (also -IDIR)
  -D NAME[=VALUE]   define a macro (also -DNAME)
  --gpu PRESET      the GPU the program's device reports (default h100)
  --cpu-seconds N   CPU-time limit of the program (default 120)
  --timeout N       wall-clock limit in seconds (default 300)
  --memory-mb N     address-space limit of the program in MiB (default 16384)
  --check LIST      initcheck,racecheck: report uninitialised reads and shared/global-memory
                    races on stderr (exit code 3 when one reports)
  --threads N       simulator threads per launch (default 1)
  --budget N        warp-instructions per launch before a kernel counts as a runaway loop
                    (cudaErrorLaunchTimeout; default 500000000)
  --timed           run every kernel through the cycle model: cudaEventElapsedTime gives its
                    times and each launch's modelled time is printed on stderr (about ten times
                    slower; without it a kernel's time on the timeline is its issue-rate bound)
  --no-cache        rebuild even when the same build is cached
)";

struct ProgramArgs {
    cudart::BuildOptions build;
    std::vector<std::string> programArgs;
    std::string gpu, budget, check, threads;
    bool timed = false;
    uint64_t cpuSeconds = 120, timeoutSeconds = 300, memoryMb = 16384;
};

// Parses the options common to run and build; false (after a message) on bad usage.
bool parseArgs(int argc, char** argv, ProgramArgs& a, bool allowOutput) {
    for (int i = 0; i < argc; ++i) {
        std::string s = argv[i];
        if (s == "--") {
            for (++i; i < argc; ++i) a.programArgs.push_back(argv[i]);
            break;
        }
        if (s == "-I" || s == "-D" || s == "-o" || s == "--gpu" || s == "--cpu-seconds" || s == "--timeout" || s == "--memory-mb" || s == "--budget" ||
            s == "--check" || s == "--threads") {
            if (i + 1 >= argc) {
                std::cerr << "warpscope: " << s << " needs a value\n" << kProgramUsage;
                return false;
            }
            std::string v = argv[++i];
            if (s == "-I") a.build.includeDirs.push_back(v);
            else if (s == "-D") a.build.defines.push_back(v);
            else if (s == "-o" && allowOutput) a.build.output = v;
            else if (s == "--gpu") a.gpu = v;
            else if (s == "--cpu-seconds") a.cpuSeconds = parseCount(v, s);
            else if (s == "--timeout") a.timeoutSeconds = parseCount(v, s);
            else if (s == "--memory-mb") a.memoryMb = parseCount(v, s);
            else if (s == "--budget") a.budget = std::to_string(parseCount(v, s));
            else if (s == "--threads") a.threads = std::to_string(parseCount(v, s));
            else if (s == "--check") {
                for (size_t p = 0; p <= v.size();) {
                    size_t e = v.find(',', p);
                    std::string tool = v.substr(p, e == std::string::npos ? std::string::npos : e - p);
                    if (tool != "initcheck" && tool != "racecheck" && tool != "memcheck" && tool != "synccheck") {
                        std::cerr << "warpscope: --check takes initcheck, racecheck (memcheck and synccheck are always on), not '" << tool << "'\n";
                        return false;
                    }
                    if (e == std::string::npos) break;
                    p = e + 1;
                }
                a.check = v;
            }
            else {
                std::cerr << "warpscope: " << s << " is an option of warpscope build\n" << kProgramUsage;
                return false;
            }
        } else if (s.size() > 2 && s.rfind("-I", 0) == 0) {
            a.build.includeDirs.push_back(s.substr(2));
        } else if (s.size() > 2 && s.rfind("-D", 0) == 0) {
            a.build.defines.push_back(s.substr(2));
        } else if (s == "--no-cache") {
            a.build.useCache = false;
        } else if (s == "--timed") {
            a.timed = true;
        } else if (!s.empty() && s[0] == '-') {
            std::cerr << "warpscope: unknown option '" << s << "'\n" << kProgramUsage;
            return false;
        } else {
            a.build.sources.push_back(s);
        }
    }
    if (a.build.sources.empty()) {
        std::cerr << "warpscope: no source files\n" << kProgramUsage;
        return false;
    }
    return true;
}

// Builds; prints diagnostics as file:line:col; false on failure.
bool build(ProgramArgs& a, std::string* exe) {
    cudart::BuildResult r = cudart::buildProgram(a.build);
    for (auto& d : r.diagnostics) std::cerr << d.text() << "\n";
    if (!r.ok) {
        if (!r.error.empty()) std::cerr << "warpscope: build failed: " << r.error << "\n";
        else std::cerr << "warpscope: build failed\n";
        if (std::getenv("WARPSCOPE_BUILD_LOG")) std::cerr << r.log;
        return false;
    }
    *exe = r.executable;
    return true;
}

// The processes this user runs now (RLIMIT_NPROC counts them all, threads included).
uint64_t userProcesses() {
    uint64_t n = 0;
    std::error_code ec;
    const uid_t me = getuid();
    for (auto it = std::filesystem::directory_iterator("/proc", ec); !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.empty() || !std::isdigit(static_cast<unsigned char>(name[0]))) continue;
        std::ifstream f(it->path() / "status");
        std::string line;
        bool mine = false;
        uint64_t threads = 1;
        while (std::getline(f, line)) {
            if (line.rfind("Uid:", 0) == 0) mine = std::strtoul(line.c_str() + 4, nullptr, 10) == me;
            if (line.rfind("Threads:", 0) == 0) threads = std::strtoull(line.c_str() + 8, nullptr, 10);
        }
        if (mine) n += threads;
    }
    return n;
}

const char* limitName(int sig) {
    switch (sig) {
    case SIGXCPU: return " (the CPU-time limit, --cpu-seconds)";
    case SIGXFSZ: return " (the file-size limit)";
    case SIGKILL: return " (killed)";
    case SIGSEGV: return " (segmentation fault: a bad pointer in host code, or a device pointer dereferenced on the host?)";
    case SIGABRT: return " (aborted)";
    default: return "";
    }
}

} // namespace

int runProgram(int argc, char** argv) {
    ProgramArgs a;
    if (!parseArgs(argc, argv, a, false)) return 2;
    if (!a.gpu.empty()) {
        try {
            timing::findPreset(a.gpu, timing::presetFolders());   // an unknown name is an error now, not a generic GPU later
        } catch (const Error& e) {
            std::cerr << "warpscope: --gpu: " << e.what() << "\n";
            return 2;
        }
    }
    std::string exe;
    if (!build(a, &exe)) return 2;

    // Where the runtime notes a kernel fault.
    char statusPath[] = "/tmp/warpscope-status-XXXXXX";
    int sfd = mkstemp(statusPath);
    if (sfd >= 0) close(sfd);
    const std::string dataDir = base::findDataDir().string();
    const uint64_t nproc = userProcesses() + 64;

    std::vector<std::string> args = {exe};
    args.insert(args.end(), a.programArgs.begin(), a.programArgs.end());
    std::vector<char*> cargs;
    for (auto& s : args) cargs.push_back(const_cast<char*>(s.c_str()));
    cargs.push_back(nullptr);

    std::fflush(stdout);
    std::fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        std::cerr << "warpscope: cannot start the program (fork failed)\n";
        return 2;
    }
    if (pid == 0) {
        setpgid(0, 0);
        auto lim = [](int res, rlim_t v) {
            rlimit r{v, v};
            setrlimit(res, &r);
        };
        // CPU time: SIGXCPU at the limit (named in the message), SIGKILL two seconds later.
        rlimit cpu{static_cast<rlim_t>(a.cpuSeconds), static_cast<rlim_t>(a.cpuSeconds + 2)};
        setrlimit(RLIMIT_CPU, &cpu);
#if !defined(__SANITIZE_ADDRESS__)
        lim(RLIMIT_AS, static_cast<rlim_t>(a.memoryMb) << 20);
#else
        // A sanitized build links programs with AddressSanitizer, whose shadow memory reserves
        // terabytes of address space: no address-space limit there (scripts/sanitize.sh).
#endif
        lim(RLIMIT_FSIZE, rlim_t(1) << 30);
        lim(RLIMIT_NPROC, static_cast<rlim_t>(nproc));
        lim(RLIMIT_CORE, 0);
        if (sfd >= 0) setenv("WARPSCOPE_STATUS_FILE", statusPath, 1);
        if (!dataDir.empty()) setenv("WARPSCOPE_DATA_DIR", dataDir.c_str(), 1);
        if (!a.gpu.empty()) setenv("WARPSCOPE_GPU", a.gpu.c_str(), 1);
        if (!a.budget.empty()) setenv("WARPSCOPE_BUDGET", a.budget.c_str(), 1);
        if (!a.check.empty()) setenv("WARPSCOPE_CHECK", a.check.c_str(), 1);
        if (!a.threads.empty()) setenv("WARPSCOPE_THREADS", a.threads.c_str(), 1);
        if (a.timed) setenv("WARPSCOPE_TIMED", "1", 1);
        // The program's stdout line by line even into a pipe, so what it printed before a limit
        // stopped it is not lost in a buffer, and it interleaves with stderr as on a terminal.
        setenv("WARPSCOPE_LINE_BUFFERED", "1", 1);
        execv(cargs[0], cargs.data());
        std::perror("warpscope: cannot run the built program");
        _exit(127);
    }
    setpgid(pid, pid);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(a.timeoutSeconds);
    int status = 0;
    bool timedOut = false;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) break;
        if (w < 0 && errno != EINTR) break;
        if (std::chrono::steady_clock::now() > deadline) {
            timedOut = true;
            kill(-pid, SIGKILL);
            waitpid(pid, &status, 0);
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    std::string statusText;
    {
        std::ifstream f(statusPath);
        std::getline(f, statusText);
    }
    if (sfd >= 0) unlink(statusPath);
    if (timedOut) {
        std::cerr << "warpscope: the program did not finish within " << a.timeoutSeconds << " s (--timeout) and was stopped\n";
        return 124;
    }
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        std::cerr << "warpscope: the program was ended by signal " << sig << " (" << strsignal(sig) << ")" << limitName(sig) << "\n";
        return statusText == "fault" ? 3 : 128 + sig;
    }
    if (statusText == "fault" || statusText == "check") return 3;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

int buildProgramCmd(int argc, char** argv) {
    ProgramArgs a;
    if (!parseArgs(argc, argv, a, true)) return 2;
    if (a.build.output.empty()) {
        std::cerr << "warpscope build: name the program with -o FILE\n" << kProgramUsage;
        return 2;
    }
    std::string exe;
    if (!build(a, &exe)) return 2;
    std::cout << "built " << exe << "\n";
    return 0;
}

bool isWholeProgramArg(const std::string& arg) { return cudart::isProgramSource(arg); }
