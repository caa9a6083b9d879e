// An immutable picture of the simulated machine, published by the Session's worker thread and
// read by every panel on the UI thread. Nothing in here points into engine objects: the worker
// copies what the panels need, so a snapshot stays valid after the launch (or the whole
// SimDevice) that produced it is gone.
//
// Sections: 1. lane states  2. program and lesson info  3. warps and blocks
//           4. memory, counters and checker reports  5. the snapshot
#pragma once
#include "base/error.hpp"
#include "runtime/lesson.hpp"
#include "sim/tensor.hpp"
#include "timing/cycle_model.hpp"
#include "trace/counters.hpp"
#include "trace/line_stats.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace warpscope::gui {

// ---------------------------------------------------------------- 1. lane states
enum class LaneState : uint8_t {
    None,        // the lane does not exist (partial last warp of a block)
    Active,      // on the top SIMT entry: executes the next instruction
    Masked,      // alive but waiting on another path of a divergent branch
    Predicated,  // was active, but its guard predicate switched the last instruction off
    AtBarrier,   // the warp waits at a barrier
    Exited,      // executed exit
    Count_
};
const char* laneStateName(LaneState s);

// The inputs the lane states are computed from (all lane masks).
struct LaneMasks {
    uint32_t valid = 0, exited = 0, active = 0;
    bool atBarrier = false, done = false;
    uint32_t lastActive = 0, lastExec = 0;   // masks of this warp's most recent Step
    bool hasLast = false;
    bool lastWasBranch = false;              // a branch's unselected lanes are not "predicated off"
};
std::array<LaneState, 32> laneStates(const LaneMasks& m);

// ---------------------------------------------------------------- 2. program and lesson info
struct InstrInfo {
    std::string text;
    uint32_t line = 0, ptxLine = 0, func = 0;
    bool isBranch = false, isBarrier = false;
    std::shared_ptr<const sim::MatrixOp> matrix;   // wmma/mma/ldmatrix/movmatrix (the fragment view)
};

struct FunctionInfo {
    std::string name;
    std::vector<std::string> regNames;
    std::vector<std::string> regTypes;   // PTX type spelling: "u32", "f32", "b64", ...
    std::vector<std::string> predNames;
};

// Copied once per launch from sim::Program (the Program itself belongs to the worker's device).
struct ProgramInfo {
    std::string kernelName;
    std::vector<InstrInfo> code;
    std::vector<FunctionInfo> functions;
    std::map<uint32_t, std::vector<int32_t>> pcsByLine;   // CUDA line -> pcs, in order
};

// A source variable the lesson talks about, named once in lesson.json "variables": which PTX
// register holds it (in which kernel), from which source line on (docs/lesson-format.md).
struct LessonVariable {
    std::string name;
    std::string kernel;     // empty: every kernel that has the register
    std::string reg;        // "%r1"
    uint32_t line = 0;      // the line that gives it its value
    std::string type;       // "int", "float" or "hex"; empty: from the register's PTX type
};

struct LessonInfo {
    std::vector<LessonVariable> variables;
    std::string variablesError;             // a malformed "variables" entry (shown, not fatal)
    runtime::Lesson lesson;
    std::vector<std::string> sourceLines;   // kernel.cu, empty if none
    std::string stepsMarkdown;              // steps.md, empty if none
    int launchCount = 0;                    // "launch" operations in the host script
};

// ---------------------------------------------------------------- 3. warps and blocks
struct SimtEntryView {
    int32_t pc = 0, rpc = 0;
    uint32_t mask = 0;
};

struct FrameView {
    uint32_t func = 0;
    std::vector<SimtEntryView> stack;   // bottom first
};

struct WarpView {
    uint32_t indexInBlock = 0;
    uint32_t globalWarp = 0;            // block * warpsPerBlock + indexInBlock
    LaneMasks masks;
    int32_t pc = -1;
    uint32_t line = 0;
    uint64_t issued = 0;
    uint8_t state = 0;                  // sim::WarpState
    std::array<LaneState, 32> lanes{};
};

struct BlockView {
    uint32_t linear = 0;
    uint32_t idx[3] = {0, 0, 0};
    uint32_t sm = 0;
    uint32_t residentSlot = 0;
    std::vector<WarpView> warps;
};

