// The file browser inside the Open and Save as dialogs (window-free: the tests list folders): a
// folder's entries, folders first, then the files a dialog can take, and the recent files.
// No native dialog, so nothing beyond GLFW is needed.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace warpscope::gui {

struct BrowserEntry {
    std::string name;       // ".." for the parent folder
    bool folder = false;
    uintmax_t size = 0;     // files: bytes
};

// The entries of `dir`: ".." first (when it has a parent), then its folders, then its files whose
// extension is one of `exts` (".cu"; empty: every file), each group sorted by name ignoring case.
// Hidden entries (a leading '.') are left out. A folder that cannot be read is an error message.
std::vector<BrowserEntry> listFolder(const std::filesystem::path& dir, const std::vector<std::string>& exts, std::string* error = nullptr);

// The folder a typed path browses: the path itself when it is a folder, else its parent folder
// (the current folder when it has none).
std::filesystem::path browseFolderOf(const std::string& typed);

// Puts `path` first in `recent` (absolute; once; at most kMaxRecent kept).
constexpr size_t kMaxRecent = 10;
void addRecent(std::vector<std::string>& recent, const std::filesystem::path& path);

} // namespace warpscope::gui
