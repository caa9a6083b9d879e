// Controls: the toolbar (stepping buttons, run speed), keyboard shortcuts, the status bar and
// the shortcut help window.
#include "gui/panels/panels.hpp"
#include "gui/model/text_fit.hpp"

#include "gui/panels/keys.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

namespace warpscope::gui {

namespace {
struct Shortcut {
    const char* keys;
    const char* what;
};
constexpr Shortcut kShortcuts[] = {
    {"F10 or Space", "step one warp-instruction (next warp in the scheduler's order)"},
    {"Shift+F10", "step one instruction of the selected warp"},
    {"F11", "step the selected warp to its next source line"},
    {"B", "run until a barrier releases"},
    {"E", "run to the end of the current launch"},
    {"F5", "run / pause"},
    {"Esc", "cancel a long run (also a step back's replay and the host program)"},
    {"Backspace", "step back one warp-instruction"},
    {"R", "restart the lesson"},
    {"Page Down / Page Up", "next / previous lesson step (does it when \"Next does it\" is on)"},
    {"Ctrl+= / Ctrl+-", "bigger / smaller UI"},
    {"F1", "this help"},
};

bool button(const char* label, const char* tip, bool enabled = true) {
    ImGui::BeginDisabled(!enabled);
    bool r = ImGui::Button(label);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) tooltip("%s", tip);
    return r;
}

// Lays the toolbar's items left to right and starts a new row where the next item would not fit
// (the toolbar grows a row rather than hiding anything); records each item's rectangle for the
// screenshot sidecar and the rows' height for the next frame's work area.
class ToolbarFlow {
public:
    explicit ToolbarFlow(AppContext& app) : app_(app), right_(ImGui::GetWindowContentRegionMax().x) {}
    ~ToolbarFlow() {
        const ImGuiStyle& st = ImGui::GetStyle();
        app_.ui.toolbarHeight = bottom_ - ImGui::GetWindowPos().y + st.WindowPadding.y;
    }
    // Draws one item (a widget or a group of them) of width about `estimate` (its measured width
    // once drawn), `gap` after the previous one; `alignRight`: at the row's right end when it fits.
    template <class Fn>
    void item(const char* id, float estimate, Fn&& draw, float gap = -1, float alignRight = 0) {
        auto it = widths_.find(id);
        float w = std::max(it != widths_.end() ? it->second : estimate, alignRight);   // a right-aligned run needs all its room
        if (!first_) {
            ImGui::SameLine(0, gap);
            if (ImGui::GetCursorPosX() + w > right_) ImGui::NewLine();
        }
        first_ = false;
        if (alignRight > 0 && ImGui::GetCursorPosX() + alignRight <= right_) ImGui::SetCursorPosX(right_ - alignRight);
        ImGui::PushID(id);
        ImGui::BeginGroup();
        draw();
        ImGui::EndGroup();
        ImGui::PopID();
        ImVec2 mn = ImGui::GetItemRectMin(), mx = ImGui::GetItemRectMax();
        widths_[id] = mx.x - mn.x;
        bottom_ = std::max(bottom_, mx.y);
        ImVec2 fb = ImGui::GetIO().DisplayFramebufferScale;
        app_.toolbarItems.push_back({id, mn.x * fb.x, mn.y * fb.y, (mx.x - mn.x) * fb.x, (mx.y - mn.y) * fb.y, {}});
    }
    float right() const { return right_; }

private:
    AppContext& app_;
    float right_;
    float bottom_ = 0;
    bool first_ = true;
    static inline std::map<std::string, float> widths_;   // last drawn width of each item (UI scale changes re-measure)
};

float buttonWidth(const char* label) { return ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2; }
} // namespace

