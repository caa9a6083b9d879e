// The Open / Save as dialogs' file browser (file_browser.hpp).
#include "gui/model/file_browser.hpp"

#include <algorithm>
#include <cctype>

namespace warpscope::gui {

namespace fs = std::filesystem;

namespace {
std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}
} // namespace

std::vector<BrowserEntry> listFolder(const fs::path& dir, const std::vector<std::string>& exts, std::string* error) {
    std::vector<BrowserEntry> folders, files;
    std::error_code ec;
    fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
    if (ec) {
        if (error) *error = "Cannot read the folder '" + dir.string() + "': " + ec.message() + ".";
        return {};
    }
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        if (ec) break;
        std::string name = it->path().filename().string();
        if (name.empty() || name[0] == '.') continue;
        std::error_code e2;
        if (it->is_directory(e2)) {
            folders.push_back({name, true, 0});
            continue;
        }
        std::string ext = lower(it->path().extension().string());
        if (!exts.empty() && std::find(exts.begin(), exts.end(), ext) == exts.end()) continue;
        files.push_back({name, false, it->is_regular_file(e2) ? it->file_size(e2) : 0});
    }
    auto byName = [](const BrowserEntry& a, const BrowserEntry& b) {
        std::string la = lower(a.name), lb = lower(b.name);
        return la != lb ? la < lb : a.name < b.name;
    };
    std::sort(folders.begin(), folders.end(), byName);
    std::sort(files.begin(), files.end(), byName);
    std::vector<BrowserEntry> out;
    fs::path abs = fs::absolute(dir, ec);
    if (abs.has_parent_path() && abs.parent_path() != abs && abs != abs.root_path()) out.push_back({"..", true, 0});
    out.insert(out.end(), folders.begin(), folders.end());
    out.insert(out.end(), files.begin(), files.end());
    return out;
}

fs::path browseFolderOf(const std::string& typed) {
    std::error_code ec;
    fs::path p = typed.empty() ? fs::current_path(ec) : fs::path(typed);
    if (fs::is_directory(p, ec)) return p;
    fs::path parent = p.parent_path();
    if (parent.empty()) return fs::current_path(ec);
    return parent;
}

void addRecent(std::vector<std::string>& recent, const fs::path& path) {
    std::error_code ec;
    std::string abs = fs::absolute(path, ec).lexically_normal().string();
    recent.erase(std::remove(recent.begin(), recent.end(), abs), recent.end());
    recent.insert(recent.begin(), abs);
    if (recent.size() > kMaxRecent) recent.resize(kMaxRecent);
}

} // namespace warpscope::gui
