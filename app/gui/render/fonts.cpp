// Fonts and the ImGui style: which font files the app uses (assets/fonts.json), the font atlas
// at the current UI scale, and the dark or light theme.
#include "gui/render/fonts.hpp"

#include <backends/imgui_impl_opengl3.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace warpscope::gui {

namespace {

// The font choice lives in assets/fonts.json (folders and file names, first found wins), so a
// teacher can switch fonts without rebuilding; the built-in list below is used when that file is
// missing or malformed.
struct FontChoice {
    std::vector<std::string> folders = {"/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/usr/share/fonts/TTF",
                                        "/usr/local/share/fonts"};
    std::map<std::string, std::vector<std::string>> files = {{"sans", {"DejaVuSans.ttf"}},
                                                            {"mono", {"DejaVuSansMono.ttf"}},
                                                            {"bold", {"DejaVuSans-Bold.ttf"}},
                                                            {"italic", {"DejaVuSans-Oblique.ttf"}}};
};

fs::path g_assetsDir;   // setFontsFolder
fs::path g_firstFolder;   // addFontFolder

const FontChoice& fontChoice() {
    static const FontChoice choice = [] {
        FontChoice c;
        std::ifstream in(g_assetsDir / "fonts.json");
        if (!in) return c;
        try {
            nlohmann::json j = nlohmann::json::parse(in);
            FontChoice f;
            f.folders = j.at("folders").get<std::vector<std::string>>();
            for (auto& [role, list] : f.files) list = j.at(role).get<std::vector<std::string>>();
            return f;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "warpscope-gui: ignoring %s: %s\n", (g_assetsDir / "fonts.json").string().c_str(), e.what());
            return c;
        }
    }();
    return choice;
}

fs::path findFont(const char* role) {
    const FontChoice& c = fontChoice();
    auto it = c.files.find(role);
    if (it == c.files.end()) return {};
    std::vector<std::string> folders = c.folders;
    if (!g_firstFolder.empty()) folders.insert(folders.begin(), g_firstFolder.string());
    for (const auto& name : it->second)
        for (const auto& d : folders) {
            fs::path p = fs::path(d) / name;
            std::error_code ec;
            if (fs::exists(p, ec)) return p;
        }
    return {};
}

} // namespace

void setFontsFolder(const fs::path& assetsDir) { g_assetsDir = assetsDir; }

void addFontFolder(const fs::path& dir) { g_firstFolder = dir; }

void buildFonts(Fonts& fonts, float scale, bool rebuild) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    static ImVector<ImWchar> ranges;
    if (ranges.empty()) {
        ImFontGlyphRangesBuilder b;
        b.AddRanges(io.Fonts->GetGlyphRangesDefault());
        b.AddText("\xE2\x80\xA2\xE2\x96\xB6\xE2\x97\x80\xE2\x9D\x9A\xE2\x80\xA6\xE2\x80\x93\xE2\x80\x94\xC3\x97\xE2\x86\x92\xE2\x86\x90\xE2\x89\xA4\xE2\x89\xA5\xE2\x80\x99\xE2\x80\x9C\xE2\x80\x9D"
                  "\xE2\x89\xA1\xE2\x89\xA0\xE2\x89\x88\xE2\x88\x92\xE2\x9C\x93\xE2\x9C\x97");   // the lessons' "≡", "≠", "≈", "−", "✓", "✗"
        b.BuildRanges(&ranges);
    }
    fs::path sans = findFont("sans"), mono = findFont("mono"), bold = findFont("bold"), italic = findFont("italic");
    auto load = [&](const fs::path& p, float px) -> ImFont* {
        if (p.empty()) return nullptr;
        return io.Fonts->AddFontFromFileTTF(p.string().c_str(), px * scale, nullptr, ranges.Data);
    };
    fonts = Fonts{};
    fonts.ui = load(sans, 17);
    if (fonts.ui) {
        fonts.fromSystem = true;
        fonts.mono = load(mono, 16);
        fonts.bold = load(bold, 17);
        fonts.heading = load(bold, 21);
        fonts.italic = load(italic, 17);
    } else {
        ImFontConfig cfg;
        cfg.SizePixels = std::round(13 * scale);
        fonts.ui = io.Fonts->AddFontDefault(&cfg);
    }
    if (!fonts.mono) fonts.mono = fonts.ui;
    if (!fonts.bold) fonts.bold = fonts.ui;
    if (!fonts.heading) fonts.heading = fonts.bold;
    if (!fonts.italic) fonts.italic = fonts.ui;
    io.Fonts->Build();
    if (rebuild) {
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
    }
}

void applyStyle(bool dark, float scale) {
    ImGuiStyle& st = ImGui::GetStyle();
    st = ImGuiStyle();
    if (dark) ImGui::StyleColorsDark();
    else ImGui::StyleColorsLight();
    st.WindowRounding = 4;
    st.FrameRounding = 3;
    st.GrabRounding = 3;
    st.WindowPadding = ImVec2(8, 7);
    st.FramePadding = ImVec2(6, 4);
    st.ItemSpacing = ImVec2(8, 5);
    st.ScrollbarSize = 16;
    st.WindowMinSize = ImVec2(32, 12);   // the one-line status bar must not be taller than its row
    // A thin, half-transparent slider handle, so the value written across the slider stays readable.
    st.GrabMinSize = 6;
    st.Colors[ImGuiCol_SliderGrab].w = 0.55f;
    st.Colors[ImGuiCol_SliderGrabActive].w = 0.75f;
    if (!dark) {
        // Light theme: white frames (empty checkboxes, inputs) on a light-grey window need a border.
        st.FrameBorderSize = 1;
        st.Colors[ImGuiCol_Border] = ImVec4(0.45f, 0.45f, 0.50f, 0.60f);
        st.Colors[ImGuiCol_TextDisabled] = ImVec4(0.38f, 0.38f, 0.40f, 1.0f);
    }
    if (dark) {
        st.Colors[ImGuiCol_WindowBg] = ImVec4(0.10f, 0.10f, 0.12f, 1.0f);
        st.Colors[ImGuiCol_ChildBg] = ImVec4(0.08f, 0.08f, 0.09f, 1.0f);
        st.Colors[ImGuiCol_TitleBg] = ImVec4(0.16f, 0.16f, 0.20f, 1.0f);
        st.Colors[ImGuiCol_TitleBgActive] = ImVec4(0.18f, 0.26f, 0.40f, 1.0f);
    }
    st.ScaleAllSizes(scale);
}

} // namespace warpscope::gui
