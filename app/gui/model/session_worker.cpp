// The session's worker thread: the outer loop that waits for commands and (re)starts runs of the
// host program, and what happens inside one kernel launch.
//
// Sections: 4. worker: outer loop  5. worker: inside a launch
#include "gui/model/session_worker.hpp"

namespace warpscope::gui {

// ---------------------------------------------------------------- 4. worker: outer loop
// The engine's limit messages name the CLI option that raises each limit; that is how they are told
// apart (the memory and grid limits are Input errors, like any bad size).
LimitKind session_detail::limitOf(const Error& e) {
    std::string_view m = e.what();
    if (e.kind() == Error::Kind::Budget && m.find("--budget") != std::string_view::npos) return LimitKind::InstructionBudget;
    if (e.kind() == Error::Kind::Input && m.find("--device-memory") != std::string_view::npos) return LimitKind::DeviceMemory;
    if (e.kind() == Error::Kind::Input && m.find("--max-blocks") != std::string_view::npos) return LimitKind::Blocks;
    return LimitKind::None;
}

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
        if (c.limits) applyLimits(*c.limits);
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
    case CommandKind::Cancel:   // nothing runs
        return false;
    }
    return false;
}

void Session::Worker::applyLimits(const SandboxLimits& l) {
    options.deviceMemoryBytes = l.deviceMemoryBytes;
    options.maxBlocks = std::max<uint64_t>(l.maxBlocks, 1);
    options.instructionBudget = std::max<uint64_t>(l.instructionBudget, 1);
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
        if (c.limits) {
            applyLimits(*c.limits);
            note = "Restarted with the new limits.";
        }
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
    longOp = false;   // a long operation that a cancel or restart threw out of is over
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
    pipeline.reset();
    counters.reset();
    doneCounters.clear();
    pastReports.clear();
    memByWarp.clear();
    lastMatrixByWarp.clear();
    heat.clear();
    heatHit = 0;
    heatDirty = false;
    heatView.reset();
    memory = nullptr;
    timed = nullptr;
    ring.clear();
    cycleStepsBefore = launchCycleSteps = 0;
    doneTimings.clear();
    publishState(RunState::Loading, target ? "Replaying to the previous step..." : "Building the launch...");

    runtime::SimDevice dev(options);
    struct Publish {   // the device Session::cancel reaches; unset before it is destroyed
        Worker& w;
        Publish(Worker& wk, runtime::SimDevice* d) : w(wk) { set(d); }
        ~Publish() { set(nullptr); }
        void set(runtime::SimDevice* d) {
            std::lock_guard lk(w.m);
            w.device = d;
        }
    } publishDevice(*this, &dev);
    memory = &dev.memory();
    dev.onLaunch = [this, &dev](sim::Gpu& g) { onLaunch(g, dev); };
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
        else if (failed == 0) s->statusText = res.checks.size() == 1 ? "Host script finished: its check passed."
                                                    : "Host script finished: all " + std::to_string(res.checks.size()) + " checks passed.";
        else s->statusText = "Host script finished: " + std::to_string(failed) + " of " + std::to_string(res.checks.size()) + " checks FAILED.";
        if (pendingLine) s->statusText += " (Run to line " + std::to_string(pendingLine) + ": the selected warp never got there.)";
        s->selected.reset();
        last = s;
        publish(s);
    } catch (const Error& e) {
        bool cancelled = e.kind() == Error::Kind::Cancelled;
        bool fault = cancelled || e.kind() == Error::Kind::Fault || e.kind() == Error::Kind::Deadlock || e.kind() == Error::Kind::Budget;
        auto s = finalSnap(fault ? RunState::Faulted : RunState::Failed);
        s->error = ErrorInfo{e.kind(), e.what(), e.site(), limitOf(e)};
        if (cancelled) s->statusText = std::string(e.what()) + " Run cancelled: restart (R), or step back (Backspace) to look at where it stopped.";
        else s->statusText = std::string(fault ? "The kernel stopped: " : "The lesson cannot run: ") + e.what();
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
    longOp = false;
    pendingSteps = 0;
    pendingLine = 0;
    target.reset();
    memory = nullptr;
}

