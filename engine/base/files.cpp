#include "base/files.hpp"
#include "base/error.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace warpscope::base {

std::optional<std::string> readFile(const fs::path& file) {
    std::ifstream f(file, std::ios::binary);
    if (!f) return std::nullopt;
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

std::string readFileOrThrow(const fs::path& file) {
    std::optional<std::string> text = readFile(file);
    if (!text) throw Error(Error::Kind::Input, "Cannot read '" + file.string() + "'.");
    return std::move(*text);
}

TempDir::TempDir(const std::string& stem) {
    std::error_code ec;
    std::string pattern = (fs::temp_directory_path(ec) / (stem + "-XXXXXX")).string();
    if (!ec && mkdtemp(pattern.data())) path = pattern;
}

TempDir::~TempDir() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
}

} // namespace warpscope::base
