// Controls: the toolbar (stepping buttons, run speed), keyboard shortcuts, the status bar and
// the shortcut help window.
#include "gui/panels/panels.hpp"

#include <GLFW/glfw3.h>

#include <cmath>

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
    {"Backspace", "step back one warp-instruction"},
    {"R", "restart the lesson"},
    {"Page Down / Page Up", "next / previous lesson step text"},
    {"Ctrl+= / Ctrl+-", "bigger / smaller UI"},
    {"F1", "this help"},
};

bool button(const char* label, const char* tip, bool enabled = true) {
    ImGui::BeginDisabled(!enabled);
    bool r = ImGui::Button(label);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", tip);
    return r;
}
} // namespace

void drawControlsPanel(AppContext& app) {
    const Snapshot& s = *app.snap;
    bool loaded = s.lesson != nullptr;
    bool inLaunch = s.state == RunState::Paused || s.state == RunState::LaunchDone;
    bool running = s.state == RunState::Running;
    Session& ses = app.session;
    // Narrow windows (or big UI scales) drop the key hints from the labels; tooltips keep them.
    const float em = ImGui::GetFontSize();
    const bool compact = ImGui::GetContentRegionAvail().x < em * 112;
    auto tb = [&](const char* full, const char* shortLabel, const char* key, const std::string& tip, bool enabled) {
        std::string label = compact ? std::string(shortLabel) : std::string(full);
        return button(label.c_str(), (compact ? tip + " (" + key + ")" : tip).c_str(), enabled);
    };
    bool timed = s.timed;
    if (tb("Restart (R)", "Restart", "R", "Run the lesson again from the beginning", loaded)) ses.restart();
    ImGui::SameLine();
    if (tb("\xE2\x97\x80 Back (Bksp)", "\xE2\x97\x80 Back", "Backspace",
           timed ? "Step back one cycle (replays the run up to the previous cycle)" : "Step back one warp-instruction (replays the run up to the previous step)",
           loaded && !running))
        ses.stepBack();
    ImGui::SameLine();
    if (timed ? tb("Step cycle (F10)", "Step cycle", "F10", "One cycle of the cycle model: every warp scheduler may issue one instruction", inLaunch || running)
              : tb("Step (F10)", "Step", "F10", "One warp-instruction: the next warp in the scheduler's round-robin order", inLaunch || running))
        ses.step();
    ImGui::SameLine();
    if (tb("Step warp (Shift+F10)", "Step warp", "Shift+F10",
           timed ? "Not in Timed mode: the cycle model decides which warp issues" : "One instruction of the selected warp", inLaunch && !timed))
        ses.stepWarp();
    ImGui::SameLine();
    if (tb("Step line (F11)", "Step line", "F11", "Run the selected warp until it reaches another source line (other warps run when it waits)", inLaunch))
        ses.stepLine();
    ImGui::SameLine();
    if (tb("To barrier (B)", "To barrier", "B", "Run until a barrier (__syncthreads) releases, or the launch ends", inLaunch)) ses.runToBarrier();
    ImGui::SameLine();
    if (tb("To end (E)", "To end", "E", "Run to the end of the current launch", inLaunch)) ses.runToEnd();
    ImGui::SameLine();
    if (running) {
        if (tb("\xE2\x9D\x9A\xE2\x9D\x9A Pause (F5)", "\xE2\x9D\x9A\xE2\x9D\x9A Pause", "F5", "Pause the run", true)) ses.pause();
    } else if (tb("\xE2\x96\xB6 Run (F5)", "\xE2\x96\xB6 Run", "F5", "Run at the chosen speed", inLaunch)) {
        ses.run();
    }
    ImGui::SameLine();
    // Speed: log scale from 1 to 10^7 warp-instructions per second, right end = unlimited.
    float sp = app.settings.speed <= 0 ? 7.5f : static_cast<float>(std::log10(std::max(1.0, app.settings.speed)));
    char label[48];
    if (app.settings.speed <= 0) std::snprintf(label, sizeof label, "max speed");
    else if (app.settings.speed >= 1000) std::snprintf(label, sizeof label, "%.0fk %s/s", app.settings.speed / 1000, timed ? "cycles" : "instr");
    else std::snprintf(label, sizeof label, "%.0f %s/s", app.settings.speed, timed ? "cycles" : "instr");
    ImGui::SetNextItemWidth(em * (compact ? 8.5f : 11.0f));
    if (ImGui::SliderFloat("##speed", &sp, 0.0f, 7.5f, label)) {
        app.settings.speed = sp >= 7.4f ? 0.0 : std::pow(10.0, static_cast<double>(sp));
        ses.setSpeed(app.settings.speed);
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(timed ? "Run speed in cycles per second (right end: as fast as possible)"
                                : "Run speed in warp-instructions per second (right end: as fast as possible)");
    ImGui::SameLine();
    if (ImGui::SmallButton("?")) app.ui.showShortcuts = true;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Keyboard shortcuts (F1)");
    ImGui::SameLine(0, ImGui::GetFontSize() * 1.5f);
    drawGpuToggle(app);
    ImGui::SameLine(0, ImGui::GetFontSize());
    drawTimingToggle(app);
    // Layouts, right-aligned.
    float w = 0;
    for (auto& l : layouts()) w += ImGui::CalcTextSize(l.title).x + ImGui::GetStyle().FramePadding.x * 2 + ImGui::GetStyle().ItemSpacing.x;
    ImGui::SameLine();
    // Tight: narrower padding between the buttons before falling back to a combo.
    float tightPad = 3, tightGap = 3;
    float wTight = 0;
    for (auto& l : layouts()) wTight += ImGui::CalcTextSize(l.title).x + tightPad * 2 + tightGap;
    float room = ImGui::GetWindowContentRegionMax().x - ImGui::GetCursorPosX();
    bool tight = room < w && room >= wTight;
    if (tight) w = wTight;
    if (room < w) {
        // Not enough room for a button per layout: one combo instead.
        const LayoutDef* cur = findLayout(app.ui.layout);
        float cw = ImGui::GetFontSize() * 8;
        ImGui::SetCursorPosX(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x - cw));
        ImGui::SetNextItemWidth(cw);
        if (ImGui::BeginCombo("##layout", cur ? cur->title : "Layout")) {
            for (auto& l : layouts()) {
                if (ImGui::Selectable(l.title, cur == &l)) app.ui.pendingLayout = l.id;
                if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", l.tip);
            }
            ImGui::EndCombo();
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Panel layout");
        return;
    }
    ImGui::SetCursorPosX(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x - w));
    if (tight) ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(tightPad, ImGui::GetStyle().FramePadding.y));
    for (auto& l : layouts()) {
        bool cur = app.ui.layout == l.id;
        if (cur) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
        if (ImGui::Button(l.title)) app.ui.pendingLayout = l.id;
        if (cur) ImGui::PopStyleColor();
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", l.tip);
        ImGui::SameLine(0, tight ? tightGap : -1.0f);
    }
    if (tight) ImGui::PopStyleVar();
    ImGui::NewLine();
}

