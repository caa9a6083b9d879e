// One frame of the app (panels/frame.cpp), called by main.cpp's frame loop.
#pragma once
#include "gui/panels/app.hpp"

#include <filesystem>
#include <string>

struct GLFWwindow;

namespace warpscope::gui {

struct FrameState {
    float builtScale = 0;
    bool builtDark = true;
    bool layoutAlways = false;
    std::string lessonSeen;     // the lesson of the last frame (to notice a new one)
    bool explicitLayout = false;   // --layout given: the first lesson keeps it
    bool autoStreams = false;   // the Streams layout was chosen because the lesson uses streams
};

// The data folder Help > About shows (main.cpp sets it at start-up).
void setDataFolder(const std::filesystem::path& dir);
const std::filesystem::path& dataFolder();

void drawFrame(AppContext& app, GLFWwindow* window, FrameState& fs);
// Opens the layout `id` (View > Layout, --layout).
void applyLayout(AppContext& app, const std::string& id);

} // namespace warpscope::gui
