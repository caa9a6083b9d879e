#include "gui/model/settings.hpp"

#include "mem/memory.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <thread>

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

sim::LaunchOptions launchOptions(const Settings& s) {
    sim::LaunchOptions o;
    o.deviceMemoryBytes = s.limits.deviceMemoryBytes;
    o.maxBlocks = std::max<uint64_t>(s.limits.maxBlocks, 1);
    o.instructionBudget = std::max<uint64_t>(s.limits.instructionBudget, 1);
    o.threads = std::max(1u, std::thread::hardware_concurrency());   // To end spreads blocks over every core
    return o;
}

uint64_t effectiveDeviceMemory(const SandboxLimits& l) {
    return l.deviceMemoryBytes ? l.deviceMemoryBytes : mem::defaultDeviceMemoryLimit();
}

SandboxLimits raisedLimits(const SandboxLimits& l, LimitKind which) {
    SandboxLimits r = l;
    auto times = [](uint64_t v, uint64_t k) { return v > UINT64_MAX / k ? UINT64_MAX : v * k; };
    switch (which) {
    case LimitKind::DeviceMemory: r.deviceMemoryBytes = times(effectiveDeviceMemory(l), 4); break;
    case LimitKind::Blocks: r.maxBlocks = times(std::max<uint64_t>(l.maxBlocks, 1), 16); break;
    case LimitKind::InstructionBudget: r.instructionBudget = times(std::max<uint64_t>(l.instructionBudget, 1), 10); break;
    case LimitKind::None: break;
    }
    return r;
}

std::optional<nlohmann::json> readUserJson(const std::filesystem::path& file) {
    if (file.empty()) return std::nullopt;
    std::ifstream f(file);
    if (!f) return std::nullopt;
    try {
        return nlohmann::json::parse(f);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

Settings loadSettings(const std::filesystem::path& file) {
    Settings s;
    const std::optional<nlohmann::json> read = readUserJson(file);
    if (!read) return s;
    const nlohmann::json& j = *read;
    try {
        s.uiScale = std::clamp(j.value("ui_scale", s.uiScale), 0.5f, 3.0f);
        s.darkTheme = j.value("dark_theme", s.darkTheme);
        s.showPtx = j.value("show_ptx", s.showPtx);
        s.registerFormat = std::clamp(j.value("register_format", s.registerFormat), 0, 3);
        s.wrapSource = j.value("wrap_source", s.wrapSource);
        s.speed = j.value("speed", s.speed);
        s.followIssuing = j.value("follow_issuing", s.followIssuing);
        s.lastLesson = j.value("last_lesson", s.lastLesson);
        s.layout = j.value("layout", s.layout);
        if (j.contains("limits") && j["limits"].is_object()) {
            const auto& l = j["limits"];
            s.limits.deviceMemoryBytes = l.value("device_memory_bytes", s.limits.deviceMemoryBytes);
            s.limits.maxBlocks = std::max<uint64_t>(l.value("max_blocks", s.limits.maxBlocks), 1);
            s.limits.instructionBudget = std::max<uint64_t>(l.value("instruction_budget", s.limits.instructionBudget), 1);
        }
        if (j.contains("splits") && j["splits"].is_object())
            for (auto& [k, v] : j["splits"].items())
                if (v.is_object()) {
                    Settings::Split sp;
                    sp.x = std::clamp(v.value("x", 0.0f), 0.0f, 0.9f);
                    sp.y = std::clamp(v.value("y", 0.0f), 0.0f, 0.95f);
                    s.splits[k] = sp;
                }
        if (j.contains("recent_files") && j["recent_files"].is_array())
            for (auto& v : j["recent_files"])
                if (v.is_string() && s.recentFiles.size() < 10) s.recentFiles.push_back(v.get<std::string>());
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
    j["wrap_source"] = s.wrapSource;
    j["speed"] = s.speed;
    j["follow_issuing"] = s.followIssuing;
    j["last_lesson"] = s.lastLesson;
    j["layout"] = s.layout;
    j["panels"] = s.panelsOpen;
    j["recent_files"] = s.recentFiles;
    for (auto& [k, sp] : s.splits) j["splits"][k] = {{"x", sp.x}, {"y", sp.y}};
    j["limits"] = {{"device_memory_bytes", s.limits.deviceMemoryBytes},
                   {"max_blocks", s.limits.maxBlocks},
                   {"instruction_budget", s.limits.instructionBudget}};
    std::ofstream f(file);
    if (!f) return false;
    f << j.dump(2) << "\n";
    return bool(f);
}

} // namespace warpscope::gui
