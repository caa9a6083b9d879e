#include "gui/model/settings.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>

namespace warpscope::gui {

namespace {
bool g_disabled = false;
}

bool persistenceDisabled() {
    if (g_disabled) return true;
    const char* e = std::getenv("WARPSCOPE_NO_SETTINGS");
    return e && *e && std::string(e) != "0";
}

void disablePersistence() { g_disabled = true; }

std::filesystem::path configDir() {
    if (persistenceDisabled()) return {};
    if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x && std::filesystem::path(x).is_absolute())
        return std::filesystem::path(x) / "warpscope";
    if (const char* h = std::getenv("HOME"); h && *h) return std::filesystem::path(h) / ".config" / "warpscope";
    return {};
}

Settings loadSettings(const std::filesystem::path& file) {
    Settings s;
    if (file.empty()) return s;
    std::ifstream f(file);
    if (!f) return s;
    try {
        nlohmann::json j = nlohmann::json::parse(f);
        s.uiScale = std::clamp(j.value("ui_scale", s.uiScale), 0.5f, 3.0f);
        s.darkTheme = j.value("dark_theme", s.darkTheme);
        s.showPtx = j.value("show_ptx", s.showPtx);
        s.registerFormat = std::clamp(j.value("register_format", s.registerFormat), 0, 2);
        s.speed = j.value("speed", s.speed);
        s.followIssuing = j.value("follow_issuing", s.followIssuing);
        s.lastLesson = j.value("last_lesson", s.lastLesson);
        s.layout = j.value("layout", s.layout);
        if (j.contains("panels") && j["panels"].is_object())
            for (auto& [k, v] : j["panels"].items())
                if (v.is_boolean()) s.panelsOpen[k] = v.get<bool>();
    } catch (const std::exception&) {
        // A damaged settings file falls back to defaults; it is rewritten on exit.
    }
    return s;
}

bool saveSettings(const Settings& s, const std::filesystem::path& file) {
    if (file.empty()) return false;
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
    nlohmann::json j;
    j["ui_scale"] = s.uiScale;
    j["dark_theme"] = s.darkTheme;
    j["show_ptx"] = s.showPtx;
    j["register_format"] = s.registerFormat;
    j["speed"] = s.speed;
    j["follow_issuing"] = s.followIssuing;
    j["last_lesson"] = s.lastLesson;
    j["layout"] = s.layout;
    j["panels"] = s.panelsOpen;
    std::ofstream f(file);
    if (!f) return false;
    f << j.dump(2) << "\n";
    return bool(f);
}

} // namespace warpscope::gui
