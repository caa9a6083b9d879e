// What the worker publishes: snapshots, and the memory, counter, heat-map, report and timing
// views inside them.
//
// Sections: 7. snapshots  8. memory, counters, reports
#include "gui/model/session_worker.hpp"

#include <algorithm>
#include <bit>

namespace warpscope::gui {

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
        ii.matrix = in.matrix;
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
    {
        uint32_t gw = sb * std::max(1u, wpb) + sw;
        auto it = memByWarp.find(gw);
        if (it != memByWarp.end()) s->memHistory.assign(it->second.begin(), it->second.end());
        auto mt = lastMatrixByWarp.find(gw);
        if (mt != lastMatrixByWarp.end()) s->lastMatrixPc = mt->second;
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
            // A warp waiting at a barrier has its pc past bar.sync: draw it on the barrier's line.
            if (w.state == sim::WarpState::AtBarrier && w.barrierPc >= 0 && static_cast<size_t>(w.barrierPc) < code.size() &&
                code[static_cast<size_t>(w.barrierPc)].line)
                wv.line = code[static_cast<size_t>(w.barrierPc)].line;
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
            for (size_t fi = 0; fi < w.frames.size(); ++fi) {
                FrameView fv;
                fv.func = w.frames[fi].func;
                for (auto& e : w.simtStack(fi)) fv.stack.push_back({e.pc, e.rpc, e.mask});   // the top entry lives in the Warp
                d.frames.push_back(std::move(fv));
            }
            if (!w.frames.empty()) {
                d.func = w.frames.back().func;
                d.regs = sim::registerValues(gpu->program().functions[d.func], w.frames.back(), gpu->registerOffsets(d.func));
                d.preds.assign(w.frames.back().preds.begin(), w.frames.back().preds.end());
            }
            // cp.async copies in flight (the Async copies panel).
            for (uint32_t lane = 0; lane < 32; ++lane) {
                const size_t t = size_t(sw) * 32 + lane;
                if (t >= b.async.size()) break;
                d.asyncCommitted[lane] = b.async[t].committed;
                for (const sim::Block::AsyncCopy& c : b.async[t].copies)
                    d.asyncCopies.push_back({lane, c.dst, 0, false, c.bytes, c.group, c.pc, c.mbar});
            }
            d.sharedPending = b.asyncPending;
            if (sw < b.warpSync.size() && b.warpSync[sw].pc >= 0) {   // the warp's tiles (Grid & warps)
                d.syncPc = b.warpSync[sw].pc;
                d.syncExec = b.warpSync[sw].exec;
                std::copy(std::begin(b.warpSync[sw].mask), std::end(b.warpSync[sw].mask), d.syncMask.begin());
            }
            if (timed) {
                timing::TimedRun::AsyncGroupTimes at = timed->asyncGroupTimes(b.linear, sw);
                d.asyncTimed = at.resident;
                d.asyncGroupReady = std::move(at.committed);
                d.asyncOpenReady = at.open;
                d.asyncCycle = timed->cycle();
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
MemAccess session_detail::memAccessOf(const sim::Step& s, int launchIndex, std::vector<BufferHeat>& heat, size_t& heatHit) {
    MemAccess m;
    m.stepIndex = s.index;
    m.launchIndex = launchIndex;
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
        if (BufferHeat* b = heatFindIn(heat, heatHit, s.addresses[first])) {
            m.buffer = b->name;
            m.bufferBase = b->base;
        }
    }
    return m;
}

void Session::Worker::recordMem(const sim::Step& s) {
    MemAccess m = memAccessOf(s, launchIdx, heat, heatHit);
    if (!m.shared && !heat.empty()) {
        heatAccountIn(heat, heatHit, s, true);
        heatDirty = true;
    }
    auto& dq = memByWarp[s.warp];
    if (dq.size() >= kMemHistory) dq.pop_front();
    dq.push_back(std::move(m));
}

BufferHeat* session_detail::heatFindIn(std::vector<BufferHeat>& heat, size_t& heatHit, uint64_t addr) {
    if (heatHit < heat.size() && addr >= heat[heatHit].base && addr < heat[heatHit].base + heat[heatHit].bytes) return &heat[heatHit];
    for (size_t i = 0; i < heat.size(); ++i)
        if (addr >= heat[i].base && addr < heat[i].base + heat[i].bytes) {
            heatHit = i;
            return &heat[i];
        }
    return nullptr;
}

void session_detail::heatAccountIn(std::vector<BufferHeat>& heat, size_t& heatHit, const sim::Step& s, bool runToo) {
    heatAccountWith(heat, heatHit, s, [runToo](BufferHeat& b, size_t, uint64_t e, bool wasted) {
        if (wasted) {
            if (runToo) ++b.runWasted[e];
            ++b.launchWasted[e];
        } else {
            if (runToo) ++b.runAccesses[e];
            ++b.launchAccesses[e];
        }
    });
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
    const mem::AccessWindow& w = launchOpts.l2Window;
    auto propName = [](mem::AccessProp p) {
        return p == mem::AccessProp::Persisting ? "persisting" : p == mem::AccessProp::Streaming ? "streaming" : "normal";
    };
    v->windowBase = w.base;
    v->windowBytes = w.bytes;
    v->windowHitRatio = w.hitRatio;
    v->windowHitProp = propName(w.hitProp);
    v->windowMissProp = propName(w.missProp);
    v->persistingBytes = launchOpts.l2PersistingBytes;
    for (auto& [base, bytes] : launchOpts.mappedRanges) v->mappedBytes += bytes;
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
                const uint32_t line = w.pc >= 0 && static_cast<size_t>(w.pc) < code.size() ? code[static_cast<size_t>(w.pc)].line : 0;
                st.warps.push_back(SchedWarp{.slot = slot, .block = w.block, .warpInBlock = w.warpInBlock, .phase = w.phase,
                                             .reason = w.reason, .pc = w.pc, .line = line});
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