// One cp.async copy of the selected warp that has not landed in shared memory yet (the Async
// copies panel, async_view.hpp).
struct AsyncCopyView {
    uint32_t lane = 0;
    uint32_t dst = 0;                        // shared offset
    uint64_t src = 0;                        // global address (buildAsyncView finds it in the warp's memory history)
    bool srcKnown = false;
    uint32_t bytes = 0;
    uint32_t group = ~0u;                    // the thread's commit group (0, 1, ...); ~0u: not committed yet
    int32_t pc = -1;
    int32_t mbar = -1;                       // bound to the mbarrier at this shared offset (cp.async.mbarrier.arrive)
};

// Full detail of the selected warp.
struct WarpDetail {
    uint32_t block = 0, warpInBlock = 0;
    uint32_t blockIdx[3] = {0, 0, 0};
    WarpView warp;
    std::vector<FrameView> frames;           // call frames, kernel first
    uint32_t func = 0;                       // function of the innermost frame
    std::vector<uint64_t> regs;              // innermost frame: numRegs x 32 lanes
    std::vector<uint32_t> preds;             // innermost frame: one lane mask per predicate
    // cp.async: the warp's copies not landed yet (lane order, then issue order), the groups each
    // lane has committed, and per 4-byte word of the block's shared memory how many pending copies
    // of any of its warps will write it (empty: none ever issued). In Timed mode, when the cycle
    // model has the warp's groups land (TimedRun::asyncGroupTimes) and the cycle now.
    std::vector<AsyncCopyView> asyncCopies;
    std::array<uint32_t, 32> asyncCommitted{};
    std::vector<uint16_t> sharedPending;
    bool asyncTimed = false;
    std::vector<uint64_t> asyncGroupReady;   // newest committed groups, oldest first
    uint64_t asyncOpenReady = 0, asyncCycle = 0;
    // The member masks of the warp's last warp-synchronous instruction (sim::Block::warpSync):
    // Grid & warps groups the lanes into tiles by them (grid_layout.hpp laneGroups). -1: none yet.
    int32_t syncPc = -1;
    uint32_t syncExec = 0;
    std::array<uint32_t, 32> syncMask{};
};

struct StepRecord {
    uint64_t index = 0;
    uint32_t block = 0, warpInBlock = 0;
    int32_t pc = 0;
    uint32_t line = 0;
    uint32_t activeMask = 0, execMask = 0, maskAfter = 0;
    bool divergent = false;
};

// ---------------------------------------------------------------- 4. memory, counters and checker reports
// One warp-wide memory instruction (ld/st/atom/red on global or shared memory), as the Step
// recorded it: the panels build their sector and bank diagrams from this (memory_model.hpp).
struct MemAccess {
    uint64_t stepIndex = 0;                 // issue order within its launch
    int launchIndex = -1;
    uint32_t block = 0, warpInBlock = 0;
    int32_t pc = 0;
    uint32_t line = 0;
    bool shared = false;                    // shared-window offsets; else global addresses
    uint8_t bytes = 0;                      // per lane (vector accesses count every element)
    bool isLoad = false, isStore = false, isAtomic = false;
    uint32_t mask = 0;                      // lanes that executed it
    std::array<uint64_t, 32> addr{};        // valid for lanes in mask
    std::string buffer;                     // global: the allocation the first lane's address is in
    uint64_t bufferBase = 0;
};

// Counters of one launch (the current one while it runs), under Nsight Compute names.
struct CounterView {
    int launchIndex = -1;
    std::string kernel;
    bool complete = false;                  // the launch ran to its end
    std::map<std::string, double> metrics;
    std::set<std::string> estimated;        // metrics that come from the cache model, not counting
    std::map<uint32_t, trace::MemCounters> byLine;
    trace::MemCounters total;
};

