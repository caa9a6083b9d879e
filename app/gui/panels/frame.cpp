// One frame of the app: the menu bar, layouts (chosen, or followed from the lesson), keyboard
// shortcuts, every open panel, and the dialogs.
#include "gui/panels/frame.hpp"
#include "gui/panels/panels.hpp"
#include "warpscope_version.hpp"

#include <GLFW/glfw3.h>

#include <cstring>

namespace warpscope::gui {

namespace {
// A lesson whose host program uses streams opens in the Streams layout (not in headless runs,
// whose layout the command line fixes); leaving it for one without streams goes back to Stepping.
void followLessonLayout(AppContext& app, FrameState& fs) {
    const Snapshot& s = *app.snap;
    if (!s.lesson || s.lesson->lesson.id == fs.lessonSeen) return;
    bool first = fs.lessonSeen.empty();
    fs.lessonSeen = s.lesson->lesson.id;
    if (app.ui.headless || (first && fs.explicitLayout)) return;
    bool streams = !s.lesson->lesson.streamCountExpr.empty();
    if (streams && app.ui.layout != "streams") {
        app.ui.pendingLayout = "streams";
        fs.autoStreams = true;
    } else if (!streams && fs.autoStreams && app.ui.layout == "streams") {
        app.ui.pendingLayout = "stepping";
        fs.autoStreams = false;
    }
}

// Whether a panel is open; a panel never seen before starts open when the layout has it.
bool& panelOpen(AppContext& app, const char* id) {
    auto it = app.settings.panelsOpen.find(id);
    if (it != app.settings.panelsOpen.end()) return it->second;
    bool in = false;
    if (const LayoutDef* l = findLayout(app.ui.layout))
        for (auto& pl : l->placements) in = in || std::strcmp(pl.id, id) == 0;
    return app.settings.panelsOpen.emplace(id, in).first->second;
}

} // namespace

void applyLayout(AppContext& app, const std::string& id) {
    const LayoutDef* l = findLayout(id);
    if (!l) return;
    app.ui.layout = id;
    app.settings.layout = id;
    for (auto& p : panels()) {
        bool in = false;
        for (auto& pl : l->placements) in = in || std::strcmp(pl.id, p.id) == 0;
        app.settings.panelsOpen[p.id] = in;
    }
    if (app.ui.dockLessons) app.settings.panelsOpen["lessons"] = true;   // a lesson step chose it: keep the steps in view
    app.ui.resetLayout = true;
}

namespace {

void drawMenu(AppContext& app, GLFWwindow* window) {
    if (!ImGui::BeginMainMenuBar()) return;
    if (ImGui::BeginMenu("File")) {
        if (ImGui::MenuItem("Import Nsight Compute CSV...")) app.ui.showNcuDialog = true;
        if (app.ui.ncu && ImGui::MenuItem("Forget imported counters")) app.ui.ncu.reset();
        ImGui::Separator();
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) glfwSetWindowShouldClose(window, 1);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Lesson")) {
        for (size_t i = 0; i < app.ui.lessons.size(); ++i)
            if (ImGui::MenuItem(app.ui.lessons[i].title.c_str(), nullptr, static_cast<int>(i) == app.ui.current)) app.loadLesson(static_cast<int>(i));
        ImGui::Separator();
        if (ImGui::MenuItem("Restart", "R")) app.session.restart();
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) glfwSetWindowShouldClose(window, 1);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
        if (ImGui::BeginMenu("Layout")) {
            for (auto& l : layouts())
                if (ImGui::MenuItem(l.title, nullptr, app.ui.layout == l.id)) app.ui.pendingLayout = l.id;
            ImGui::EndMenu();
        }
        ImGui::Separator();
        for (auto& p : panels()) {
            bool& open = panelOpen(app, p.id);
            ImGui::MenuItem(p.title, nullptr, &open);
        }
        ImGui::Separator();
        ImGui::MenuItem("Dark theme", nullptr, &app.settings.darkTheme);
        ImGui::MenuItem("PTX beside source", nullptr, &app.settings.showPtx);
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
        float sc = app.settings.uiScale;
        if (ImGui::SliderFloat("UI scale", &sc, 0.6f, 3.0f, "%.1f")) app.ui.pendingScale = sc;
        if (ImGui::MenuItem("Reset layout")) app.ui.resetLayout = true;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
        if (ImGui::MenuItem("Keyboard shortcuts", "F1")) app.ui.showShortcuts = true;
        ImGui::MenuItem("About warpscope", nullptr, &app.ui.showAbout);
        ImGui::EndMenu();
    }
    const Snapshot& s = *app.snap;
    if (s.lesson) {
        std::string t = s.lesson->lesson.title;
        float w = ImGui::CalcTextSize(t.c_str()).x;
        ImGui::SetCursorPosX(ImGui::GetWindowWidth() - w - ImGui::GetStyle().WindowPadding.x * 2);
        ImGui::TextDisabled("%s", t.c_str());
    }
    ImGui::EndMainMenuBar();
}

