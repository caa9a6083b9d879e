// Fonts and the ImGui style (render/fonts.cpp).
#pragma once
#include "gui/panels/app.hpp"

#include <filesystem>

namespace warpscope::gui {

// The folder holding fonts.json (assets/, beside the bundled lessons); set before buildFonts.
void setFontsFolder(const std::filesystem::path& assetsDir);
// A folder searched for the font files before fonts.json's folders (--fonts: a machine without the
// font package gets the same fonts from a carried folder). Call before the first buildFonts.
void addFontFolder(const std::filesystem::path& dir);
// (Re)builds the font atlas at `scale` into app's fonts; rebuild: the GL texture exists already.
void buildFonts(AppContext& app, float scale, bool rebuild);
void applyStyle(bool dark, float scale);

} // namespace warpscope::gui
