// One frame of the app: the menu bar, layouts (chosen, or followed from the lesson), keyboard
// shortcuts, every open panel, and the dialogs.
#include "gui/panels/frame.hpp"
#include "gui/panels/panels.hpp"
#include "warpscope_version.hpp"

#include "gui/panels/keys.hpp"
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
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
    // Presenter stays Presenter: its slot shows the Timeline (the lesson's steps open it).
    if (app.ui.layout == "presenter") return;
    if (streams && app.ui.layout != "streams") {
        app.ui.pendingLayout = "streams";
        fs.autoStreams = true;
    } else if (!streams && fs.autoStreams && app.ui.layout == "streams") {
        app.ui.pendingLayout = "stepping";
        fs.autoStreams = false;
    }
}

// A fraction rectangle moved and shrunk into the unit square (x, y, w, h).
ImVec4 clampFraction(ImVec4 f) {
    f.z = std::clamp(f.z, 0.05f, 1.0f);
    f.w = std::clamp(f.w, 0.05f, 1.0f);
    f.x = std::clamp(f.x, 0.0f, 1.0f - f.z);
    f.y = std::clamp(f.y, 0.0f, 1.0f - f.w);
    return f;
}

bool isPresenter(const AppContext& app) { return app.ui.layout == "presenter"; }

// Presenter: the Lessons panel on the left, Source to its right as wide as the kernel's longest
// line needs (within limits), and below it the slot: the panels the step needs, side by side.
void presenterFractions(const AppContext& app, std::map<std::string, ImVec4>& out) {
    size_t longest = 40;
    if (app.snap && app.snap->lesson)
        for (auto& l : app.snap->lesson->sourceLines) longest = std::max(longest, l.size());
    float charW = app.fonts.mono ? app.fonts.mono->GetCharAdvance('0') : ImGui::GetFontSize() * 0.6f;
    float need = (static_cast<float>(longest) + 10) * charW + ImGui::GetStyle().WindowPadding.x * 4;   // markers, line numbers, padding
    // The lesson text keeps 36 %+ (long source lines wrap): a projector's class reads it from afar.
    float srcW = std::clamp(need / std::max(1.0f, app.workSize.x), 0.58f, 0.64f);
    Settings::Split split;
    if (auto it = app.settings.splits.find("presenter"); it != app.settings.splits.end()) split = it->second;
    if (split.x > 0) srcW = 1 - std::clamp(split.x, 0.15f, 0.8f);   // the user dragged the border
    float lx = 1 - srcW;
    out["lessons"] = ImVec4(0, 0, lx, 1);
    const auto& slot = app.ui.presenterPanels;
    // The step's panel (32 banks, a sector row and its picture, every timeline lane) gets about half
    // the height; Source keeps the lines the step names in view (it scrolls to them).
    bool shortArea = app.workSize.y < ImGui::GetTextLineHeightWithSpacing() * 24;
    bool timeline = std::find(slot.begin(), slot.end(), "timeline") != slot.end();   // a lane per stream and engine
    float srcH = slot.empty() ? 1.0f : timeline ? (shortArea ? 0.24f : 0.34f) : shortArea ? 0.40f : 0.52f;
    if (!slot.empty() && split.y > 0) srcH = std::clamp(split.y, 0.15f, 0.9f);
    out["source"] = ImVec4(lx, 0, srcW, srcH);
    float w = srcW / static_cast<float>(std::max<size_t>(1, slot.size()));
    for (size_t i = 0; i < slot.size(); ++i) out[slot[i]] = ImVec4(lx + w * static_cast<float>(i), srcH, w, 1 - srcH);
}

// The one panel of a layout that Presenter shows for it (a step's `layout X` action).
std::string presenterPanelFor(const std::string& layout) {
    static const std::map<std::string, std::string> key = {{"stepping", "warp"},  {"memory", "global"},   {"compare", "compare"},
                                                           {"checks", "reports"}, {"timing", "stalls"},   {"streams", "timeline"},
                                                           {"tensor", "fragments"}, {"async", "async"}};
    auto it = key.find(layout);
    return it != key.end() ? it->second : "warp";
}

