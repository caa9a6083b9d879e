// Writes the current back buffer (or the bound read framebuffer) as a PNG.
#pragma once
#include <string>

namespace warpscope::gui {

bool writeFramebufferPng(const std::string& path, int width, int height, std::string* error);

} // namespace warpscope::gui