void drawAbout(AppContext& app) {
    if (!app.ui.showAbout) return;
    ImGui::SetNextWindowPos(ImVec2(app.workPos.x + app.workSize.x * 0.5f, app.workPos.y + app.workSize.y * 0.3f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (ImGui::Begin("About warpscope", &app.ui.showAbout, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings)) {
        ImGui::TextUnformatted("warpscope: a CUDA teaching simulator that executes the PTX nvcc emits, warp by warp.");
        ImGui::Text("Version %s (git %s)", kVersion, kGitCommit);
        ImGui::Text("Data: %s", dataFolder().empty() ? "not found" : dataFolder().string().c_str());
        ImGui::Text("Dear ImGui %s, %s font", ImGui::GetVersion(), app.fonts.fromSystem ? "DejaVu" : "built-in");
        ImGui::Text("Settings: %s", configDir().empty() ? "not saved (disabled)" : configDir().string().c_str());
    }
    ImGui::End();
}


} // namespace

namespace {
std::filesystem::path g_dataDir;   // setDataFolder
}
void setDataFolder(const std::filesystem::path& dir) { g_dataDir = dir; }
const std::filesystem::path& dataFolder() { return g_dataDir; }

void drawFrame(AppContext& app, GLFWwindow* window, FrameState& fs) {
    ImGuiIO& io = ImGui::GetIO();
    app.snap = app.session.snapshot();
    app.drawn.clear();
    followLessonLayout(app, fs);
    if (!app.ui.actionLayout.empty()) {
        app.ui.dockLessons = true;
        applyLayout(app, app.ui.actionLayout);
        app.ui.actionLayout.clear();
    } else if (!app.ui.pendingLayout.empty()) {
        app.ui.dockLessons = false;
        applyLayout(app, app.ui.pendingLayout);
        app.ui.pendingLayout.clear();
    }
    handleShortcuts(app);
    if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_Q, false)) glfwSetWindowShouldClose(window, 1);

    drawMenu(app, window);
    const ImGuiStyle& st = ImGui::GetStyle();
    float menuH = ImGui::GetFrameHeight();
    float W = io.DisplaySize.x, H = io.DisplaySize.y;
    float barH = ImGui::GetFrameHeight() + st.WindowPadding.y * 2;
    float statusH = ImGui::GetTextLineHeight() + st.WindowPadding.y * 2;
    ImGuiWindowFlags fixedFlags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                                  ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse |
                                  ImGuiWindowFlags_NoBringToFrontOnFocus;
    auto record = [&](const char* id) {
        ImVec2 p = ImGui::GetWindowPos(), s = ImGui::GetWindowSize();
        float fx = io.DisplayFramebufferScale.x, fy = io.DisplayFramebufferScale.y;
        app.drawn.push_back({id, p.x * fx, p.y * fy, s.x * fx, s.y * fy});
    };

    ImGui::SetNextWindowPos(ImVec2(0, menuH));
    ImGui::SetNextWindowSize(ImVec2(W, barH));
    if (ImGui::Begin("##toolbar", nullptr, fixedFlags)) {
        record("controls");
        drawControlsPanel(app);
    }
    ImGui::End();
    ImGui::SetNextWindowPos(ImVec2(0, H - statusH));
    ImGui::SetNextWindowSize(ImVec2(W, statusH));
    if (ImGui::Begin("##status", nullptr, fixedFlags)) {
        record("status");
        drawStatusBar(app);
    }
    ImGui::End();

    app.workPos = ImVec2(0, menuH + barH);
    app.workSize = ImVec2(W, std::max(100.0f, H - menuH - barH - statusH));
    ImGuiCond cond = (fs.layoutAlways || app.ui.resetLayout) ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
    const LayoutDef* layout = findLayout(app.ui.layout);
    for (const PanelDef& p : panels()) {
        bool& open = panelOpen(app, p.id);
        if (!open) continue;
        float fx = p.fx, fy = p.fy, fw = p.fw, fh = p.fh;
        bool inLayout = false;
        if (layout)
            for (auto& pl : layout->placements)
                if (std::strcmp(pl.id, p.id) == 0) fx = pl.fx, fy = pl.fy, fw = pl.fw, fh = pl.fh, inLayout = true;
        // A layout chosen by a lesson step that has no Lessons panel: its panels make room for it on the left.
        bool lessonsInLayout = false;
        if (layout)
            for (auto& pl : layout->placements) lessonsInLayout = lessonsInLayout || std::strcmp(pl.id, "lessons") == 0;
        if (app.ui.dockLessons && !lessonsInLayout && inLayout) {
            const float lw = 0.23f;
            fx = lw + fx * (1 - lw);
            fw *= 1 - lw;
        }
        ImGui::SetNextWindowPos(ImVec2(app.workPos.x + fx * app.workSize.x, app.workPos.y + fy * app.workSize.y), cond);
        ImGui::SetNextWindowSize(ImVec2(fw * app.workSize.x, fh * app.workSize.y), cond);
        if (ImGui::Begin(p.title, &open, ImGuiWindowFlags_NoCollapse)) {
            record(p.id);
            ImGui::PushID(p.id);
            p.draw(app);
            ImGui::PopID();
        }
        ImGui::End();
    }
    app.ui.resetLayout = false;
    drawNcuImportDialog(app);
    drawShortcutsHelp(app);
    drawAbout(app);
}

} // namespace warpscope::gui