// ---------------------------------------------------------------- 5. worker: inside a launch
void Session::Worker::onLaunch(sim::Gpu& gpu, const runtime::SimDevice& dev) {
    ++launchIdx;
    records = 0;
    lastByWarp.clear();
    recent.clear();
    wpb = gpu.warpsPerBlock();
    program = programInfo(gpu.program());
    logs.emplace_back();
    memByWarp.clear();
    lastMatrixByWarp.clear();
    doneInBlock.clear();
    dropRetiredMem = gpu.blockCount() * wpb > kMemHistoryWarps;
    syncHeatBuffers();
    LaunchLog& log = logs.back();
    log.timed = timingCfg.timed;
    ring.clear();
    launchCycleSteps = 0;
    lastIssueRecords = lastIssueCycle = 0;
    // The launch's pipeline, set up as the run API sets up each launch of `warpscope run`
    // (run::launchSetup): the counters with the caches of the selected GPU preset and, in Timed
    // mode, the cycle model with what the host program set for this launch (its stream's L2
    // access policy window, the persisting set-aside, mapped host memory), which takes the Gpu's
    // listener slot and forwards every Step to this recorder and the counters. It lives exactly
    // as long as this launch; the counters stay for the finished picture.
    struct DropPipeline {
        Worker& w;
        ~DropPipeline() {
            w.pipeline.reset();
            w.timed = nullptr;
        }
    } dropPipeline{*this};
    run::RunSpec spec;
    spec.timed = timingCfg.timed;
    spec.counters = true;
    spec.timing.policy = timingCfg.policy;
    if (timingCfg.registers) {   // the user's count comes first, then lesson.json's
        spec.timing.registersPerThread = *timingCfg.registers;
        spec.timing.registersEstimated = false;
    }
    spec.observers.push_back(this);
    run::LaunchPipeline::Setup setup = run::launchSetup(spec, timingCfg.spec.smCount > 0 ? &timingCfg.spec : nullptr, timingCfg.timed,
                                                        spec.timing, dev, lesson ? &lesson->lesson : nullptr, gpu.program().kernelName);
    setup.observersReadRegisters = true;
    launchOpts = setup.timing;
    // Throws Error(Input) when a block does not fit on an SM of this preset: runOnce shows it,
    // on top of this launch's picture (so the occupancy panel can say why).
    try {
        pipeline = std::make_unique<run::LaunchPipeline>(gpu, setup);
    } catch (const Error&) {
        counters.reset();
        last = build(&gpu, RunState::Paused);
        throw;
    }
    counters = pipeline->sharedCounters();
    timed = pipeline->timed();
    if (timed && timedSm >= timingCfg.spec.smCount) timedSm = 0;
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
            // A whole launch logged in round-robin order is what To end from its start gives:
            // replay it on every core (session_parallel.cpp) when that is possible.
            bool roundRobin = rl && rl->complete && !rl->timed;
            for (size_t k = 0; roundRobin && k < rl->prims.size(); ++k) roundRobin = rl->prims[k].block == kRoundRobin;
            if (roundRobin && runToEndParallel(gpu, true)) {
                finishLaunch();
                return;
            }
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
        case CommandKind::RunToBarrier:
        case CommandKind::RunToEnd:
            // The long operations: the UI shows them as running until they return.
            if (over) return;
            longOp = true;
            if (c.kind == CommandKind::StepLine) doStepLine(gpu);
            else if (c.kind == CommandKind::RunToBarrier) doRunToBarrier(gpu);
            else doRunToEnd(gpu);
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
        case CommandKind::Cancel:
            throw cancelledError();
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
        case CommandKind::Cancel:
            queue.pop_front();
            throw cancelledError();
        case CommandKind::Quit:
            throw QuitWorker{};
        default:
            if (stepRequested) *stepRequested = true;
            return stepRequested != nullptr;
        }
    }
    return false;
}

} // namespace warpscope::gui
