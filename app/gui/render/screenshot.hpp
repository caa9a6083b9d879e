// Writes the current back buffer as a PNG, plus a JSON sidecar (FILE.json) naming the panels
// drawn this frame and their rectangles, so tests can check what is on screen.
#pragma once
#include "gui/panels/app.hpp"

#include <string>

namespace warpscope::gui {

bool writeScreenshot(const std::string& path, int width, int height, const AppContext& app, uint64_t steps, std::string* error);

} // namespace warpscope::gui
