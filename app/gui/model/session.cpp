// Session: the worker thread, the primitive log used for step back, snapshot building.
//
// Sections: 1. lesson info  2. worker state and recorder  3. Session (UI side)
//           4. worker: outer loop  5. worker: inside a launch  6. primitives and long operations
//           7. snapshots  8. memory, counters, reports
#include "gui/model/session.hpp"

#include "runtime/sim_device.hpp"
#include "sim/isa.hpp"
#include "trace/counters.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <fstream>
#include <sstream>
#include <unordered_map>

namespace warpscope::gui {

namespace {
using Clock = std::chrono::steady_clock;

std::string readFile(const std::filesystem::path& p) {
    std::ifstream f(p, std::ios::binary);
    if (!f) return {};
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}
} // namespace

// ---------------------------------------------------------------- 1. lesson info
std::shared_ptr<const LessonInfo> makeLessonInfo(const runtime::Lesson& lesson) {
    auto info = std::make_shared<LessonInfo>();
    info->lesson = lesson;
    if (!lesson.sourcePath.empty()) {
        std::istringstream in(readFile(lesson.sourcePath));
        std::string line;
        while (std::getline(in, line)) {
            if (!line.empty() && line.back() == '\r') line.pop_back();
            info->sourceLines.push_back(line);
        }
    }
    if (!lesson.dir.empty()) info->stepsMarkdown = readFile(lesson.dir / "steps.md");
    try {
        auto host = nlohmann::json::parse(lesson.hostJson.empty() ? std::string("[]") : lesson.hostJson);
        for (auto& op : host)
            if (op.is_object() && op.contains("launch")) ++info->launchCount;
    } catch (const std::exception&) {
        info->launchCount = 0;
    }
    return info;
}

// ---------------------------------------------------------------- 2. worker state and recorder
namespace {
struct RestartRun {};   // thrown through runLesson to abandon the current run and start over
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

uint32_t heatElemBytes(const std::string& type) {
    if (type.empty()) return 4;
    std::string digits;
    for (char c : type)
        if (c >= '0' && c <= '9') digits += c;
    int bits = digits.empty() ? 32 : std::stoi(digits);
    return bits >= 8 ? static_cast<uint32_t>(bits / 8) : 1;
}
} // namespace

struct Session::Worker : sim::StepListener {
    // --- shared with the UI thread (under m) ---
    mutable std::mutex m;
    std::condition_variable cv, idleCv;
    std::deque<Command> queue;
    bool executing = false;
    std::shared_ptr<const Snapshot> published = std::make_shared<Snapshot>();
    const std::atomic<double>* speed = nullptr;

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

    // counters (one collector per launch), checker reports, memory instructions, heat map
    std::unique_ptr<trace::CounterCollector> counters;
    std::unique_ptr<sim::FanOut> fanout;
    std::vector<std::shared_ptr<const CounterView>> doneCounters;
    std::vector<ReportView> pastReports;
    std::unordered_map<uint32_t, std::deque<MemAccess>> memByWarp;
    mem::GlobalMemory* memory = nullptr;    // the running SimDevice's memory (runOnce only)
    std::vector<BufferHeat> heat;
    size_t heatHit = 0;
    bool heatDirty = false;
    uint64_t heatSerial = 0;
    std::shared_ptr<const HeatView> heatView;
    Clock::time_point heatPublished{};

    // Timed mode: the cycle model of the current launch, the shown SM's recent cycles
    TimingConfig timingCfg;
    std::unique_ptr<timing::TimedRun> timed;
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

    // memory, counters, reports
    void recordMem(const sim::Step& s);
    BufferHeat* heatFind(uint64_t addr);
    void heatAccount(const sim::Step& s);
    void syncHeatBuffers();
    std::shared_ptr<const CounterView> counterView(const sim::Gpu& gpu, bool complete) const;
    static ReportView reportView(const sim::CheckReport& r, int launch, const sim::Gpu& gpu);

