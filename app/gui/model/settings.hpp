// User settings that persist between runs, stored as JSON beside ImGui's layout file in
// $XDG_CONFIG_HOME/warpscope (or ~/.config/warpscope); never in the current directory.
// WARPSCOPE_NO_SETTINGS=1 (or --no-settings) turns persistence off, e.g. for tests.
#pragma once
#include "gui/model/session.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::gui {

struct Settings {
    float uiScale = 1.0f;
    bool darkTheme = true;
    bool showPtx = false;          // PTX beside source: off, so the source lines have the room (and only when the panel is wide)
    int registerFormat = 0;        // RegisterFormat (snapshot.hpp): 0 by type (integers in decimal), 1 decimal, 2 float, 3 hex
    bool wrapSource = true;        // Source panel: long lines wrap at the panel's width (else it scrolls sideways)
    double speed = 200;            // warp-instructions per second while running (0 = max)
    bool followIssuing = true;
    std::string lastLesson;
    std::string layout = "stepping";   // panel arrangement (View > Layout)
    std::map<std::string, bool> panelsOpen;
    // Splits the user dragged, per layout: the left column's width and the top row's height as
    // fractions of the work area (Presenter: the lesson text | Source over the step's panel).
    struct Split {
        float x = 0, y = 0;   // 0: the layout's own
    };
    std::map<std::string, Split> splits;
    std::vector<std::string> recentFiles;   // File > Open / Save as: most recent first
    SandboxLimits limits;          // the sandbox for students' code (View > Limits)
};

// The limits as LaunchOptions fields (what Session is constructed with).
sim::LaunchOptions launchOptions(const Settings& s);
// The limits with `which` raised for "raise the limit and re-run": device memory x4 (from the
// simulator's default when unset), blocks x16, instruction budget x10.
SandboxLimits raisedLimits(const SandboxLimits& l, LimitKind which);
// The device-memory limit in effect (the simulator's default when unset).
uint64_t effectiveDeviceMemory(const SandboxLimits& l);

// The folder settings live in; empty when persistence is disabled or no home is known.
std::filesystem::path configDir();
bool persistenceDisabled();
void disablePersistence();   // for --no-settings and headless modes

// A JSON file the app keeps for the user (settings, exercise progress): its parsed text, or
// nullopt when there is none or it is not valid JSON (the caller keeps its defaults; the next
// save rewrites it).
std::optional<nlohmann::json> readUserJson(const std::filesystem::path& file);
Settings loadSettings(const std::filesystem::path& file);
bool saveSettings(const Settings& s, const std::filesystem::path& file);

} // namespace warpscope::gui