// Per-element access counts of one device buffer, collected from Step records.
// Where a buffer is and how its elements are laid out (the heat map's grid).
struct HeatLayout {
    std::string name, type;                 // lesson buffer name and element type ("f32", ...)
    uint64_t base = 0, bytes = 0;
    uint32_t elemBytes = 4;
    uint64_t count = 0;                     // elements
    uint64_t width = 0;                     // elements per row from lesson.json "width" (0: none)
};
struct BufferHeat : HeatLayout {
    std::vector<uint32_t> runAccesses, runWasted;        // since the lesson (re)started
    std::vector<uint32_t> launchAccesses, launchWasted;  // in the current launch
    std::vector<uint8_t> data;              // contents when published
};
struct HeatView {
    uint64_t serial = 0;                    // changes whenever the counts change
    std::vector<BufferHeat> buffers;
};

// A checker's finding (initcheck, racecheck), with the launch it came from.
struct ReportView {
    int launchIndex = -1;
    std::string kernel, tool, hazard, message;
    FaultSite site;
    uint32_t grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};   // of its launch
};

// Where "go to line" leads for a fault or report: the source line, and the block (linear),
// warp and lane of the thread involved.
struct SiteTarget {
    uint32_t line = 0;          // 0: no source line known
    bool hasThread = false;
    uint32_t block = 0, warp = 0, lane = 0;
};
SiteTarget siteTarget(const FaultSite& site, const uint32_t grid[3], const uint32_t block[3]);

// ---------------------------------------------------------------- 4b. timing (Timed mode: the cycle model)
// One cycle of the shown SM's timeline: per scheduler, issued (kCellIssued), the stall reason of
// its oldest warp (a timing::StallReason value), or no warp at all (kCellIdle).
inline constexpr uint8_t kCellIssued = 0;   // == StallReason::Selected
inline constexpr uint8_t kCellIdle = 254;
inline constexpr size_t kMaxSchedulers = 8;
struct CycleCells {
    uint64_t cycle = 0;
    uint8_t count = 0;                                  // schedulers recorded
    std::array<uint8_t, kMaxSchedulers> cell{};
};

struct SchedWarp {
    uint32_t slot = 0, block = 0, warpInBlock = 0;
    timing::WarpPhase phase = timing::WarpPhase::Empty;
    timing::StallReason reason = timing::StallReason::NotSelected;   // this cycle
    int32_t pc = -1;
    uint32_t line = 0;
};
struct SchedState {
    int32_t issuedSlot = -1, issuedPc = -1;   // this cycle
    std::vector<SchedWarp> warps;             // occupied slots, oldest block first
};

// The cycle model's figures for one launch (so far, or final when complete).
struct TimedLaunchView {
    int launchIndex = -1;
    std::string kernel;
    bool complete = false;
    timing::TimingResult result;
    // What the host program set for this launch (run::launchSetup, as `warpscope run --timed`):
    // its stream's L2 access policy window (windowBytes 0: none), the persisting set-aside and the
    // mapped host memory the kernel can reach.
    uint64_t windowBase = 0, windowBytes = 0;
    double windowHitRatio = 0;
    std::string windowHitProp, windowMissProp;   // normal, streaming or persisting
    uint64_t persistingBytes = 0;
    uint64_t mappedBytes = 0;
};

struct TimingView {
    timing::GpuSpec spec;                     // the preset the launch runs on
    uint64_t cycle = 0;                       // the cycle last stepped
    bool finished = false;
    std::shared_ptr<const TimedLaunchView> launch;
    uint32_t sm = 0;                          // the SM shown in detail
    std::vector<uint32_t> blocksPerSm;        // resident blocks on every SM
    std::vector<uint32_t> smBlocks;           // linear indices of the blocks on `sm`
    std::vector<SchedState> schedulers;       // of `sm`, this cycle
    std::vector<CycleCells> timeline;         // of `sm`, oldest first (recent cycles only)
};

// ---------------------------------------------------------------- 5. the snapshot
enum class RunState : uint8_t {
    NoLesson,   // nothing loaded
    Loading,    // building the launch, or replaying to a position (step back)
    Paused,     // inside a launch, waiting for a command
    Running,    // running freely on the worker thread
    LaunchDone, // a launch finished; the next step moves on to the next launch
    Finished,   // the host script completed; checks evaluated
    Faulted,    // the kernel faulted (see error)
    Failed,     // the lesson could not be run (bad input, unsupported PTX)
};
const char* runStateName(RunState s);

