// The session's worker: the state the worker thread owns (and the few fields it shares with the
// UI thread under its mutex), and every operation it performs. Private to model/session*.cpp:
//   session.cpp           lesson info, the UI-side Session API (posts commands, reads snapshots)
//   session_worker.cpp    the worker thread: outer loop, one run of the host program, a launch
//   session_stepping.cpp  stepping control: primitives, the primitive log, replay for step back
//   session_views.cpp     snapshots and what they show: memory, counters, heat map, reports, timing
//   session_parallel.cpp  To end on every core: the recorder's forks and the serial order rebuilt
#pragma once
#include "gui/model/session.hpp"

#include "run/run.hpp"
#include "runtime/sim_device.hpp"
#include "sim/isa.hpp"
#include "trace/counters.hpp"
#include "trace/issue_order.hpp"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>

namespace warpscope::gui {

// ---------------------------------------------------------------- 2. worker state and recorder
// Private to the session_*.cpp files; a named namespace so that RestartRun thrown in one file is
// caught in another.
namespace session_detail {
using Clock = std::chrono::steady_clock;

struct RestartRun {};   // thrown through runLesson to abandon the current run and start over
// What Cancel throws where the worker sees the command before the engine sees its flag.
inline Error cancelledError() { return Error(Error::Kind::Cancelled, "Cancelled by the user."); }
// Which sandbox limit an error is about (the app offers to raise it).
LimitKind limitOf(const Error& e);
struct QuitWorker {};

constexpr uint32_t kRoundRobin = 0xffffffffu;
struct Prim {
    uint32_t block = kRoundRobin, warp = 0;   // kRoundRobin: Gpu::step(); else stepWarp of that warp
    uint64_t count = 0;
};
struct LaunchLog {
    std::vector<Prim> prims;
    uint64_t steps = 0;          // primitives; in Timed mode cycles (prims stay empty)
    bool complete = false;
    bool timed = false;
};
struct LastStep {
    uint32_t active = 0, exec = 0;
    bool valid = false, branch = false;
};
constexpr size_t kRecent = 64;
constexpr size_t kMemHistory = 8;   // memory instructions remembered per warp
constexpr size_t kCycleRing = 512;   // timeline cycles remembered (Timed mode)
constexpr uint64_t kIdleLimit = 1u << 20;   // cycles without any issue before looking for a deadlock

// One Step of a warp as the recent-steps ring shows it (a parallel share keeps each warp's last
// kRecent of these; the line comes from the pc).
struct TailStep {
    int32_t pc = 0;
    uint32_t activeMask = 0, execMask = 0, maskAfter = 0;
    bool divergent = false;
};
// The recorder's record of a memory instruction (global or shared) and its heat-map accounting;
// shared by the serial recorder and a parallel share's.
MemAccess memAccessOf(const sim::Step& s, int launchIndex, std::vector<BufferHeat>& heat, size_t& heatHit);
BufferHeat* heatFindIn(std::vector<BufferHeat>& heat, size_t& heatHit, uint64_t addr);
// Counts the Step's element accesses and wasted sector bytes; `runToo` also adds to the run totals.
void heatAccountIn(std::vector<BufferHeat>& heat, size_t& heatHit, const sim::Step& s, bool runToo);
// The heat map's accounting of one Step: count(buffer, buffer index, element, wasted) for each
// element a lane touched (wasted = false) and for each element whose bytes a fetched sector
// carried that no lane asked for (wasted = true).
template <class Count>
void heatAccountWith(std::vector<BufferHeat>& heat, size_t& heatHit, const sim::Step& s, Count&& count) {
    if (heat.empty()) return;
    struct Sec {
        uint64_t addr;
        uint32_t used;
    };
    Sec secs[128];
    int n = 0;
    uint32_t bytes = std::max<uint32_t>(s.accessBytes, 1);
    for (int l = 0; l < 32; ++l) {
        if (!((s.execMask >> l) & 1)) continue;
        uint64_t a = s.addresses[l];
        if (BufferHeat* b = heatFindIn(heat, heatHit, a)) {
            uint64_t e0 = (a - b->base) / b->elemBytes, e1 = (a + bytes - 1 - b->base) / b->elemBytes;
            for (uint64_t e = e0; e <= e1 && e < b->count; ++e) count(*b, static_cast<size_t>(b - heat.data()), e, false);
        }
        for (uint64_t x = a; x < a + bytes; ++x) {
            uint64_t sa = x & ~uint64_t(31);
            int k = 0;
            while (k < n && secs[k].addr != sa) ++k;
            if (k == n) {
                if (n == 128) continue;
                secs[n++] = {sa, 0};
            }
            secs[k].used |= 1u << (x & 31);
        }
    }
    for (int k = 0; k < n; ++k) {
        if (secs[k].used == 0xffffffffu) continue;
        for (uint32_t x = 0; x < 32; ++x) {
            if ((secs[k].used >> x) & 1) continue;
            uint64_t a = secs[k].addr + x;
            BufferHeat* b = heatFindIn(heat, heatHit, a);
            if (!b) continue;
            uint64_t e = (a - b->base) / b->elemBytes;
            if (e < b->count) count(*b, static_cast<size_t>(b - heat.data()), e, true);
        }
    }
}
// In a launch with more warps than this, the recorder forgets a block's memory history when the
// block retires (memory stays bounded, and what is kept depends only on the issue order).
constexpr size_t kMemHistoryWarps = 8192;
struct ShareRecorder;

inline uint32_t heatElemBytes(const std::string& type) {
    if (type.empty()) return 4;
    std::string digits;
    for (char c : type)
        if (c >= '0' && c <= '9') digits += c;
    int bits = digits.empty() ? 32 : std::stoi(digits);
    return bits >= 8 ? static_cast<uint32_t>(bits / 8) : 1;
}
} // namespace session_detail
using namespace session_detail;

struct Session::Worker : sim::StepListener {
    // --- shared with the UI thread (under m) ---
    mutable std::mutex m;
    std::condition_variable cv, idleCv;
    std::deque<Command> queue;
    bool executing = false;
    std::shared_ptr<const Snapshot> published = std::make_shared<Snapshot>();
    const std::atomic<double>* speed = nullptr;
    runtime::SimDevice* device = nullptr;   // the running device, for cancel (set by runOnce)
    bool parallelRun = false;               // To end runs on several threads: a restart cancels it (Session::post)

