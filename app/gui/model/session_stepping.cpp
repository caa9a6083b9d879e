// Stepping control: the primitives (one warp-instruction or one cycle), the primitive log each
// launch keeps, replay of that log for step back, and the long operations built on them.
//
// Sections: 6. primitives and long operations
#include "gui/model/session_worker.hpp"

namespace warpscope::gui {

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

// Step line steps by source statement, as a debugger does: the PTX interleaves lines (9, 5, 10,
// 5, 10, ...), so "the line changed" would revisit lines. The warp stops on a line it has not
// visited since its last backward jump (a loop iteration revisits its body). The visited set is
// kept between presses while the warp was not moved by anything else; otherwise it is seeded with
// the lines of the instructions before its pc in its function.
void Session::Worker::doStepLine(sim::Gpu& gpu) {
    // Not a structured binding: clang 14 (emscripten's, the fuzz build's) cannot capture one in a lambda.
    const auto sel = selection();
    const auto blk = sel.first;
    const auto wi = sel.second;
    auto findBlock = [&]() -> const sim::Block* {
        for (auto& r : gpu.residentBlocks())
            if (r->linear == blk) return r.get();
        return nullptr;
    };
    const sim::Block* b = findBlock();
    if (!b || wi >= b->warps.size()) {
        note = "The selected warp does not exist now (its block is pending or done, or has fewer warps); select a warp in Grid & warps.";
        return;
    }
    const auto& code = gpu.program().code;
    auto pcOf = [&](const sim::Warp& w) { return w.state == sim::WarpState::Done ? -1 : w.pc(); };
    auto lineAt = [&](int32_t pc) -> uint32_t { return pc >= 0 && static_cast<size_t>(pc) < code.size() ? code[static_cast<size_t>(pc)].line : 0; };
    int32_t pc0 = pcOf(b->warps[wi]);
    bool same = stmt.generation == generation && stmt.launch == launchIdx && stmt.block == blk && stmt.warp == wi && stmt.pc == pc0;
    if (!same) {   // seed: lines before the pc in its function
        stmt.visited.clear();
        if (pc0 >= 0 && static_cast<size_t>(pc0) < code.size())
            for (int32_t p = 0; p < pc0; ++p)
                if (code[static_cast<size_t>(p)].func == code[static_cast<size_t>(pc0)].func && code[static_cast<size_t>(p)].line)
                    stmt.visited.insert(code[static_cast<size_t>(p)].line);
    }
    if (lineAt(pc0)) stmt.visited.insert(lineAt(pc0));
    int32_t prevPc = pc0;
    // After the warp issued: true when it stands at the start of a statement not yet visited.
    auto arrived = [&]() -> bool {
        const sim::Block* bb = findBlock();
        if (gpu.state() != sim::LaunchState::Running || !bb || bb->warps[wi].state == sim::WarpState::Done) return true;
        int32_t pc = pcOf(bb->warps[wi]);
        if (pc == prevPc) return false;
        bool backward = pc < prevPc || (prevPc >= 0 && pc >= 0 && code[static_cast<size_t>(pc)].func != code[static_cast<size_t>(prevPc)].func);
        prevPc = pc;
        if (backward) stmt.visited.clear();
        uint32_t l = lineAt(pc);
        if (l == 0) return false;
        return !stmt.visited.insert(l).second ? false : true;
    };
    bool savedFollow = follow;
    follow = false;   // keep stepping this warp even when others issue in between
    selBlock = blk;
    selWarp = wi;
    auto lastPublish = Clock::now();
    if (timed) {   // cycles until the warp reaches a new statement
        for (uint64_t i = 0; cycle(gpu); ++i) {
            if (arrived()) break;
            if ((i & 0xfff) == 0xfff && interrupted(gpu, lastPublish, std::chrono::milliseconds(100))) break;
        }
    } else {
        for (uint64_t i = 0;; ++i) {
            if (gpu.state() != sim::LaunchState::Running) break;
            b = findBlock();
            if (!b) break;
            const sim::Warp& w = b->warps[wi];
            if (w.state == sim::WarpState::Done) break;
            if (w.state == sim::WarpState::Ready) {
                prim(gpu, blk, wi);
                if (arrived()) break;
            } else if (!prim(gpu, kRoundRobin, 0)) {
                break;
            } else if (arrived()) {   // released from a barrier by the others
                break;
            }
            if ((i & 0xfff) == 0xfff && interrupted(gpu, lastPublish, std::chrono::milliseconds(100))) break;
        }
    }
    b = findBlock();
    stmt.generation = generation;
    stmt.launch = launchIdx;
    stmt.block = blk;
    stmt.warp = wi;
    stmt.pc = b && wi < b->warps.size() ? pcOf(b->warps[wi]) : -1;
    follow = savedFollow;
}

// The long operations' check every few thousand primitives: true when a command interrupts;
// otherwise publishes a snapshot when `every` has passed since the last one.
bool Session::Worker::interrupted(sim::Gpu& gpu, Clock::time_point& lastPublish, std::chrono::milliseconds every) {
    if (pollInterrupt()) return true;
    if (Clock::now() - lastPublish > every) {
        publishGpu(gpu);
        lastPublish = Clock::now();
    }
    return false;
}

void Session::Worker::doRunToBarrier(sim::Gpu& gpu) {
    uint64_t released = gpu.stats().barriers;
    auto lastPublish = Clock::now();
    for (uint64_t i = 0; gpu.state() == sim::LaunchState::Running && gpu.stats().barriers == released; ++i) {
        if (!prim(gpu, kRoundRobin, 0)) break;
        if ((i & 0xfff) == 0xfff && interrupted(gpu, lastPublish, std::chrono::milliseconds(100))) break;
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
        if ((i & 0xfff) == 0xfff && interrupted(gpu, lastPublish, std::chrono::milliseconds(100))) {
            pendingLine = 0;
            return;
        }
    }
    lineMustLeave = false;   // a new launch: any arrival at the line counts
}

void Session::Worker::doRunToEnd(sim::Gpu& gpu) {
    if (runToEndParallel(gpu)) return;   // on every core, when that shows the same (session_parallel.cpp)
    auto lastPublish = Clock::now();
    for (uint64_t i = 0; gpu.state() == sim::LaunchState::Running; ++i) {
        if (!prim(gpu, kRoundRobin, 0)) break;
        if ((i & 0xfff) == 0xfff && interrupted(gpu, lastPublish, std::chrono::milliseconds(100))) break;
    }
}

void Session::Worker::doRunSteps(sim::Gpu& gpu) {
    auto lastPublish = Clock::now();
    while (pendingSteps > 0 && gpu.state() == sim::LaunchState::Running) {
        if (!prim(gpu, kRoundRobin, 0)) break;
        --pendingSteps;
        if ((pendingSteps & 0xfff) == 0 && interrupted(gpu, lastPublish, std::chrono::milliseconds(16))) break;
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

} // namespace warpscope::gui