void drawControlsPanel(AppContext& app) {
    const Snapshot& s = *app.snap;
    bool loaded = s.lesson != nullptr;
    bool inLaunch = s.state == RunState::Paused || s.state == RunState::LaunchDone;
    bool running = s.state == RunState::Running;
    Session& ses = app.session;
    // Narrow windows (or big UI scales) drop the key hints from the labels; tooltips keep them.
    // Narrower still (a projector at 1280 px and scale 2) the labels shrink to a word or a symbol
    // and the layouts become one drop-down of fixed width, so the toolbar keeps to two rows.
    const float em = ImGui::GetFontSize();
    const float availW = ImGui::GetContentRegionAvail().x;
    const bool compact = availW < em * 112;
    const bool tight = availW < em * 75;
    ToolbarFlow flow(app);
    auto tb = [&](const char* id, const char* full, const char* shortLabel, const char* tightLabel, const char* key, const std::string& tip,
                  bool enabled) {
        std::string label = tight ? std::string(tightLabel) : compact ? std::string(shortLabel) : std::string(full);
        bool clicked = false;
        flow.item(id, buttonWidth(label.c_str()), [&] {
            std::string full = tight ? std::string(shortLabel) + ": " + tip : tip;
            clicked = button((label + "###" + id).c_str(), (compact ? full + " (" + key + ")" : full).c_str(), enabled);
        });
        return clicked;
    };
    bool timed = s.timed;
    if (tb("restart", "Restart (R)", "Restart", "Restart", "R", "Run the lesson again from the beginning", loaded)) ses.restart();
    if (tb("back", "\xE2\x97\x80 Back (Bksp)", "\xE2\x97\x80 Back", "\xE2\x97\x80", "Backspace",
           timed ? "Step back one cycle (replays the run up to the previous cycle)" : "Step back one warp-instruction (replays the run up to the previous step)",
           loaded && !running))
        ses.stepBack();
    if (timed ? tb("step", "Step cycle (F10)", "Step cycle", "Cycle", "F10", "One cycle of the cycle model: every warp scheduler may issue one instruction", inLaunch || running)
              : tb("step", "Step (F10)", "Step", "Step", "F10", "One warp-instruction: the next warp in the scheduler's round-robin order", inLaunch || running))
        ses.step();
    if (tb("step-warp", "Step warp (Shift+F10)", "Step warp", "Warp", "Shift+F10",
           timed ? "Not in Timed mode: the cycle model decides which warp issues" : "One instruction of the selected warp", inLaunch && !timed))
        ses.stepWarp();
    if (tb("step-line", "Step line (F11)", "Step line", "Line", "F11", "Run the selected warp until it reaches another source line (other warps run when it waits)", inLaunch))
        ses.stepLine();
    if (tb("to-barrier", "To barrier (B)", "To barrier", "Barrier", "B", "Run until a barrier (__syncthreads) releases, or the launch ends", inLaunch)) ses.runToBarrier();
    if (tb("to-end", "To end (E)", "To end", "End", "E", "Run to the end of the current launch", inLaunch)) ses.runToEnd();
    // Run and Pause share one place of the width of the wider label, so the row does not reflow while running.
    {
        const char* pauseL = tight ? "\xE2\x9D\x9A\xE2\x9D\x9A" : compact ? "\xE2\x9D\x9A\xE2\x9D\x9A Pause" : "\xE2\x9D\x9A\xE2\x9D\x9A Pause (F5)";
        const char* runL = tight ? "\xE2\x96\xB6 Run" : compact ? "\xE2\x96\xB6 Run" : "\xE2\x96\xB6 Run (F5)";
        const char* label = running ? pauseL : runL;
        float w = std::max(buttonWidth(pauseL), buttonWidth(runL));
        flow.item("run", w, [&] {
            ImGui::BeginDisabled(!running && !inLaunch);
            bool clicked = ImGui::Button((std::string(label) + "###run").c_str(), ImVec2(w, 0));
            ImGui::EndDisabled();
            if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
                tooltip("%s", running ? "Pause the run (F5)" : "Run at the chosen speed (F5)");
            if (clicked) {
                if (running) ses.pause();
                else ses.run();
            }
        });
    }
    // Cancel ends the run (the engine stops within a few thousand instructions); for a run that
    // "To end" or a step back's replay keeps busy, where Pause does not apply.
    bool cancellable = running || s.state == RunState::Loading || ses.busy();
    if (tb("cancel", "Cancel (Esc)", "Cancel", "\xC3\x97", "Esc", "Stop this run: the lesson ends here, as cancelled (restart or step back afterwards)",
           loaded && cancellable))
        ses.cancel();
    // Speed: log scale from 1 to 10^7 warp-instructions per second, right end = unlimited.
    float speedW = em * (tight ? 7.0f : compact ? 8.5f : 11.0f);
    flow.item("speed", speedW, [&] {
        float sp = app.settings.speed <= 0 ? 7.5f : static_cast<float>(std::log10(std::max(1.0, app.settings.speed)));
        char label[48];
        if (app.settings.speed <= 0) std::snprintf(label, sizeof label, "max speed");
        else if (app.settings.speed >= 1000) std::snprintf(label, sizeof label, "%.0fk %s/s", app.settings.speed / 1000, timed ? "cycles" : "instr");
        else std::snprintf(label, sizeof label, "%.0f %s/s", app.settings.speed, timed ? "cycles" : "instr");
        ImGui::SetNextItemWidth(speedW);
        if (ImGui::SliderFloat("##speed", &sp, 0.0f, 7.5f, label)) {
            app.settings.speed = sp >= 7.4f ? 0.0 : std::pow(10.0, static_cast<double>(sp));
            ses.setSpeed(app.settings.speed);
        }
        if (ImGui::IsItemHovered())
            tooltip(timed ? "Run speed in cycles per second (right end: as fast as possible)"
                                    : "Run speed in warp-instructions per second (right end: as fast as possible)");
    });
    flow.item("help", buttonWidth("?"), [&] {
        if (ImGui::SmallButton("?")) app.ui.showShortcuts = true;
        if (ImGui::IsItemHovered()) tooltip("Keyboard shortcuts (F1)");
    });
    const ImGuiStyle& st = ImGui::GetStyle();
    // The layouts as one drop-down of fixed width (it never changes while running); each layout is
    // still named in the sidecar's toolbar list, at the drop-down's rectangle ("in": "layout").
    auto layoutCombo = [&] {
        float cw = em * 9;
        const LayoutDef* cur = findLayout(app.ui.layout);
        flow.item("layout", cw, [&] {
            ImGui::SetNextItemWidth(cw);
            if (ImGui::BeginCombo("##layout", cur ? cur->title : "Layout")) {
                for (auto& l : layouts()) {
                    if (ImGui::Selectable(l.title, app.ui.layout == l.id)) app.ui.pendingLayout = l.id;
                    if (ImGui::IsItemHovered()) tooltip("%s", l.tip);
                }
                ImGui::EndCombo();
            }
            if (ImGui::IsItemHovered()) tooltip("Layout");
        }, em, cw);
        PanelRect combo = app.toolbarItems.back();
        for (auto& l : layouts()) {
            PanelRect r = combo;
            r.id = std::string("layout-") + l.id;
            r.in = "layout";
            app.toolbarItems.push_back(r);
        }
    };
    if (app.ui.layout == "presenter") {
        // Presenter keeps the toolbar to the stepping controls (fewer rows at a projector's scale):
        // Run on GPU and Timed are in the Compare and Occupancy panels.
        layoutCombo();
        return;
    }
    flow.item("gpu", em * 8, [&] { drawGpuToggle(app, tight ? "GPU" : "Run on GPU"); }, em * (tight ? 0.5f : 1.5f));
    flow.item("timed", em * 16, [&] { drawTimingToggle(app); }, tight ? -1.0f : em);
    if (tight) {
        layoutCombo();
        return;
    }
    // Layouts: one button each, at the right end of the row when they all fit there; otherwise
    // they continue on the next row(s).
    float all = 0;
    for (auto& l : layouts()) all += buttonWidth(l.title) + st.ItemSpacing.x;
    all -= st.ItemSpacing.x;
    bool firstLayout = true;
    for (auto& l : layouts()) {
        std::string id = std::string("layout-") + l.id;
        flow.item(id.c_str(), buttonWidth(l.title), [&] {
            bool cur = app.ui.layout == l.id;
            if (cur) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
            if (ImGui::Button(l.title)) app.ui.pendingLayout = l.id;
            if (cur) ImGui::PopStyleColor();
            if (ImGui::IsItemHovered()) tooltip("%s", l.tip);
        }, firstLayout ? em : -1.0f, firstLayout ? all : 0.0f);
        firstLayout = false;
    }
}

