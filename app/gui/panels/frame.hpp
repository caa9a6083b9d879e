// One frame of the app (panels/frame.cpp), called by main.cpp's frame loop.
#pragma once
#include "gui/panels/app.hpp"

#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace warpscope::gui {

// What a frame needs from the window it is drawn into: the desktop app's GLFW window or the frame
// bench's offscreen framebuffer (app_main.hpp's Platform). Panels see only ImGui's display size.
class WindowHost {
public:
    virtual ~WindowHost() = default;
    // File > Quit, Ctrl+Q.
    virtual void requestClose() = 0;
    // The size in pixels of what the frame is rendered into.
    virtual void framebufferSize(int& width, int& height) const = 0;
};

struct FrameState {
    float builtScale = 0;
    bool builtDark = true;
    bool layoutAlways = false;
    std::string lessonSeen;     // the lesson of the last frame (to notice a new one)
    bool explicitLayout = false;   // --layout given: the first lesson keeps it
    bool autoStreams = false;   // the Streams layout was chosen because the lesson uses streams
    // Re-layout on a window or scale change: the work area and scale the panels were placed for,
    // and each open panel's rectangle as fractions of that work area (x, y, w, h).
    ImVec2 placedFor{0, 0};
    float placedScale = 0;
    std::map<std::string, ImVec4> fractions;
    std::set<std::string> openLastFrame;   // Presenter: a panel opened since is the one the step needs
    float presenterScaleBefore = 0;
    std::shared_ptr<const Snapshot> lastReady;   // the last snapshot that was not "loading"        // the scale to go back to when leaving Presenter
};

// The data folder Help > About shows (main.cpp sets it at start-up).
void setDataFolder(const std::filesystem::path& dir);
const std::filesystem::path& dataFolder();

void drawFrame(AppContext& app, WindowHost& window, FrameState& fs);
// Opens the layout `id` (View > Layout, --layout).
void applyLayout(AppContext& app, const std::string& id);
// The Presenter layout's right-hand slot shows exactly these panels (stacked), e.g. the ones a lesson
// step needs. A step's `open PANEL` actions reach it without calling this: in Presenter, panels
// opened in one frame replace the slot's panels.
void presentPanels(AppContext& app, const std::vector<std::string>& ids);

} // namespace warpscope::gui
