// What every panel gets: the session, the latest snapshot, settings, fonts and UI-only state.
// Panels never touch the engine; they read the snapshot and send commands to the Session.
#pragma once
#include "gui/model/compare_model.hpp"
#include "gui/model/editor.hpp"
#include "gui/model/program_model.hpp"
#include "gui/model/timeline_model.hpp"
#include "gui/style/palette.hpp"
#include "gui/model/session.hpp"
#include "gui/model/settings.hpp"
#include "gui/model/step_actions.hpp"
#include "gui/render/fonts.hpp"

#include <imgui.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace warpscope::gui {

// The Editor and Launch panels' UI-only state (the text and builds live in EditorModel).
struct EditorUi {
    std::string message;                    // the last file or run error, shown in the Editor panel
    enum class Dialog { None, Open, SaveAs, SaveLesson } dialog = Dialog::None;
    bool openDialog = false;                // open the dialog's popup this frame
    char path[1024] = {};
    std::optional<Recovery> recovery;       // unsaved text from an earlier run, offered at start
    bool runWhenBuilt = false;              // Ctrl+R: run once the build that was started is done
    uint32_t jumpLine = 0;                  // put the cursor on this line once (a clicked diagnostic)
    int jumpColumn = 0;                     // and column (1-based; 0 = the line's start)
    uint64_t shownRevision = 0;             // the model revision the text widget shows
    bool autoRun = true;                    // a good build runs at once
    LeaveGuard leave;                       // New / Open / quit / another lesson waiting for Save, Discard or Cancel
    std::string leaveError;                 // why Save did not work (the question stays)
    bool askLeave = false;                  // open the "unsaved changes" question this frame
    bool quitConfirmed = false;             // the window may close (nothing unsaved, or the learner answered)
};

// The Console's and a whole program's UI state (panels/panel_console.cpp).
struct ProgramUi {
    bool runWhenBuilt = false;              // Run (Ctrl+R): run once the build that was started is done
    uint64_t shownConsoleRevision = 0;      // the Console follows new lines while scrolled to the bottom
    std::shared_ptr<const runtime::Timeline> timelineOf;   // the program timeline `timeline` was made from
    std::shared_ptr<const TimelineResult> timeline;        // what the Timeline panel shows for it
    char arguments[1024] = {};              // the Console's Arguments field (ProgramModel::arguments)
};

struct UiState {
    std::vector<runtime::Lesson> lessons;
    std::vector<std::string> lessonErrors;
    std::string lessonsDir;
    int current = -1;                       // index into lessons
    runtime::ParamValues params;            // values shown in the parameter widgets
    int stepSection = 0;                    // steps.md section shown
    int pageTurn = 0;                       // Page Down (+1) / Page Up (-1) this frame: the Lessons panel turns the page
    uint32_t clickedLine = 0;               // source line whose statistics are shown
    uint64_t scrolledForSerial = 0;         // source auto-scroll bookkeeping
    int32_t lastScrolledLine = -1;
    float gridZoom = 1.0f;
    int tileLane = 0;                       // Grid & warps: the lane of the selected warp whose tile is highlighted
    bool showShortcuts = false;
    bool showAbout = false;
    bool resetLayout = false;
    bool headless = false;                  // screenshot / benchmark: fixed layout, no ini
    float pendingScale = 0;                 // UI scale chosen this frame (applied before the next)
    uint32_t scrollToLine = 0;              // source panel: bring this line into view once
    std::string layout = "stepping";        // panel arrangement (panels.cpp layouts())
    std::string pendingLayout;              // chosen this frame (applied before the next)
    std::string actionLayout;               // chosen by a lesson step's action (applied before the next frame)
    std::string actionPanel;                // Presenter: the panel a lesson step's `open` put in the slot (applied before the next frame)
    bool dockLessons = false;               // that layout keeps the Lessons panel open on the left
    std::vector<std::string> presenterPanels{"warp"};   // Presenter layout: the panels beside Source (frame.cpp presentPanels)
    std::vector<std::string> slotPanels{"warp"};        // a layout's "slot" placement (Exercise: the panel Show why opened)
    float toolbarHeight = 0;
    int lessonListOpen = -1;                // the Lessons panel's lesson list: fold (0) or unfold (1) it once; -1 leave it
    std::string busyNote;                   // the session is rebuilding: panels show the last complete snapshot                // the toolbar's rows as last drawn (it wraps when narrow)

    // Memory panels
    uint64_t globalPick = 0, sharedPick = 0;   // chosen instruction (step index + 1), 0 = most recent
    MemPin globalPin, sharedPin;            // a lesson step pinned the panel to an access on a line (pin action)
    std::string heatBuffer;
    int fragmentLane = 0;                   // Fragments panel: the lane whose elements are highlighted
    float fragmentZoom = 1.0f;              // Fragments panel: 1 = the tiles fill the panel
    int heatWidth = 0;                      // 0 = automatic
    int heatMode = 0;                       // 0 accesses, 1 wasted bytes
    bool heatWholeRun = false;              // counts since the lesson started (else this launch)
    bool heatLog = true;
    bool heatUseShader = true;
    std::string heatShaderStatus;
    int metricsLaunch = -1;                 // -1 = the current launch

    // Lanes a report pointed at ("go to line"): outlined in the grid and warp panels.
    struct Highlight {
        bool on = false;
        uint32_t block = 0, warp = 0, lanes = 0;
    } highlight;