    // --- worker thread only ---
    sim::LaunchOptions options;
    std::shared_ptr<const LessonInfo> lesson;
    runtime::ParamValues params;
    uint64_t generation = 0, serial = 0;
    uint32_t selBlock = 0, selWarp = 0;
    bool follow = true;
    bool running = false;
    uint64_t pendingSteps = 0;
    uint32_t pendingLine = 0;               // run to line: the CUDA line (0 = none)
    bool lineMustLeave = false;             // the selected warp started on that line: leave it first
    std::vector<LaunchLog> logs, replayLogs;
    std::optional<std::pair<int, uint64_t>> target;   // replay to (launch, steps in it)
    int launchIdx = -1;
    uint64_t stepsBefore = 0, records = 0;
    trace::LineStatsCollector lineStats;
    std::vector<LastStep> lastByWarp;
    std::deque<StepRecord> recent;
    std::shared_ptr<const ProgramInfo> program;
    std::map<const sim::Program*, std::shared_ptr<const ProgramInfo>> programs;
    std::shared_ptr<const Snapshot> last;   // last published snapshot of this run
    std::string note;                       // one-off status message for the next publish
    uint32_t wpb = 1;
    bool longOp = false;                    // step line / run to barrier in progress (reported as running)
    struct StatementState {                 // step line: lines visited since the warp's last backward jump
        uint64_t generation = 0;
        int launch = -1;
        uint32_t block = 0, warp = 0;
        int32_t pc = -1;                    // where the last step line left the warp
        std::set<uint32_t> visited;
    } stmt;

    // counters (one collector per launch), checker reports, memory instructions, heat map
    // The launch's pipeline (engine/run): the counters and, in Timed mode, the cycle model, with
    // this worker observing. Built at each launch's start and dropped at its end; the counters
    // stay (the last launch's numbers are shown after it), `timed` points into it.
    std::unique_ptr<run::LaunchPipeline> pipeline;
    std::shared_ptr<trace::CounterCollector> counters;
    std::vector<std::shared_ptr<const CounterView>> doneCounters;
    std::vector<ReportView> pastReports;
    std::unordered_map<uint32_t, std::deque<MemAccess>> memByWarp;
    std::unordered_map<uint32_t, int32_t> lastMatrixByWarp;   // warp -> pc of its last matrix instruction (the fragment view)
    bool dropRetiredMem = false;                          // this launch has more than kMemHistoryWarps warps
    std::unordered_map<uint32_t, uint32_t> doneInBlock;   // with dropRetiredMem: finished warps per resident block
    mem::GlobalMemory* memory = nullptr;    // the running SimDevice's memory (runOnce only)
    std::vector<BufferHeat> heat;
    size_t heatHit = 0;
    bool heatDirty = false;
    uint64_t heatSerial = 0;
    std::shared_ptr<const HeatView> heatView;
    Clock::time_point heatPublished{};

    // Timed mode: the cycle model of the current launch, the shown SM's recent cycles
    TimingConfig timingCfg;
    timing::TimingOptions launchOpts;        // the running launch's (run::launchSetup): L2 window, mapped memory
    timing::TimedRun* timed = nullptr;
    uint32_t timedSm = 0;
    std::deque<CycleCells> ring;
    uint64_t cycleStepsBefore = 0, launchCycleSteps = 0;
    uint64_t lastIssueRecords = 0, lastIssueCycle = 0;
    std::vector<std::shared_ptr<const TimedLaunchView>> doneTimings;

