// The data folder lookup (data_dir.hpp).
#include "base/data_dir.hpp"

#include <fstream>
#include <mutex>
#include <string>

namespace warpscope::base {

namespace fs = std::filesystem;

namespace {

// Written by engine/CMakeLists.txt at the root of every build folder: the source tree's path.
constexpr const char* kSourceMarker = "warpscope-source-dir.txt";

std::mutex g_mutex;
fs::path g_override;

// A data folder has lessons/ and assets/ (shaders/ is the app's; the CLI works without it).
bool isDataDir(const fs::path& p) {
    std::error_code ec;
    return fs::is_directory(p / "lessons", ec) && fs::is_directory(p / "assets", ec);
}

fs::path executablePath(const fs::path& exePath) {
    std::error_code ec;
    // /proc/self/exe names the real file even when the program was started through a symlink or
    // from PATH, where argv[0] is only a bare name.
    fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec && !self.empty()) return self;
    if (exePath.empty()) return {};
    return fs::weakly_canonical(fs::absolute(exePath, ec), ec);
}

} // namespace

void useDataDir(const fs::path& dir) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_override = dir;
}

fs::path findDataDir(const fs::path& exePath) {
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        if (!g_override.empty()) return g_override;
    }
    const fs::path exe = executablePath(exePath);
    if (exe.empty()) return {};
    const fs::path bin = exe.parent_path();
    if (fs::path installed = bin.parent_path() / "share" / "warpscope"; isDataDir(installed)) return installed.lexically_normal();
    // A build folder: the source tree is an ancestor (build/ inside the checkout), or the build
    // folder's root names it in the marker file CMake writes there (a build folder elsewhere).
    std::error_code ec;
    fs::path p = bin;
    for (int up = 0; up < 8 && !p.empty(); ++up) {
        if (isDataDir(p) && fs::exists(p / "CMakeLists.txt", ec)) return p;
        if (fs::is_regular_file(p / kSourceMarker, ec)) {
            std::ifstream in(p / kSourceMarker);
            std::string line;
            std::getline(in, line);
            if (!line.empty() && isDataDir(line)) return fs::path(line);
        }
        if (p == p.parent_path()) break;
        p = p.parent_path();
    }
    return {};
}

} // namespace warpscope::base