    // outer loop and launches
    void main();
    void startRuns(bool& quit);
    void runOnce();
    void onLaunch(sim::Gpu& gpu);
    void serve(sim::Gpu& gpu);
    Command waitCommand();
    bool applyOutside(const Command& c);   // true: a new run must start
    void applyRestart(const Command& c);
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

// ---------------------------------------------------------------- 3. Session (UI side)
Session::Session(sim::LaunchOptions options) : w_(std::make_unique<Worker>()) {
    w_->options = options;
    w_->speed = &speed_;
    thread_ = std::thread([this] { workerMain(); });
}

Session::~Session() {
    {
        std::lock_guard lk(w_->m);
        w_->queue.clear();
    }
    post(Command(CommandKind::Quit));
    if (thread_.joinable()) thread_.join();
}

void Session::post(Command c) {
    {
        std::lock_guard lk(w_->m);
        w_->queue.push_back(std::move(c));
    }
    w_->cv.notify_all();
}

void Session::load(const runtime::Lesson& lesson, const runtime::ParamValues& params) {
    Command c(CommandKind::Load);
    c.lesson = makeLessonInfo(lesson);
    c.params = params;
    post(std::move(c));
}

void Session::setParams(const runtime::ParamValues& params) {
    Command c(CommandKind::Load);
    c.params = params;   // lesson stays
    post(std::move(c));
}

void Session::restart() { post(Command(CommandKind::Restart)); }
void Session::setCheckers(bool initcheck, bool racecheck) {
    Command c(CommandKind::Restart);
    c.initcheck = initcheck ? 1 : 0;
    c.racecheck = racecheck ? 1 : 0;
    post(std::move(c));
}
void Session::step() { post(Command(CommandKind::Step)); }
void Session::stepWarp() { post(Command(CommandKind::StepWarp)); }
void Session::stepLine() { post(Command(CommandKind::StepLine)); }
void Session::runToBarrier() { post(Command(CommandKind::RunToBarrier)); }
void Session::run() { post(Command(CommandKind::Run)); }
void Session::pause() { post(Command(CommandKind::Pause)); }
void Session::stepBack() { post(Command(CommandKind::StepBack)); }
void Session::runSteps(uint64_t n) {
    Command c(CommandKind::RunSteps);
    c.count = n;
    post(std::move(c));
}
void Session::runToEnd() { post(Command(CommandKind::RunToEnd)); }
void Session::runToLine(uint32_t line) {
    Command c(CommandKind::RunToLine);
    c.line = line;
    post(std::move(c));
}
void Session::setTiming(const TimingConfig& config) {
    Command c(CommandKind::SetTiming);
    c.timing = std::make_shared<const TimingConfig>(config);
    post(std::move(c));
}
void Session::showSm(uint32_t sm) {
    Command c(CommandKind::ShowSm);
    c.sm = sm;
    post(std::move(c));
}
void Session::toggleRun() {
    auto s = snapshot();
    post(Command(s->state == RunState::Running ? CommandKind::Pause : CommandKind::Run));
}
void Session::select(uint32_t block, uint32_t warp, bool follow) {
    Command c(CommandKind::Select);
    c.block = block;
    c.warp = warp;
    c.follow = follow;
    post(std::move(c));
}
void Session::setFollow(bool follow) {
    auto s = snapshot();
    select(s->selBlock, s->selWarp, follow);
}

std::shared_ptr<const Snapshot> Session::snapshot() const {
    std::lock_guard lk(w_->m);
    return w_->published;
}

bool Session::busy() const {
    std::lock_guard lk(w_->m);
    return w_->executing || !w_->queue.empty();
}

bool Session::waitIdle(double timeoutSeconds) {
    std::unique_lock lk(w_->m);
    return w_->idleCv.wait_for(lk, std::chrono::duration<double>(timeoutSeconds),
                               [&] { return !w_->executing && w_->queue.empty(); });
}

void Session::workerMain() { w_->main(); }

// ---------------------------------------------------------------- 4. worker: outer loop
Command Session::Worker::waitCommand() {
    std::unique_lock lk(m);
    if (queue.empty()) {
        executing = false;
        idleCv.notify_all();
        cv.wait(lk, [&] { return !queue.empty(); });
    }
    Command c = std::move(queue.front());
    queue.pop_front();
    executing = true;
    return c;
}

void Session::Worker::main() {
    bool quit = false;
    while (!quit) {
        Command c = waitCommand();
        if (c.kind == CommandKind::Quit) break;
        if (applyOutside(c)) startRuns(quit);
    }
    std::lock_guard lk(m);
    executing = false;
    idleCv.notify_all();
}

// A command that arrives while no launch is in progress (nothing loaded, lesson finished,
// faulted or failed).
bool Session::Worker::applyOutside(const Command& c) {
    switch (c.kind) {
    case CommandKind::Load:
    case CommandKind::Restart:
    case CommandKind::StepBack:
    case CommandKind::SetTiming:
        if (c.kind == CommandKind::SetTiming && c.timing) timingCfg = *c.timing;
        if (c.initcheck >= 0) options.initcheck = c.initcheck != 0;
        if (c.racecheck >= 0) options.racecheck = c.racecheck != 0;
        if (!lesson && !c.lesson) return false;
        applyRestart(c);
        return true;
    case CommandKind::Select:
        selBlock = c.block;
        selWarp = c.warp;
        follow = c.follow;
        if (last) {
            auto s = std::make_shared<Snapshot>(*last);
            s->selBlock = selBlock;
            s->selWarp = selWarp;
            s->selected.reset();
            publish(s);
        }
        return false;
    case CommandKind::ShowSm:
        timedSm = c.sm;
        ring.clear();
        return false;
    case CommandKind::Step: case CommandKind::StepWarp: case CommandKind::StepLine: case CommandKind::RunToBarrier:
    case CommandKind::Run: case CommandKind::RunSteps: case CommandKind::RunToEnd: case CommandKind::RunToLine:
        if (last) {
            auto s = std::make_shared<Snapshot>(*last);
            s->statusText = lesson ? (last->state == RunState::Finished
                                          ? "The lesson has finished. Restart (R) or step back (Backspace)."
                                          : last->statusText + " Restart (R) or step back (Backspace).")
                                   : "Load a lesson first.";
            publish(s);
        }
        return false;
    case CommandKind::Pause:
    case CommandKind::Quit:
        return false;
    }
    return false;
}

// Sets up the next run for Load / Restart / StepBack: what to run and where to stop.
void Session::Worker::applyRestart(const Command& c) {
    running = false;
    pendingSteps = 0;
    pendingLine = 0;
    target.reset();
    if (c.kind == CommandKind::Load) {
        if (c.lesson) {
            lesson = c.lesson;
            selBlock = selWarp = 0;
            follow = true;
        }
        params = c.params;
        logs.clear();
        note.clear();
        return;
    }
    if (c.kind == CommandKind::SetTiming) {
        if (c.timing) timingCfg = *c.timing;
        logs.clear();
        note = timingCfg.timed ? "Timed mode on the " + timingCfg.spec.name + " preset: each step is one cycle."
                               : std::string("Timed mode off: each step is one warp-instruction.");
        return;
    }
    if (c.kind == CommandKind::Restart) {
        logs.clear();
        note = "Restarted.";
        if (c.initcheck >= 0 || c.racecheck >= 0) {
            if (c.initcheck >= 0) options.initcheck = c.initcheck != 0;
            if (c.racecheck >= 0) options.racecheck = c.racecheck != 0;
            note = std::string("Restarted with initcheck ") + (options.initcheck ? "on" : "off") + ", racecheck " +
                   (options.racecheck ? "on" : "off") + ".";
        }
        return;
    }
    // Step back: where are we now?
    int L = launchIdx;
    uint64_t n = records;
    RunState st = last ? last->state : RunState::NoLesson;
    if (L < 0 || logs.empty()) {
        note = "Already at the beginning.";
        logs.clear();
        return;
    }
    L = std::min<int>(L, static_cast<int>(logs.size()) - 1);
    n = logs[static_cast<size_t>(L)].steps;
    std::pair<int, uint64_t> to{0, 0};
    if (st == RunState::Faulted) {
        to = {L, n};   // the state just before the faulting instruction
    } else if (n > 0) {
        to = {L, n - 1};
    } else if (L > 0) {
        to = {L - 1, logs[static_cast<size_t>(L - 1)].steps};
    } else {
        note = "Already at the beginning.";
    }
    target = to;
    note = note.empty() ? "Stepped back." : note;
}

void Session::Worker::startRuns(bool& quit) {
    for (;;) {
        try {
            runOnce();
            return;
        } catch (const RestartRun&) {
            continue;   // applyRestart already set up the next run
        } catch (const QuitWorker&) {
            quit = true;
            return;
        }
    }
}

void Session::Worker::runOnce() {
    ++generation;
    replayLogs = std::move(logs);
    logs.clear();
    if (!target) replayLogs.clear();
    launchIdx = -1;
    stepsBefore = records = 0;
    lineStats.clear();
    lastByWarp.clear();
    recent.clear();
    programs.clear();
    program.reset();
    last.reset();
    counters.reset();
    fanout.reset();
    doneCounters.clear();
    pastReports.clear();
    memByWarp.clear();
    heat.clear();
    heatHit = 0;
    heatDirty = false;
    heatView.reset();
    memory = nullptr;
    timed.reset();
    ring.clear();
    cycleStepsBefore = launchCycleSteps = 0;
    doneTimings.clear();
    publishState(RunState::Loading, target ? "Replaying to the previous step..." : "Building the launch...");

    runtime::SimDevice dev(options);
    memory = &dev.memory();
    dev.onLaunch = [this](sim::Gpu& g) { onLaunch(g); };
    auto finalSnap = [&](RunState st) {
        auto s = last ? std::make_shared<Snapshot>(*last) : build(nullptr, st);
        s->serial = ++serial;
        s->state = st;
        s->generation = generation;
        return s;
    };
    try {
        runtime::RunResult res = runtime::runLesson(lesson->lesson, params, dev);
        auto s = finalSnap(RunState::Finished);
        s->checks = res.checks;
        s->launchCounters = doneCounters;
        if (!doneCounters.empty()) s->counters = doneCounters.back();
        s->reports = pastReports;
        s->launchTimings = doneTimings;
        size_t failed = 0;
        for (auto& c : res.checks) failed += c.passed ? 0 : 1;
        if (res.checks.empty()) s->statusText = "Host script finished (this lesson has no checks).";
        else if (failed == 0) s->statusText = "Host script finished: all " + std::to_string(res.checks.size()) + " checks passed.";
        else s->statusText = "Host script finished: " + std::to_string(failed) + " of " + std::to_string(res.checks.size()) + " checks FAILED.";
        if (pendingLine) s->statusText += " (Run to line " + std::to_string(pendingLine) + ": the selected warp never got there.)";
        s->selected.reset();
        last = s;
        publish(s);
    } catch (const Error& e) {
        bool fault = e.kind() == Error::Kind::Fault || e.kind() == Error::Kind::Deadlock || e.kind() == Error::Kind::Budget;
        auto s = finalSnap(fault ? RunState::Faulted : RunState::Failed);
        s->error = ErrorInfo{e.kind(), e.what(), e.site()};
        s->statusText = std::string(fault ? "The kernel stopped: " : "The lesson cannot run: ") + e.what();
        last = s;
        publish(s);
    } catch (const std::exception& e) {
        auto s = finalSnap(RunState::Failed);
        s->error = ErrorInfo{Error::Kind::Input, e.what(), {}};
        s->statusText = std::string("The lesson cannot run: ") + e.what();
        last = s;
        publish(s);
    }
    running = false;
    pendingSteps = 0;
    pendingLine = 0;
    target.reset();
    memory = nullptr;
}

// ---------------------------------------------------------------- 5. worker: inside a launch
void Session::Worker::onLaunch(sim::Gpu& gpu) {
    ++launchIdx;
    records = 0;
    lastByWarp.clear();
    recent.clear();
    wpb = gpu.warpsPerBlock();
    program = programInfo(gpu.program());
    logs.emplace_back();
    // The caches of the selected GPU preset, as `warpscope run --metrics --gpu` sizes them.
    trace::CacheConfig cacheCfg;
    if (timingCfg.spec.smCount > 0) {
        cacheCfg = timing::cacheConfigFor(timingCfg.spec, gpu, timingCfg.registers.value_or(32));
        if (!timingCfg.timed) cacheCfg.numSMs = trace::CacheConfig{}.numSMs;
    }
    counters = std::make_unique<trace::CounterCollector>(cacheCfg);
    fanout = std::make_unique<sim::FanOut>();
    fanout->add(this);
    fanout->add(counters.get());
    gpu.setListener(fanout.get());
    memByWarp.clear();
    syncHeatBuffers();
    LaunchLog& log = logs.back();
    log.timed = timingCfg.timed;
    // Timed mode: the cycle model takes the Gpu's listener slot and forwards every Step to the
    // fan-out (this recorder and the counters). It lives exactly as long as this launch.
    struct DropTimed {
        std::unique_ptr<timing::TimedRun>& t;
        ~DropTimed() { t.reset(); }
    } dropTimed{timed};
    ring.clear();
    launchCycleSteps = 0;
    lastIssueRecords = lastIssueCycle = 0;
    if (timingCfg.timed) {
        timing::TimingOptions topt;
        topt.policy = timingCfg.policy;
        std::optional<uint32_t> regs = timingCfg.registers;
        if (!regs && lesson) regs = lesson->lesson.registersFor(gpu.program().kernelName);
        if (regs) {
            topt.registersPerThread = *regs;
            topt.registersEstimated = false;
        }
        // Throws Error(Input) when a block does not fit on an SM of this preset: runOnce shows it,
        // on top of this launch's picture (so the occupancy panel can say why).
        try {
            timed = std::make_unique<timing::TimedRun>(gpu, timingCfg.spec, topt, fanout.get());
        } catch (const Error&) {
            last = build(&gpu, RunState::Paused);
            throw;
        }
        if (timedSm >= timingCfg.spec.smCount) timedSm = 0;
    }
    auto finishLaunch = [&] {
        log.complete = true;
        stepsBefore += records;
        if (timed) {
            cycleStepsBefore += launchCycleSteps;
            launchCycleSteps = 0;
            doneTimings.push_back(timedLaunchView(gpu));
        }
        doneCounters.push_back(counterView(gpu, gpu.state() == sim::LaunchState::Finished));
        for (const sim::CheckReport& r : gpu.reports()) pastReports.push_back(reportView(r, launchIdx, gpu));
    };

    if (target) {
        const LaunchLog* rl = static_cast<size_t>(launchIdx) < replayLogs.size() ? &replayLogs[static_cast<size_t>(launchIdx)] : nullptr;
        if (launchIdx < target->first) {
            if (rl) replay(gpu, *rl, rl->steps);
            while (gpu.state() == sim::LaunchState::Running) {
                prim(gpu, kRoundRobin, 0);
                if ((records & 0xffff) == 0) pollInterrupt();
            }
            finishLaunch();
            return;
        }
        if (launchIdx == target->first && rl) replay(gpu, *rl, target->second);
        target.reset();
        replayLogs.clear();
    }
    publishGpu(gpu);
    serve(gpu);
    finishLaunch();
}

// Serves commands until the launch is over and the user (or a run) moves on.
void Session::Worker::serve(sim::Gpu& gpu) {
    for (;;) {
        if (gpu.state() == sim::LaunchState::Faulted) {
            running = false;
            pendingSteps = 0;
            publishGpu(gpu);
            return;   // SimDevice rethrows the fault; runOnce shows it
        }
        bool over = gpu.state() != sim::LaunchState::Running;
        if (pendingLine > 0) {
            if (over) return;   // the next launch goes on looking for the line
            longOp = true;
            doRunToLine(gpu);
            longOp = false;
            publishGpu(gpu);
            continue;
        }
        if (pendingSteps > 0) {
            if (over) return;
            doRunSteps(gpu);
            publishGpu(gpu);
            continue;
        }
        if (running) {
            if (over) return;
            doRunFree(gpu);
            publishGpu(gpu);
            continue;
        }
        Command c = waitCommand();
        switch (c.kind) {
        case CommandKind::Step:
            if (over) return;
            prim(gpu, kRoundRobin, 0);
            break;
        case CommandKind::StepWarp: {
            if (over) return;
            auto [b, w] = selection();
            if (timed) note = "Step warp is not available in Timed mode: the cycle model decides which warp issues. Step (F10) advances one cycle.";
            else if (!prim(gpu, b, w)) note = "The selected warp cannot issue now (waiting at a barrier, finished, or its block is not resident).";
            break;
        }
        case CommandKind::StepLine:
            if (over) return;
            longOp = true;
            doStepLine(gpu);
            longOp = false;
            break;
        case CommandKind::RunToBarrier:
            if (over) return;
            longOp = true;
            doRunToBarrier(gpu);
            longOp = false;
            break;
        case CommandKind::RunToEnd:
            if (over) return;
            longOp = true;
            doRunToEnd(gpu);
            longOp = false;
            break;
        case CommandKind::ShowSm:
            timedSm = c.sm;
            ring.clear();
            break;
        case CommandKind::Run:
            running = true;
            continue;
        case CommandKind::RunSteps:
            pendingSteps = c.count;
            continue;
        case CommandKind::RunToLine: {
            auto [b, w] = selection();
            selBlock = b;
            selWarp = w;
            follow = false;
            pendingLine = c.line;
            lineMustLeave = false;
            for (auto& r : gpu.residentBlocks())
                if (r->linear == b && w < r->warps.size() && r->warps[w].pc() >= 0 &&
                    gpu.program().code[static_cast<size_t>(r->warps[w].pc())].line == c.line)
                    lineMustLeave = r->warps[w].state != sim::WarpState::Done;
            continue;
        }
        case CommandKind::Pause:
            break;
        case CommandKind::Select:
            selBlock = c.block;
            selWarp = c.warp;
            follow = c.follow;
            break;
        case CommandKind::Load:
        case CommandKind::Restart:
        case CommandKind::StepBack:
        case CommandKind::SetTiming:
            applyRestart(c);
            throw RestartRun{};
        case CommandKind::Quit:
            throw QuitWorker{};
        }
        publishGpu(gpu);
    }
}

// Looks at the queue during a long operation. Pause stops it (returns true); restart-like
// commands abandon the run; a selection change is applied on the fly; a step request stops a
// free run (and stays queued, so it runs next).
bool Session::Worker::pollInterrupt(bool* stepRequested) {
    std::unique_lock lk(m);
    while (!queue.empty()) {
        Command& c = queue.front();
        switch (c.kind) {
        case CommandKind::Pause: {
            queue.pop_front();
            running = false;
            pendingSteps = 0;
            pendingLine = 0;
            return true;
        }
        case CommandKind::Select:
            selBlock = c.block;
            selWarp = c.warp;
            follow = c.follow;
            queue.pop_front();
            continue;
        case CommandKind::Run:
            queue.pop_front();
            continue;
        case CommandKind::ShowSm:
            timedSm = c.sm;
            ring.clear();
            queue.pop_front();
            continue;
        case CommandKind::Load:
        case CommandKind::Restart:
        case CommandKind::StepBack:
        case CommandKind::SetTiming: {
            Command cc = std::move(c);
            queue.pop_front();
            lk.unlock();
            applyRestart(cc);
            throw RestartRun{};
        }
        case CommandKind::Quit:
            throw QuitWorker{};
        default:
            if (stepRequested) *stepRequested = true;
            return stepRequested != nullptr;
        }
    }
    return false;
}

// ---------------------------------------------------------------- 6. primitives and long operations
std::pair<uint32_t, uint32_t> Session::Worker::selection() const {
    if (follow && !recent.empty()) return {recent.back().block, recent.back().warpInBlock};
    return {selBlock, selWarp};
}

// One logged primitive. Returns true when an instruction issued.
bool Session::Worker::prim(sim::Gpu& gpu, uint32_t block, uint32_t warp) {
    if (timed) return block == kRoundRobin && cycle(gpu);   // a single warp cannot step on its own in a cycle model
    uint64_t before = records;
    if (block == kRoundRobin) {
        gpu.step();
    } else {
        const auto& res = gpu.residentBlocks();
        for (size_t s = 0; s < res.size(); ++s)
            if (res[s]->linear == block) {
                gpu.stepWarp(static_cast<uint32_t>(s), warp);
                break;
            }
    }
    if (records == before) return false;
    LaunchLog& log = logs.back();
    if (!log.prims.empty() && log.prims.back().block == block && (block == kRoundRobin || log.prims.back().warp == warp))
        ++log.prims.back().count;
    else
        log.prims.push_back({block, warp, 1});
    ++log.steps;
    return true;
}

// Timed mode: one cycle of the cycle model (every scheduler may issue once). Returns false once
// the launch is over.
bool Session::Worker::cycle(sim::Gpu& gpu) {
    if (timed->finished()) return false;
    timed->stepCycle();
    ++logs.back().steps;
    ++launchCycleSteps;
    recordCycle();
    if (records != lastIssueRecords) {
        lastIssueRecords = records;
        lastIssueCycle = timed->cycle();
    } else if (!timed->finished() && timed->cycle() - lastIssueCycle > kIdleLimit) {
        // Nothing issued for a very long time. If no warp can ever issue again (every one waits at
        // a barrier that cannot release), let the functional engine diagnose the deadlock, as
        // TimedRun::run does; the next cycle then sees the launch over.
        bool anyReady = false;
        for (auto& b : gpu.residentBlocks())
            for (auto& w : b->warps) anyReady = anyReady || w.state == sim::WarpState::Ready;
        if (!anyReady) {
            while (gpu.step()) {
            }
            timed->stepCycle();
        }
        lastIssueCycle = timed->cycle();
    }
    return true;
}

// The shown SM's schedulers in the cycle just stepped: issued, or the oldest warp's stall reason.
void Session::Worker::recordCycle() {
    if (timedSm >= timed->spec().smCount) return;
    timing::SmView v = timed->smView(timedSm);
    CycleCells c;
    c.cycle = timed->cycle();
    c.count = static_cast<uint8_t>(std::min(v.schedulers.size(), kMaxSchedulers));
    for (size_t k = 0; k < c.count; ++k) {
        const timing::SchedulerView& sc = v.schedulers[k];
        if (sc.issuedSlot >= 0) {
            c.cell[k] = kCellIssued;
            continue;
        }
        const timing::WarpView* oldest = nullptr;
        for (uint32_t slot : sc.slots) {
            const timing::WarpView& w = v.warps[slot];
            if (w.phase != timing::WarpPhase::Active && w.phase != timing::WarpPhase::AtBarrier) continue;
            if (!oldest || w.block < oldest->block || (w.block == oldest->block && w.warpInBlock < oldest->warpInBlock)) oldest = &w;
        }
        c.cell[k] = oldest ? static_cast<uint8_t>(oldest->reason) : kCellIdle;
    }
    if (ring.size() >= kCycleRing) ring.pop_front();
    ring.push_back(c);
}

void Session::Worker::replay(sim::Gpu& gpu, const LaunchLog& log, uint64_t upTo) {
    if (timed) {
        for (uint64_t k = 0; k < upTo; ++k) {
            if (!cycle(gpu)) return;
            if ((k & 0xffff) == 0xffff) pollInterrupt();
        }
        return;
    }
    uint64_t done = 0;
    for (const Prim& p : log.prims) {
        for (uint64_t k = 0; k < p.count && done < upTo; ++k, ++done) {
            if (!prim(gpu, p.block, p.warp)) return;   // cannot happen with a deterministic engine
            if ((done & 0xffff) == 0xffff) pollInterrupt();
        }
        if (done >= upTo) break;
    }
}

// Mirrors Gpu::stepLine, but as logged primitives (so step back can replay it) and interruptible.
void Session::Worker::doStepLine(sim::Gpu& gpu) {
    auto [blk, wi] = selection();
    auto findBlock = [&]() -> const sim::Block* {
        for (auto& r : gpu.residentBlocks())
            if (r->linear == blk) return r.get();
        return nullptr;
    };
    const sim::Block* b = findBlock();
    if (!b || wi >= b->warps.size()) {
        note = "The selected warp's block is not resident; select a resident warp first.";
        return;
    }
    auto lineOf = [&](const sim::Warp& w) -> uint32_t {
        int32_t pc = w.pc();
        return pc >= 0 ? gpu.program().code[static_cast<size_t>(pc)].line : 0;
    };
    uint32_t start = lineOf(b->warps[wi]);
    bool savedFollow = follow;
    follow = false;   // keep stepping this warp even when others issue in between
    selBlock = blk;
    selWarp = wi;
    auto lastPublish = Clock::now();
    if (timed) {   // cycles until the warp has moved to another line
        for (uint64_t i = 0; cycle(gpu); ++i) {
            b = findBlock();
            if (gpu.state() != sim::LaunchState::Running || !b || b->warps[wi].state == sim::WarpState::Done) break;
            uint32_t now = lineOf(b->warps[wi]);
            if (now != start && now != 0) break;
            if ((i & 0xfff) == 0xfff) {
                if (pollInterrupt()) break;
                if (Clock::now() - lastPublish > std::chrono::milliseconds(100)) {
                    publishGpu(gpu);
                    lastPublish = Clock::now();
                }
            }
        }
        follow = savedFollow;
        return;
    }
    for (uint64_t i = 0;; ++i) {
        if (gpu.state() != sim::LaunchState::Running) break;
        b = findBlock();
        if (!b) break;
        const sim::Warp& w = b->warps[wi];
        if (w.state == sim::WarpState::Done) break;
        if (w.state == sim::WarpState::Ready) {
            prim(gpu, blk, wi);
            b = findBlock();
            if (gpu.state() != sim::LaunchState::Running || !b || b->warps[wi].state == sim::WarpState::Done) break;
            uint32_t now = lineOf(b->warps[wi]);
            if (now != start && now != 0) break;
        } else if (!prim(gpu, kRoundRobin, 0)) {
            break;
        }
        if ((i & 0xfff) == 0xfff) {
            if (pollInterrupt()) break;
            if (Clock::now() - lastPublish > std::chrono::milliseconds(100)) {
                publishGpu(gpu);
                lastPublish = Clock::now();
            }
        }
    }
    follow = savedFollow;
}

void Session::Worker::doRunToBarrier(sim::Gpu& gpu) {
    uint64_t released = gpu.stats().barriers;
    auto lastPublish = Clock::now();
    for (uint64_t i = 0; gpu.state() == sim::LaunchState::Running && gpu.stats().barriers == released; ++i) {
        if (!prim(gpu, kRoundRobin, 0)) break;
        if ((i & 0xfff) == 0xfff) {
            if (pollInterrupt()) break;
            if (Clock::now() - lastPublish > std::chrono::milliseconds(100)) {
                publishGpu(gpu);
                lastPublish = Clock::now();
            }
        }
    }
    if (gpu.state() == sim::LaunchState::Finished && gpu.stats().barriers == released)
        note = "No barrier released before the launch ended.";
}

// Run to line: round-robin primitives (timed: cycles) until the selected warp's next instruction
// is on pendingLine. Leaves pendingLine set when the launch ends first (serve moves on to the
// next launch and continues there).
void Session::Worker::doRunToLine(sim::Gpu& gpu) {
    auto lastPublish = Clock::now();
    const uint32_t blk = selBlock, wi = selWarp;
    for (uint64_t i = 0; gpu.state() == sim::LaunchState::Running; ++i) {
        for (auto& r : gpu.residentBlocks()) {
            if (r->linear != blk || wi >= r->warps.size()) continue;
            const sim::Warp& w = r->warps[wi];
            if (w.state == sim::WarpState::Done || w.pc() < 0) break;
            bool on = gpu.program().code[static_cast<size_t>(w.pc())].line == pendingLine;
            if (on && !lineMustLeave) {
                pendingLine = 0;
                return;
            }
            if (!on) lineMustLeave = false;
            break;
        }
        if (!prim(gpu, kRoundRobin, 0)) {
            if (gpu.state() == sim::LaunchState::Running) pendingLine = 0;   // stuck: give up (the launch's end keeps looking)
            break;
        }
        if ((i & 0xfff) == 0xfff) {
            if (pollInterrupt()) {
                pendingLine = 0;
                return;
            }
            if (Clock::now() - lastPublish > std::chrono::milliseconds(100)) {
                publishGpu(gpu);
                lastPublish = Clock::now();
            }
        }
    }
    lineMustLeave = false;   // a new launch: any arrival at the line counts
}

void Session::Worker::doRunToEnd(sim::Gpu& gpu) {
    auto lastPublish = Clock::now();
    for (uint64_t i = 0; gpu.state() == sim::LaunchState::Running; ++i) {
        if (!prim(gpu, kRoundRobin, 0)) break;
        if ((i & 0xfff) == 0xfff) {
            if (pollInterrupt()) break;
            if (Clock::now() - lastPublish > std::chrono::milliseconds(100)) {
                publishGpu(gpu);
                lastPublish = Clock::now();
            }
        }
    }
}

void Session::Worker::doRunSteps(sim::Gpu& gpu) {
    auto lastPublish = Clock::now();
    while (pendingSteps > 0 && gpu.state() == sim::LaunchState::Running) {
        if (!prim(gpu, kRoundRobin, 0)) break;
        --pendingSteps;
        if ((pendingSteps & 0xfff) == 0) {
            if (pollInterrupt()) break;
            if (Clock::now() - lastPublish > std::chrono::milliseconds(16)) {
                publishGpu(gpu);
                lastPublish = Clock::now();
            }
        }
    }
}

// Free run at the set speed; publishes at most every 16 ms so the UI keeps its frame rate.
void Session::Worker::doRunFree(sim::Gpu& gpu) {
    auto t0 = Clock::now();
    auto lastPublish = t0;
    double rate = speed->load();
    uint64_t done = 0;
    while (running && gpu.state() == sim::LaunchState::Running) {
        double sp = speed->load();
        if (sp != rate) {   // speed changed: measure from now
            rate = sp;
            t0 = Clock::now();
            done = 0;
        }
        uint64_t chunk = 4096;
        if (rate > 0) {
            double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
            double allowed = rate * elapsed - double(done);
            if (allowed < 1) {
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
                bool step = false;
                if (pollInterrupt(&step) || step) {
                    running = false;
                    break;
                }
                continue;
            }
            chunk = std::min<uint64_t>(chunk, static_cast<uint64_t>(allowed));
        }
        for (uint64_t k = 0; k < chunk; ++k) {
            if (!prim(gpu, kRoundRobin, 0)) break;
            ++done;
        }
        bool step = false;
        if (pollInterrupt(&step) || step) {
            running = false;
            break;
        }
        if (Clock::now() - lastPublish >= std::chrono::milliseconds(16)) {
            publishGpu(gpu);
            lastPublish = Clock::now();
        }
    }
}

// ---------------------------------------------------------------- 7. snapshots
std::shared_ptr<const ProgramInfo> Session::Worker::programInfo(const sim::Program& p) {
    auto it = programs.find(&p);
    if (it != programs.end()) return it->second;
    auto info = std::make_shared<ProgramInfo>();
    info->kernelName = p.kernelName;
    info->code.reserve(p.code.size());
    for (size_t pc = 0; pc < p.code.size(); ++pc) {
        const sim::Instr& in = p.code[pc];
        InstrInfo ii;
        ii.text = in.text;
        ii.line = in.line;
        ii.ptxLine = in.ptxLine;
        ii.func = in.func;
        ii.isBranch = in.op == sim::Op::Bra;
        ii.isBarrier = sim::opInfo(in.op).cls == sim::ExecClass::Barrier;
        info->code.push_back(std::move(ii));
        if (in.func == 0) info->pcsByLine[in.line].push_back(static_cast<int32_t>(pc));
    }
    for (auto& f : p.functions) {
        FunctionInfo fi;
        fi.name = f.name;
        fi.regNames = f.regNames;
        for (auto t : f.regTypes) fi.regTypes.emplace_back(ptx::typeName(t));
        fi.predNames = f.predNames;
        info->functions.push_back(std::move(fi));
    }
    programs[&p] = info;
    return info;
}

std::shared_ptr<Snapshot> Session::Worker::build(const sim::Gpu* gpu, RunState state) {
    auto s = std::make_shared<Snapshot>();
    s->serial = ++serial;
    s->generation = generation;
    s->state = state;
    s->lesson = lesson;
    s->params = params;
    s->launchIndex = launchIdx;
    s->totalSteps = stepsBefore + records;
    s->stepInLaunch = records;
    s->lineStats = lineStats.byLine();
    s->recent.assign(recent.begin(), recent.end());
    auto [sb, sw] = selection();
    s->selBlock = sb;
    s->selWarp = sw;
    s->initcheck = options.initcheck;
    s->racecheck = options.racecheck;
    s->timed = timingCfg.timed;
    s->gpuPreset = timingCfg.spec.name;
    s->totalCycleSteps = cycleStepsBefore + launchCycleSteps;
    s->launchTimings = doneTimings;
    s->reports = pastReports;
    s->launchCounters = doneCounters;
    if (!doneCounters.empty()) s->counters = doneCounters.back();
    // Heat map: rebuilt when the counts changed, at most 5 times a second while running.
    if (memory && heatDirty && (state != RunState::Running || Clock::now() - heatPublished > std::chrono::milliseconds(200))) {
        auto hv = std::make_shared<HeatView>();
        hv->serial = ++heatSerial;
        hv->buffers = heat;
        for (BufferHeat& b : hv->buffers) {
            const mem::Allocation* a = memory->find(b.base, std::max<uint64_t>(b.bytes, 1));
            if (a && a->data) b.data.assign(a->data.get(), a->data.get() + b.bytes);
        }
        heatView = hv;
        heatDirty = false;
        heatPublished = Clock::now();
    }
    s->heat = heatView;
    if (gpu && memByWarp.size() > 8192) {   // forget warps of blocks that retired
        for (auto it = memByWarp.begin(); it != memByWarp.end();) {
            uint32_t blk = it->first / std::max(1u, wpb);
            bool resident = false;
            for (auto& r : gpu->residentBlocks()) resident = resident || r->linear == blk;
            it = resident ? std::next(it) : memByWarp.erase(it);
        }
    }
    {
        uint32_t gw = sb * std::max(1u, wpb) + sw;
        auto it = memByWarp.find(gw);
        if (it != memByWarp.end()) s->memHistory.assign(it->second.begin(), it->second.end());
    }
    if (!gpu) return s;
    if (counters) {
        s->counters = counterView(*gpu, gpu->state() == sim::LaunchState::Finished);
        s->launchCounters.push_back(s->counters);
    }
    for (const sim::CheckReport& r : gpu->reports()) s->reports.push_back(reportView(r, launchIdx, *gpu));

    s->program = program;
    s->sharedBytesPerBlock = gpu->sharedBytesPerBlock();
    if (timed) s->timing = timingView(*gpu);
    const auto& cfg = gpu->config();
    s->grid[0] = cfg.grid.x, s->grid[1] = cfg.grid.y, s->grid[2] = cfg.grid.z;
    s->block[0] = cfg.block.x, s->block[1] = cfg.block.y, s->block[2] = cfg.block.z;
    s->warpsPerBlock = gpu->warpsPerBlock();
    s->blockCount = gpu->blockCount();
    s->blocksLaunched = gpu->blocksLaunched();
    const auto& st = gpu->stats();
    s->branches = st.branches;
    s->divergentBranches = st.divergentBranches;
    s->barriers = st.barriers;
    s->blocksCompleted = st.blocksCompleted;
    s->threadInstructions = st.threadInstructions;
    const auto& code = gpu->program().code;

    const auto& res = gpu->residentBlocks();
    s->resident.reserve(res.size());
    for (size_t slot = 0; slot < res.size(); ++slot) {
        const sim::Block& b = *res[slot];
        BlockView bv;
        bv.linear = b.linear;
        bv.idx[0] = b.idx.x, bv.idx[1] = b.idx.y, bv.idx[2] = b.idx.z;
        bv.sm = b.sm;
        bv.residentSlot = static_cast<uint32_t>(slot);
        bv.warps.reserve(b.warps.size());
        for (const sim::Warp& w : b.warps) {
            WarpView wv;
            wv.indexInBlock = w.indexInBlock;
            wv.globalWarp = b.linear * gpu->warpsPerBlock() + w.indexInBlock;
            wv.masks.valid = w.validMask;
            wv.masks.exited = w.exited;
            wv.masks.active = w.state == sim::WarpState::Done ? 0 : w.activeMask();
            wv.masks.atBarrier = w.state == sim::WarpState::AtBarrier;
            wv.masks.done = w.state == sim::WarpState::Done;
            if (wv.globalWarp < lastByWarp.size() && lastByWarp[wv.globalWarp].valid) {
                const LastStep& l = lastByWarp[wv.globalWarp];
                wv.masks.hasLast = true;
                wv.masks.lastActive = l.active;
                wv.masks.lastExec = l.exec;
                wv.masks.lastWasBranch = l.branch;
            }
            wv.pc = w.state == sim::WarpState::Done ? -1 : w.pc();
            wv.line = wv.pc >= 0 ? code[static_cast<size_t>(wv.pc)].line : 0;
            wv.issued = w.issued;
            wv.state = static_cast<uint8_t>(w.state);
            wv.lanes = laneStates(wv.masks);
            bv.warps.push_back(std::move(wv));
        }
        if (b.linear == sb && sw < b.warps.size()) {
            const sim::Warp& w = b.warps[sw];
            WarpDetail d;
            d.block = b.linear;
            d.warpInBlock = sw;
            d.blockIdx[0] = b.idx.x, d.blockIdx[1] = b.idx.y, d.blockIdx[2] = b.idx.z;
            d.warp = bv.warps[sw];
            for (const sim::Frame& f : w.frames) {
                FrameView fv;
                fv.func = f.func;
                for (auto& e : f.stack) fv.stack.push_back({e.pc, e.rpc, e.mask});
                d.frames.push_back(std::move(fv));
            }
            if (!w.frames.empty()) {
                d.func = w.frames.back().func;
                d.regs = w.frames.back().regs;
                d.preds = w.frames.back().preds;
            }
            s->selected = std::move(d);
        }
        s->resident.push_back(std::move(bv));
    }
    if (gpu->fault()) {
        const Error& e = *gpu->fault();
        s->error = ErrorInfo{e.kind(), e.what(), e.site()};
    }
    return s;
}

// ---------------------------------------------------------------- 8. memory, counters, reports
void Session::Worker::recordMem(const sim::Step& s) {
    MemAccess m;
    m.stepIndex = s.index;
    m.launchIndex = launchIdx;
    m.block = s.block;
    m.warpInBlock = s.warpInBlock;
    m.pc = s.pc;
    m.line = s.instr ? s.instr->line : 0;
    m.shared = s.space == ptx::StateSpace::Shared;
    m.bytes = s.accessBytes;
    m.isLoad = s.isLoad;
    m.isStore = s.isStore;
    m.isAtomic = s.isAtomic;
    m.mask = s.execMask;
    for (int l = 0; l < 32; ++l)
        if ((s.execMask >> l) & 1) m.addr[static_cast<size_t>(l)] = s.addresses[l];
    if (!m.shared) {
        int first = std::countr_zero(s.execMask);
        if (BufferHeat* b = heatFind(s.addresses[first])) {
            m.buffer = b->name;
            m.bufferBase = b->base;
        }
        heatAccount(s);
    }
    auto& dq = memByWarp[s.warp];
    if (dq.size() >= kMemHistory) dq.pop_front();
    dq.push_back(std::move(m));
}

BufferHeat* Session::Worker::heatFind(uint64_t addr) {
    if (heatHit < heat.size() && addr >= heat[heatHit].base && addr < heat[heatHit].base + heat[heatHit].bytes) return &heat[heatHit];
    for (size_t i = 0; i < heat.size(); ++i)
        if (addr >= heat[i].base && addr < heat[i].base + heat[i].bytes) {
            heatHit = i;
            return &heat[i];
        }
    return nullptr;
}

// Accesses: each lane-element touched. Wasted: bytes a fetched sector carried that no lane asked
// for, charged to the elements those bytes belong to.
void Session::Worker::heatAccount(const sim::Step& s) {
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
        if (BufferHeat* b = heatFind(a)) {
            uint64_t e0 = (a - b->base) / b->elemBytes, e1 = (a + bytes - 1 - b->base) / b->elemBytes;
            for (uint64_t e = e0; e <= e1 && e < b->count; ++e) {
                ++b->runAccesses[e];
                ++b->launchAccesses[e];
            }
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
            BufferHeat* b = heatFind(a);
            if (!b) continue;
            uint64_t e = (a - b->base) / b->elemBytes;
            if (e < b->count) {
                ++b->runWasted[e];
                ++b->launchWasted[e];
            }
        }
    }
    heatDirty = true;
}

// The device buffers at the start of a launch: keeps counts of buffers that still exist, adds
// new ones, and starts the per-launch counts from zero.
void Session::Worker::syncHeatBuffers() {
    if (!memory) return;
    std::vector<BufferHeat> next;
    for (const auto& a : memory->allocations()) {
        if (!a || a->freed || a->readOnly || a->size == 0) continue;
        BufferHeat* old = nullptr;
        for (auto& h : heat)
            if (h.base == a->base && h.name == a->name) old = &h;
        if (old) {
            next.push_back(std::move(*old));
        } else {
            BufferHeat b;
            b.name = a->name;
            b.base = a->base;
            b.bytes = a->size;
            b.type = "";
            if (lesson) {
                for (auto& bs : lesson->lesson.buffers)
                    if (bs.name == a->name) b.type = bs.type;
                b.width = runtime::bufferWidth(lesson->lesson, a->name, params);
            }
            b.elemBytes = heatElemBytes(b.type);
            if (b.type.empty()) b.type = "u32";
            b.count = b.bytes / b.elemBytes;
            b.runAccesses.assign(b.count, 0);
            b.runWasted.assign(b.count, 0);
            next.push_back(std::move(b));
        }
        next.back().launchAccesses.assign(next.back().count, 0);
        next.back().launchWasted.assign(next.back().count, 0);
    }
    heat = std::move(next);
    heatHit = 0;
    heatDirty = true;
}

std::shared_ptr<const CounterView> Session::Worker::counterView(const sim::Gpu& gpu, bool complete) const {
    auto v = std::make_shared<CounterView>();
    v->launchIndex = launchIdx;
    v->kernel = gpu.program().kernelName;
    v->complete = complete;
    if (counters) {
        v->metrics = counters->metrics();
        v->byLine = counters->byLine();
        v->total = counters->total();
    }
    for (auto& m : trace::CounterCollector::estimatedMetrics()) v->estimated.insert(m);
    return v;
}

ReportView Session::Worker::reportView(const sim::CheckReport& r, int launch, const sim::Gpu& gpu) {
    ReportView v;
    v.launchIndex = launch;
    v.kernel = gpu.program().kernelName;
    const auto& c = gpu.config();
    v.grid[0] = c.grid.x, v.grid[1] = c.grid.y, v.grid[2] = c.grid.z;
    v.block[0] = c.block.x, v.block[1] = c.block.y, v.block[2] = c.block.z;
    v.tool = r.tool;
    v.hazard = r.hazard;
    v.message = r.message;
    v.site = r.site;
    return v;
}

void Session::Worker::publish(std::shared_ptr<Snapshot> s) {
    if (s->state != RunState::Loading && s->state != RunState::NoLesson) last = s;
    std::lock_guard lk(m);
    published = std::move(s);
}

void Session::Worker::publishGpu(const sim::Gpu& gpu) {
    if (gpu.fault() && gpu.fault()->site().blockX && gpu.fault()->site().threadX) {
        // Show the warp that faulted.
        const FaultSite& f = gpu.fault()->site();
        const auto& c = gpu.config();
        selBlock = *f.blockX + c.grid.x * (*f.blockY + c.grid.y * *f.blockZ);
        selWarp = (*f.threadX + c.block.x * (*f.threadY + c.block.y * *f.threadZ)) / 32;
        follow = false;
    }
    RunState st = RunState::Paused;
    if (gpu.state() == sim::LaunchState::Faulted) st = RunState::Faulted;
    else if (gpu.state() == sim::LaunchState::Finished) st = RunState::LaunchDone;
    else if (running || pendingSteps > 0 || longOp) st = RunState::Running;
    auto s = build(&gpu, st);
    std::string launchName = "launch " + std::to_string(launchIdx + 1) +
                             (lesson && lesson->launchCount > 0 ? " of " + std::to_string(lesson->launchCount) : std::string()) +
                             " (" + gpu.program().kernelName + ")";
    switch (st) {
    case RunState::Paused:
        s->statusText = "Paused in " + launchName + (timed ? " at cycle " + std::to_string(timed->cycle()) + " on " + timed->spec().name : std::string()) + ".";
        break;
    case RunState::Running: s->statusText = "Running " + launchName + (timed ? " (cycle model, " + timed->spec().name + ")" : std::string()) + "..."; break;
    case RunState::LaunchDone: {
        bool more = lesson && launchIdx + 1 < lesson->launchCount;
        s->statusText = launchName + " finished. Step to " + (more ? "start the next launch." : "finish the host script and run the checks.");
        break;
    }
    case RunState::Faulted: s->statusText = "The kernel stopped: " + (gpu.fault() ? std::string(gpu.fault()->what()) : std::string()); break;
    default: break;
    }
    if (!note.empty() && st != RunState::Running) {
        s->statusText = note + " " + s->statusText;
        note.clear();
    }
    publish(s);
}

std::shared_ptr<const TimedLaunchView> Session::Worker::timedLaunchView(const sim::Gpu& gpu) const {
    auto v = std::make_shared<TimedLaunchView>();
    v->launchIndex = launchIdx;
    v->kernel = gpu.program().kernelName;
    v->complete = timed->finished() && gpu.state() == sim::LaunchState::Finished;
    v->result = timed->result();
    return v;
}

std::shared_ptr<const TimingView> Session::Worker::timingView(const sim::Gpu& gpu) const {
    auto tv = std::make_shared<TimingView>();
    tv->spec = timed->spec();
    tv->cycle = timed->cycle();
    tv->finished = timed->finished();
    tv->launch = timedLaunchView(gpu);
    uint32_t nsm = tv->spec.smCount;
    tv->sm = nsm ? std::min(timedSm, nsm - 1) : 0;
    tv->blocksPerSm.assign(nsm, 0);
    const auto& code = gpu.program().code;
    for (uint32_t sm = 0; sm < nsm; ++sm) {
        timing::SmView v = timed->smView(sm);
        tv->blocksPerSm[sm] = static_cast<uint32_t>(v.blocks.size());
        if (sm != tv->sm) continue;
        tv->smBlocks = v.blocks;
        for (const timing::SchedulerView& sc : v.schedulers) {
            SchedState st;
            st.issuedSlot = sc.issuedSlot;
            st.issuedPc = sc.issuedPc;
            for (uint32_t slot : sc.slots) {
                const timing::WarpView& w = v.warps[slot];
                SchedWarp sw;
                sw.slot = slot;
                sw.block = w.block;
                sw.warpInBlock = w.warpInBlock;
                sw.phase = w.phase;
                sw.reason = w.reason;
                sw.pc = w.pc;
                sw.line = w.pc >= 0 && static_cast<size_t>(w.pc) < code.size() ? code[static_cast<size_t>(w.pc)].line : 0;
                st.warps.push_back(sw);
            }
            std::sort(st.warps.begin(), st.warps.end(), [](const SchedWarp& a, const SchedWarp& b) {
                return a.block != b.block ? a.block < b.block : a.warpInBlock < b.warpInBlock;
            });
            tv->schedulers.push_back(std::move(st));
        }
    }
    tv->timeline.assign(ring.begin(), ring.end());
    return tv;
}

void Session::Worker::publishState(RunState state, const std::string& status) {
    auto s = build(nullptr, state);
    s->statusText = status;
    publish(s);
}

} // namespace warpscope::gui
