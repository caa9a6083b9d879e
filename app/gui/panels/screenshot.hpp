// A screenshot for tests and the gallery: the frame as a PNG (render/screenshot.hpp) plus a JSON
// sidecar (FILE.json) naming the panels drawn this frame, their rectangles, the toolbar's items,
// content cut off, the layout and the exercise state, so tests can check what is on screen.
#pragma once
#include "gui/panels/app.hpp"

#include <string>

namespace warpscope::gui {

// The sidecar's JSON text alone (the web page prints it for its tests: app/gui/web).
std::string screenshotSidecar(int width, int height, const AppContext& app, uint64_t steps);
bool writeScreenshot(const std::string& path, int width, int height, const AppContext& app, uint64_t steps, std::string* error);

} // namespace warpscope::gui
