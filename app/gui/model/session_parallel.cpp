// To end on every core. When To end starts a launch from its first instruction, the launch runs
// through sim::Gpu::runToEnd(threads): blocks in contiguous shares, one thread each, with a fork
// of the session's listeners per share. Everything a panel shows afterwards is what a serial To
// end shows:
//   - sums (per-line statistics, counters without the caches, the heat map) merge exactly;
//   - "the last Step of each warp" and each warp's last memory accesses depend only on that
//     warp's own sequence, which is the same in any interleaving for race-free blocks;
//   - what depends on the serial issue order (the recent-steps ring, the issue index of each
//     remembered memory access, the L1/L2 cache model) is rebuilt by replaying the round-robin
//     scheduler over per-warp schedules (trace/issue_order.hpp) and feeding it in that order.
// Launches that could behave differently run on one thread as before: Gpu::serialReason (global
// atomics, fences, checkers, a launch already started), Timed mode, barriers with register
// operands, and grids whose per-warp records would be too large. A fault or a share that outgrows
// its record makes runToEnd re-run the launch serially, so the listeners then see the serial Steps.
//
// Sections: 1. a share's recorder  2. fork and join  3. To end
#include "gui/model/session_worker.hpp"

#include <exception>
#include <thread>

namespace warpscope::gui {

// ---------------------------------------------------------------- 1. a share's recorder
// The session's recorder for one share of the blocks: what Worker::onStep keeps, per warp and
// without the serial order.
struct session_detail::ShareRecorder : sim::StepListener {
    ShareRecorder(uint32_t warpsPerBlock, int launchIndex, const std::vector<BufferHeat>& heatBuffers)
        : schedule(warpsPerBlock), launch(launchIndex) {
        // The buffers' places and element sizes; only this launch's counts, from zero.
        for (const BufferHeat& h : heatBuffers) {
            BufferHeat b;
            static_cast<HeatLayout&>(b) = h;
            heat.push_back(std::move(b));
        }
        chunks.resize(heat.size());
    }
    // A share touches a part of each buffer: its counts live in chunks allocated on first touch
    // (full-size arrays per share would cost threads x the heat map's memory).
    static constexpr uint64_t kChunk = 4096;   // elements
    struct Chunk {
        uint32_t accesses[kChunk] = {}, wasted[kChunk] = {};
    };
    void count(size_t buffer, uint64_t e, bool wasted) {
        const uint64_t c = e / kChunk;
        if (buffer != lastBuffer || c != lastChunkIndex) {   // neighbouring lanes hit the same chunk
            auto& cs = chunks[buffer];
            if (c >= cs.size()) cs.resize(c + 1);
            if (!cs[c]) cs[c] = std::make_unique<Chunk>();
            lastBuffer = buffer;
            lastChunkIndex = c;
            lastChunk = cs[c].get();
        }
        // Through a pointer, not `(wasted ? a : b)[i]`: GCC 12 with -fsanitize=undefined compiles
        // a subscript of that conditional (two arrays) to element 0 whatever i is (issue 38).
        uint32_t* counts = wasted ? lastChunk->wasted : lastChunk->accesses;
        ++counts[e % kChunk];
    }
    size_t lastBuffer = ~size_t(0);
    uint64_t lastChunkIndex = 0;
    Chunk* lastChunk = nullptr;

    void onStep(const sim::Step& s) override {
        const uint32_t ordinal = schedule.record(s);
        lineStats.onStep(s);
        const uint64_t i = s.warp - schedule.base();
        if (i >= tails.size()) {
            const size_t n = std::max<uint64_t>(i + 1, tails.size() + tails.size() / 2);
            tails.resize(n);
            last.resize(n);
        }
        LastStep& l = last[i];
        l.active = s.activeMask;
        l.exec = s.execMask;
        l.valid = true;
        l.branch = s.branch;
        // The warp's last kRecent Steps, at (ordinal - 1) % kRecent.
        auto& t = tails[i];
        const TailStep ts{s.pc, s.activeMask, s.execMask, s.maskAfter, s.divergent};
        if (t.size() < kRecent) t.push_back(ts);
        else t[(ordinal - 1) % kRecent] = ts;
        if ((s.isLoad || s.isStore || s.isAtomic) && s.addresses && s.execMask &&
            (s.space == ptx::StateSpace::Global || s.space == ptx::StateSpace::Shared)) {
            if (s.space == ptx::StateSpace::Global)
                heatAccountWith(heat, heatHit, s, [this](BufferHeat&, size_t b, uint64_t e, bool wasted) { count(b, e, wasted); });
            if (!keepMem) return;   // a large launch keeps no history once its blocks retired
            MemAccess m = memAccessOf(s, launch, heat, heatHit);
            m.stepIndex = ordinal;   // the serial index replaces it (finishParallel)
            auto& dq = mem[s.warp];
            if (dq.size() >= kMemHistory) dq.pop_front();
            dq.push_back(std::move(m));
        }
    }