// A sandbox limit the run hit (the app names it and offers to raise it and re-run).
enum class LimitKind : uint8_t { None, DeviceMemory, Blocks, InstructionBudget };

struct ErrorInfo {
    Error::Kind kind = Error::Kind::Input;
    std::string message;
    FaultSite site;
    LimitKind limit = LimitKind::None;
};

struct Snapshot {
    uint64_t serial = 0;                  // increases with every publish
    uint64_t generation = 0;              // increases with every (re)start of the lesson
    RunState state = RunState::NoLesson;
    std::string statusText;
    std::shared_ptr<const LessonInfo> lesson;
    runtime::ParamValues params;

    // Current launch (valid when program != nullptr).
    std::shared_ptr<const ProgramInfo> program;
    int launchIndex = -1;                 // 0-based, in host-script order
    uint32_t grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
    uint32_t warpsPerBlock = 0;
    uint64_t blockCount = 0;
    uint32_t blocksLaunched = 0;          // blocks [0, blocksLaunched) were admitted
    uint64_t stepInLaunch = 0;            // warp-instructions issued in this launch
    uint64_t totalSteps = 0;              // over all launches so far
    uint64_t branches = 0, divergentBranches = 0, barriers = 0, blocksCompleted = 0, threadInstructions = 0;
    std::vector<BlockView> resident;      // in resident-slot order
    std::optional<WarpDetail> selected;
    uint32_t selBlock = 0, selWarp = 0;   // the selection the snapshot was built for
    std::map<uint32_t, trace::LineStats> lineStats;   // every launch so far, by CUDA line
    std::vector<StepRecord> recent;       // newest last
    std::optional<ErrorInfo> error;
    std::vector<runtime::CheckResult> checks;

    // Memory, counters, checkers.
    std::vector<MemAccess> memHistory;    // the selected warp's recent memory instructions, newest last
    int32_t lastMatrixPc = -1;            // the selected warp's last executed matrix instruction (-1: none)
    std::shared_ptr<const CounterView> counters;                       // current (or last) launch
    std::vector<std::shared_ptr<const CounterView>> launchCounters;    // every launch so far, in order
    std::shared_ptr<const HeatView> heat;
    std::vector<ReportView> reports;      // every launch so far
    bool initcheck = false, racecheck = false;   // the checkers this run uses

    // Timed mode: the cycle model decides which warp issues when, and stepping goes by cycles.
    bool timed = false;
    std::string gpuPreset;                // the preset the run uses (timed) or would use
    uint32_t sharedBytesPerBlock = 0;     // current launch: static + dynamic shared memory
    uint64_t totalCycleSteps = 0;         // cycles stepped over all launches so far (timed)
    std::shared_ptr<const TimingView> timing;                               // current launch (timed)
    std::vector<std::shared_ptr<const TimedLaunchView>> launchTimings;      // every finished timed launch

    // Block status by linear index (resident blocks are looked up in `resident`).
    enum class BlockStatus : uint8_t { Pending, Resident, Done };
    BlockStatus blockStatus(uint64_t linear) const;
    const BlockView* residentBlock(uint32_t linear) const;
};

// The lesson's variables for the selected warp of this launch: per lane, formatted as the lesson
// (or the register's type) says; `set` once the warp has run the instruction that writes its register.
struct VariableRow {
    std::string name, reg;
    uint32_t line = 0;
    bool set = false;
    uint32_t lanes = 0;                     // lanes of the warp that exist
    std::array<std::string, 32> values;
};
std::vector<VariableRow> variableRows(const Snapshot& s);

// How Warp detail writes register values (Settings::registerFormat). By type, the default: integer
// registers in decimal (signed unless the type is u/b), float registers as numbers.
enum RegisterFormat : int { kRegByType = 0, kRegDecimal = 1, kRegFloat = 2, kRegHex = 3 };
// A register's value as text in format `fmt` (RegisterFormat).
std::string formatRegister(uint64_t v, const std::string& type, int fmt);

// Compares what a student can see (used by tests: step back must equal stepping forward).
bool sameMachineState(const Snapshot& a, const Snapshot& b, std::string* why = nullptr);

} // namespace warpscope::gui
