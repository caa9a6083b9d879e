// File helpers every layer uses: a whole file's bytes, and a private temporary folder.
#pragma once
#include <filesystem>
#include <optional>
#include <string>

namespace warpscope::base {

// The whole file, bytes as they are; nullopt when it cannot be opened.
std::optional<std::string> readFile(const std::filesystem::path& file);
// The whole file, or Error(Input) "Cannot read '<file>'."
std::string readFileOrThrow(const std::filesystem::path& file);

// A private temporary folder (<temp>/<stem>-XXXXXX), removed with everything in it when this goes
// out of scope. `path` is empty when the folder could not be made.
struct TempDir {
    std::filesystem::path path;
    explicit TempDir(const std::string& stem);
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
};

} // namespace warpscope::base