// Where the current layout puts its panels, as fractions of the work area.
std::map<std::string, ImVec4> layoutFractions(const AppContext& app) {
    std::map<std::string, ImVec4> out;
    if (isPresenter(app)) {
        presenterFractions(app, out);
        return out;
    }
    const LayoutDef* layout = findLayout(app.ui.layout);
    if (!layout) return out;
    bool lessonsInLayout = false;
    for (auto& pl : layout->placements) lessonsInLayout = lessonsInLayout || std::strcmp(pl.id, "lessons") == 0;
    // A layout without the Lessons panel makes room for it on the left: the lesson text stays in
    // view whichever layout is chosen.
    const float lw = 0.23f;
    bool dock = !lessonsInLayout;
    for (auto& pl : layout->placements) {
        ImVec4 f = dock ? ImVec4(lw + pl.fx * (1 - lw), pl.fy, pl.fw * (1 - lw), pl.fh) : ImVec4(pl.fx, pl.fy, pl.fw, pl.fh);
        if (std::strcmp(pl.id, "slot") != 0) {
            out[pl.id] = f;
            continue;
        }
        // The slot: UiState::slotPanels side by side (a panel the layout places elsewhere stays there).
        std::vector<std::string> slot;
        for (auto& id : app.ui.slotPanels)
            if (std::none_of(layout->placements.begin(), layout->placements.end(), [&](const Placement& q) { return id == q.id; })) slot.push_back(id);
        float w = f.z / static_cast<float>(std::max<size_t>(1, slot.size()));
        for (size_t i = 0; i < slot.size(); ++i) out[slot[i]] = ImVec4(f.x + w * static_cast<float>(i), f.y, w, f.w);
    }
    if (dock) out["lessons"] = ImVec4(0, 0, lw, 1);
    // The learner's copy in the editor (Exercise: "Start from a copy of the starter"): the editor
    // takes Source's place above the slot, with the room to type; the kernel it runs is the same text.
    if (app.ui.layout == "exercise" && out.count("editor") && out.count("source")) {
        ImVec4 src = out["source"], ed = out["editor"];
        out.erase("source");
        out["editor"] = ImVec4(src.x, src.y, src.z, src.w + ed.w);
    }
    return out;
}

// Whether a panel is open; a panel never seen before starts open when the layout has it.
bool& panelOpen(AppContext& app, const char* id) {
    auto it = app.settings.panelsOpen.find(id);
    if (it != app.settings.panelsOpen.end()) return it->second;
    bool in = layoutFractions(app).count(id) > 0;
    return app.settings.panelsOpen.emplace(id, in).first->second;
}


// Presenter: panels opened since the last frame (a step's `open` actions, the View menu) become
// the slot's panels and replace the ones there.
void trackPresenterSlot(AppContext& app, FrameState& fs) {
    if (!isPresenter(app)) return;
    // Before the first frame (a step done from the command line) the layout's own panels are the baseline.
    std::set<std::string> before = fs.openLastFrame;
    if (fs.placedScale == 0)
        for (auto& [id, f] : layoutFractions(app)) before.insert(id);
    std::vector<std::string> opened;
    for (auto& [id, open] : app.settings.panelsOpen)
        if (open && id != "lessons" && id != "source" && !before.count(id)) opened.push_back(id);
    if (opened.empty()) return;
    presentPanels(app, opened);
}

// Text a panel cut off at its right edge, for the screenshot sidecar: the panel's window and its
// child windows whose content reaches past what they show (a table that scrolls sideways by design,
// 32 lanes, is left out), and table columns whose cells are wider than the column. Call it after
// the panel drew, inside its window.
void recordCutOff(AppContext& app, const char* id) {
    ImGuiContext& g = *GImGui;
    ImGuiWindow* panel = ImGui::GetCurrentWindow();
    const float tol = 1.5f;
    std::set<ImGuiWindow*> scrollTables;
    for (int n = 0; n < g.Tables.GetMapSize(); ++n) {
        ImGuiTable* t = g.Tables.TryGetMapData(n);
        if (!t || t->LastFrameActive != g.FrameCount || !t->OuterWindow || t->OuterWindow->RootWindow != panel) continue;
        if (t->Flags & ImGuiTableFlags_ScrollX) {
            scrollTables.insert(t->InnerWindow);
            continue;
        }
        if (t->IsInitializing) continue;   // a table's first frame: its columns are not sized yet
        for (int c = 0; c < t->ColumnsCount; ++c) {
            const ImGuiTableColumn& col = t->Columns[c];
            if (!col.IsEnabled || !col.IsVisibleX || col.AutoFitQueue) continue;   // still fitting to its content
            float content = std::max(col.ContentMaxXFrozen, col.ContentMaxXUnfrozen);
            if (content > col.ClipRect.Max.x + tol) {
                const char* name = ImGui::TableGetColumnName(t, c);
                app.fits.push_back({id, std::string("table column '") + (name ? name : "") + "'", content - col.WorkMinX,
                                    col.ClipRect.Max.x - col.WorkMinX});
            }
        }
    }
    for (ImGuiWindow* w : g.Windows) {
        if (w->RootWindow != panel || !w->Active || w->Hidden || scrollTables.count(w)) continue;
        if ((w->Flags & ImGuiWindowFlags_ChildWindow) && (w->Flags & ImGuiWindowFlags_NoScrollbar)) continue;   // an input field's text box
        float start = w->Pos.x + w->WindowPadding.x;
        float need = w->DC.CursorMaxPos.x + w->Scroll.x - start, have = w->InnerClipRect.Max.x - start;
        if (need > have + tol) app.fits.push_back({id, w == panel ? std::string("panel") : std::string("child ") + w->Name, need, have});
    }
}

} // namespace

