// The panel registry: every panel is one file with one draw function, listed once in panels.cpp.
#pragma once
#include "gui/panels/app.hpp"

#include <nlohmann/json_fwd.hpp>

#include <vector>

namespace warpscope::gui {

struct PanelDef {
    const char* id;            // stable name: settings, sidecar, tests
    const char* title;         // window title
    void (*draw)(AppContext&); // draws the contents (inside its window)
    // Default place in the work area, as fractions of it: x, y, w, h.
    float fx, fy, fw, fh;
    bool fixed;                // toolbar-like: not movable, no title bar
};

const std::vector<PanelDef>& panels();

// Panel arrangements (View > Layout and the toolbar): which panels are open, and where.
struct Placement {
    const char* id;
    float fx, fy, fw, fh;
};
struct LayoutDef {
    const char* id;
    const char* title;
    const char* tip;
    std::vector<Placement> placements;
};
const std::vector<LayoutDef>& layouts();
const LayoutDef* findLayout(const std::string& id);

void drawLessonsPanel(AppContext& app);
// Does the actions of step `section` (0-based) of the current lesson's steps.md (the "Do it"
// button). Returns false when the step has none (or the lesson text is not loaded yet).
bool doLessonStepActions(AppContext& app, int section);
void drawSourcePanel(AppContext& app);
void drawGridPanel(AppContext& app);
void drawWarpPanel(AppContext& app);
void drawDivergencePanel(AppContext& app);
void drawGlobalAccessPanel(AppContext& app);
void drawSharedBanksPanel(AppContext& app);
void drawFragmentsPanel(AppContext& app);   // panel_fragments.cpp: the selected warp's matrix instruction, lane by lane
void drawAsyncPanel(AppContext& app);       // panel_async.cpp: the selected warp's cp.async copies in flight, pending shared words
void drawHeatmapPanel(AppContext& app);
void drawMetricsPanel(AppContext& app);
void drawComparePanel(AppContext& app);
void drawReportsPanel(AppContext& app);
void drawLimitsPanel(AppContext& app);
void drawNcuImportDialog(AppContext& app);
void drawOccupancyPanel(AppContext& app);
void drawSchedulerPanel(AppContext& app);
void drawStallsPanel(AppContext& app);
void drawTimelinePanel(AppContext& app);
// panel_console.cpp: a whole program's Console, and the glue the editor and the Launch panel use.
void drawConsolePanel(AppContext& app);
bool programActive(const AppContext& app);   // a whole program is open
void programBuild(AppContext& app);          // builds the editor's text as the program
void programRun(AppContext& app);            // runs it (building first when the text changed)
void programFrame(AppContext& app);          // each frame: a finished build, a paused launch into the session
void drawProgramLaunch(AppContext& app);     // the Launch panel for a program: its configuration, read-only
void runProgramHeadless(AppContext& app);    // screenshots: build, run to the first pause or the end, load it
nlohmann::json programSidecar(const AppContext& app);
// The Timeline panel's result for a whole program that ran to its end (null otherwise).
std::shared_ptr<const TimelineResult> programTimelineResult(AppContext& app);   // the screenshot sidecar's "program" (empty when none is open)
void drawExercisePanel(AppContext& app);   // panel_exercise.cpp: goal, hints, Grade, criteria
void drawExerciseProgressLine(AppContext& app);   // the Lessons panel's "Exercises: 1 of 2 solved" (panel_exercise.cpp)
// warpscope-gui --exercise ID [--solution FILE [--grade [--show-why NAME|first]]]: opens the
// current lesson's exercise in the Exercise layout, grades FILE (waiting for it) and does "Show
// why" for the first failed criterion whose name starts with NAME. Error(Input) when it cannot.
struct ExerciseArgs {
    std::string id, solution, showWhy;
    bool grade = false;
};
void exerciseCommandLine(AppContext& app, const ExerciseArgs& args);
// The exercise view for the screenshot sidecar: the grade (each criterion with measured value and
// target) and what the last Show why did (panel, line, the pinned access, reports, ...).
nlohmann::json exerciseSidecar(const AppContext& app);
// Asks the Timeline panel's runner for the current lesson, parameters, preset and GPU toggle
// (unless that was the last request and !force). Returns whether a run was requested.
bool requestTimelineRun(AppContext& app, bool force, double debounceSeconds);
void drawTimingToggle(AppContext& app);    // "Timed" checkbox and GPU preset picker (toolbar, occupancy panel)
// The memory panels' instruction chooser (panel_global.cpp): the selected warp, its recent global
// or shared accesses to pick from; nullptr, saying why, when there is no launch or no such access yet.
const MemAccess* memoryPicker(AppContext& app, bool shared, uint64_t& pick);
void drawGpuToggle(AppContext& app, const char* label = "Run on GPU");   // the "Run on GPU" checkbox (toolbar, compare and timeline panels)
void drawControlsPanel(AppContext& app);   // toolbar (fixed, drawn by main)
void drawStatusBar(AppContext& app);        // status bar (fixed, drawn by main)
void handleShortcuts(AppContext& app);
// The kernel editor (panel_editor.cpp): its panels, File menu items, dialogs, keys (Ctrl+S, Ctrl+B,
// Ctrl+R, also while typing), and the per-frame work (finished builds, autosave).
void drawEditorPanel(AppContext& app);
void drawLaunchPanel(AppContext& app);
void drawEditorFileMenu(AppContext& app);
void drawEditorDialogs(AppContext& app);
// "Unsaved changes: Save / Discard / Cancel" before New, Open, quitting or another lesson.
void drawLeaveQuestion(AppContext& app);
void handleEditorShortcuts(AppContext& app);
void editorFrame(AppContext& app);
void drawShortcutsHelp(AppContext& app);

} // namespace warpscope::gui
