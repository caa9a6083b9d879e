// The one list of panels, and the layouts that arrange them. The toolbar and the status bar are
// fixed; the others are ordinary windows the user can move, resize and close (View menu),
// remembered in the ImGui ini.
#include "gui/panels/panels.hpp"

namespace warpscope::gui {

const std::vector<PanelDef>& panels() {
    static const std::vector<PanelDef> list = {
        {"lessons", "Lessons", drawLessonsPanel, 0.00f, 0.00f, 0.23f, 1.00f, false},
        {"source", "Source", drawSourcePanel, 0.23f, 0.00f, 0.42f, 0.64f, false},
        {"divergence", "Divergence summary", drawDivergencePanel, 0.23f, 0.64f, 0.42f, 0.36f, false},
        {"grid", "Grid & warps", drawGridPanel, 0.65f, 0.00f, 0.35f, 0.48f, false},
        {"warp", "Warp detail", drawWarpPanel, 0.65f, 0.48f, 0.35f, 0.52f, false},
        {"global", "Global access", drawGlobalAccessPanel, 0.00f, 0.55f, 0.55f, 0.45f, false},
        {"shared", "Shared banks", drawSharedBanksPanel, 0.28f, 0.00f, 0.42f, 0.55f, false},
        {"heatmap", "Memory heat map", drawHeatmapPanel, 0.70f, 0.00f, 0.30f, 0.55f, false},
        {"metrics", "Metrics", drawMetricsPanel, 0.55f, 0.55f, 0.45f, 0.45f, false},
        {"compare", "Compare: simulator vs GPU", drawComparePanel, 0.00f, 0.00f, 0.62f, 1.00f, false},
        {"reports", "Checker reports", drawReportsPanel, 0.45f, 0.00f, 0.55f, 0.60f, false},
        {"occupancy", "Occupancy", drawOccupancyPanel, 0.40f, 0.00f, 0.30f, 0.58f, false},
        {"scheduler", "Warp schedulers", drawSchedulerPanel, 0.40f, 0.58f, 0.60f, 0.42f, false},
        {"stalls", "Stall reasons", drawStallsPanel, 0.70f, 0.00f, 0.30f, 0.58f, false},
        {"timeline", "Timeline", drawTimelinePanel, 0.20f, 0.00f, 0.80f, 0.60f, false},
        {"editor", "Editor", drawEditorPanel, 0.00f, 0.00f, 0.40f, 0.62f, false},
        {"launch", "Launch", drawLaunchPanel, 0.00f, 0.62f, 0.40f, 0.38f, false},
        {"exercise", "Exercise", drawExercisePanel, 0.55f, 0.00f, 0.45f, 1.00f, false},
        {"limits", "Limits", drawLimitsPanel, 0.30f, 0.10f, 0.40f, 0.45f, false},
        {"console", "Console", drawConsolePanel, 0.00f, 0.62f, 0.40f, 0.38f, false},
        {"fragments", "Fragments", drawFragmentsPanel, 0.35f, 0.00f, 0.65f, 0.70f, false},
        {"async", "Async copies", drawAsyncPanel, 0.35f, 0.00f, 0.65f, 0.70f, false},
    };
    return list;
}

const std::vector<LayoutDef>& layouts() {
    static const std::vector<LayoutDef> list = {
        {"stepping", "Stepping", "Lessons, source, grid and warp: step a kernel warp by warp",
         {{"lessons", 0.00f, 0.00f, 0.23f, 1.00f},
          {"source", 0.23f, 0.00f, 0.42f, 0.64f},
          {"divergence", 0.23f, 0.64f, 0.42f, 0.36f},
          {"grid", 0.65f, 0.00f, 0.35f, 0.48f},
          {"warp", 0.65f, 0.48f, 0.35f, 0.52f}}},
        {"memory", "Memory", "Coalescing, shared-memory banks, heat map and Nsight-named metrics",
         {{"source", 0.00f, 0.00f, 0.44f, 0.55f},
          {"shared", 0.44f, 0.00f, 0.26f, 0.55f},
          {"heatmap", 0.70f, 0.00f, 0.30f, 0.55f},
          {"global", 0.00f, 0.55f, 0.55f, 0.45f},
          {"metrics", 0.55f, 0.55f, 0.45f, 0.45f}}},
        {"compare", "Compare", "The simulator next to a real GPU run or an imported Nsight Compute profile",
         {{"compare", 0.00f, 0.00f, 0.62f, 1.00f},
          {"metrics", 0.62f, 0.00f, 0.38f, 1.00f}}},
        {"checks", "Checks", "initcheck / racecheck reports and faults, with the lanes involved",
         {{"source", 0.00f, 0.00f, 0.45f, 0.60f},
          {"reports", 0.45f, 0.00f, 0.55f, 0.60f},
          {"grid", 0.00f, 0.60f, 0.45f, 0.40f},
          {"warp", 0.45f, 0.60f, 0.55f, 0.40f}}},
        {"timing", "Timing", "Timed mode: occupancy, the warp schedulers cycle by cycle, and stall reasons (Nsight names)",
         // Source keeps ~45 % of the width so a 1280-px projector at scale 2 still shows its lines.
         {{"source", 0.00f, 0.00f, 0.45f, 0.58f},
          {"occupancy", 0.45f, 0.00f, 0.55f, 0.58f},
          {"stalls", 0.00f, 0.58f, 0.40f, 0.42f},
          {"scheduler", 0.40f, 0.58f, 0.60f, 0.42f}}},
        {"streams", "Streams", "The host program's timeline: copies and kernels on streams and engines, simulated and measured",
         {{"lessons", 0.00f, 0.00f, 0.20f, 1.00f},
          {"timeline", 0.20f, 0.00f, 0.80f, 0.62f},
          {"source", 0.20f, 0.62f, 0.44f, 0.38f},
          {"metrics", 0.64f, 0.62f, 0.36f, 0.38f}}},
        {"editor", "Editor", "Write a kernel, build it (Ctrl+B), launch it from its signature and step it",
         {{"editor", 0.00f, 0.00f, 0.42f, 0.64f},
          {"launch", 0.00f, 0.64f, 0.42f, 0.36f},
          {"source", 0.42f, 0.00f, 0.58f, 0.55f},
          {"grid", 0.42f, 0.55f, 0.24f, 0.45f},
          {"warp", 0.66f, 0.55f, 0.34f, 0.45f}}},
        {"program", "Program", "A whole CUDA program: its text, Build and Run, the Console, and each launch paused and stepped warp by warp",
         // Source as wide as in the Editor layout (its lines fit at 1280x720 and scale 2).
         {{"editor", 0.00f, 0.00f, 0.42f, 0.58f},
          {"console", 0.00f, 0.58f, 0.42f, 0.42f},
          {"source", 0.42f, 0.00f, 0.58f, 0.55f},
          {"launch", 0.42f, 0.55f, 0.20f, 0.45f},
          {"grid", 0.62f, 0.55f, 0.17f, 0.45f},
          {"warp", 0.79f, 0.55f, 0.21f, 0.45f}}},
        {"tensor", "Tensor cores", "The selected warp's matrix instruction: which lane and register hold each element of A, B, C and D",
         {{"source", 0.00f, 0.00f, 0.42f, 0.60f},
          {"warp", 0.00f, 0.60f, 0.42f, 0.40f},
          {"fragments", 0.42f, 0.00f, 0.58f, 1.00f}}},
        {"async", "Async copies", "cp.async: the selected warp's copies in flight, their groups, and the shared memory they will fill",
         {{"source", 0.00f, 0.00f, 0.45f, 0.60f},
          {"warp", 0.00f, 0.60f, 0.45f, 0.40f},
          {"async", 0.45f, 0.00f, 0.55f, 1.00f}}},
        // "slot": the panels in UiState::slotPanels, side by side (the one Show why opened).
        {"exercise", "Exercise", "Grade your kernel: the goal, hints, each criterion measured, and the panel that shows why",
         {{"lessons", 0.00f, 0.00f, 0.20f, 1.00f},
          {"source", 0.20f, 0.00f, 0.40f, 0.55f},
          {"slot", 0.20f, 0.55f, 0.40f, 0.45f},
          {"exercise", 0.60f, 0.00f, 0.40f, 1.00f}}},
        // Placed by frame.cpp (presenterFractions): Source as wide as the kernel's longest line,
        // the panels the step needs below it; these are only the fallback places.
        {"presenter", "Presenter", "For a projector: big text, the lesson, Source, and the one panel the step needs",
         {{"lessons", 0.00f, 0.00f, 0.30f, 1.00f},
          {"source", 0.30f, 0.00f, 0.70f, 0.58f},
          {"warp", 0.30f, 0.58f, 0.70f, 0.42f}}},
    };
    return list;
}

const LayoutDef* findLayout(const std::string& id) {
    for (auto& l : layouts())
        if (id == l.id) return &l;
    return nullptr;
}

} // namespace warpscope::gui
