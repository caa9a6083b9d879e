// The web page's main (app/gui/web; docs/web.md). index.html turns the page's query into the
// app's command-line options (Module.arguments), asks the page's server for /api/health and puts
// the answer in Module.warpscopeServer, mounts the learner's browser storage (IndexedDB) at the
// home folder and then starts this. main() tells the compile layer about the server, points the
// data folder at the files packed with the page, and runs the desktop app's start-up and frames
// (app_main.cpp) on the WebPlatform. ?bench=1 runs `warpscope bench`'s engine lines first.
#include "gui/app_main.hpp"
#include "gui/web/web_platform.hpp"

#include "base/data_dir.hpp"
#include "compile/compile_web.hpp"

#include <emscripten.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int runBench(int argc, char** argv, const std::filesystem::path& lessonsDir);   // app/cli/cmd_bench.cpp

namespace {

// {"server": health answer or null, "token": "...", "sidecar": bool, "bench": "..." or null}
EM_JS(char*, web_page_info, (), {
    var info = {
        server: Module.warpscopeServer || null,
        token: Module.warpscopeToken || '',
        sidecar: !!Module.warpscopeSidecar,
        bench: Module.warpscopeBench || null
    };
    var s = JSON.stringify(info);
    var n = lengthBytesUTF8(s) + 1;
    var p = _malloc(n);
    stringToUTF8(s, p, n);
    return p;
});

} // namespace

int main(int argc, char** argv) {
    using namespace warpscope;
    // Everything the app reads from its data folder was packed with the page at /warpscope.
    base::useDataDir("/warpscope");
    char* raw = web_page_info();
    nlohmann::json info = nlohmann::json::parse(raw, nullptr, false);
    std::free(raw);
    bool sidecar = false;
    if (info.is_object()) {
        const nlohmann::json& server = info["server"];
        std::vector<std::string> compilers;
        std::string version;
        if (server.is_object()) {
            version = server.value("version", std::string());
            if (server.contains("compilers") && server["compilers"].is_array())
                for (const auto& c : server["compilers"])
                    if (c.is_string()) compilers.push_back(c.get<std::string>());
        }
        compile::setWebServer(server.is_object() && server.value("ok", false), version, compilers, info.value("token", std::string()));
        sidecar = info.value("sidecar", false);
        if (info["bench"].is_string()) {
            // `warpscope bench`'s lines, printed into the page (the same cases as the CLI's).
            // ?bench=1: every line; a comma list of sim, all-cores, timed picks groups (--only), and
            // quick takes the CLI's --quick sizes.
            std::vector<std::string> args;   // runBench takes the options after the word "bench"
            std::string groups, value = info["bench"].get<std::string>();
            for (size_t at = 0; at <= value.size();) {
                size_t comma = value.find(',', at);
                if (comma == std::string::npos) comma = value.size();
                const std::string part = value.substr(at, comma - at);
                if (part == "quick") args.push_back("--quick");
                else if (!part.empty() && part != "1") groups += (groups.empty() ? "" : ",") + part;
                at = comma + 1;
            }
            if (!groups.empty()) {
                args.push_back("--only");
                args.push_back(groups);
            }
            std::vector<char*> av;
            for (auto& a : args) av.push_back(a.data());
            av.push_back(nullptr);
            try {
                runBench(static_cast<int>(args.size()), av.data(), "/warpscope/lessons");
            } catch (const std::exception& e) {
                std::printf("bench: error: %s\n", e.what());
            }
            std::printf("bench: done\n");
            std::fflush(stdout);
        }
    }
    static gui::WebPlatform platform(sidecar);   // the frames use it after main has returned
    return gui::appMain(argc, argv, platform);
}
