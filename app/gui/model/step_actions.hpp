// Step actions: what the app does for a lesson step when the student presses "Do it" (or moves
// to the step with Next). A step lists them in an HTML comment, invisible where steps.md is read
// as ordinary Markdown:
//
//   <!-- do: param OFFSET=1; select block 0 warp 1; run-to line 7; layout memory -->
//
// Statements are separated by ';' and run in order (docs/authoring.md lists them):
//   param NAME=VALUE [NAME=VALUE ...]   set lesson parameters (the launch is rebuilt)
//   defaults                            every parameter back to its default
//   restart                             restart the lesson
//   select block B warp W               select warp W of block B (linear block index)
//   run-to line L                       run until the selected warp's next instruction is on line L
//   run-to barrier | run-to end         until a barrier releases | to the end of this launch
//   steps N                             N warp-instructions (Timed mode: N cycles)
//   show line L                         bring source line L into view and show its statistics
//   layout NAME                         stepping | memory | compare | checks | timing
//   open PANEL                          open and focus a panel (source, grid, occupancy, ...)
//   timed PRESET | timed off            Timed mode on a GPU preset (h100, teaching, ...), or off
//   check racecheck|initcheck [...] | check off   the checkers the run uses (the lesson restarts)
//   pin global|shared line L [load|store]  that memory panel shows the selected warp's access on
//                                       line L (not whatever came last); a step's Do it unpins first
//
// Do it lands where the text says: a step that moves the machine (run-to, steps) starts from a
// fresh run (a parameter or Timed-mode change restarts anyway), so a target behind the current
// position is reached by replaying, never missed. `<!-- expect: ... -->` states what the model
// shows afterwards (line L, active N, sectors N, ways N, launch N, waiting N, reports N, tiles N, ended, finished); tests/app checks every step.
//
// Parsing and validation are pure functions (tested in tests/app); applying them is the app's job
// (panel_lessons.cpp).
#pragma once
#include "gui/model/markdown.hpp"
#include "gui/model/snapshot.hpp"
#include "runtime/lesson.hpp"

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace warpscope::gui {

struct StepAction {
    enum class Kind { Param, Defaults, Restart, Select, RunToLine, RunToBarrier, RunToEnd, Steps, ShowLine, Layout, Open, Timed, Pin, Check };
    Kind kind = Kind::Restart;
    std::vector<std::pair<std::string, double>> params;   // Param
    uint32_t block = 0, warp = 0;                         // Select
    uint32_t line = 0;                                    // RunToLine, ShowLine (kernel.cu line)
    uint64_t count = 0;                                   // Steps
    std::string name;                                     // Layout, Open, Timed ("off" turns it off), Pin (global, shared)
    int access = 0;                                       // Pin: 0 any, 1 load, 2 store
    bool initcheck = false, racecheck = false;            // Check (both false: check off)
    int mdLine = 0;                                       // line of steps.md it was written on
    std::string text;                                     // the statement as written
};

// Parses the body of one `do:` comment (`mdLine`: where it is in steps.md). Syntax errors are
// appended to `errors` as "line N: ..." and the statement is skipped.
std::vector<StepAction> parseStepActions(std::string_view text, int mdLine, std::vector<std::string>& errors);

// A short description for the "Do it" button's tooltip: "set SMEM=120", "run to line 11", ...
std::string describeAction(const StepAction& a);

// What validation checks names and numbers against.
struct ActionContext {
    const runtime::Lesson* lesson = nullptr;   // parameters (names, min/max/choices)
    size_t sourceLineCount = 0;                // lines of kernel.cu (0: no source, run-to line is an error)
    std::set<uint32_t> codeLines;              // kernel.cu lines that have instructions, in any kernel
    std::set<std::pair<uint32_t, bool>> memLines;   // (line, shared) of loads, stores and atomics (generic: both)
    std::set<std::string> presets;             // GPU preset names
};
// Built from a loaded lesson: reads kernel.cu, compiles every kernel of its PTX for the lines.
ActionContext actionContextFor(const runtime::Lesson& lesson);

// The layout and panel names the app knows (panels.cpp); `open` and `layout` accept these.
const std::vector<std::string>& knownLayouts();
const std::vector<std::string>& knownPanels();

// Problems with actions that parsed: unknown parameter, value outside min/max/choices, line
// outside kernel.cu or without code, unknown layout, panel or preset. Each "line N: ...".
std::vector<std::string> validateStepActions(const std::vector<StepAction>& actions, const ActionContext& ctx);

// Every step of a steps.md text: parsed actions per section, and every problem found, each as
// "<file>:<line>: <message>" (`file` names the steps.md in messages). `do:` comments before the
// first step are reported (they belong to no step).
struct StepExpect {
    enum class Kind { Line, Active, Sectors, Ways, Finished, Launch, Waiting, Ended, Reports, Tiles };
    Kind kind = Kind::Line;
    uint64_t value = 0;
    int mdLine = 0;
    std::string text;
};
struct StepsCheck {
    std::vector<std::vector<StepAction>> actions;   // per section
    std::vector<std::vector<StepExpect>> expects;   // per section (`expect:` comments)
    std::vector<std::string> errors;
};
StepsCheck checkSteps(const MdDocument& doc, const ActionContext& ctx, const std::string& file);

// Hidden answers: shown once the student has run something since the step appeared (or pressed
// Do it and the run finished), or pressed Reveal. Progress is what the session reports: the lesson
// generation (restarts) and the warp-instructions plus cycles stepped in it.
struct RunProgress {
    uint64_t generation = 0, steps = 0;
    bool finished = false;   // the host script completed
};
struct AnswerGate {
    bool revealed = false;      // Reveal pressed, or the run happened
    bool baselineSet = false;
    RunProgress baseline;       // when the step was shown (after its own actions were queued)
    bool actionsPending = false;   // Do it pressed: reveal when the session is idle again
};
// Updates the gate with the session's current progress; returns whether the answer is shown.
bool updateAnswerGate(AnswerGate& g, const RunProgress& now, bool sessionIdle);

// Turning the page: ▶ / ◀ and Page Down / Page Up (a presenter's clicker) go through turnPage.
// With "Next does it" on, arriving at a step does its actions, except going forward to a step that
// asks for a prediction not answered yet (the class predicts first). A clicker has only Page Down,
// so on such a step whose answer is still hidden the first Page Down does the step (the run
// reveals the answer) and the next one turns the page. Going back, the class has been past the
// step: it lands. A pure function, so a test can be the clicker.
struct PagerStep {
    bool asksPrediction = false;   // the step has a hidden answer
    bool revealed = false;         // its answer is shown (AnswerGate::revealed)
    bool actionsPending = false;   // its Do it ran and the answer shows once the session is idle
    bool hasActions = false;       // the step has a `do:` comment
};
struct PageTurn {
    bool doHere = false;   // do the current step's actions and stay on it
    int to = 0;            // the step shown afterwards (0-based)
    bool doTo = false;     // do step `to`'s actions (arriving at it)
};
PageTurn turnPage(const std::vector<PagerStep>& steps, int current, int delta, bool nextDoesIt);

// ---------------------------------------------------------------- pins, applying, expectations
// A memory panel pinned to the selected warp's access on a source line (0: not pinned).
struct MemPin {
    uint32_t line = 0;
    int access = 0;   // 0 any, 1 load, 2 store
    bool showWhy = false;   // pinned by an exercise's Show why (else by a lesson step)
};
// The newest access of the history on the pin's line and kind; nullptr when none (yet).
const MemAccess* pinnedAccess(const std::vector<MemAccess>& history, bool shared, const MemPin& pin);

// What applying actions drives. The app implements it over its UI state (panel_lessons.cpp),
// tests over a bare Session (SessionActionTarget). setParams / setTimed return whether the
// lesson restarted.
struct StepActionTarget {
    virtual ~StepActionTarget() = default;
    virtual bool setParams(const std::vector<std::pair<std::string, double>>& values, bool defaultsFirst) = 0;
    virtual bool setTimed(const std::string& preset) = 0;   // "off" turns it off
    // The checkers the run uses; true when that restarted the run (it does when they change).
    virtual bool setCheckers(bool initcheck, bool racecheck) = 0;
    virtual void restart() = 0;
    virtual void select(uint32_t block, uint32_t warp) = 0;
    virtual void runToLine(uint32_t line) = 0;
    virtual void runToBarrier() = 0;
    virtual void runToEnd() = 0;
    virtual void runSteps(uint64_t n) = 0;
    virtual void pin(bool shared, const MemPin& pin) = 0;
    virtual void ui(const StepAction&) {}   // show line, layout, open: nothing to do without a window
};
// Applies a step's actions in order, restarting first when the step moves the machine and
// nothing else restarted it (see the header comment). Both pins are cleared first.
void applyStepActions(const std::vector<StepAction>& actions, StepActionTarget& target);

// The target for a Session without a window (tests, scripts): keeps the parameter values and
// the Timed-mode preset as the app's UI would.
class Session;
struct SessionActionTarget : StepActionTarget {
    SessionActionTarget(Session& s, const runtime::Lesson& l);
    Session& session;
    const runtime::Lesson& lesson;
    runtime::ParamValues params;
    std::string timedPreset;   // empty: functional mode
    MemPin globalPin, sharedPin;
    bool setParams(const std::vector<std::pair<std::string, double>>& values, bool defaultsFirst) override;
    bool setTimed(const std::string& preset) override;
    bool setCheckers(bool initcheck, bool racecheck) override;
    bool initcheck = false, racecheck = false;
    void restart() override;
    void select(uint32_t block, uint32_t warp) override;
    void runToLine(uint32_t line) override;
    void runToBarrier() override;
    void runToEnd() override;
    void runSteps(uint64_t n) override;
    void pin(bool shared, const MemPin& p) override;
};

// What Do it could not do, read from the snapshot once the session is idle again: the warp
// a select names does not exist, a run-to line ended elsewhere, ... Empty when it landed.
std::vector<std::string> landingProblems(const std::vector<StepAction>& actions, const Snapshot& s);

// Parses the body of one `expect:` comment (`line 7; active 8; sectors 5; ways 32; launch 2; finished`):
// the selected warp's next line and active lanes, what Global access / Shared banks show, the
// launch (1-based, as the status bar counts), warps of the selected block waiting at a barrier,
// the launch ran to its end (ended), the host program finished, the checkers' reports so far (reports N).
std::vector<StepExpect> parseStepExpects(std::string_view text, int mdLine, std::vector<std::string>& errors);
// Each expectation the snapshot does not meet, as "line N: 'sectors 5': the Global access panel shows 4".
std::vector<std::string> unmetExpectations(const std::vector<StepExpect>& expects, const Snapshot& s, const MemPin& globalPin,
                                           const MemPin& sharedPin);

} // namespace warpscope::gui
