// Fonts and the ImGui style (render/fonts.cpp).
#pragma once
#include <imgui.h>

#include <filesystem>

namespace warpscope::gui {

// The app's fonts at the current UI scale (AppContext::fonts).
struct Fonts {
    ImFont* ui = nullptr;
    ImFont* mono = nullptr;
    ImFont* bold = nullptr;
    ImFont* heading = nullptr;
    ImFont* italic = nullptr;
    bool fromSystem = false;   // DejaVu found; otherwise ImGui's built-in font
};


// The folder holding fonts.json (assets/, beside the bundled lessons); set before buildFonts.
void setFontsFolder(const std::filesystem::path& assetsDir);
// A folder searched for the font files before fonts.json's folders (--fonts: a machine without the
// font package gets the same fonts from a carried folder). Call before the first buildFonts.
void addFontFolder(const std::filesystem::path& dir);
// (Re)builds the font atlas at `scale` into `fonts`; rebuild: the GL texture exists already.
void buildFonts(Fonts& fonts, float scale, bool rebuild);
void applyStyle(bool dark, float scale);

} // namespace warpscope::gui