void applyLayout(AppContext& app, const std::string& id) {
    const LayoutDef* l = findLayout(id);
    if (!l) return;
    // Presenter folds the lesson list so the step text has the room; leaving it unfolds the list.
    if (id == "presenter" && !isPresenter(app)) app.ui.lessonListOpen = 0;
    else if (id != "presenter" && isPresenter(app)) app.ui.lessonListOpen = 1;
    app.ui.layout = id;
    app.settings.layout = id;
    std::map<std::string, ImVec4> places = layoutFractions(app);
    for (auto& p : panels()) app.settings.panelsOpen[p.id] = places.count(p.id) > 0;
    if (app.ui.dockLessons) app.settings.panelsOpen["lessons"] = true;   // a lesson step chose it: keep the steps in view
    app.ui.resetLayout = true;
}

void presentPanels(AppContext& app, const std::vector<std::string>& ids) {
    std::vector<std::string> keep;
    for (auto& id : ids)
        for (auto& p : panels())
            if (id == p.id && id != "lessons" && id != "source") keep.push_back(id);
    if (keep == app.ui.presenterPanels) return;
    if (isPresenter(app))
        for (auto& id : app.ui.presenterPanels) app.settings.panelsOpen[id] = false;
    app.ui.presenterPanels = keep;
    if (isPresenter(app)) {
        for (auto& id : keep) app.settings.panelsOpen[id] = true;
        app.ui.resetLayout = true;
    }
}