void drawStatusBar(AppContext& app) {
    const Snapshot& s = *app.snap;
    Rgb stateCol = s.state == RunState::Faulted || s.state == RunState::Failed ? faultColor()
                 : s.state == RunState::Running                               ? okabe_ito::BluishGreen
                 : s.state == RunState::Finished                              ? okabe_ito::SkyBlue
                                                                              : Rgb{200, 200, 200};
    // The light theme needs dark text: coloured states are darkened there, the plain ones use the text colour.
    bool plain = stateCol.r == 200 && stateCol.g == 200 && stateCol.b == 200;
    ImVec4 stateV = colv(stateCol);
    if (!app.settings.darkTheme)
        stateV = plain ? ImGui::GetStyleColorVec4(ImGuiCol_Text) : ImVec4(stateV.x * 0.55f, stateV.y * 0.55f, stateV.z * 0.55f, 1);
    if (!app.ui.busyNote.empty()) {
        // The panels show the last complete state while the session replays or rebuilds.
        ImGui::TextColored(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), "%s (showing the last state)", app.ui.busyNote.c_str());
        ImGui::SameLine();
        ImGui::TextUnformatted("|");
        ImGui::SameLine();
    }
    bool cancelled = s.error && s.error->kind == Error::Kind::Cancelled;
    // The parts after the state, each "| ..."; when the bar is too narrow the launch part loses its
    // step count and the message is cut with "…" (its tooltip has it whole).
    std::string stepPart = "| step " + std::to_string(s.totalSteps), timingPart, launchLong, launchShort;
    if (s.timing) {
        // When the launch is complete its total (the figure Stall reasons shows) can differ from the
        // cycle last stepped: say both, so the two panels do not seem to disagree.
        const auto& L = s.timing->launch;
        uint64_t total = L && L->complete ? L->result.cycles : 0;
        timingPart = "| cycle " + std::to_string(s.timing->cycle) +
                     (total && total != s.timing->cycle ? ", launch total " + std::to_string(total) : std::string()) + " (" + s.timing->spec.name + ")";
    }
    if (s.launchIndex >= 0 && s.program) {
        int n = s.lesson ? s.lesson->launchCount : 0;
        // "launch 2/3"; a host program whose launch count is not known up front (a loop) shows "launch 2".
        std::string of = n > s.launchIndex ? "/" + std::to_string(n) : "";
        launchShort = "| launch " + std::to_string(s.launchIndex + 1) + of + " " + s.program->kernelName;
        launchLong = launchShort + ": " + std::to_string(s.stepInLaunch) + " in this launch";
    }
    const char* stateText = cancelled ? "cancelled" : runStateName(s.state);
    float sp = ImGui::GetStyle().ItemSpacing.x;
    auto w = [&](const std::string& t) { return t.empty() ? 0.0f : ImGui::CalcTextSize(t.c_str()).x + sp; };
    float used = ImGui::GetCursorPosX() + w(stateText) + w(stepPart) + w(timingPart) + w("|");
    float right = ImGui::GetWindowContentRegionMax().x;
    std::string launchPart = used + w(launchLong) + w(s.statusText) <= right ? launchLong : launchShort;
    ImGui::TextColored(stateV, "%s", stateText);
    for (const std::string* part : {&stepPart, &timingPart, &launchPart}) {
        if (part->empty()) continue;
        ImGui::SameLine();
        ImGui::TextUnformatted(part->c_str());
    }
    ImGui::SameLine();
    ImGui::TextUnformatted("|");
    ImGui::SameLine();
    std::string msg = ellipsize(s.statusText, right - ImGui::GetCursorPosX(), [](const std::string& t) { return ImGui::CalcTextSize(t.c_str()).x; });
    if (s.error) ImGui::TextColored(colv(faultColor()), "%s", msg.c_str());
    else ImGui::TextUnformatted(msg.c_str());
    if (ImGui::IsItemHovered() && !s.statusText.empty()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40);
        ImGui::TextUnformatted(s.statusText.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

void handleShortcuts(AppContext& app) {
    ImGuiIO& io = ImGui::GetIO();
    if (io.WantTextInput) return;
    Session& ses = app.session;
    auto pressed = [](int key, bool repeat = true) { return ImGui::IsKeyPressed(key, repeat); };
    bool running = app.snap->state == RunState::Running;
    if (pressed(key::F10) || (pressed(key::Space) && !io.KeyCtrl)) {
        if (io.KeyShift) ses.stepWarp();
        else ses.step();
    }
    if (pressed(key::F11)) ses.stepLine();
    if (pressed(key::B, false) && !io.KeyCtrl) ses.runToBarrier();
    if (pressed(key::E, false) && !io.KeyCtrl) ses.runToEnd();
    if (pressed(key::F5, false)) {
        if (running) ses.pause();
        else ses.run();
    }
    if (pressed(key::Backspace)) ses.stepBack();
    if (pressed(key::R, false) && !io.KeyCtrl) ses.restart();
    if (pressed(key::Escape, false)) {
        RunState st = app.snap->state;
        if (st == RunState::Running || st == RunState::Loading || ses.busy()) ses.cancel();
    }
    // The Lessons panel turns the page (and does the step when "Next does it" is on); a page
    // turn it did not take last frame (the panel is closed) just moves the text.
    if (app.ui.pageTurn != 0) {
        app.ui.stepSection = std::max(0, app.ui.stepSection + app.ui.pageTurn);
        app.ui.pageTurn = 0;
    }
    if (pressed(key::PageDown)) ++app.ui.pageTurn;
    if (pressed(key::PageUp)) --app.ui.pageTurn;
    if (pressed(key::F1, false)) app.ui.showShortcuts = !app.ui.showShortcuts;
    if (io.KeyCtrl && (pressed(key::Equal, false) || pressed(key::KpAdd, false)))
        app.settings.uiScale = std::min(3.0f, app.settings.uiScale + 0.1f);
    if (io.KeyCtrl && (pressed(key::Minus, false) || pressed(key::KpSubtract, false)))
        app.settings.uiScale = std::max(0.6f, app.settings.uiScale - 0.1f);
}

void drawShortcutsHelp(AppContext& app) {
    if (!app.ui.showShortcuts) return;
    ImGui::SetNextWindowPos(ImVec2(app.workPos.x + app.workSize.x * 0.5f, app.workPos.y + app.workSize.y * 0.3f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (ImGui::Begin("Keyboard shortcuts", &app.ui.showShortcuts, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings)) {
        if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
            for (auto& k : kShortcuts) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::PushFont(app.fonts.bold);
                ImGui::TextUnformatted(k.keys);
                ImGui::PopFont();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(k.what);
            }
            ImGui::EndTable();
        }
        ImGui::Separator();
        ImGui::TextUnformatted("Lane colours:");
        drawLegend(false);
    }
    ImGui::End();
}

} // namespace warpscope::gui