    void onStep(const sim::Step& s) override {
        lineStats.onStep(s);
        if ((s.isLoad || s.isStore || s.isAtomic) && s.addresses && s.execMask &&
            (s.space == ptx::StateSpace::Global || s.space == ptx::StateSpace::Shared))
            recordMem(s);
        if (s.instr && s.instr->matrix) {
            lastMatrixByWarp[s.warp] = s.pc;
            // wmma.store writes memory without a memory Step: the heat map's copy of the data is stale.
            if (s.instr->matrix->kind == sim::MatrixKind::WmmaStore) heatDirty = true;
        }
        // A warp's last Step leaves no active lanes; when a block's last warp finishes, a large
        // launch forgets the block's memory history.
        if (dropRetiredMem && s.maskAfter == 0 && ++doneInBlock[s.block] == wpb) {
            doneInBlock.erase(s.block);
            for (uint32_t i = 0; i < wpb; ++i) memByWarp.erase(s.block * wpb + i);
        }
        ++records;
        if (s.warp >= lastByWarp.size()) lastByWarp.resize(std::max<size_t>(s.warp + 1, lastByWarp.size() * 2));
        LastStep& l = lastByWarp[s.warp];
        l.active = s.activeMask;
        l.exec = s.execMask;
        l.valid = true;
        l.branch = s.branch;
        StepRecord r;
        r.index = s.index;
        r.block = s.block;
        r.warpInBlock = s.warpInBlock;
        r.pc = s.pc;
        r.line = s.instr ? s.instr->line : 0;
        r.activeMask = s.activeMask;
        r.execMask = s.execMask;
        r.maskAfter = s.maskAfter;
        r.divergent = s.divergent;
        if (recent.size() >= kRecent) recent.pop_front();
        recent.push_back(r);
    }

    // To end on every core (session_parallel.cpp): fork() gives a ShareRecorder while armed; join
    // merges it; finishParallel rebuilds what depends on the serial order.
    bool parallelArmed = false;
    const sim::Program* currentProgram = nullptr;   // the launch being run (fork() builds share recorders for it)
    bool joinedShares = false;
    trace::ScheduleLog joinedSchedule;
    std::vector<std::vector<TailStep>> joinedTails;   // per warp from joinedSchedule.base(): ring by ordinal
    std::unique_ptr<sim::StepListener> fork() const override;
    void join(sim::StepListener& fork) override;
    // `replaying`: step back's replay of an earlier launch (no snapshot, no status note).
    bool runToEndParallel(sim::Gpu& gpu, bool replaying = false);
    void finishParallel(sim::Gpu& gpu, const trace::LaunchShape& shape);

    // memory, counters, reports
    void recordMem(const sim::Step& s);
    void syncHeatBuffers();
    std::shared_ptr<const CounterView> counterView(const sim::Gpu& gpu, bool complete) const;
    static ReportView reportView(const sim::CheckReport& r, int launch, const sim::Gpu& gpu);

    // outer loop and launches
    void main();
    void startRuns(bool& quit);
    void runOnce();
    void onLaunch(sim::Gpu& gpu, const runtime::SimDevice& dev);
    void serve(sim::Gpu& gpu);
    Command waitCommand();
    bool applyOutside(const Command& c);   // true: a new run must start
    void applyRestart(const Command& c);
    void applyLimits(const SandboxLimits& l);
    bool pollInterrupt(bool* stepRequested = nullptr);
    // primitives
    bool prim(sim::Gpu& gpu, uint32_t block, uint32_t warp);
    bool cycle(sim::Gpu& gpu);
    void recordCycle();
    void doRunToEnd(sim::Gpu& gpu);
    void replay(sim::Gpu& gpu, const LaunchLog& log, uint64_t upTo);
    void doStepLine(sim::Gpu& gpu);
    void doRunToBarrier(sim::Gpu& gpu);
    void doRunToLine(sim::Gpu& gpu);
    void doRunFree(sim::Gpu& gpu);
    void doRunSteps(sim::Gpu& gpu);
    bool interrupted(sim::Gpu& gpu, Clock::time_point& lastPublish, std::chrono::milliseconds every);
    std::pair<uint32_t, uint32_t> selection() const;
    // snapshots
    std::shared_ptr<const ProgramInfo> programInfo(const sim::Program& p);
    std::shared_ptr<Snapshot> build(const sim::Gpu* gpu, RunState state);
    void publish(std::shared_ptr<Snapshot> s);
    void publishGpu(const sim::Gpu& gpu);
    void publishState(RunState state, const std::string& status);
    std::shared_ptr<const TimedLaunchView> timedLaunchView(const sim::Gpu& gpu) const;
    std::shared_ptr<const TimingView> timingView(const sim::Gpu& gpu) const;
};

} // namespace warpscope::gui