    trace::ScheduleLog schedule;
    trace::LineStatsCollector lineStats;
    int launch = -1;
    std::vector<LastStep> last;                   // per warp from schedule.base()
    std::vector<std::vector<TailStep>> tails;     // per warp from schedule.base()
    std::unordered_map<uint32_t, std::deque<MemAccess>> mem;
    bool keepMem = true;
    std::vector<BufferHeat> heat;   // the buffers' places (no counts: see chunks)
    std::vector<std::vector<std::unique_ptr<Chunk>>> chunks;   // per buffer
    size_t heatHit = 0;
};

// ---------------------------------------------------------------- 2. fork and join
std::unique_ptr<sim::StepListener> Session::Worker::fork() const {
    if (!parallelArmed || !currentProgram) return nullptr;
    auto r = std::make_unique<ShareRecorder>(wpb, launchIdx, heat);
    r->keepMem = !dropRetiredMem;
    return r;
}

void Session::Worker::join(sim::StepListener& f) {
    auto& r = static_cast<ShareRecorder&>(f);
    lineStats.join(r.lineStats);
    const uint64_t base = r.schedule.base();
    if (!joinedShares) {
        joinedSchedule = trace::ScheduleLog();
        joinedTails.clear();
        joinedShares = true;
    }
    joinedSchedule.absorb(r.schedule);
    const uint64_t at = base - joinedSchedule.base();
    if (joinedTails.size() < at + r.tails.size()) joinedTails.resize(at + r.tails.size());
    for (size_t i = 0; i < r.tails.size(); ++i) joinedTails[at + i] = std::move(r.tails[i]);
    if (lastByWarp.size() < base + r.last.size()) lastByWarp.resize(base + r.last.size());
    for (size_t i = 0; i < r.last.size(); ++i)
        if (r.last[i].valid) lastByWarp[base + i] = r.last[i];
    // Memory histories: warps are disjoint between shares.
    for (auto& [w, dq] : r.mem) memByWarp[w] = std::move(dq);
    // Heat: this launch's counts, added to the launch's and the run's.
    for (size_t b = 0; b < heat.size() && b < r.chunks.size(); ++b) {
        BufferHeat& h = heat[b];
        for (size_t c = 0; c < r.chunks[b].size(); ++c) {
            const ShareRecorder::Chunk* ch = r.chunks[b][c].get();
            if (!ch) continue;
            const uint64_t e0 = c * ShareRecorder::kChunk, n = std::min<uint64_t>(ShareRecorder::kChunk, h.count - e0);
            uint32_t *la = h.launchAccesses.data() + e0, *ra = h.runAccesses.data() + e0;
            uint32_t *lw = h.launchWasted.data() + e0, *rw = h.runWasted.data() + e0;
            for (uint64_t i = 0; i < n; ++i) {   // plain loops the compiler vectorises
                la[i] += ch->accesses[i];
                ra[i] += ch->accesses[i];
            }
            for (uint64_t i = 0; i < n; ++i) {
                lw[i] += ch->wasted[i];
                rw[i] += ch->wasted[i];
            }
        }
    }
    heatDirty = true;
}

// After the shares joined: the serial order of the whole launch, for the recent-steps ring and
// the issue index of every remembered memory access.
void Session::Worker::finishParallel(sim::Gpu& gpu, const trace::LaunchShape& shape) {
    struct Visitor : trace::OrderVisitor {
        Worker& w;
        explicit Visitor(Worker& wk) : w(wk) {}
        // The history's entries hold their warp ordinal in stepIndex until visited.
        std::deque<MemAccess>* history(uint64_t warp) {
            auto it = w.memByWarp.find(static_cast<uint32_t>(warp));
            return it == w.memByWarp.end() || it->second.empty() ? nullptr : &it->second;
        }
        std::unordered_map<uint64_t, size_t> cursor;
        uint32_t firstMark(uint64_t warp) override {
            auto* h = history(warp);
            if (!h) return kNone;
            cursor[warp] = 0;
            return static_cast<uint32_t>(h->front().stepIndex);
        }
        uint32_t visit(uint64_t warp, uint32_t, uint64_t index) override {
            auto& h = *history(warp);
            size_t& c = cursor[warp];
            h[c].stepIndex = index;
            ++c;
            return c < h.size() ? static_cast<uint32_t>(h[c].stepIndex) : kNone;
        }
    } v(*this);
    std::vector<trace::OrderedStep> tail;
    const uint64_t n = trace::replaySerialOrder(shape, joinedSchedule, memByWarp.empty() ? nullptr : &v, kRecent, &tail);
    if (n != gpu.stats().warpInstructions)
        throw Error(Error::Kind::Unsupported, "To end on several threads: the rebuilt order has " + std::to_string(n) +
                                                  " instructions, the launch " + std::to_string(gpu.stats().warpInstructions) + ".");
    const auto& code = gpu.program().code;
    recent.clear();
    for (const trace::OrderedStep& o : tail) {
        const uint64_t i = o.warp - joinedSchedule.base();
        const size_t at = i < joinedTails.size() && joinedTails[i].size() < kRecent ? o.ordinal - 1 : (o.ordinal - 1) % kRecent;
        if (i >= joinedTails.size() || at >= joinedTails[i].size())
            throw Error(Error::Kind::Unsupported, "To end on several threads: warp " + std::to_string(o.warp) + " has no record of its step " +
                                                      std::to_string(o.ordinal) + ".");
        const TailStep& ts = joinedTails[i][at];
        StepRecord r;
        r.index = o.index;
        r.block = static_cast<uint32_t>(o.warp / shape.warpsPerBlock);
        r.warpInBlock = static_cast<uint32_t>(o.warp % shape.warpsPerBlock);
        r.pc = ts.pc;
        r.line = ts.pc >= 0 && static_cast<size_t>(ts.pc) < code.size() ? code[static_cast<size_t>(ts.pc)].line : 0;
        r.activeMask = ts.activeMask;
        r.execMask = ts.execMask;
        r.maskAfter = ts.maskAfter;
        r.divergent = ts.divergent;
        recent.push_back(r);
    }
    records += n;
    joinedSchedule.clear();
    joinedTails.clear();
    joinedTails.shrink_to_fit();
}

// ---------------------------------------------------------------- 3. To end
// Runs the launch to its end on options.threads threads when that gives what a serial run gives
// (see the top of this file). Returns false when To end must run serially instead.
bool Session::Worker::runToEndParallel(sim::Gpu& gpu, bool replaying) {
    const uint32_t threads = options.threads;
    if (threads <= 1 || timed || !counters || gpu.stepCount() != 0 || gpu.state() != sim::LaunchState::Running) return false;
    std::string why = trace::issueOrderUnsupported(gpu.program());
    const trace::LaunchShape shape = trace::LaunchShape::of(gpu);
    // Each warp's last kRecent Steps are kept until the order is known: bound that memory.
    constexpr uint64_t kTailBytes = uint64_t(512) << 20;
    if (why.empty() && shape.warpCount() * kRecent * sizeof(TailStep) > kTailBytes)
        why = "the grid has too many warps to keep each one's recent steps";
    currentProgram = &gpu.program();
    parallelArmed = true;
    counters->enableParallel(shape, gpu.program());
    struct Disarm {
        Worker& w;
        ~Disarm() {
            w.parallelArmed = false;
            std::lock_guard lk(w.m);
            w.parallelRun = false;
        }
    } disarm{*this};
    if (why.empty()) why = gpu.serialReason();
    if (!why.empty()) {
        if (!replaying) note = "To end ran on one thread: " + why + ".";
        return false;
    }
    {
        std::lock_guard lk(m);
        parallelRun = true;
    }
    if (!replaying) publishGpu(gpu);   // "Running ..." while the threads work (nothing to show until they finish)
    joinedShares = false;
    const uint64_t before = records;
    try {
        gpu.runToEnd(threads);
    } catch (const Error&) {
        // The fault (the serial re-run's, or a cancel) is in gpu.fault(); serve shows it.
    }
    if (joinedShares && gpu.state() == sim::LaunchState::Finished) {
        // The counters' cache replay and this recorder's are independent: run them side by side.
        std::exception_ptr cacheError;
        {
            std::thread cacheReplay([c = counters.get(), &cacheError] {
                try {
                    c->resolvePending();
                } catch (...) {
                    cacheError = std::current_exception();
                }
            });
            struct Join {
                std::thread& t;
                ~Join() { t.join(); }
            } joinReplay{cacheReplay};
            finishParallel(gpu, shape);
        }
        if (cacheError) std::rethrow_exception(cacheError);
        if (!replaying) note = "To end ran on " + std::to_string(std::min<uint64_t>(threads, shape.endBlock - shape.firstBlock)) + " threads.";
    }
    joinedShares = false;
    // One logged primitive per instruction, as the serial To end logs them (step back replays it).
    LaunchLog& log = logs.back();
    const uint64_t ran = records - before;
    if (ran) {
        if (!log.prims.empty() && log.prims.back().block == kRoundRobin) log.prims.back().count += ran;
        else log.prims.push_back({kRoundRobin, 0, ran});
        log.steps += ran;
    }
    // A restart, load, quit or cancel that stopped the run (Session::post, Session::cancel): act on it now.
    if (gpu.state() == sim::LaunchState::Faulted && device && device->cancelRequested()) pollInterrupt();
    return true;
}

} // namespace warpscope::gui
