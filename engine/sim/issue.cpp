// Issuing one warp-instruction: the lean path (pre-decoded whole-warp handlers), the general path
// (every instruction, a Step for the listener), control flow (bra, call, ret, exit, trap, bar).
#include "sim/exec.hpp"
#include "sim/simt.hpp"
#include "sim/yield.hpp"
#include <algorithm>

namespace warpscope::sim {

// ---------------------------------------------------------------- control flow
// The executors of bra, call, ret/exit, trap and the barriers: what they do to the warp's SIMT
// stack, call frames and the block's barriers (kExecutors' rows Branch, Call, Exit, Trap, Barrier).
namespace {
// The issue in progress as these executors name it (the names Gpu::issueGeneral used).
struct Ctl {
    explicit Ctl(Exec& x) : g(x.g), b(x.b), w(x.w), f(x.f), I(x.I), pc(x.pc), active(x.active), execMask(x.exec) {}
    Gpu& g;
    Block& b;
    Warp& w;
    Frame& f;
    const Instr& I;
    int32_t pc;
    uint32_t active, execMask;
};
} // namespace

void execBranch(Exec& x) {
    [[maybe_unused]] auto [g, b, w, f, I, pc, active, execMask] = Ctl(x);
    x.control = true;
    ++g.stats_.branches;
    if (x.st) x.st->branch = true;
    const uint32_t taken = execMask;
    const uint32_t notTaken = active & ~taken;
    SimtEntry& top = w.top;   // the stack's top; f.stack holds the entries below it
    if (taken == 0) {
        top.pc = pc + 1;
    } else if (notTaken == 0 || I.target == pc + 1) {
        top.pc = I.target;
    } else {
        ++g.stats_.divergentBranches;
        x.divergent = true;
        if (x.st) x.st->divergent = true;
        const int32_t rpc = I.reconv;
        // The stack becomes [.., waiting entry, taken, not taken (top)]. When the current
        // entry would only wait at the same point as the one below, the taken entry replaces it.
        if (top.rpc != rpc) {
            top.pc = rpc;
            f.stack.push_back(top);
        }
        f.stack.push_back({I.target, rpc, taken});
        top = {pc + 1, rpc, notTaken};
    }
    return;
}

void execCall(Exec& x) {
    [[maybe_unused]] auto [g, b, w, f, I, pc, active, execMask] = Ctl(x);
    x.control = true;
    if (execMask == 0) {
        w.top.pc = pc + 1;
        return;
    }
    if (w.frames.size() >= 256) g.raise(Error::Kind::Fault, "Call stack overflow: more than 255 nested calls (runaway recursion?).", b, w, std::countr_zero(execMask), &I);
    const Function& caller = g.prog_.functions[f.func];
    const CallSite& cs = caller.calls[static_cast<size_t>(I.callSite)];
    uint32_t target = cs.callee;
    if (cs.indirect) {
        // call through a register: each lane's value names a function (mem::functionAddress).
        // Lanes that name different functions are serialised, as the hardware does: the lowest
        // lane's target runs first with the lanes that share it; the others wait at this call
        // (a SIMT entry that runs it again) and all meet after it.
        const uint64_t* addr = x.src(0);
        const int lead = std::countr_zero(execMask);
        const uint64_t want = addr[lead];
        auto it = g.prog_.functionAt.find(want);
        if (it == g.prog_.functionAt.end()) {
            std::ostringstream os;
            os << "Indirect call to address 0x" << std::hex << want << std::dec
               << ", which is not a device function's address (a function pointer or vtable entry that was never set, "
                  "or points at data).";
            g.raise(Error::Kind::Fault, os.str(), b, w, lead, &I);
        }
        target = it->second;
        const Function& t = g.prog_.functions[target];
        if (!cs.allowedTargets.empty() && std::find(cs.allowedTargets.begin(), cs.allowedTargets.end(), target) == cs.allowedTargets.end())
            g.raise(Error::Kind::Fault,
                    "Indirect call to '" + t.name + "', which is not in the call's .calltargets list (" + cs.targetsText +
                        "): the PTX promised this call reaches only those functions.",
                    b, w, lead, &I);
        if (t.formalSizes != cs.protoArgSizes || (cs.protoRetSizes.size() && t.returnSizes != cs.protoRetSizes))
            g.raise(Error::Kind::Fault,
                    "Indirect call to '" + t.name + "', whose parameters do not match the call's .callprototype (a function pointer cast to another type).",
                    b, w, lead, &I);
        uint32_t same = 0;
        forLanes(execMask, [&](int l) { same |= (addr[l] == want) ? (1u << l) : 0u; });
        if (same != execMask) {
            ++g.stats_.divergentBranches;
            x.divergent = true;
            if (x.st) x.st->divergent = true;
            SimtEntry& top = w.top;
            const int32_t rpc = pc + 1;
            if (top.rpc != rpc) {   // the waiting entry: every lane of the call meets after it
                SimtEntry wait = top;
                wait.pc = rpc;
                f.stack.push_back(wait);
            }
            f.stack.push_back({pc, rpc, execMask & ~same});   // the other targets: this call again
            top = {pc, rpc, same};
            execMask = same;
            x.exec = same;   // this issue's lanes (the Step and the counts say so)
        }
    }
    const Function& callee = g.prog_.functions[target];
    w.top.pc = pc + 1;   // where the caller resumes (lanes that did not call wait there)
    Frame nf;
    nf.func = target;
    nf.regWords.assign(callee.regWords, 0);
    nf.preds.assign(callee.numPreds, 0);
    nf.params.assign(size_t(callee.paramBytes) * 32, 0);
    copyParams(execMask, nf, callee.paramBytes, callee.formalOffsets, f, caller.paramBytes, cs.argOffsets, callee.formalSizes);
    nf.localBase = w.localTop;
    uint64_t top = uint64_t(w.localTop) + callee.localBytes;
    if (top > g.opt_.maxLocalBytesPerThread)
        g.raise(Error::Kind::Fault, "Local memory stack overflow (" + std::to_string(top) + " bytes per thread).", b, w, std::countr_zero(execMask), &I);
    w.localTop = static_cast<uint32_t>(top);
    for (auto& lm : w.local)
        if (lm.size() < top) lm.resize(top, 0);
    // The caller's top goes onto its stack; the callee's one entry is the new flat top.
    f.stack.push_back(w.top);
    w.top = {callee.entry, kExitPc, execMask};
    nf.returnPc = pc + 1;
    nf.callSite = I.callSite;
    w.frames.push_back(std::move(nf));
    w.setFrame();
    return;
}

void execExit(Exec& x) {
    [[maybe_unused]] auto [g, b, w, f, I, pc, active, execMask] = Ctl(x);
    x.control = true;
    if (I.op == Op::Exit || w.frames.size() == 1) {
        g.finishLanes(w, execMask);
    } else {
        f.returned |= execMask;
        for (auto& e : f.stack) e.mask &= ~execMask;
        w.top.mask &= ~execMask;
    }
    if (execMask != active) w.top.pc = pc + 1;
    return;
}

void execTrap(Exec& x) {
    [[maybe_unused]] auto [g, b, w, f, I, pc, active, execMask] = Ctl(x);
    if (!execMask) return;
    // nvcc's grid.sync() traps when the launch gave it no workspace (%envreg1/2 are 0).
    if (g.prog_.readsGridWorkspace && g.opt_.gridWorkspace == 0)
        g.raise(Error::Kind::Fault,
                "The kernel executed trap where grid.sync() (cooperative_groups::this_grid().sync()) found no cooperative launch: "
                "grid-wide synchronisation needs every block resident at once, which only a cooperative launch promises "
                "(cudaLaunchCooperativeKernel; in lesson.json \"cooperative\": true on the launch).",
                b, w, std::countr_zero(execMask), &I);
    g.raise(Error::Kind::Fault, "The kernel executed trap (for example a failed assert).", b, w, std::countr_zero(execMask), &I);
    return;
}

void execBarrier(Exec& x) {
    [[maybe_unused]] auto [g, b, w, f, I, pc, active, execMask] = Ctl(x);
    if (I.type == Type::B8) {   // bar.warp.sync: lanes run in lockstep here; racecheck notes the sync
        if (execMask) g.checkMemberMask(b, w, I, execMask, x.src(0));
        ++w.syncEpoch;
        return;
    }
    if (execMask == 0) return;
    const uint32_t live = w.validMask & ~w.exited;
    if (I.gridSync) {   // grid.sync(): the warp waits until every live warp of the grid arrives (Gpu::gridBarrierStall)
        if (g.opt_.gridWorkspace == 0)
            g.raise(Error::Kind::Fault,
                    "grid.sync() (cooperative_groups::this_grid().sync()) in a launch that is not cooperative: grid-wide "
                    "synchronisation needs every block resident at once, which only cudaLaunchCooperativeKernel promises.",
                    b, w, std::countr_zero(execMask), &I);
        if (execMask != live || w.parkedMask) {
            std::ostringstream os;
            os << "grid.sync() reached by only some threads of a warp (lanes 0x" << std::hex << execMask << " of its live lanes 0x" << live
               << "): every thread of the grid must call it.";
            g.raise(Error::Kind::Fault, os.str(), b, w, std::countr_zero(execMask), &I);
        }
        w.top.pc = pc + 1;
        x.control = true;
        g.arrival_ = {true, static_cast<uint8_t>(kGridBarrierId), 0};
        w.state = WarpState::AtBarrier;
        --b.readyWarps;
        ++b.waitingWarps;
        w.barrierId = kGridBarrierId;
        w.barrierCount = 0;
        w.barrierPc = pc;
        ++g.gridWaiting_;
        return;
    }
    // Some live lanes of the warp are elsewhere. Where they can only run to the kernel's end
    // (an early return before __syncthreads()), they go on and the arrived lanes wait: exited
    // threads count as arrived on Volta and later (parkAtBarrier). Otherwise: an error.
    const bool partial = active != live && !(w.parkedMask && (active | w.parkedMask) == live);
    auto divergent = [&x, live] { x.g.divergentBarrier(x.b, x.w, x.I, x.active, live); };   // (a lambda cannot capture the bindings in clang 14)
    if (partial && (I.barArrive || w.frames.size() != 1 || w.parkedMask)) divergent();
    const uint64_t* idv = x.src(0);
    uint32_t id = static_cast<uint32_t>(idv[std::countr_zero(execMask)]) & 15;
    uint32_t count = 0;
    if (I.barRed == 0 && I.nsrc >= 2) count = static_cast<uint32_t>(x.src(1)[std::countr_zero(execMask)]);
    if (I.barRed != 0 && I.src[1].kind != Operand::Kind::None) count = static_cast<uint32_t>(x.src(1)[std::countr_zero(execMask)]);
    if (count % 32 != 0) g.raise(Error::Kind::Fault, "Barrier thread count " + std::to_string(count) + " is not a multiple of 32.", b, w, 0, &I);
    // synccheck: every warp arriving at one instance of a barrier must give the same thread
    // count (none = the whole block). The warps waiting there now make up the open instance;
    // on hardware a disagreement leaves the barrier never completing, or completing early.
    {
        const uint32_t wholeBlock = g.warpsPerBlock_ * 32;
        const uint32_t mine = count ? count : wholeBlock;
        // (The warps waiting there agree on their count, b.waitingCount[id]: look for one only when it differs.)
        const bool mismatch = b.waitingAt[id] != 0 && b.waitingCount[id] != mine;
        for (const Warp& o : b.warps) {
            if (!mismatch) break;
            if (&o == &w || o.state != WarpState::AtBarrier || o.barrierId != id) continue;
            const uint32_t theirs = o.barrierCount ? o.barrierCount : wholeBlock;
            if (theirs == mine) continue;
            auto says = [](uint32_t c) { return c ? std::to_string(c) + " threads" : std::string("all threads of the block"); };
            const Instr* oi = o.barrierPc >= 0 ? &g.prog_.code[static_cast<size_t>(o.barrierPc)] : nullptr;
            std::ostringstream os;
            os << "Mismatched barrier thread counts at barrier " << id << ": warp " << w.indexInBlock << " lane "
               << std::countr_zero(execMask) << " arrives expecting " << says(count) << ", but warp " << o.indexInBlock << " lane "
               << std::countr_zero(o.validMask & ~o.exited) << " already waits there expecting " << says(o.barrierCount);
            if (oi) {
                os << " (";
                if (oi->line) os << "source line " << oi->line << ", ";
                os << "PTX line " << oi->ptxLine << ": " << oi->text << ")";
            }
            os << ". Every warp that arrives at one barrier must give the same count; on hardware the barrier never "
                  "completes (the launch hangs) or releases the wrong warps.";
            g.raise(Error::Kind::Fault, os.str(), b, w, std::countr_zero(execMask), &I);
        }
    }
    if (I.barRed != 0) {   // count this warp's lanes and true predicates for the release
        b.barRedAccum[id] += static_cast<uint32_t>(std::popcount(x.predMask(I.src[2]) & execMask));
        b.barRedLanes[id] += static_cast<uint32_t>(std::popcount(execMask));
    }
    w.top.pc = pc + 1;
    x.control = true;
    if (I.barArrive) return;
    if (w.parkedMask && !partial && w.parkedPc == pc) {
        w.parkedMask = 0;   // the other lanes came to the same barrier: an ordinary wait
    } else if (w.parkedMask && !partial) {
        // The rest of the warp is parked at another barrier instruction: both sides of a
        // branch wait at a barrier of their own. Every live lane has arrived somewhere, and
        // the GPU counts them all at the barrier; the Programming Guide does not promise it.
        g.report("synccheck", "divergent barrier",
                 "Lanes of one warp wait at two different __syncthreads() (the two sides of a branch, PTX lines " +
                     std::to_string(g.prog_.code[static_cast<size_t>(w.parkedPc)].ptxLine) + " and " + std::to_string(I.ptxLine) +
                     "): Volta and later GPUs count both as the same barrier, but __syncthreads() in conditional code is only "
                     "defined when the whole block takes the same side.",
                 b, w, static_cast<int>(std::countr_zero(active)), &I, std::nullopt);
        w.parkedMask = 0;   // the parked entry runs on as an ordinary one after the release
    } else if (partial) {
        if (!g.parkAtBarrier(b, w, I, id, count)) {
            w.top.pc = pc;
            divergent();
        }
        return;
    }
    g.waitAtBarrier(b, w, id, count, pc);
    return;
}

void execFence(Exec& x) {
    if (x.g.race_ && x.exec) x.g.race_->fence(x.b, x.w, x.exec, x.I);
}

void execNothing(Exec&) {}   // nanosleep, prefetch, pmevent, brkpt: no effect on the simulated state

namespace {
// One executor per opcode, in the order of isa.hpp's rows (the column after the latency names it).
using ExecFn = void (*)(Exec&);
constexpr ExecFn kExecutors[] = {
#define WARPSCOPE_OP_EXECUTOR(e, s, c, l, x, o) &exec##x,
    WARPSCOPE_OPCODES(WARPSCOPE_OP_EXECUTOR)
#undef WARPSCOPE_OP_EXECUTOR
};
static_assert(sizeof(kExecutors) / sizeof(kExecutors[0]) == kOpCount);
// The executors that act even when the guard leaves no lane executing: a branch still counts
// and moves the warp on, a call or exit still settles the pc, bar.warp.sync still marks the
// warp's sync. Every other executor runs only for some lane.
constexpr bool actsWithoutLanes(ExecFn f) { return f == &execBranch || f == &execCall || f == &execExit || f == &execBarrier; }
} // namespace

// ---------------------------------------------------------------- issue()
void Gpu::stopLaunch(Block& b, Warp& w, uint32_t active, const Instr& I) {
    yieldHook();   // the single-thread web page draws a frame here (sim/yield.hpp); null natively
    std::ostringstream os;
    if (opt_.cancel && opt_.cancel->load(std::memory_order_relaxed)) {
        os << "Cancelled by the user after " << stats_.warpInstructions << " warp-instructions.";
        raise(Error::Kind::Cancelled, os.str(), b, w, std::countr_zero(active), &I);
    }
    if (stats_.warpInstructions >= opt_.instructionBudget) {
        os << "Stopped after " << stats_.warpInstructions
           << " warp-instructions: the launch exceeded its instruction budget, which usually means a loop that never ends. "
              "If the kernel is just long, raise the budget (warpscope run --budget N).";
        raise(Error::Kind::Budget, os.str(), b, w, std::countr_zero(active), &I);
    }
    checkAt_ = std::min(opt_.instructionBudget, stats_.warpInstructions + kCancelPoll);
}

void Gpu::checkMemberMask(Block& b, Warp& w, const Instr& I, uint32_t exec, const uint64_t* masks) {
    // Recorded for inspection first (Block::warpSync), so a faulting mask is shown too.
    if (b.warpSync.size() != b.warps.size()) b.warpSync.resize(b.warps.size());
    Block::WarpSyncMasks& rec = b.warpSync[w.indexInBlock];
    const bool inCode = &I >= prog_.code.data() && &I < prog_.code.data() + prog_.code.size();
    rec.pc = inCode ? static_cast<int32_t>(&I - prog_.code.data()) : -1;
    rec.exec = exec;
    for (int l = 0; l < 32; ++l) rec.mask[l] = (exec >> l & 1u) ? uint32_t(masks[l]) : 0u;
    if (auto p = findMaskProblem(w, I, exec, masks)) raise(Error::Kind::Fault, p->message, b, w, p->lane, &I);
}

namespace {
// The pre-decoded kinds that compute each lane from that lane's registers (or the warp's
// uniform values) and write one register or predicate, with no memory access and no effect on
// the warp's position: safe to run for all 32 lanes of a warp only some of whose lanes execute.
constexpr bool laneWise(FastKind k) {
    switch (k) {
    case FastKind::Generic:
    case FastKind::LdShared:
    case FastKind::StShared:
    case FastKind::LdGlobal:
    case FastKind::StGlobal:
    case FastKind::LdParam:
    case FastKind::AtomAddShared:
    case FastKind::Bra:
    case FastKind::BarSync: return false;
    default: return true;
    }
}

// A lane-wise handler (laneWise; `fast`: Gpu::fastFn_) for the lanes `exec` only: the
// destination's other lanes (32- or 64-bit, as the register is stored; a setp's predicates) are
// put back after it ran. False when the handler declined (it changed nothing then): the general
// path runs the instruction.
template <class Fn>
[[gnu::noinline]] bool runMasked(Fn fast, Gpu& g, const FastOp& fo, Block& b, Warp& w, uint32_t exec) {
    if (fo.kind == FastKind::SetpI32 || fo.kind == FastKind::SetpF32) {
        const uint32_t p1 = w.preds[fo.dst], p2 = fo.dst2 >= 0 ? w.preds[fo.dst2] : 0;
        if (!fast(g, fo, b, w, nullptr)) return false;
        w.preds[fo.dst] = (w.preds[fo.dst] & exec) | (p1 & ~exec);
        if (fo.dst2 >= 0) w.preds[fo.dst2] = (w.preds[fo.dst2] & exec) | (p2 & ~exec);
        return true;
    }
    if (fo.wideDst) {
        uint64_t* d = reinterpret_cast<uint64_t*>(w.regs + fo.dst);
        uint64_t saved[32];
        std::memcpy(saved, d, sizeof saved);
        if (!fast(g, fo, b, w, nullptr)) return false;
        for (int l = 0; l < 32; ++l) {   // branch-free: which lanes execute varies from issue to issue
            const uint64_t m = 0 - uint64_t((exec >> l) & 1u);
            d[l] = (d[l] & m) | (saved[l] & ~m);
        }
    } else {
        uint32_t* d = w.regs + fo.dst;
        uint32_t saved[32];
        std::memcpy(saved, d, sizeof saved);
        if (!fast(g, fo, b, w, nullptr)) return false;
        for (int l = 0; l < 32; ++l) {
            const uint32_t m = 0u - ((exec >> l) & 1u);
            d[l] = (d[l] & m) | (saved[l] & ~m);
        }
    }
    return true;
}
} // namespace

void Gpu::issue(Block& b, Warp& w) {
    // Every issue ends with settle(), so a Ready warp always has a live SIMT entry on top
    // (Warp::top: the position and the current frame's words are one load from the Warp).
    // The lean path: no Step listener, no checker, a pre-decoded handler for the instruction,
    // and every lane executing it (or a lane-wise handler whose other lanes are put back, or a
    // branch that does not split the warp). It does what the general path below does for such
    // an instruction (counts, handler, next pc, settle, per-pc sums), without the Step and the
    // decoding.
    if (listener_ == nullptr && fastOk_) {
        SimtEntry& top = w.top;
        const int32_t pc = top.pc;
        const FastOp& fo = fast_[static_cast<size_t>(pc)];
        if (fo.kind != FastKind::Generic && stats_.warpInstructions < checkAt_) {
            const uint32_t active = top.mask;
            const uint32_t exec = (fo.guard < 0 ? kFull : w.preds[fo.guard] ^ (fo.guardNegated ? kFull : 0u)) & active;
            // The general path's bookkeeping for an instruction that does not split the warp.
            auto done = [&](uint32_t lanes, bool branch, int32_t nextPc) __attribute__((always_inline)) {
                ++stats_.warpInstructions;
                stats_.threadInstructions += lanes;
                ++w.issued;
                stats_.branches += branch;
                if (countByPc_) {
                    PcCounts& c = pcCounts_[static_cast<size_t>(pc)];
                    ++c.warpInstructions;
                    c.threadInstructions += lanes;
                    c.activeLanes += laneCount(active);
                    c.branches += branch;
                }
                top.pc = nextPc;
                if (nextPc == top.rpc) {   // reconverged: as the general path's tail
                    settle(prog_, w);
                    if (w.state == WarpState::Done) {
                        --b.readyWarps;
                        tryReleaseBarrier(b);
                    }
                }
            };
            if (exec == kFull && fastFn_(*this, fo, b, w, memTap_ ? memTap_->addresses : nullptr)) {
                if (memTap_ && isFastMemory(fo.kind)) {
                    const Instr& I = prog_.code[static_cast<size_t>(pc)];
                    fillMemoryAccess(*memTap_, I, I.space, kFull);
                }
                done(32, false, pc + 1);
                return;
            }
            // A lane-wise instruction for some of the lanes (a diverged warp, or a guard false in
            // some lanes): the handler computes all 32, and the lanes outside `exec` get their
            // destination back, as the general path leaves it. No lane: only the counts. (Not
            // while lanes wait parked at a barrier: the general path resumes them when they can.)
            if (exec != kFull && w.parkedMask == 0 && laneWise(fo.kind) && (exec == 0 || runMasked(fastFn_, *this, fo, b, w, exec))) {
                done(laneCount(exec), false, pc + 1);
                return;
            }
            // A branch every lane takes or no lane takes: the warp does not split (no SIMT entry).
            if (fo.kind == FastKind::Bra && (exec == 0 || exec == active) && w.parkedMask == 0) {
                done(laneCount(exec), true, exec ? static_cast<int32_t>(fo.offset) : pc + 1);
                return;
            }
            // __syncthreads() by a whole warp (every lane live, none parked: execBarrier's ordinary
            // wait), unless the warps already waiting at this id gave another count (synccheck's
            // error is the general path's to raise).
            if (fo.kind == FastKind::BarSync && exec == kFull) {
                const uint32_t id = static_cast<uint32_t>(fo.imm[0]);
                if (w.parkedMask == 0 && (b.waitingAt[id] == 0 || b.waitingCount[id] == warpsPerBlock_ * 32)) {
                    top.pc = pc + 1;
                    waitAtBarrier(b, w, id, 0, pc);
                    done(32, false, pc + 1);
                    return;
                }
            }
        }
    }
    issueGeneral(b, w);
}

[[gnu::noinline]] void Gpu::issueGeneral(Block& b, Warp& w) {
    Frame& f = w.frames.back();
    const int32_t pc = w.top.pc;
    const Instr& I = prog_.code[static_cast<size_t>(pc)];
    const uint32_t active = w.top.mask;
    uint32_t execMask = active;
    if (I.guard.kind == Operand::Kind::Pred) execMask &= f.preds[I.guard.index] ^ (I.guard.negate ? kFull : 0u);

    if (stats_.warpInstructions >= checkAt_) stopLaunch(b, w, active, I);   // one compare on the hot path
    ++stats_.warpInstructions;
    stats_.threadInstructions += laneCount(execMask);
    ++w.issued;

    sim::Step step;
    arrival_.arrived = false;
    // A Step for the listener, or for issueQuiet's memory record (nobody else sees it).
    sim::Step* st = listener_ || (memTap_ && isMemoryOp(I.op)) ? &step : nullptr;
    Exec x(*this, b, w, f, I, active, execMask);
    x.pc = pc;
    x.st = st;

    // A converged warp (and a guard true in every lane) takes the pre-decoded handler if there is one.
    // With a Step to fill, a pre-decoded load or store also gives its lanes' addresses (the
    // cycle model reads them), so memory instructions need not take the general path for it.
    uint64_t fastAddrs[32];
    const bool fastDone = execMask == kFull && fastOk_ && fastFn_(*this, fast_[static_cast<size_t>(pc)], b, w, st ? fastAddrs : nullptr);
    if (fastDone && st && isMemoryOp(I.op)) fillMemoryStep(*st, I, I.space, fastAddrs);
    if (!fastDone) {
        const ExecFn run = kExecutors[static_cast<size_t>(I.op)];
        if (execMask || actsWithoutLanes(run)) run(x);
    }
    x.commit();
    if (!x.control) w.top.pc = pc + 1;
    (void)x.active;
    if (x.exec != execMask) {   // an indirect call ran the lanes of one target and left the others for later issues
        stats_.threadInstructions -= laneCount(execMask) - laneCount(x.exec);
        execMask = x.exec;
    }

    if (st) {
        step.index = stats_.warpInstructions - 1;
        step.block = b.linear;
        step.warpInBlock = w.indexInBlock;
        step.warp = b.linear * warpsPerBlock_ + w.indexInBlock;
        step.pc = pc;
        step.instr = &I;
        step.activeMask = active;
        step.execMask = execMask;
    }
    const WarpState before = w.state;
    settle(prog_, w);
    if (w.state == WarpState::Done) {
        if (before == WarpState::Ready) --b.readyWarps;
        tryReleaseBarrier(b);
    } else if (w.parkedMask && w.state == WarpState::Ready && w.top.pc == w.parkedPc + 1 && w.top.rpc == w.parkedRpc &&
               (w.top.mask & ~w.parkedMask) == 0) {
        resumeParked(b, w);   // the lanes that ran on have exited (or reconverged): the parked ones wait now
    }
    if (memTap_ && (step.isLoad || step.isStore || step.isAtomic)) {
        fillMemoryAccess(*memTap_, I, step.space, step.addresses ? execMask : 0);
        if (step.addresses && step.addresses != memTap_->addresses) std::memcpy(memTap_->addresses, step.addresses, sizeof memTap_->addresses);
    }
    if (st && listener_) {
        step.maskAfter = w.state == WarpState::Done ? 0 : w.activeMask();
        step.barrierArrival = arrival_.arrived;
        step.barrierId = arrival_.id;
        step.barrierCount = arrival_.count;
        listener_->onStep(step);
    } else if (countByPc_) {
        PcCounts& c = pcCounts_[static_cast<size_t>(pc)];
        ++c.warpInstructions;
        c.threadInstructions += laneCount(execMask);
        c.activeLanes += laneCount(active);
        if (I.op == Op::Bra) {
            ++c.branches;
            c.divergentBranches += x.divergent;
        }
    }
}

} // namespace warpscope::sim