    // Hardware toggle and compare view
    bool runOnGpu = false;
    std::shared_ptr<const NcuImport> ncu;
    std::string ncuError;
    bool showNcuDialog = false;
    char ncuPathInput[512] = {};
    uint64_t compareRequestedGen = 0;       // snapshot generation the last compare run was started for
    std::string compareRequestedFor;

    // Timing: Timed mode, the GPU preset, occupancy and scheduler views (timing_ui.cpp)
    std::vector<timing::GpuSpec> presets;   // built-in, then user JSON files
    std::vector<std::string> presetErrors;
    int preset = 0;                         // index into presets
    bool timed = false;
    bool registersOverride = false;         // the occupancy panel's slider replaces lesson.json "registers"
    int registers = 32;
    int schedSm = 0;                        // SM shown by the scheduler panel
    int timelineCycles = 200;
    int stallsLaunch = -1;                  // launch shown by the stall panel, -1 = the current one
};

// A drawn panel's rectangle in framebuffer pixels (for the screenshot sidecar).
struct PanelRect {
    std::string id;
    float x = 0, y = 0, w = 0, h = 0;
    std::string in;   // a toolbar item reached through another (the layout drop-down): that item's id
};

// Content that needs `need` pixels of width where its panel gives it `have` (the screenshot
// sidecar's "fits"; the layout check fails when need > have): text a panel cut off.
struct FitRecord {
    std::string panel, what;
    float need = 0, have = 0;
};

struct AppContext {
    AppContext(Session& s, Settings& st) : session(s), settings(st) {}
    Session& session;
    Settings& settings;
    Fonts fonts;
    UiState ui;
    std::shared_ptr<const Snapshot> snap;   // this frame's snapshot (never null)
    std::vector<PanelRect> drawn;           // this frame's panels
    std::vector<PanelRect> toolbarItems;    // this frame's toolbar items (screenshot sidecar)
    std::vector<FitRecord> fits;            // this frame's widths: what panels measured, and text cut off (frame.cpp)
    ImVec2 workPos, workSize;               // area between toolbar and status bar
    std::unique_ptr<CompareRunner> compare = std::make_unique<CompareRunner>();
    std::unique_ptr<TimelineRunner> timeline = std::make_unique<TimelineRunner>();   // Timeline panel runs
    TimelinePanelState timelineUi;
    std::unique_ptr<EditorModel> editor = std::make_unique<EditorModel>(std::filesystem::path());   // main.cpp gives it the autosave file
    EditorUi editorUi;
    std::unique_ptr<ProgramModel> program = std::make_unique<ProgramModel>();   // a whole program (Console)
    ProgramUi programUi;

    void loadLesson(int index);
    void applyParams();
    void startCompare();                    // (re)runs the comparison for the current lesson and params
    void goToSite(const FaultSite& site, const uint32_t grid[3], const uint32_t block[3]);
    bool importNcu(const std::string& path);   // false: ui.ncuError says why
    // Timing (timing_ui.cpp): the chosen preset, and sending Timed mode / preset / registers to the session.
    const timing::GpuSpec* presetSpec() const;
    void applyTiming();
    // The editor's last good build, launched as its lesson.json or the Launch panel's spec
    // (panel_editor.cpp). Returns false (editorUi.message says why) when it cannot run.
    bool runEditorKernel();
    // Opens a path from File > Open or the command line: a kernel in the editor, a lesson or spec as a lesson.
    bool openPath(const std::string& path);
    // Runs `then` now when the editor has no unsaved text, else after the learner answers
    // Save / Discard / Cancel (panel_editor.cpp draws the question). `what`: "open k.cu".
    void askBeforeLeaving(std::string what, std::function<void()> then);
    // The Lessons panel and menu: closes the kernel in the editor (asking first when its text is
    // unsaved) and loads lesson `index`.
    void switchLesson(int index);
};

inline ImU32 col(Rgb c, int alpha = 255) { return IM_COL32(c.r, c.g, c.b, alpha); }
inline ImVec4 colv(Rgb c, float alpha = 1.0f) { return ImVec4(c.r / 255.f, c.g / 255.f, c.b / 255.f, alpha); }

// When the run hit a sandbox limit: names it and offers "raise it and re-run" (true: it did).
// In panel_limits.cpp; the error box shows it too.
bool drawRaiseLimit(AppContext& app);
// Shared drawing helpers (ui_common.cpp).
void drawLaneStrip(ImDrawList* dl, ImVec2 pos, float laneW, float h, const std::array<LaneState, 32>& lanes, uint32_t highlight = 0);
void drawLegend(bool compact = false);
// One legend entry: a colour square of `size` and its label, then room for the next on the line.
void legendSwatch(Rgb c, const char* label, float size);
std::string maskText(uint32_t mask);      // "0xffff0000 (16 lanes)"
std::string hex(uint64_t v, int digits = 0);
void helpMarker(const char* text);
// A panel's empty state: when `empty`, draws `why` dimmed ("No launch yet.") and returns true, for
// the panel to return.
bool emptyPanel(bool empty, const char* why);
// A long Nsight Compute metric name in `mono`, wrapped at its '_' and '.' to the width left on the
// line (a table's stretch column), continuation rows indented; dimmed when `dim`.
void drawMetricName(ImFont* mono, const std::string& name, bool dim);
// SameLine() when an item `width` wide still fits on the current line, else the item starts a new line.
void sameLineIfFits(float width, float gap = -1);   // gap: ItemSpacing.x when negative
// ImGui::SetTooltip, but wrapped at about 36 characters' width (never wider than half the window),
// so a long tooltip stays on screen.
void tooltip(const char* fmt, ...) IM_FMTARGS(1);
void drawErrorBox(AppContext& app);

} // namespace warpscope::gui
