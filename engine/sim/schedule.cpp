// Scheduling and control: round-robin issue, the run loops (stepping, to a barrier, to the end),
// the lean issue for the cycle model (issueQuiet, issueFootprint), per-pc sums, and runToEnd's
// parallel shares.
#include "sim/exec.hpp"

namespace warpscope::sim {

namespace {

// Runs worker on `threads` threads, the calling thread one of them: it starts at once, while a new
// thread may wait for its core to wake up. A thread the system will not start leaves its shares to
// the others (the workers take shares until none is left). Returns when every worker has returned.
template <class Fn>
void runWorkers(uint64_t threads, Fn& worker) {
    std::vector<std::jthread> pool;
    for (uint64_t t = 1; t < threads; ++t) {
        try {
            pool.emplace_back(worker);
        } catch (const std::system_error&) {
            break;
        }
    }
    worker();
}

void addStats(LaunchStats& sum, const LaunchStats& s) {
    sum.warpInstructions += s.warpInstructions;
    sum.threadInstructions += s.threadInstructions;
    sum.branches += s.branches;
    sum.divergentBranches += s.divergentBranches;
    sum.barriers += s.barriers;
    sum.blocksCompleted += s.blocksCompleted;
}

} // namespace

// ---------------------------------------------------------------- 2. Scheduling and control
bool Gpu::pickAndIssue(int onlySlot, int onlyWarp) {
    if (state_ != LaunchState::Running) return false;
    try {
        if (onlySlot >= 0) {
            if (static_cast<size_t>(onlySlot) >= blocks_.resident.size()) return false;
            Block& b = *blocks_.resident[static_cast<size_t>(onlySlot)];
            if (static_cast<size_t>(onlyWarp) >= b.warps.size()) return false;
            Warp& w = b.warps[static_cast<size_t>(onlyWarp)];
            if (w.state != WarpState::Ready) return false;
            issue(b, w);
            if (w.state == WarpState::Done) retireIfDone(b);
            return true;
        }
        return issueNext();
    } catch (const Error& e) {
        recordFault(e);
        return false;
    }
}

// The next warp in round-robin order issues one instruction; false (launch finished) when no
// block is left. Throws the Error of a fault, a deadlock, an exceeded budget or a cancel.
bool Gpu::issueNext() {
    for (;;) {
        if (blocks_.resident.empty()) {
            state_ = LaunchState::Finished;
            return false;
        }
        // Round-robin over (block, warp) from the cursor.
        uint32_t wi = 0;
        Block* const b = blocks_.pick(
            warpsPerBlock_, [](const Block& blk) { return blk.readyWarps != 0; },
            [](const Block& blk, uint32_t i) { return blk.warps[i].state == WarpState::Ready; }, wi);
        if (b) {
            Warp& w = b->warps[wi];
            issue(*b, w);
            if (w.state == WarpState::Done) retireIfDone(*b);
            return true;
        }
        // Nobody could issue: every live warp waits at the grid barrier (released here, or a
        // share stops there), or some wait at a barrier that cannot complete.
        if (gridWaiting_ != 0) {
            if (gridBarrierStall()) continue;
            if (gridParked_) return false;   // (state_ stays Running: runCooperative releases it)
        }
        reportDeadlock();
        state_ = LaunchState::Finished;
        return false;
    }
}

bool Gpu::gridBarrierStall() {
    // Every warp still running waits at the grid barrier? (None is Ready: issueNext found none.)
    Block* first = nullptr;
    Warp* waiter = nullptr;
    for (auto& bp : blocks_.resident)
        for (auto& w : bp->warps) {
            if (w.state != WarpState::AtBarrier) continue;
            if (w.barrierId != kGridBarrierId) return false;   // a block barrier's deadlock: reportDeadlock's
            if (!waiter) first = bp.get(), waiter = &w;
        }
    if (!waiter) return false;
    // Every block of this Gpu's blocks must be there: one that ended (or was never admitted) can
    // never arrive, and on the hardware the others wait for it forever.
    const uint64_t blocks = opt_.endBlock - opt_.firstBlock;
    if (stats_.blocksCompleted != 0 || blocks_.resident.size() != blocks) {
        std::ostringstream os;
        os << "Deadlock at grid.sync(): " << gridWaiting_ << " warps of " << blocks_.resident.size() << " blocks wait at the grid barrier, but "
           << blocks - blocks_.resident.size() << " of the grid's blocks ended (or never started) without reaching it, so it can never "
           << "complete. Every thread of a cooperative launch must reach every grid.sync() (an early return before it hangs the GPU).";
        const Instr* in = waiter->barrierPc >= 0 ? &prog_.code[static_cast<size_t>(waiter->barrierPc)] : nullptr;
        raise(Error::Kind::Deadlock, os.str(), *first, *waiter, std::countr_zero(waiter->validMask & ~waiter->exited), in);
    }
    if (gridShare_) {
        gridParked_ = true;
        return false;
    }
    releaseGridBarrier();
    return true;
}

void Gpu::releaseGridBarrier() {
    // Warp order within each block, blocks in resident order: every waiter is Ready again.
    for (auto& bp : blocks_.resident) {
        Block& b = *bp;
        for (auto& w : b.warps) {
            if (w.state != WarpState::AtBarrier || w.barrierId != kGridBarrierId) continue;
            w.state = WarpState::Ready;
            ++b.readyWarps;
            --b.waitingWarps;
            ++w.syncEpoch;
        }
        ++b.barrierEpoch;
    }
    if (race_) race_->gridBarrier();
    gridWaiting_ = 0;
    gridParked_ = false;
    barrierReleased_ = true;
}

[[gnu::noinline]] void Gpu::reportDeadlock() {
    for (auto& bp : blocks_.resident) {
        Block& b = *bp;
        for (auto& w : b.warps) {
            if (w.state == WarpState::AtBarrier && w.barrierId != kGridBarrierId) {
                const Instr* in = w.barrierPc >= 0 ? &prog_.code[static_cast<size_t>(w.barrierPc)] : nullptr;
                std::ostringstream os;
                os << "Deadlock: every warp of block (" << b.idx.x << "," << b.idx.y << "," << b.idx.z
                   << ") still running waits at a barrier that can never complete. Warp " << w.indexInBlock
                   << " waits at barrier " << w.barrierId;
                if (w.barrierCount) os << " for " << w.barrierCount << " threads";
                int arrived = 0, live = 0;
                for (auto& o : b.warps) {
                    if (o.state != WarpState::Done) ++live;
                    if (o.state == WarpState::AtBarrier && o.barrierId == w.barrierId) ++arrived;
                }
                os << "; " << arrived << " of " << live << " live warps arrived there";
                for (auto& o : b.warps)
                    if (o.state == WarpState::AtBarrier && o.barrierId != w.barrierId) {
                        os << ", warp " << o.indexInBlock << " waits at barrier " << o.barrierId << " instead";
                        break;
                    }
                // A count mismatch where the smaller count arrived first: that instance
                // completed early, and the warps expecting more now wait for nobody.
                const Block::LastRelease& last = b.lastRelease[w.barrierId & 15];
                if (last.pc >= 0 && last.count != w.barrierCount) {
                    const Instr& li = prog_.code[static_cast<size_t>(last.pc)];
                    os << ". Barrier " << w.barrierId << " last completed with a count of "
                       << (last.count ? std::to_string(last.count) + " threads" : std::string("all threads of the block"))
                       << " (warp " << last.warp << ", ";
                    if (li.line) os << "source line " << li.line << ", ";
                    os << "PTX line " << li.ptxLine << ": " << li.text
                       << "); if those warps were meant to meet this one, the warps disagree on the barrier's thread count";
                }
                raise(Error::Kind::Deadlock, os.str() + ".", b, w, std::countr_zero(w.validMask & ~w.exited), in);
            }
        }
    }
}

bool Gpu::step() { return pickAndIssue(-1, -1); }

void Gpu::runLoop() {
    // step() in a loop, with one try block for the whole run instead of one per instruction.
    if (state_ != LaunchState::Running) return;
    // A sums-only listener (the per-line statistics) gets per-pc sums at the end instead of a
    // Step per instruction; the guard hands them over and restores it however the loop ends.
    struct PcSums {
        Gpu& g;
        StepListener* listener = nullptr;
        explicit PcSums(Gpu& gpu) : g(gpu) {
            if (!g.listener_ || !g.listener_->sumsOnly()) return;
            listener = g.listener_;
            g.pcCounts_.assign(g.prog_.code.size(), PcCounts{});
            g.listener_ = nullptr;
            g.countByPc_ = true;
        }
        ~PcSums() {
            if (!listener) return;
            g.listener_ = listener;
            g.countByPc_ = false;
            listener->addCounts(g.prog_.code.data(), g.pcCounts_.data(), g.pcCounts_.size());
        }
    } sums(*this);
    // With no Step listener nobody sees a register file until the run ends (see zeroRegs_).
    struct Unwatched {
        Gpu& g;
        explicit Unwatched(Gpu& gpu) : g(gpu) { g.unwatched_ = g.listener_ == nullptr; }
        ~Unwatched() { g.unwatched_ = false; }
    } unwatched(*this);
    if (unwatched_) packKernelRegisters();
    try {
        while (issueNext()) {
        }
    } catch (const Error& e) {
        recordFault(e);
    }
}

bool Gpu::stepWarp(uint32_t slot, uint32_t warp) {
    return pickAndIssue(static_cast<int>(slot), static_cast<int>(warp));
}

bool Gpu::issueQuiet(Block& b, Warp& w, MemoryAccess* mem) {
    if (mem) mem->valid = false;
    if (state_ != LaunchState::Running || w.state != WarpState::Ready) return false;
    StepListener* const listener = listener_;
    listener_ = nullptr;
    memTap_ = mem;
    bool ok = true;
    try {
        issue(b, w);
        if (w.state == WarpState::Done) retireIfDone(b);
    } catch (const Error& e) {
        recordFault(e);
        ok = false;
    } catch (...) {
        listener_ = listener;
        memTap_ = nullptr;
        throw;
    }
    listener_ = listener;
    memTap_ = nullptr;
    return ok;
}

IssueFootprint Gpu::issueFootprint(int32_t pc) const {
    IssueFootprint f;
    if (pc < 0 || size_t(pc) >= prog_.code.size()) return f;
    const Instr& I = prog_.code[static_cast<size_t>(pc)];
    uint32_t func = 0;
    while (func + 1 < prog_.functions.size() && !(pc >= prog_.functions[func].entry && pc < prog_.functions[func].end)) ++func;
    const Function& fn = prog_.functions[func];
    const uint32_t* offset = registerOffsets(func);   // the frame's layout (packed, for the kernel after packRegisterFiles)
    // The registers it reads, then the ones it writes (the analysis the packing uses), each once.
    auto reg = [&](uint32_t r) {
        for (int k = 0; k < f.regs; ++k)
            if (f.regOffset[k] == offset[r]) return;
        if (f.regs == IssueFootprint::kMaxRegs) return;
        f.regOffset[f.regs] = offset[r];
        f.regLines[f.regs++] = fn.regWide[r] ? 4 : 2;
    };
    const RegisterOperands ro = registerOperands(I, fn.numRegs);
    for (const auto* list : {&ro.reads, &ro.full, &ro.partial})
        for (uint32_t r : *list) reg(r);
    if (I.guard.kind == Operand::Kind::Pred) f.pred = int32_t(I.guard.index);
    else if (I.dst.kind == Operand::Kind::Pred) f.pred = int32_t(I.dst.index);
    if ((I.op == Op::Ld || I.op == Op::St) && I.space == StateSpace::Shared && I.addr.base.kind == Operand::Kind::Reg &&
        I.addr.base.index < fn.numRegs) {
        f.shared = true;
        f.sharedWideBase = fn.regWide[I.addr.base.index];
        f.sharedBase = offset[I.addr.base.index];
        f.sharedOffset = uint32_t(I.addr.offset);
    }
    return f;
}

void Gpu::keepPcCounts() {
    pcCounts_.assign(prog_.code.size(), PcCounts{});
    countByPc_ = true;
}

void Gpu::handPcCounts(StepListener& l) {
    countByPc_ = false;
    l.addCounts(prog_.code.data(), pcCounts_.data(), pcCounts_.size());
}

bool Gpu::stepLine(uint32_t slot, uint32_t warp) {
    if (slot >= blocks_.resident.size() || warp >= warpsPerBlock_) return false;
    const Block* blk = blocks_.resident[slot].get();
    auto lineOf = [&](const Warp& w) -> uint32_t {
        int32_t pc = w.pc();
        return pc >= 0 ? prog_.code[static_cast<size_t>(pc)].line : 0;
    };
    uint32_t start = lineOf(blk->warps[warp]);
    // Other warps keep running in round-robin order so barriers can complete.
    for (uint64_t guard = 0; guard < opt_.instructionBudget; ++guard) {
        if (state_ != LaunchState::Running) return false;
        bool found = false;
        for (auto& r : blocks_.resident)
            if (r.get() == blk) found = true;
        if (!found) return true;   // the block finished
        const Warp& w = blk->warps[warp];
        if (w.state == WarpState::Done) return true;
        if (w.state == WarpState::Ready) {
            size_t s = 0;
            while (blocks_.resident[s].get() != blk) ++s;
            pickAndIssue(static_cast<int>(s), static_cast<int>(warp));
            if (state_ != LaunchState::Running) return false;
            bool still = false;
            for (auto& r : blocks_.resident)
                if (r.get() == blk) still = true;
            if (!still || blk->warps[warp].state == WarpState::Done) return true;
            uint32_t now = lineOf(blk->warps[warp]);
            if (now != start && now != 0) return true;
        } else if (!step()) {
            return false;
        }
    }
    return state_ == LaunchState::Running;
}

bool Gpu::runToBarrier() {
    barrierReleased_ = false;
    while (state_ == LaunchState::Running && !barrierReleased_)
        if (!step()) break;
    return state_ == LaunchState::Running;
}

uint64_t Gpu::runFor(uint64_t maxSteps) {
    uint64_t n = 0;
    while (n < maxSteps && step()) ++n;
    return n;
}

void Gpu::run() {
    runLoop();
    if (fault_) throw *fault_;
}

std::string Gpu::serialReason() const {
    if (state_ != LaunchState::Running || stats_.warpInstructions > 0) return "the launch has already started";
    if (opt_.initcheck || opt_.racecheck) return "a checker (initcheck, racecheck) needs every access in one order";
    if (listener_ && !listener_->fork()) return "a listener (the cache model of the counters) needs one issue order";
    if (opt_.endBlock - opt_.firstBlock < 2) return "one block";
    for (const Instr& in : prog_.code) {
        const bool globalish = in.space != StateSpace::Shared && in.space != StateSpace::Local && in.space != StateSpace::Param;
        if ((in.op == Op::Atom || in.op == Op::Red) && globalish) return "the kernel uses global atomics (blocks may communicate)";
        if (in.op == Op::Membar || in.op == Op::Fence) return "the kernel uses memory fences (blocks may communicate)";
        if ((in.op == Op::Ld || in.op == Op::St) && (in.order & kOrderStrong) && globalish)
            return "the kernel uses volatile or ordered global accesses (blocks may communicate)";
        for (const Operand& o : in.src)
            if (o.kind == Operand::Kind::Special && o.index == static_cast<uint32_t>(Sreg::GlobalTimer))
                return "the kernel reads %globaltimer (it counts the whole launch's instructions)";
    }
    return "";
}

std::vector<uint64_t> Gpu::shareBounds(uint64_t blocks, uint64_t threads) {
    // Each share takes 1/(2 x threads) of the blocks still unassigned, but at least 1/(32 x
    // threads) of the grid: the first round of shares covers about half the grid, and the last
    // ones are small, so threads that finish at different times wait little for each other.
    std::vector<uint64_t> b{0};
    if (blocks == 0) return b;
    threads = std::max<uint64_t>(threads, 1);
    const uint64_t least = std::max<uint64_t>(1, blocks / (32 * threads));
    for (uint64_t at = 0; at < blocks;) {
        const uint64_t left = blocks - at;
        at += std::min(left, std::max(least, left / (2 * threads)));
        b.push_back(at);
    }
    return b;
}

void Gpu::runToEnd(uint32_t threads) {
    const uint64_t first = opt_.firstBlock, total = opt_.endBlock - opt_.firstBlock;
    const uint64_t nt = std::min<uint64_t>(threads, total);
    if (nt <= 1 || !serialReason().empty()) return run();
    for (const Instr& in : prog_.code)
        if (in.gridSync) return runCooperative(static_cast<uint32_t>(nt));
    // The shares take the kernel as this Gpu decoded it; packed first when their runs will pack it
    // (runLoop: a run that no Step listener watches), so no share packs or clears twice.
    if (!listener_ || listener_->sumsOnly()) packKernelRegisters();
    // Global memory as it was, for the serial re-run after a fault: each chunk is copied by the
    // first store into it (mem/journal.hpp), so only written chunks are copied, by the shares.
    mem::WriteJournal journal(mem_);
    // More shares than threads (contiguous runs of blocks, in block order, smaller towards the end:
    // shareBounds), taken in turn by the threads as they finish one, so a share that runs slower
    // (a busy core) or a thread that starts late holds up the end little. Each thread builds the
    // Gpus of the shares it takes, so nothing is built serially.
    const std::vector<uint64_t> bounds = shareBounds(total, nt);
    const uint64_t ns = bounds.size() - 1;
    std::vector<std::unique_ptr<Gpu>> parts(ns);
    std::vector<std::unique_ptr<StepListener>> forks(ns);
    for (uint64_t i = 0; i < ns; ++i) forks[i] = listener_ ? listener_->fork() : nullptr;
    std::atomic<uint64_t> nextShare{0}, finishedInstructions{0};
    // A share faulted (or could not be built), the finished shares are past the launch's budget, or
    // the user cancelled: no more shares start (the launch re-runs serially, or stops).
    std::atomic<bool> stop{false};
    auto stopped = [&] {
        return stop.load(std::memory_order_relaxed) || finishedInstructions.load(std::memory_order_relaxed) > opt_.instructionBudget ||
               (opt_.cancel && opt_.cancel->load(std::memory_order_relaxed));
    };
    auto worker = [&] {
        std::vector<std::unique_ptr<Block>> spares;   // the thread's last share's blocks, recycled
        for (uint64_t i; !stopped() && (i = nextShare.fetch_add(1)) < ns;) {
            try {
                if (opt_.beforeShare) opt_.beforeShare(i);
                LaunchOptions o = opt_;
                o.threads = 1;
                o.beforeShare = nullptr;
                o.firstBlock = first + bounds[i];
                o.endBlock = first + bounds[i + 1];
                std::unique_ptr<Gpu> g(new Gpu(prog_, mem_, cfg_, params_, o, std::move(spares), this));
                g->setListener(forks[i].get());
                g->runLoop();
                spares = std::move(g->blocks_.spare);
                if (g->fault_) stop.store(true, std::memory_order_relaxed);
                finishedInstructions.fetch_add(g->stats_.warpInstructions, std::memory_order_relaxed);
                parts[i] = std::move(g);
            } catch (...) {
                stop.store(true, std::memory_order_relaxed);   // parts[i] stays empty
            }
        }
    };
    runWorkers(nt, worker);
    bool redo = false;
    LaunchStats sum;
    for (auto& p : parts) {
        if (!p) {   // not run: another share faulted first, or this one could not be built
            redo = true;
            continue;
        }
        if (p->fault_) {
            // Cancelled by the user: report it at once (a serial re-run would only stop at its
            // first look at the flag, after restoring memory for nothing).
            if (opt_.cancel && opt_.cancel->load(std::memory_order_relaxed) &&
                (p->fault_->kind() == Error::Kind::Cancelled || p->fault_->kind() == Error::Kind::Budget)) {
                recordFault(*p->fault_);
                throw *fault_;
            }
            redo = true;
        }
        addStats(sum, p->stats_);
    }
    if (redo || sum.warpInstructions > opt_.instructionBudget) {
        journal.rollBack();
        return run();
    }
    journal.close();
    for (size_t i = 0; i < parts.size(); ++i)
        if (listener_) listener_->join(*forks[i]);
    // Reports that did not stop a share (synccheck's divergent barrier after exits), in block
    // order, once per (tool, hazard, PTX line) as report() keeps them.
    for (auto& p : parts)
        for (CheckReport& r : p->reports_) keepReport(std::move(r));
    stats_ = sum;
    blocks_.spare.clear();
    blocks_.resident.clear();
    blocks_.next = static_cast<uint32_t>(opt_.endBlock);
    state_ = LaunchState::Finished;
}

// runToEnd for a kernel with grid barriers (grid.sync() of warpscope's <cooperative_groups.h>).
// Between two grid barriers the blocks do not communicate (serialReason found no global atomic,
// fence or volatile access, and the grid barrier is none of those), so each phase of the launch
// runs as runToEnd runs a launch: shares of the (all resident) blocks, taken in turn by the
// threads. A share stops when all its blocks' warps wait at the grid barrier (gridParked_); when
// every share has stopped there, each releases its warps and the next phase starts. Warps wait at
// the barrier without issuing, so every warp executes the same instructions in any order and on
// any number of threads: memory and counters are those of the serial run. Anything else (a fault,
// the budget, shares that disagree: some ended while others wait, which is the serial run's
// deadlock) rolls memory back and runs the launch serially, which reports it as it always does.
void Gpu::runCooperative(uint32_t threads) {
    const uint64_t first = opt_.firstBlock, total = opt_.endBlock - opt_.firstBlock;
    if (!listener_ || listener_->sumsOnly()) packKernelRegisters();
    mem::WriteJournal journal(mem_);
    const std::vector<uint64_t> bounds = shareBounds(total, threads);
    const uint64_t ns = bounds.size() - 1;
    std::vector<std::unique_ptr<Gpu>> parts(ns);
    std::vector<std::unique_ptr<StepListener>> forks(ns);
    for (uint64_t i = 0; i < ns; ++i) forks[i] = listener_ ? listener_->fork() : nullptr;
    std::atomic<bool> stop{false};
    auto cancelled = [&] { return opt_.cancel && opt_.cancel->load(std::memory_order_relaxed); };
    bool redo = false;
    for (uint64_t phase = 0;; ++phase) {
        std::atomic<uint64_t> nextShare{0};
        auto worker = [&] {
            for (uint64_t i; !stop.load(std::memory_order_relaxed) && !cancelled() && (i = nextShare.fetch_add(1)) < ns;) {
                try {
                    if (!parts[i]) {
                        if (opt_.beforeShare) opt_.beforeShare(i);
                        LaunchOptions o = opt_;
                        o.threads = 1;
                        o.beforeShare = nullptr;
                        o.firstBlock = first + bounds[i];
                        o.endBlock = first + bounds[i + 1];
                        std::unique_ptr<Gpu> g(new Gpu(prog_, mem_, cfg_, params_, o, {}, this));
                        g->gridShare_ = true;
                        g->setListener(forks[i].get());
                        parts[i] = std::move(g);
                    } else if (parts[i]->state_ != LaunchState::Running || !parts[i]->gridParked_) {
                        continue;   // finished in an earlier phase (runCooperative then stops)
                    } else {
                        parts[i]->releaseGridBarrier();
                    }
                    Gpu& g = *parts[i];
                    g.runLoop();
                    if (g.fault_) stop.store(true, std::memory_order_relaxed);
                } catch (...) {
                    parts[i].reset();
                    stop.store(true, std::memory_order_relaxed);
                }
            }
        };
        runWorkers(threads, worker);
        // Where the shares stand: all parked at the grid barrier (the next phase), all finished
        // (done), or anything else (re-run serially).
        uint64_t parked = 0, finished = 0, instructions = 0;
        for (auto& p : parts) {
            if (!p) continue;
            instructions += p->stats_.warpInstructions;
            if (p->fault_) {
                if (cancelled() && (p->fault_->kind() == Error::Kind::Cancelled || p->fault_->kind() == Error::Kind::Budget)) {
                    recordFault(*p->fault_);   // (as runToEnd: a cancel is reported at once)
                    throw *fault_;
                }
                continue;
            }
            if (p->state_ == LaunchState::Finished) ++finished;
            else if (p->gridParked_) ++parked;
        }
        // (Cancelled before a share saw the flag: the serial run stops at its first look at it.)
        if (instructions > opt_.instructionBudget || (parked + finished != ns) || (parked != 0 && finished != 0)) {
            redo = true;
            break;
        }
        if (finished == ns) break;
    }
    if (redo) {
        journal.rollBack();
        return run();
    }
    journal.close();
    LaunchStats sum;
    for (auto& p : parts) addStats(sum, p->stats_);
    for (size_t i = 0; i < parts.size(); ++i)
        if (listener_) listener_->join(*forks[i]);
    for (auto& p : parts)
        for (CheckReport& r : p->reports_) keepReport(std::move(r));
    stats_ = sum;
    blocks_.spare.clear();
    blocks_.resident.clear();
    blocks_.next = static_cast<uint32_t>(opt_.endBlock);
    state_ = LaunchState::Finished;
}

} // namespace warpscope::sim
