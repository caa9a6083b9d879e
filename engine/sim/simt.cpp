// SIMT bookkeeping: exiting lanes, barriers (wait, release, parking lanes while the rest of the
// warp runs to the end, divergent-barrier errors) and the exit-bound analysis. settle() is in
// simt.hpp.
#include "sim/exec.hpp"

namespace warpscope::sim {

void Gpu::finishLanes(Warp& w, uint32_t lanes) {
    w.exited |= lanes;
    for (auto& f : w.frames)
        for (auto& e : f.stack) e.mask &= ~lanes;
    w.top.mask &= ~lanes;
}

void Gpu::tryReleaseBarrier(Block& b) {
    // Called after every arrival and every warp's end. Threads that exited no longer take part (as
    // on Volta and later): a barrier without a thread count completes once every warp still
    // running waits at it, one with a count once that many threads (32 per waiting warp) wait.
    // The first waiting warp, in warp order, whose barrier can complete releases it (one release
    // per call). The block's counters (Block::waitingAt, ...) stand for a pass over the warps.
    if (b.waitingWarps == 0) return;
    const uint32_t live = b.readyWarps + b.waitingWarps;   // warps not done
    if (b.countedWaiting == 0 && b.waitingWarps != live) return;   // a warp still runs: nothing completes
    for (auto& w : b.warps) {
        if (w.state != WarpState::AtBarrier || w.barrierId == kGridBarrierId) continue;
        const uint32_t id = w.barrierId & 15, expected = w.barrierCount;
        const uint32_t arrivedWarps = b.waitingAt[id];
        const bool release = expected ? arrivedWarps * 32 >= expected : arrivedWarps == live;
        if (!release) continue;
        b.lastRelease[id] = Block::LastRelease{w.barrierPc, expected, w.indexInBlock};
        uint32_t released = 0;
        for (auto& o : b.warps) {
            if (o.state == WarpState::AtBarrier && (o.barrierId & 15) == id) {
                // bar.red (__syncthreads_count/_and/_or): every arrived lane gets the block's result.
                const Instr& bi = prog_.code[static_cast<size_t>(o.barrierPc)];
                if (bi.barRed != 0 && !o.frames.empty()) {
                    const uint32_t t = b.barRedAccum[id], n = b.barRedLanes[id];
                    const uint32_t lanes = o.activeMask();
                    Frame& of = o.frames.back();
                    if (bi.dst.kind == Operand::Kind::Reg) {   // .popc: a count in a register
                        const Function& ofn = prog_.functions[of.func];
                        const uint32_t off = registerOffsets(of.func)[bi.dst.index];
                        for (uint32_t m = lanes; m; m &= m - 1) {
                            if (ofn.regWide[bi.dst.index]) of.wide(off)[std::countr_zero(m)] = t;
                            else of.narrow(off)[std::countr_zero(m)] = t;
                        }
                    } else if (bi.dst.kind == Operand::Kind::Pred) {   // .and / .or: a predicate
                        const bool v = bi.barRed == 2 ? t == n : t != 0;
                        uint32_t& p = of.preds[bi.dst.index];
                        p = v ? (p | lanes) : (p & ~lanes);
                    }
                }
                o.state = WarpState::Ready;
                ++b.readyWarps;
                --b.waitingWarps;
                --b.waitingAt[id];
                if (o.barrierCount) --b.countedWaiting;
                ++released;
                if (expected && released * 32 >= expected) break;
            }
        }
        b.barRedAccum[id] = 0;
        b.barRedLanes[id] = 0;
        ++stats_.barriers;
        ++b.barrierEpoch;
        for (auto& o : b.warps) ++o.syncEpoch;   // a block barrier also synchronises each warp
        barrierReleased_ = true;
        return;
    }
}

void Gpu::waitAtBarrier(Block& b, Warp& w, uint32_t id, uint32_t count, int32_t pc) {
    arrival_ = {true, static_cast<uint8_t>(id), count};
    w.state = WarpState::AtBarrier;
    --b.readyWarps;
    w.barrierId = id;
    w.barrierCount = count;
    w.barrierPc = pc;
    ++b.waitingWarps;
    const uint32_t expects = count ? count : warpsPerBlock_ * 32;
    if (b.waitingAt[id & 15]++ == 0) b.waitingCount[id & 15] = expects;
    else if (b.waitingCount[id & 15] != expects) b.waitingCount[id & 15] = Block::kMixedCounts;   // (a parked warp's late wait)
    if (count) ++b.countedWaiting;
    tryReleaseBarrier(b);
}

bool Gpu::exitBound(int32_t start) {
    const Function& kf = prog_.functions[0];
    if (start < kf.entry || start >= kf.end) return false;
    if (exitBound_.empty()) exitBound_.assign(prog_.code.size(), -1);
    int8_t& known = exitBound_[static_cast<size_t>(start)];
    if (known >= 0) return known == 1;
    // Every instruction reachable from `start` in the kernel: none may be a barrier (of the block
    // or the warp) or a call (whose body might hold one).
    std::vector<uint8_t> seen(static_cast<size_t>(kf.end - kf.entry), 0);
    std::vector<int32_t> todo{start};
    bool ok = true;
    while (ok && !todo.empty()) {
        const int32_t pc = todo.back();
        todo.pop_back();
        if (pc < kf.entry || pc >= kf.end || seen[static_cast<size_t>(pc - kf.entry)]) continue;
        seen[static_cast<size_t>(pc - kf.entry)] = 1;
        const Instr& in = prog_.code[static_cast<size_t>(pc)];
        const bool guarded = in.guard.kind != Operand::Kind::None;
        switch (in.op) {
        case Op::Bar:
        case Op::Barrier:
        case Op::Call: ok = false; break;
        case Op::Ret:
        case Op::Exit:
        case Op::Trap:
            if (guarded) todo.push_back(pc + 1);
            break;
        case Op::Bra:
            todo.push_back(in.target);
            if (guarded) todo.push_back(pc + 1);
            break;
        default: todo.push_back(pc + 1); break;
        }
    }
    known = ok ? 1 : 0;
    return ok;
}

// The top entry holds the lanes that have reached a bar.sync (its pc already past it); the
// warp's other live lanes are elsewhere. The GPU (independent thread scheduling, Volta and
// later) lets those run while the arrived ones wait, and counts a thread that exits as arrived.
// Here: when the others are on the other side of the same branch, that side runs first; when
// they wait where this path reconverges and nothing from there on can reach a barrier, they run
// from there to the kernel's end. The arrived lanes then wait at the barrier (resumeParked).
// Anything else (the others could meet a barrier: which one they count at is undefined) is
// left to the caller's error.
bool Gpu::parkAtBarrier(Block& b, Warp& w, const Instr& I, uint32_t id, uint32_t count) {
    if (w.frames.size() != 1) return false;
    Frame& f = w.frames.back();
    const SimtEntry parked = w.top;
    const uint32_t live = w.validMask & ~w.exited, others = live & ~parked.mask;
    if (!f.stack.empty() && f.stack.back().rpc == parked.rpc && f.stack.back().pc != parked.rpc && (f.stack.back().mask & others)) {
        w.top = f.stack.back();   // the other side of the branch runs first
        f.stack.back() = parked;
    } else {
        if (parked.rpc < 0 || !exitBound(parked.rpc)) return false;
        // Every other live lane must wait at the reconvergence point: entries that only wait
        // there, then the entry that goes on from it with all of them.
        size_t k = f.stack.size();
        while (k > 0 && f.stack[k - 1].pc == parked.rpc && f.stack[k - 1].rpc == parked.rpc) --k;
        if (k == 0 || f.stack[k - 1].pc != parked.rpc || (f.stack[k - 1].mask & live) != live) return false;
        f.stack.push_back(parked);
        w.top = {parked.rpc, kExitPc, others};
    }
    if (!w.parkedMask) {
        std::ostringstream os;
        os << "__syncthreads() reached by lanes 0x" << std::hex << parked.mask << " of the warp while its lanes 0x" << others << std::dec
           << " were still on their way to the kernel's end (a return before the barrier). Volta and later GPUs count a thread "
              "that has exited as arrived, so the barrier completes once they exit, as it does here; but __syncthreads() in "
              "conditional code is only defined when the whole block takes the same side, and the threads that left do not "
              "write what the others may read after the barrier.";
        report("synccheck", "divergent barrier", os.str(), b, w, static_cast<int>(std::countr_zero(others)), &I, std::nullopt);
    }
    w.parkedMask = parked.mask;
    w.parkedPc = parked.pc - 1;
    w.parkedRpc = parked.rpc;
    w.parkedId = id;
    w.parkedCount = count;
    return true;
}

void Gpu::resumeParked(Block& b, Warp& w) {
    const uint32_t live = w.validMask & ~w.exited;
    const Instr& I = prog_.code[static_cast<size_t>(w.parkedPc)];
    if (w.top.mask == live) {   // the others have exited: the arrived lanes are all that is left
        w.parkedMask = 0;
        waitAtBarrier(b, w, w.parkedId, w.parkedCount, w.parkedPc);
        return;
    }
    // The other side of the branch reached the reconvergence point: it must run on to the end.
    w.parkedMask = 0;
    if (!parkAtBarrier(b, w, I, w.parkedId, w.parkedCount)) divergentBarrier(b, w, I, w.top.mask, live);
}

void Gpu::divergentBarrier(const Block& b, const Warp& w, const Instr& I, uint32_t arrived, uint32_t live) {
    std::ostringstream os;
    os << "Barrier in divergent code: only lanes 0x" << std::hex << arrived << " of the warp's live lanes 0x" << live << std::dec
       << " reached __syncthreads(); the others took another path, one that can reach a barrier again. Every thread of the "
          "block must reach the same barrier.";
    raise(Error::Kind::Deadlock, os.str(), b, w, std::countr_zero(live & ~arrived), &I);
}

} // namespace warpscope::sim