void drawStatusBar(AppContext& app) {
    const Snapshot& s = *app.snap;
    Rgb stateCol = s.state == RunState::Faulted || s.state == RunState::Failed ? faultColor()
                 : s.state == RunState::Running                               ? okabe_ito::BluishGreen
                 : s.state == RunState::Finished                              ? okabe_ito::SkyBlue
                                                                              : Rgb{200, 200, 200};
    ImGui::TextColored(colv(stateCol), "%s", runStateName(s.state));
    ImGui::SameLine();
    ImGui::Text("| step %llu", static_cast<unsigned long long>(s.totalSteps));
    if (s.timing) {
        ImGui::SameLine();
        ImGui::Text("| cycle %llu (%s)", static_cast<unsigned long long>(s.timing->cycle), s.timing->spec.name.c_str());
    }
    if (s.launchIndex >= 0 && s.program) {
        ImGui::SameLine();
        int n = s.lesson ? s.lesson->launchCount : 0;
        ImGui::Text("| launch %d/%d %s: %llu in this launch", s.launchIndex + 1, n, s.program->kernelName.c_str(),
                    static_cast<unsigned long long>(s.stepInLaunch));
    }
    ImGui::SameLine();
    ImGui::TextUnformatted("|");
    ImGui::SameLine();
    if (s.error) ImGui::TextColored(colv(faultColor()), "%s", s.statusText.c_str());
    else ImGui::TextUnformatted(s.statusText.c_str());
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
    if (pressed(GLFW_KEY_F10) || (pressed(GLFW_KEY_SPACE) && !io.KeyCtrl)) {
        if (io.KeyShift) ses.stepWarp();
        else ses.step();
    }
    if (pressed(GLFW_KEY_F11)) ses.stepLine();
    if (pressed(GLFW_KEY_B, false) && !io.KeyCtrl) ses.runToBarrier();
    if (pressed(GLFW_KEY_E, false) && !io.KeyCtrl) ses.runToEnd();
    if (pressed(GLFW_KEY_F5, false)) {
        if (running) ses.pause();
        else ses.run();
    }
    if (pressed(GLFW_KEY_BACKSPACE)) ses.stepBack();
    if (pressed(GLFW_KEY_R, false) && !io.KeyCtrl) ses.restart();
    if (pressed(GLFW_KEY_PAGE_DOWN)) ++app.ui.stepSection;
    if (pressed(GLFW_KEY_PAGE_UP) && app.ui.stepSection > 0) --app.ui.stepSection;
    if (pressed(GLFW_KEY_F1, false)) app.ui.showShortcuts = !app.ui.showShortcuts;
    if (io.KeyCtrl && (pressed(GLFW_KEY_EQUAL, false) || pressed(GLFW_KEY_KP_ADD, false)))
        app.settings.uiScale = std::min(3.0f, app.settings.uiScale + 0.1f);
    if (io.KeyCtrl && (pressed(GLFW_KEY_MINUS, false) || pressed(GLFW_KEY_KP_SUBTRACT, false)))
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