namespace {

void drawMenu(AppContext& app, WindowHost& window) {
    if (!ImGui::BeginMainMenuBar()) return;
    if (ImGui::BeginMenu("File")) {
        drawEditorFileMenu(app);
        if (ImGui::MenuItem("Import Nsight Compute CSV...")) app.ui.showNcuDialog = true;
        if (app.ui.ncu && ImGui::MenuItem("Forget imported counters")) app.ui.ncu.reset();
        ImGui::Separator();
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) window.requestClose();
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Lesson")) {
        for (size_t i = 0; i < app.ui.lessons.size(); ++i)
            if (ImGui::MenuItem(app.ui.lessons[i].title.c_str(), nullptr, static_cast<int>(i) == app.ui.current)) app.switchLesson(static_cast<int>(i));
        ImGui::Separator();
        if (ImGui::MenuItem("Restart", "R")) app.session.restart();
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) window.requestClose();
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
        ImGui::MenuItem("Wrap source lines", nullptr, &app.settings.wrapSource);
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

void drawFrame(AppContext& app, WindowHost& window, FrameState& fs) {
    ImGuiIO& io = ImGui::GetIO();
    // While the session rebuilds or replays (step back on a large run, a parameter change) it
    // publishes an empty "loading" snapshot: keep drawing the last complete one until the new one
    // is ready, and say what is happening in the status bar.
    std::shared_ptr<const Snapshot> fresh = app.session.snapshot();
    bool stale = fresh->state == RunState::Loading && fs.lastReady && (!fresh->lesson || fresh->lesson == fs.lastReady->lesson);
    app.snap = stale ? fs.lastReady : fresh;
    app.ui.busyNote = stale ? fresh->statusText : std::string();
    if (fresh->state != RunState::Loading) fs.lastReady = fresh;
    app.drawn.clear();
    app.fits.clear();
    followLessonLayout(app, fs);
    if ((!app.ui.actionLayout.empty() || !app.ui.actionPanel.empty()) && isPresenter(app)) {
        // Presenter stays: a step's `open P` shows P in the slot beside Source, else its
        // `layout X` shows X's key panel there.
        presentPanels(app, {app.ui.actionPanel.empty() ? presenterPanelFor(app.ui.actionLayout) : app.ui.actionPanel});
        app.ui.actionLayout.clear();
        app.ui.actionPanel.clear();
    } else if (!app.ui.actionLayout.empty()) {
        app.ui.actionPanel.clear();
        app.ui.dockLessons = true;
        applyLayout(app, app.ui.actionLayout);
        app.ui.actionLayout.clear();
    } else if (!app.ui.pendingLayout.empty()) {
        app.ui.dockLessons = false;
        // Presenter is for a projector: at least scale 1.5 while it is on (an explicit --scale in
        // headless runs stands), the earlier scale back when another layout is chosen.
        bool toPresenter = app.ui.pendingLayout == "presenter";
        if (!app.ui.headless && toPresenter && !isPresenter(app) && app.settings.uiScale < 1.5f) {
            fs.presenterScaleBefore = app.settings.uiScale;
            app.ui.pendingScale = 1.5f;
        } else if (!toPresenter && isPresenter(app) && fs.presenterScaleBefore > 0) {
            app.ui.pendingScale = fs.presenterScaleBefore;
            fs.presenterScaleBefore = 0;
        }
        applyLayout(app, app.ui.pendingLayout);
        app.ui.pendingLayout.clear();
    }
    editorFrame(app);
    handleEditorShortcuts(app);
    handleShortcuts(app);
    if (io.KeyCtrl && ImGui::IsKeyPressed(key::Q, false)) window.requestClose();

    drawMenu(app, window);
    const ImGuiStyle& st = ImGui::GetStyle();
    float menuH = ImGui::GetFrameHeight();
    float W = io.DisplaySize.x, H = io.DisplaySize.y;
    // The toolbar wraps onto more rows when its items do not fit (its height is last frame's).
    float barH = std::max(ImGui::GetFrameHeight() + st.WindowPadding.y * 2, app.ui.toolbarHeight);
    float statusH = ImGui::GetTextLineHeight() + st.WindowPadding.y * 2;
    ImGuiWindowFlags fixedFlags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                                  ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse |
                                  ImGuiWindowFlags_NoBringToFrontOnFocus;
    auto record = [&](const char* id) {
        ImVec2 p = ImGui::GetWindowPos(), s = ImGui::GetWindowSize();
        float fx = io.DisplayFramebufferScale.x, fy = io.DisplayFramebufferScale.y;
        app.drawn.push_back({id, p.x * fx, p.y * fy, s.x * fx, s.y * fy, {}});
    };

    ImGui::SetNextWindowPos(ImVec2(0, menuH));
    ImGui::SetNextWindowSize(ImVec2(W, barH));
    if (ImGui::Begin("##toolbar", nullptr, fixedFlags)) {
        record("controls");
        app.toolbarItems.clear();
        drawControlsPanel(app);
    }
    ImGui::End();
    ImGui::SetNextWindowPos(ImVec2(0, H - statusH));
    ImGui::SetNextWindowSize(ImVec2(W, statusH));
    if (ImGui::Begin("##status", nullptr, fixedFlags)) {
        record("status");
        drawStatusBar(app);
        recordCutOff(app, "status");
    }
    ImGui::End();

    app.workPos = ImVec2(0, menuH + barH);
    app.workSize = ImVec2(W, std::max(100.0f, H - menuH - barH - statusH));
    trackPresenterSlot(app, fs);
    // Placement: a reset (or a headless run) puts every panel where the layout says; a new window
    // size or UI scale keeps each panel's proportions of the work area (clamped into it); otherwise
    // the user's arrangement (ImGui's ini) stands.
    bool reset = fs.layoutAlways || app.ui.resetLayout;
    bool resized = fs.placedScale > 0 && (fs.placedFor.x != app.workSize.x || fs.placedFor.y != app.workSize.y || fs.placedScale != app.settings.uiScale);
    std::map<std::string, ImVec4> target = layoutFractions(app);
    bool splitMoved = false;
    for (const PanelDef& p : panels()) {
        bool& open = panelOpen(app, p.id);
        if (!open) continue;
        ImVec4 f(p.fx, p.fy, p.fw, p.fh);
        if (auto it = target.find(p.id); it != target.end()) f = it->second;
        ImGuiCond cond = ImGuiCond_FirstUseEver;
        if (reset) cond = ImGuiCond_Always;
        else if (resized) {
            // Presenter's places depend on the size and scale (Source's width and height): computed anew.
            if (auto it = fs.fractions.find(p.id); it != fs.fractions.end() && !isPresenter(app)) f = clampFraction(it->second);
            cond = ImGuiCond_Always;
        }
        ImGui::SetNextWindowPos(ImVec2(app.workPos.x + f.x * app.workSize.x, app.workPos.y + f.y * app.workSize.y), cond);
        ImGui::SetNextWindowSize(ImVec2(f.z * app.workSize.x, f.w * app.workSize.y), cond);
        if (ImGui::Begin(p.title, &open, ImGuiWindowFlags_NoCollapse)) {
            record(p.id);
            ImGui::PushID(p.id);
            p.draw(app);
            ImGui::PopID();
            recordCutOff(app, p.id);
        }
        // Presenter: dragging a border between the lesson text, Source and the step's panel moves
        // the split (kept per layout in the settings); every panel follows next frame. Only a
        // resize counts (the size changed), not a window moved by its title bar.
        if (isPresenter(app) && cond != ImGuiCond_Always && std::strcmp(p.id, "controls") != 0) {
            ImVec2 wp = ImGui::GetWindowPos(), ws = ImGui::GetWindowSize();
            const float W = app.workSize.x, H = app.workSize.y;
            auto moved = [](float a, float b) { return std::fabs(a - b) > 2.0f; };
            bool resizedW = moved(ws.x, f.z * W), resizedH = moved(ws.y, f.w * H);
            if (resizedW || resizedH) {
                Settings::Split& sp = app.settings.splits["presenter"];
                Settings::Split was = sp;
                bool lessons = std::strcmp(p.id, "lessons") == 0, source = std::strcmp(p.id, "source") == 0;
                float left = wp.x - app.workPos.x, right = left + ws.x, top = wp.y - app.workPos.y, bottom = top + ws.y;
                if (lessons && resizedW) sp.x = right / W;
                if (!lessons && resizedW && moved(left, f.x * W)) sp.x = left / W;
                if (source && resizedH) sp.y = bottom / H;
                if (!lessons && !source && resizedH && moved(top, f.y * H)) sp.y = top / H;
                if (sp.x != was.x || sp.y != was.y) splitMoved = true;
            }
        }
        // The fractions to keep on the next resize: exact ones for a panel where they put it (no
        // rounding drift over many resizes), measured ones for a panel the user moved or resized.
        if (cond == ImGuiCond_Always) fs.fractions[p.id] = f;
        ImVec2 wp = ImGui::GetWindowPos(), ws = ImGui::GetWindowSize();
        ImVec4 was = fs.fractions.count(p.id) ? fs.fractions[p.id] : ImVec4(-1, -1, -1, -1);
        auto off = [](float a, float b) { return std::fabs(a - b) > 2.0f; };
        if (off(wp.x, app.workPos.x + was.x * app.workSize.x) || off(wp.y, app.workPos.y + was.y * app.workSize.y) ||
            off(ws.x, was.z * app.workSize.x) || off(ws.y, was.w * app.workSize.y))
            fs.fractions[p.id] = ImVec4((wp.x - app.workPos.x) / app.workSize.x, (wp.y - app.workPos.y) / app.workSize.y,
                                        ws.x / app.workSize.x, ws.y / app.workSize.y);
        ImGui::End();
    }
    fs.placedFor = app.workSize;
    fs.placedScale = app.settings.uiScale;
    fs.openLastFrame.clear();
    for (auto& [id, open] : app.settings.panelsOpen)
        if (open) fs.openLastFrame.insert(id);
    app.ui.resetLayout = splitMoved;   // the other panels follow a dragged split next frame
    drawNcuImportDialog(app);
    drawEditorDialogs(app);
    drawLeaveQuestion(app);
    drawShortcutsHelp(app);
    drawAbout(app);
}

} // namespace warpscope::gui
