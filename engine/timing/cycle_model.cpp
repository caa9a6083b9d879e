// The cycle model (see cycle_model.hpp for the model in words).
//
// Sections: 1. names  2. state  3. set-up and block placement  4. the cycle loop
//           5. issue: latencies, pipes, memory  6. dependencies and stall accounting  7. views
#include "timing/cycle_model.hpp"

#include "mem/access.hpp"
#include "mem/atomics.hpp"
#include "sim/tensor.hpp"
#include "trace/shared_merge.hpp"
#include "base/error.hpp"
#include "base/hot_memory.hpp"

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstring>

namespace warpscope::timing {

using sim::ExecClass;
using sim::Instr;
using sim::Op;
using sim::Operand;

// ---------------------------------------------------------------- 1. names
std::string_view stallShortName(StallReason r) {
    switch (r) {
    case StallReason::Selected: return "selected";
    case StallReason::NotSelected: return "not_selected";
    case StallReason::Wait: return "wait";
    case StallReason::ShortScoreboard: return "short_scoreboard";
    case StallReason::LongScoreboard: return "long_scoreboard";
    case StallReason::Barrier: return "barrier";
    case StallReason::MathPipeThrottle: return "math_pipe_throttle";
    case StallReason::MioThrottle: return "mio_throttle";
    case StallReason::LgThrottle: return "lg_throttle";
    case StallReason::Membar: return "membar";
    case StallReason::Count_: break;
    }
    return "?";
}

std::string stallMetricName(StallReason r) {
    return "smsp__pcsamp_warps_issue_stalled_" + std::string(stallShortName(r));
}

// ---------------------------------------------------------------- 2. state
namespace {
constexpr uint64_t kNever = UINT64_MAX;
enum Pipe : int { PipeAlu, PipeFma, PipeFp64, PipeSfu, PipeTensor, PipeOther, PipeCount };
// What can hold a ready warp back, by its next instruction: its math pipe (the Pipe values), the
// MIO queue (shared-space memory), the LSU queue (other memory), or nothing.
enum ThrottleClass : int { ClassMio = PipeOther, ClassLsu, ClassFree, ClassCount };
constexpr StallReason kNoMark = StallReason::Count_;   // a class not marked yet
constexpr uint32_t kMaxWarpsPerScheduler = 64;         // the waiting set is a 64-bit mask
} // namespace

// What the cycle model needs of one instruction, decoded once per launch (by pc): the scheduler
// loop and the scoreboard read this instead of the Instr, the op table and the spec each time.
struct TimedRun::PcInfo {
    uint32_t line = 0;
    int pipe = PipeOther;
    int throttleClass = ClassFree;
    uint32_t interval = 1;                       // cycles its pipe is busy (pipe != PipeOther)
    uint32_t divideSlots = 0;                    // issue slots of an expanded integer division
    uint64_t latency = 1;                        // result latency when it is not a memory access
    StallReason kind = StallReason::Wait;        // (idem) the stall a consumer of the result sees
    bool waitAll = false;                        // membar, fence, call, ret, exit: waits for every register
    bool fence = false;                          // membar, fence (the stall is Membar)
    bool sync = false;                           // bar, barrier, exit, ret: the block is looked at again
    bool memory = false;                         // ld, ldu, st, atom, red, cp.async: its Step carries addresses
    bool asyncWait = false;                      // cp.async.wait_group / wait_all: waits for its copies' groups
    uint32_t needs = 0, needCount = 0;           // operandSlots_[needs, +needCount): readiness read
    uint32_t writes = 0, writeCount = 0;         // operandSlots_[writes, +writeCount): readiness written
    // What its issue touches (prefetchLooks): word offsets in the Gpu's register file, one per
    // host line; scoreboard entries it reads; the rest of the Gpu's description.
    sim::IssueFootprint footprint;
    uint32_t lineWords[4 * sim::IssueFootprint::kMaxRegs] = {};
    uint32_t lineCount = 0;
    uint32_t boardSlots[4] = {};
    uint32_t boardCount = 0;
};

// Readiness of one register or predicate of a warp (the scoreboard), packed in 8 bytes: the
// cycle its value is ready (a cycle count below 2^56) and, in the low byte, the stall a consumer
// sees until then. Half the size of a struct: the scoreboards of 8,192 resident warps of a
// 120-register module are megabytes, read at random as warps issue.
struct TimedRun::OperandReady {
    uint64_t packed = static_cast<uint64_t>(StallReason::Wait);
    OperandReady() = default;
    OperandReady(uint64_t at, StallReason kind) : packed(at << 8 | static_cast<uint64_t>(kind)) {}
    uint64_t at() const { return packed >> 8; }
    StallReason kind() const { return static_cast<StallReason>(packed & 0xff); }
};

// A warp's record. What one issue and one look read is in its first 64 bytes (the records of an
// SM lie together, 64-byte aligned, and one look rarely finds them in the host's L1).
struct alignas(64) TimedRun::TWarp {
    uint64_t since = 0;                          // (stall accounting)
    uint64_t readyAt = 0;                        // operands ready (kNever at a barrier)
    const PcInfo* nextInfo = nullptr;            // the instruction it issues next, decoded (cached)
    OperandReady* ops = nullptr;                 // registers, then predicates (operandSlot); the SM's scoreboard
    sim::Warp* gw = nullptr;                     // the Gpu's warp (stable while its block is resident)
    TBlock* block = nullptr;
    uint32_t line = 0;                           // source line the current stall is charged to
    uint32_t warpInBlock = 0;
    StallReason reason = StallReason::NotSelected;   // reason being accounted since `since`
    StallReason pending = StallReason::Wait;     // why it waits until readyAt
    WarpPhase phase = WarpPhase::Active;
    // Scheduler queues (see Scheduler): its index among the scheduler's warp slots, its place in
    // the scheduler's age order, and the throttle class whose ready set holds it (-1: none).
    int8_t readyClass = -1;
    uint8_t local = 0, rank = 0;
    uint16_t sched = 0;
    // (colder)
    uint32_t slot = 0;
    uint64_t age = 0;
    int32_t fusedLeader = -1;                    // the fused shared-load group in flight
    uint32_t fusedMask = 0;
    uint64_t fusedReady = 0;
    // Where the Gpu's warp kept its registers and predicates when last looked at: for prefetching
    // only (prefetchLooks; only its shared-memory stage reads through regsHint, see there).
    const uint32_t* regsHint = nullptr;
    const uint32_t* predsHint = nullptr;
    const uint8_t* sharedHint = nullptr;         // its block's shared memory (sharedBytes_ long)
    // cp.async (docs/async-copy.md): a copy issues like a global load but holds no register, so
    // the warp goes on; its data is in by the cycle its group completes. Completion cycles of the
    // copies not yet committed, of the last kAsyncGroups committed groups (oldest first), and the
    // latest of the groups older than those. cp.async.wait_group N waits for all but the N newest.
    static constexpr int kAsyncGroups = 8;
    uint64_t asyncOpen = 0;
    uint64_t asyncOlder = 0;
    uint64_t asyncGroup[kAsyncGroups] = {};
    uint8_t asyncGroups = 0;
};

struct TimedRun::TBlock {
    static void* operator new(size_t bytes) { return base::hotAllocate(bytes); }
    static void operator delete(void* p, size_t bytes) noexcept { base::hotFree(p, bytes); }
    uint32_t linear = 0, sm = 0, gpuSlot = 0;
    sim::Block* blk = nullptr;
    std::vector<TWarp*> warps;
};

// A scheduler keeps its Active warps in queues instead of scanning every slot each cycle:
// waiting (operands not ready: readyAt > the cycle it last looked; a bit per warp slot, the
// wake-up cycles and their exact minimum) and `ready` (readyAt reached; eligible unless
// throttled), one set per throttle class. Ready sets are bit masks over the warps' ranks, their
// places in the scheduler's age order (byRank; a placed warp is the youngest, a retired one closes
// its gap), so the oldest eligible warp is the lowest bit of the eligible classes' masks, and
// joining or leaving a set is one bit. A warp starts waiting whenever readyAt
// is set (evaluateNext, placeBlock) and moves to `ready` in the first cycle the scheduler looks at
// or after readyAt (only looks with a wake-up due walk the waiting warps); it leaves `ready` when
// it issues, and both when it finishes or reaches a barrier.
// Every look marks each ready warp with what held it this cycle: its class's throttle, or "not
// selected". All warps of a class get the same mark, and a mark that does not change charges
// nothing, so a look marks only the warps of classes whose mark changed since the last look and
// the warps that joined since (`fresh`): the same sums as marking every warp every look.
struct TimedRun::Scheduler {
    // (What every look reads comes first.)
    uint64_t nextCheck = kNever;
    uint64_t minWake = kNever;                   // the earliest wakeAt of a waiting warp
    uint64_t waitMask = 0;                       // bit i: local warp i is waiting
    uint32_t readyClasses = 0;                   // bit c: readyRanks[c] is not empty
    StallReason classMark[ClassCount] = {kNoMark, kNoMark, kNoMark, kNoMark, kNoMark, kNoMark, kNoMark, kNoMark};
    uint64_t readyRanks[ClassCount] = {};        // by throttle class: bit r, the warp byRank[r] is ready
    uint64_t readyAll = 0;                       // their union
    uint64_t freshRanks = 0;                     // joined `ready` since the last look: not marked yet
    uint64_t pipeFreeAt[PipeCount] = {};
    int32_t lastIssued = -1;                     // slot
    int32_t lastRank = -1;                       // the rank of the warp now in slot lastIssued, -1 none
    int32_t lastLocal = -1;                      // its local index (lastIssued / schedulers per SM)
    const TWarp* guess = nullptr;                // (prefetchLooks) the warp its next look will likely pick
    uint64_t busyUntil = 0;                      // issue slots taken by an expanded instruction
    int32_t issuedSlot = -1, issuedPc = -1;      // this cycle
    uint64_t issuedCycle = kNever;
    uint32_t ranks = 0;                          // warps placed (byRank's length)
    TWarp* byRank[kMaxWarpsPerScheduler] = {};   // its warps, oldest first
    uint64_t wakeAt[kMaxWarpsPerScheduler] = {};
    TWarp* waiter[kMaxWarpsPerScheduler] = {};
    std::vector<uint32_t> slots;                 // warp slots it owns
};

struct alignas(64) TimedRun::Sm {
    // (The records, scoreboards and schedulers are huge-page-backed: base/hot_memory.hpp.)
    // What every look reads comes first, in one host line (prefetchLooks fetches it).
    base::HotVector<Scheduler> schedulers;
    double l1FreeAt = 0;                         // L1/shared data pipe
    uint32_t index = 0;                          // in sms_ (its next check is smCheck_[index])
    std::vector<TWarp*> slots;                   // by warp slot: its record in `records`, or null (free)
    base::HotVector<TWarp> records;              // one per warp slot, reused as blocks come and go
    base::HotVector<OperandReady> scoreboard;    // warp slot x (registers + predicates), on first use
    std::vector<uint32_t> blocks;                // linear indices
    std::unique_ptr<mem::SectorCache> l1;
    uint64_t nextDispatchAt = 0;                 // the SM takes its next block no earlier (GpuSpec::blockDispatchCycles)
    uint64_t slotFreeAt = 0;                     // the slot of the block that retired last frees (blockRetireCycles)
};

// ---------------------------------------------------------------- 3. set-up and block placement
TimedRun::TimedRun(sim::Gpu& gpu, const GpuSpec& spec, TimingOptions options, sim::StepListener* downstream)
    : gpu_(gpu), spec_(spec), opt_(options), downstream_(downstream) {
    const auto& cfg = gpu_.config();
    OccupancyInput in;
    in.threadsPerBlock = static_cast<uint32_t>(cfg.block.count());
    in.registersPerThread = opt_.registersPerThread;
    in.sharedBytesPerBlock = gpu_.sharedBytesPerBlock();
    occ_ = computeOccupancy(spec_, in);
    if (!occ_.problem.empty())
        throw Error(Error::Kind::Input, "Cannot run '" + gpu_.program().kernelName + "' on the " + spec_.name + " preset: " + occ_.problem + ".");
    if (opt_.forceBlocksPerSM && opt_.forceBlocksPerSM < occ_.activeBlocksPerSM) {
        occ_.activeBlocksPerSM = opt_.forceBlocksPerSM;
        occ_.activeWarpsPerSM = occ_.activeBlocksPerSM * occ_.warpsPerBlock;
        occ_.occupancy = double(occ_.activeWarpsPerSM) / spec_.maxWarpsPerSM;
    }
    // (Checked before the Gpu is touched.)
    if ((spec_.maxWarpsPerSM + spec_.schedulersPerSM - 1) / spec_.schedulersPerSM > kMaxWarpsPerScheduler ||
        spec_.schedulersPerSM > 65535)
        throw Error(Error::Kind::Input, "The cycle model handles at most " + std::to_string(kMaxWarpsPerScheduler) +
                                            " warp slots per scheduler; the " + spec_.name + " preset has " +
                                            std::to_string(spec_.maxWarpsPerSM) + " warps per SM on " +
                                            std::to_string(spec_.schedulersPerSM) + " scheduler(s).");
    if (gpu_.stepCount() != 0) throw Error(Error::Kind::Input, "TimedRun must be attached before the launch issues its first instruction.");
    gpu_.setResidency(spec_.smCount * occ_.activeBlocksPerSM, spec_.smCount);
    previousListener_ = gpu_.listener();
    if (!downstream_) downstream_ = previousListener_;
    gpu_.setListener(this);
    stepless_ = downstream_ == nullptr;
    steplessSums_ = downstream_ && downstream_->sumsOnly();

    registerFilesPooled_ = true;
    for (auto& f : gpu_.program().functions) {
        numRegs_ = std::max(numRegs_, f.numRegs);
        numPreds_ = std::max(numPreds_, f.numPreds);
        registerFilesPooled_ &= size_t(f.regWords) * 4 <= base::kHotPooledBytes;
    }
    const uint32_t nSched = spec_.schedulersPerSM;
    const trace::CacheConfig caches = cacheConfigFor(spec_, occ_);   // the occupancy as forced, if it is
    for (uint32_t s = 0; s < spec_.smCount; ++s) {
        auto sm = std::make_unique<Sm>();
        sm->index = s;
        sm->slots.assign(spec_.maxWarpsPerSM, nullptr);
        sm->records.resize(spec_.maxWarpsPerSM);
        sm->schedulers.resize(nSched);
        for (uint32_t k = 0; k < spec_.maxWarpsPerSM; ++k) sm->schedulers[k % nSched].slots.push_back(k);
        sm->l1 = std::make_unique<mem::SectorCache>(caches.l1Bytes, caches.l1Ways);
        sms_.push_back(std::move(sm));
        smCheck_.push_back(kNever);
    }
    l2_ = opt_.l2 ? opt_.l2 : std::make_shared<mem::SectorCache>(caches.l2Bytes, caches.l2Ways);
    l2_->setAccessPolicy(opt_.l2Window, opt_.l2PersistingBytes);
    uint32_t maxLine = 0;
    for (auto& i : gpu_.program().code) maxLine = std::max(maxLine, i.line);
    lineStalls_.assign(size_t(maxLine) + 1, StallCounts{});
    findFusedSharedLoads();
    decodeProgram();
    blocksCompletedSeen_ = gpu_.stats().blocksCompleted;
    syncResidency();
}

TimedRun::~TimedRun() {
    if (gpu_.listener() == this) gpu_.setListener(previousListener_);
}

void TimedRun::cacheNext(TWarp& w) const {
    setNext(w, gpuWarp(w).pc());
}

// The instruction at `pc` is the warp's next (none when pc < 0: the line stays as it was).
void TimedRun::setNext(TWarp& w, int32_t pc) const {
    if (pc < 0) {
        w.nextInfo = nullptr;
        return;
    }
    w.nextInfo = &pcInfo_[static_cast<size_t>(pc)];
    w.line = w.nextInfo->line;
}

void TimedRun::decodeProgram() {
    const auto& code = gpu_.program().code;
    pcInfo_.assign(code.size(), PcInfo{});
    operandSlots_.clear();
    auto slotOf = [&](const Operand& o) -> int64_t {
        if (o.kind == Operand::Kind::Reg && o.index < numRegs_) return int64_t(o.index);
        if (o.kind == Operand::Kind::Pred && o.index < numPreds_) return int64_t(numRegs_) + o.index;
        return -1;
    };
    auto add = [&](const Operand& o) {
        const int64_t k = slotOf(o);
        if (k >= 0) operandSlots_.push_back(static_cast<uint32_t>(k));
    };
    for (size_t pc = 0; pc < code.size(); ++pc) {
        const Instr& in = code[pc];
        PcInfo& p = pcInfo_[pc];
        const auto& info = sim::opInfo(in.op);
        p.line = in.line;
        p.pipe = pipeOf(in);
        p.throttleClass = p.pipe != PipeOther           ? p.pipe
                          : info.cls != ExecClass::Lsu ? ClassFree
                          : in.space == ptx::StateSpace::Shared ? ClassMio
                                                                : ClassLsu;
        switch (p.pipe) {
        case PipeAlu: p.interval = spec_.aluInterval; break;
        case PipeFma: p.interval = spec_.fmaInterval; break;
        case PipeFp64: p.interval = spec_.fp64Interval(); break;
        case PipeSfu: p.interval = spec_.sfuInterval; break;
        // Tensor cores: the sub-partition's tensor pipe is busy for the measured cycles of the
        // instruction's HMMA/IMMA (sim/tensor.hpp, docs/tensor-cores.md).
        case PipeTensor: p.interval = in.matrix ? uint32_t(std::max(1, sim::tensorPipeCycles(*in.matrix))) : 1; break;
        default: break;
        }
        // Latency of the result and the kind of stall a consumer would see (memory accesses
        // replace both in issueOne).
        p.latency = static_cast<uint64_t>(std::max(1, info.latency));
        if (in.matrix) p.latency = static_cast<uint64_t>(std::max(1, sim::tensorLatency(*in.matrix)));
        // Integer division and remainder by a register have no machine instruction: ptxas expands a
        // 32-bit one into about 18 instructions (a reciprocal on the SFU, conversions, multiply-highs
        // and corrections; see the SASS of lessons/reduction's reduce_divergent), 64-bit ones into a
        // call of a longer routine. They take that many of the scheduler's issue slots.
        const bool intDivide = (in.op == Op::Div || in.op == Op::Rem) && !ptx::isFloat(in.type) && in.nsrc >= 2 &&
                               in.src[1].kind != Operand::Kind::Imm;
        if (intDivide) {
            const bool wide = ptx::sizeOf(in.type) == 8;
            p.divideSlots = wide ? 4 * spec_.intDivideSlots : spec_.intDivideSlots;
            p.latency = uint64_t(p.divideSlots) * spec_.aluLatency + spec_.sfuLatency;
        }
        switch (info.cls) {
        case ExecClass::Alu:
        case ExecClass::Fma:
            if (p.pipe == PipeFp64) p.latency = spec_.fp64Latency;
            break;
        case ExecClass::Fp64: p.latency = spec_.fp64Latency; break;
        case ExecClass::Sfu:
            p.latency = p.pipe == PipeFp64 ? spec_.fp64Latency * 4 : uint64_t(info.latency) * spec_.sfuLatency / 20;
            p.kind = StallReason::ShortScoreboard;
            break;
        case ExecClass::Warp: p.kind = StallReason::ShortScoreboard; break;
        default: break;
        }
        p.fence = in.op == Op::Membar || in.op == Op::Fence;
        p.waitAll = p.fence || in.op == Op::Call || in.op == Op::Ret || in.op == Op::Exit;
        p.asyncWait = in.op == Op::CpAsyncWait || in.op == Op::CpAsyncWaitAll;
        p.sync = in.op == Op::Bar || in.op == Op::Barrier || in.op == Op::Exit || in.op == Op::Ret;
        // The only instructions whose Step the model reads (onStep): the Gpu fills the memory
        // fields of a Step for these five and no other.
        p.memory = sim::isMemoryOp(in.op);
        // Operands read, in the order that decides the stall reason on a tie (the first one
        // that is latest): sources, guard, address base, destinations (write after write).
        p.needs = static_cast<uint32_t>(operandSlots_.size());
        for (int k = 0; k < in.nsrc && k < 4; ++k) add(in.src[k]);
        add(in.guard);
        add(in.addr.base);
        add(in.dst);
        add(in.dst2);
        for (int k = 0; k < in.vec && k < 4; ++k) add(in.vecRegs[k]);
        p.needCount = static_cast<uint32_t>(operandSlots_.size()) - p.needs;
        p.writes = static_cast<uint32_t>(operandSlots_.size());
        if (in.op != Op::St && in.op != Op::Red) {
            add(in.dst);
            add(in.dst2);
            if (in.op == Op::Ld || in.op == Op::Ldu || in.op == Op::Mov)
                for (int k = 0; k < in.vec && k < 4; ++k) add(in.vecRegs[k]);
        }
        p.writeCount = static_cast<uint32_t>(operandSlots_.size()) - p.writes;
        p.footprint = gpu_.issueFootprint(static_cast<int32_t>(pc));
        for (int k = 0; k < p.footprint.regs; ++k)
            for (int l = 0; l < p.footprint.regLines[k]; ++l) p.lineWords[p.lineCount++] = p.footprint.regOffset[k] + 16 * l;
        for (uint32_t k = 0; k < p.needCount && p.boardCount < 4; ++k) p.boardSlots[p.boardCount++] = operandSlots_[p.needs + k];
    }
}

const sim::Warp& TimedRun::gpuWarp(const TWarp& w) const {
    return *w.gw;
}

void TimedRun::placeBlock(sim::Block& b, uint32_t gpuSlot) {
    // The SM with the most room (fewest resident blocks; lowest index on a tie): the first wave
    // goes round-robin over SMs, later blocks go where a block has just retired.
    uint32_t best = 0;
    for (uint32_t s = 1; s < sms_.size(); ++s)
        if (sms_[s]->blocks.size() < sms_[best]->blocks.size()) best = s;
    Sm& sm = *sms_[best];
    auto tb = std::make_unique<TBlock>();
    tb->linear = b.linear;
    tb->sm = best;
    tb->gpuSlot = gpuSlot;
    tb->blk = &b;
    sm.blocks.push_back(b.linear);
    gpu_.setBlockSm(gpuSlot, best);
    // An SM takes one new block per blockDispatchCycles (measured on the H100: empty grids of
    // 32- and 256-thread blocks both cost 80 ns per block per SM), into a slot that a retired
    // block has freed (blockRetireCycles after its last warp exited); the block's warps first issue
    // blockLaunchLatency cycles after it is taken.
    const uint64_t start = std::max({now_ + spec_.blockLaunchLatency, sm.nextDispatchAt, sm.slotFreeAt});
    sm.nextDispatchAt = start + spec_.blockDispatchCycles;
    uint32_t slot = 0;
    for (uint32_t wi = 0; wi < b.warps.size(); ++wi) {
        while (slot < sm.slots.size() && sm.slots[slot]) ++slot;
        if (slot >= sm.slots.size()) throw Error(Error::Kind::Input, "timing model: no free warp slot on SM " + std::to_string(best));
        TWarp* w = newWarp(sm, slot);
        w->block = tb.get();
        w->gw = &b.warps[wi];
        w->regsHint = b.warps[wi].regs;
        w->predsHint = b.warps[wi].preds;
        w->sharedHint = b.shared.data();
        w->warpInBlock = wi;
        w->slot = slot;
        w->sched = static_cast<uint16_t>(slot % spec_.schedulersPerSM);
        w->local = static_cast<uint8_t>(slot / spec_.schedulersPerSM);
        w->age = ageCounter_++;
        w->readyAt = start;
        w->since = start;
        w->reason = StallReason::NotSelected;
        w->phase = b.warps[wi].state == sim::WarpState::Done ? WarpPhase::Done : WarpPhase::Active;
        cacheNext(*w);
        tb->warps.push_back(w);
        Scheduler& sc = sm.schedulers[w->sched];
        w->rank = static_cast<uint8_t>(sc.ranks);   // the youngest: ages grow with every placement
        sc.byRank[sc.ranks++] = w;
        if (sc.lastIssued == static_cast<int32_t>(slot)) sc.lastRank = w->rank;   // the slot's new occupant
        if (w->phase == WarpPhase::Active) enqueueWaiting(sc, *w);
        lowerCheck(sm, sc, start);
        sm.slots[slot] = w;
    }
    blocks_[b.linear] = std::move(tb);
}

// The record of warp slot `slot`, reset, with its scoreboard cleared (the SM's scoreboard is
// allocated when the SM first holds a warp: small launches touch few SMs).
TimedRun::TWarp* TimedRun::newWarp(Sm& sm, uint32_t slot) {
    static_assert(offsetof(TWarp, slot) <= 64, "the fields one issue reads fit in one cache line");
    const size_t perWarp = size_t(numRegs_) + numPreds_;
    if (sm.scoreboard.empty()) sm.scoreboard.resize(perWarp * sm.records.size());
    TWarp* w = &sm.records[slot];
    *w = TWarp{};
    w->ops = sm.scoreboard.data() + perWarp * slot;
    std::fill(w->ops, w->ops + perWarp, OperandReady{});
    return w;
}

void TimedRun::syncResidency(size_t from) {
    // The Gpu erases a retired block from its list and appends the blocks it admits, so the blocks
    // known here (slotToBlock_, the retired one already removed) are usually the list's prefix in
    // the same order: only the new ones need placing. Otherwise every block is looked up.
    // Entries before `from` (where the retired block was) have not moved; from there on each is
    // checked by its Block's address (the Gpu's list, not the Blocks, is read) and renumbered.
    const auto& res = gpu_.residentBlocks();
    size_t same = std::min({from, slotToBlock_.size(), res.size()});
    while (same < slotToBlock_.size() && same < res.size() && slotToBlock_[same]->blk == res[same].get()) {
        slotToBlock_[same]->gpuSlot = static_cast<uint32_t>(same);
        ++same;
    }
    if (same == slotToBlock_.size()) {
        slotToBlock_.resize(res.size(), nullptr);
        for (size_t i = same; i < res.size(); ++i) {
            placeBlock(*res[i], static_cast<uint32_t>(i));
            slotToBlock_[i] = blocks_.find(res[i]->linear)->second.get();
        }
        return;
    }
    slotToBlock_.assign(res.size(), nullptr);
    for (uint32_t i = 0; i < res.size(); ++i) {
        auto it = blocks_.find(res[i]->linear);
        if (it == blocks_.end()) {
            placeBlock(*res[i], i);
            it = blocks_.find(res[i]->linear);
        }
        TBlock& tb = *it->second;
        tb.gpuSlot = i;
        if (tb.blk != res[i].get()) {   // (not expected) the block's record moved: so did its warps
            tb.blk = res[i].get();
            for (TWarp* w : tb.warps) w->gw = &tb.blk->warps[w->warpInBlock];
        }
        slotToBlock_[i] = &tb;
    }
}

void TimedRun::findFusedSharedLoads() {
    // The analysis the counters use too (trace/shared_merge.hpp), so both merge the same loads.
    trace::SharedLoadMerges m = trace::findSharedLoadMerges(gpu_.program().code);
    fuseLeader_ = std::move(m.leader);
    fuseBytes_ = std::move(m.bytes);
}

// Completion of a shared load at `pc`, charging a fused group once (see findFusedSharedLoads).
uint64_t TimedRun::sharedLoadReady(Sm& sm, TWarp& w, int32_t pc) {
    const int32_t leader = pc >= 0 && size_t(pc) < fuseLeader_.size() ? fuseLeader_[size_t(pc)] : -1;
    if (leader < 0) return memoryCompletion(sm, true, false, false, now_);
    if (leader != pc && w.fusedLeader == leader && w.fusedMask == last_.execMask) return w.fusedReady;
    w.fusedLeader = -1;
    if (leader == pc) {
        // The hardware's wide load needs every lane's address aligned to its width.
        const uint32_t bytes = fuseBytes_[size_t(pc)];
        if (trace::mergedAccessAligned(last_.addresses, last_.execMask, bytes)) {
            w.fusedLeader = leader;
            w.fusedMask = last_.execMask;
            w.fusedReady = memoryCompletion(sm, true, false, false, now_, bytes);
            return w.fusedReady;
        }
    }
    return memoryCompletion(sm, true, false, false, now_);
}

// ---------------------------------------------------------------- 4. the cycle loop
void TimedRun::processCycle() {
    for (size_t si = 0; si < sms_.size(); ++si) {
        if (smCheck_[si] > now_) continue;   // no scheduler of this SM looks this cycle
        prefetchLooks(si);
        Sm& sm = *sms_[si];
        for (auto& sc : sm.schedulers) {
            if (finished_) return;
            if (sc.nextCheck > now_) continue;
            // Wake-ups: warps whose operands are ready by now join `ready`.
            if (sc.minWake <= now_) {
                uint64_t later = kNever;
                for (uint64_t m = sc.waitMask; m; m &= m - 1) {
                    const int i = std::countr_zero(m);
                    if (sc.wakeAt[i] > now_) {
                        later = std::min(later, sc.wakeAt[i]);
                        continue;
                    }
                    sc.waitMask &= ~(uint64_t(1) << i);
                    // A warp with no next instruction never issues (nor is it marked).
                    if (sc.waiter[i]->nextInfo) addReady(sc, *sc.waiter[i]);
                }
                sc.minWake = later;
            }
            uint64_t next = sc.minWake;
            // Structural hazards, by class: a busy pipe or a full memory queue. The scheduler
            // looks again when the hazard can first be over: the pipe frees at a known cycle, and
            // the queue's backlog only shrinks between issues of this scheduler (other
            // schedulers can only make it longer, and a later look finds that).
            StallReason mark[ClassCount];
            bool anyEligible = false;
            for (uint32_t cm = sc.readyClasses; cm; cm &= cm - 1) {
                const int c = std::countr_zero(cm);
                StallReason throttle = StallReason::NotSelected;   // eligible
                if (c < PipeOther) {
                    if (sc.pipeFreeAt[c] > now_) {
                        throttle = StallReason::MathPipeThrottle;
                        next = std::min(next, sc.pipeFreeAt[c]);
                    }
                } else if (c != ClassFree && sm.l1FreeAt - double(now_) > spec_.mioQueueCycles) {
                    throttle = c == ClassMio ? StallReason::MioThrottle : StallReason::LgThrottle;
                    next = std::min(next, lsuQueueOpens(sm));
                }
                mark[c] = throttle;
                anyEligible |= throttle == StallReason::NotSelected;
                if (sc.classMark[c] != throttle) {
                    for (uint64_t m = sc.readyRanks[c]; m; m &= m - 1) markReason(*sc.byRank[std::countr_zero(m)], throttle);
                    sc.classMark[c] = throttle;
                }
            }
            // Warps that joined since the last look (their class's mark may not have changed).
            for (uint64_t m = sc.freshRanks; m; m &= m - 1) {
                TWarp* w = sc.byRank[std::countr_zero(m)];
                markReason(*w, mark[w->readyClass]);
            }
            sc.freshRanks = 0;
            // The pick among the eligible warps. Marking it "not selected" above charges nothing
            // extra: issueOne charges from the same cycle.
            TWarp* pick = nullptr;
            if (anyEligible) {
                if (opt_.policy == SchedulerPolicy::GreedyThenOldest) {
                    // The warp in the slot that issued last, if eligible; else the oldest eligible
                    // one. (By rank: the look reads no warp record.)
                    uint64_t eligible = 0;
                    for (uint32_t cm = sc.readyClasses; cm; cm &= cm - 1) {
                        const int c = std::countr_zero(cm);
                        if (mark[c] == StallReason::NotSelected) eligible |= sc.readyRanks[c];
                    }
                    const bool lastEligible = sc.lastRank >= 0 && (eligible >> sc.lastRank & 1);
                    pick = sc.byRank[lastEligible ? sc.lastRank : std::countr_zero(eligible)];   // (anyEligible: not empty)
                } else {
                    // Loose round-robin: the first eligible warp after the last one issued.
                    uint32_t bestDist = UINT32_MAX;
                    uint32_t n = static_cast<uint32_t>(sm.slots.size());
                    for (uint32_t cm = sc.readyClasses; cm; cm &= cm - 1) {
                        const int c = std::countr_zero(cm);
                        if (mark[c] != StallReason::NotSelected) continue;
                        for (uint64_t m = sc.readyRanks[c]; m; m &= m - 1) {
                            TWarp* w = sc.byRank[std::countr_zero(m)];
                            uint32_t d = (w->slot + n - static_cast<uint32_t>(sc.lastIssued + 1)) % n;
                            if (d < bestDist) {
                                bestDist = d;
                                pick = w;
                            }
                        }
                    }
                }
                next = std::min(next, now_ + 1);
            }
            sc.nextCheck = next;
            if (pick) {
                removeReady(sc, *pick);
                // A warp the Gpu did not issue (not expected) stays ready, as it was.
                if (!issueOne(sm, sc, *pick) && !finished_ && pick->phase == WarpPhase::Active && pick->readyClass < 0 &&
                    !(sc.waitMask >> pick->local & 1) && pick->readyAt <= now_ && pick->nextInfo) {
                    addReady(sc, *pick);
                    sc.freshRanks = 0;
                    sc.classMark[pick->readyClass] = kNoMark;   // the next look marks its class again
                }
                sc.nextCheck = std::max(std::min(sc.nextCheck, now_ + 1), sc.busyUntil);
            }
        }
        // Block placement and barrier releases may have lowered a scheduler's check meanwhile.
        uint64_t smNext = kNever;
        for (const auto& sc : sm.schedulers) smNext = std::min(smNext, sc.nextCheck);
        smCheck_[si] = smNext;
    }
    if (!finished_ && gpu_.state() == sim::LaunchState::Running && gpu_.residentBlocks().empty()) {
        gpu_.step();   // marks the launch finished
    }
    if (gpu_.state() != sim::LaunchState::Running) finished_ = true;
}

// Prefetching. With thousands of resident warps each issuing one instruction in turn, the state
// a look and an issue touch (the scheduler's queues, the warp's record and scoreboard, the Gpu's
// warp and its register file) is rarely in the host's caches, and each miss waits for the one
// before it (scheduler -> record -> warp -> registers). While one SM is looked at, the next SMs'
// lines are asked for in stages, one link of that chain per SM of distance, for the warp each
// scheduler will most likely pick. Only hints: nothing the model computes reads them, and a
// wrong guess costs a few wasted fetches.

// The warp a look of `sc` at cycle t will most likely pick: the one that issued last if it wakes
// by t or is ready (greedy), else the oldest ready one; null when none is known to be.
TimedRun::TWarp* TimedRun::likelyPick(const Scheduler& sc, uint64_t t) const {
    const uint64_t ready = sc.readyAll;
    if (sc.lastLocal >= 0) {
        const int32_t local = sc.lastLocal;
        if ((sc.waitMask >> local & 1) && sc.wakeAt[local] <= t) return sc.waiter[local];
        if (sc.lastRank >= 0 && (ready >> sc.lastRank & 1)) return sc.byRank[sc.lastRank];
    }
    return ready ? sc.byRank[std::countr_zero(ready)] : nullptr;
}

void TimedRun::prefetchLooks(size_t si) {
    const size_t n = sms_.size();
    // The SM `d` places on (in the next cycle past the last SM), if it looks then.
    auto ahead = [&](size_t d, uint64_t& t) -> Sm* {
        size_t j = si + d;
        t = now_;
        while (j >= n) {
            j -= n;
            t = now_ + 1;
        }
        return smCheck_[j] <= t ? sms_[j].get() : nullptr;
    };
    uint64_t t;
    // Five and four SMs ahead: the SM's record, then the first three lines of each of its
    // schedulers (the queue masks, marks, pipes and last issuer a look reads first).
    static_assert(offsetof(Sm, index) < 64, "a look's fields of the SM record fit in one host line");
    if (Sm* s = ahead(5, t)) __builtin_prefetch(s);
    if (Sm* s = ahead(4, t))
        for (const Scheduler& sc : s->schedulers) {
            __builtin_prefetch(&sc);
            __builtin_prefetch(reinterpret_cast<const char*>(&sc) + 64);
            __builtin_prefetch(reinterpret_cast<const char*>(&sc) + 128);
        }
    // Three SMs ahead: each scheduler's likely pick (kept as its guess) and that warp's record.
    if (Sm* s = ahead(3, t))
        for (Scheduler& sc : s->schedulers) {
            sc.guess = sc.nextCheck <= t ? likelyPick(sc, t) : nullptr;
            if (sc.guess) {
                __builtin_prefetch(sc.guess);
                __builtin_prefetch(reinterpret_cast<const char*>(sc.guess) + 64);
            }
        }
    // Two SMs ahead: what the guesses' issues will touch (the Gpu's warp, its registers and
    // predicates, the scoreboard entries of its operands).
    if (Sm* s = ahead(2, t))
        for (const Scheduler& sc : s->schedulers) {
            const TWarp* w = sc.guess;
            if (!w || !w->nextInfo) continue;
            __builtin_prefetch(w->gw);
            const PcInfo& pi = *w->nextInfo;
            const sim::IssueFootprint& f = pi.footprint;
            if (const uint32_t* regs = w->regsHint)
                for (uint32_t k = 0; k < pi.lineCount; ++k) __builtin_prefetch(regs + pi.lineWords[k]);
            if (f.pred >= 0 && w->predsHint) __builtin_prefetch(w->predsHint + f.pred);
            for (uint32_t k = 0; k < pi.boardCount; ++k) __builtin_prefetch(w->ops + pi.boardSlots[k]);
            // After the issue the model reads the scoreboard entries of the instruction after it
            // (evaluateNext): the next pc's, unless it branches.
            if (&pi + 1 < pcInfo_.data() + pcInfo_.size()) {
                const PcInfo& after = (&pi)[1];
                for (uint32_t k = 0; k < after.boardCount; ++k) __builtin_prefetch(w->ops + after.boardSlots[k]);
            }
        }
    // The next SM: the shared memory the guesses' shared loads and stores will touch, at their
    // first and last lanes' offsets (the address registers were asked for one SM ago). The only
    // stage that reads through a hint: a stale regsHint (a retired block's register file) still
    // points into the hot-memory pool's chunks, which are never unmapped, so the read is of mapped
    // memory and at worst names a useless line. (Not when a register file may be mapped alone.)
    if (!registerFilesPooled_) return;
    if (Sm* s = ahead(1, t))
        for (const Scheduler& sc : s->schedulers) {
            const TWarp* w = sc.guess;
            if (!w || !w->nextInfo || !w->nextInfo->footprint.shared || !w->regsHint || !w->sharedHint) continue;
            const sim::IssueFootprint& f = w->nextInfo->footprint;
            const uint32_t* base = w->regsHint + f.sharedBase;
            const uint32_t first = base[0] + f.sharedOffset, last = base[f.sharedWideBase ? 62 : 31] + f.sharedOffset;
            const uint32_t bytes = gpu_.sharedBytesPerBlock();
            if (first < bytes) __builtin_prefetch(w->sharedHint + first);
            if (last < bytes && (first ^ last) >= 64) __builtin_prefetch(w->sharedHint + last);
        }
}

// Scheduler queues (see Scheduler).

void TimedRun::enqueueWaiting(Scheduler& sc, TWarp& w) {
    const uint64_t bit = uint64_t(1) << w.local;
    const bool again = sc.waitMask & bit;   // (not expected) a new wake-up cycle for a waiting warp
    sc.waitMask |= bit;
    sc.wakeAt[w.local] = w.readyAt;
    sc.waiter[w.local] = &w;
    if (again) recomputeMinWake(sc);
    else sc.minWake = std::min(sc.minWake, w.readyAt);
}

void TimedRun::recomputeMinWake(Scheduler& sc) {
    sc.minWake = kNever;
    for (uint64_t m = sc.waitMask; m; m &= m - 1) sc.minWake = std::min(sc.minWake, sc.wakeAt[std::countr_zero(m)]);
}

// Into its class's ready set (see Scheduler).
void TimedRun::addReady(Scheduler& sc, TWarp& w) {
    const int c = w.nextInfo->throttleClass;
    const uint64_t bit = uint64_t(1) << w.rank;
    sc.readyRanks[c] |= bit;
    sc.readyAll |= bit;
    w.readyClass = c;
    sc.readyClasses |= 1u << c;
    sc.freshRanks |= bit;
}

void TimedRun::removeReady(Scheduler& sc, TWarp& w) {
    if (w.readyClass < 0) return;
    const uint64_t bit = uint64_t(1) << w.rank;
    uint64_t& set = sc.readyRanks[w.readyClass];
    set &= ~bit;
    sc.readyAll &= ~bit;
    if (set == 0) sc.readyClasses &= ~(1u << w.readyClass);
    sc.freshRanks &= ~bit;
    w.readyClass = -1;
}

// A retiring warp (in no queue) leaves the age order: the younger warps move up one place, and
// so do their bits in the rank masks.
void TimedRun::dropRank(Scheduler& sc, TWarp& w) {
    const uint32_t r = w.rank;
    if (sc.lastRank == int32_t(r)) sc.lastRank = -1;   // its slot is empty until a warp is placed there
    else if (sc.lastRank > int32_t(r)) --sc.lastRank;
    for (uint32_t i = r + 1; i < sc.ranks; ++i) {
        sc.byRank[i - 1] = sc.byRank[i];
        sc.byRank[i - 1]->rank = i - 1;
    }
    sc.byRank[--sc.ranks] = nullptr;
    const uint64_t below = (uint64_t(1) << r) - 1;
    auto close = [&](uint64_t m) { return (m & below) | ((m >> 1) & ~below); };
    for (uint64_t& m : sc.readyRanks) m = close(m);
    sc.readyAll = close(sc.readyAll);
    sc.freshRanks = close(sc.freshRanks);
}

// A warp that stops being Active (finished, at a barrier) leaves both queues.
void TimedRun::leaveQueues(TWarp& w) {
    Scheduler& sc = sms_[w.block->sm]->schedulers[w.sched];
    const uint64_t bit = uint64_t(1) << w.local;
    if ((sc.waitMask & bit) && sc.waiter[w.local] == &w) {
        sc.waitMask &= ~bit;
        recomputeMinWake(sc);
    }
    removeReady(sc, w);
}

void TimedRun::lowerCheck(Sm& sm, Scheduler& sc, uint64_t at) {
    sc.nextCheck = std::min(sc.nextCheck, at);
    smCheck_[sm.index] = std::min(smCheck_[sm.index], at);
}

// The first cycle after now_ in which the SM's L1/shared queue holds no more than mioQueueCycles
// of backlog, if nothing more is queued.
uint64_t TimedRun::lsuQueueOpens(const Sm& sm) const {
    const double opens = sm.l1FreeAt - double(spec_.mioQueueCycles);
    uint64_t t = now_ + 1;
    if (opens > double(t) + 2) t = static_cast<uint64_t>(opens) - 2;   // a lower bound; the loop makes it exact
    while (sm.l1FreeAt - double(t) > spec_.mioQueueCycles) ++t;
    return t;
}

bool TimedRun::stepCycle() {
    if (finished_) return false;
    if (started_) ++now_;
    started_ = true;
    processCycle();
    return !finished_;
}

void TimedRun::run() {
    if (started_ && !finished_) ++now_;
    started_ = true;
    // A sums-only downstream listener gets per-pc sums, which the Gpu keeps, instead of Steps
    // while run() runs to the end; stepping (stepCycle) keeps its Steps coming one by one.
    struct Sums {
        TimedRun& t;
        const bool counting;
        explicit Sums(TimedRun& run) : t(run), counting(!run.stepless_ && run.steplessSums_) {
            if (!counting) return;
            t.stepless_ = true;
            t.gpu_.keepPcCounts();
        }
        ~Sums() {
            if (!counting) return;
            t.stepless_ = false;
            t.gpu_.handPcCounts(*t.downstream_);
        }
    } sums(*this);
    while (!finished_) {
        processCycle();
        if (finished_) break;
        uint64_t next = kNever;
        for (uint64_t c : smCheck_) next = std::min(next, c);
        if (next == kNever) {
            // Nobody can ever issue again: let the functional engine diagnose it (deadlock).
            while (gpu_.step()) {
            }
            finished_ = true;
            break;
        }
        now_ = std::max(now_ + 1, next);
    }
    if (gpu_.fault()) throw *gpu_.fault();
}

// ---------------------------------------------------------------- 5. issue: latencies, pipes, memory
int TimedRun::pipeOf(const Instr& in) const {
    const ExecClass c = sim::opInfo(in.op).cls;
    const bool f64 = in.type == ptx::Type::F64;
    const bool fp = ptx::isFloat(in.type);
    switch (c) {
    case ExecClass::Alu: return f64 ? PipeFp64 : (fp ? PipeFma : PipeAlu);
    case ExecClass::Fma: return f64 ? PipeFp64 : PipeFma;
    case ExecClass::Fp64: return PipeFp64;
    case ExecClass::Sfu: return f64 ? PipeFp64 : PipeSfu;
    case ExecClass::Tensor: return PipeTensor;
    default: return PipeOther;
    }
}

void TimedRun::onStep(const sim::Step& s) {
    if (downstream_) downstream_->onStep(s);
    if (!(s.isLoad || s.isStore || s.isAtomic)) return;
    last_.valid = true;
    last_.space = s.space;
    last_.isLoad = s.isLoad;
    last_.isStore = s.isStore;
    last_.isAtomic = s.isAtomic;
    last_.accessBytes = s.accessBytes;
    last_.instr = s.instr;
    last_.execMask = s.addresses ? s.execMask : 0;
    // All 32 entries in one block copy (readers look only at lanes in execMask): cheaper than
    // a per-lane loop.
    if (s.addresses) std::memcpy(last_.addresses, s.addresses, sizeof last_.addresses);
}

uint64_t TimedRun::memoryCompletion(Sm& sm, bool shared, bool store, bool atomic, uint64_t t, uint32_t sharedBytes) {
    const double now = double(t);
    if (last_.execMask == 0) return t + 1;
    if (shared) {
        const uint32_t wavefronts = mem::sharedWavefrontCount(last_.addresses, last_.execMask, sharedBytes ? sharedBytes : last_.accessBytes, last_.isLoad);
        double cycles = std::max(1u, wavefronts);
        double start = std::max(now, sm.l1FreeAt);
        sm.l1FreeAt = start + cycles;
        double done = start + cycles - 1 + spec_.sharedLatency * (atomic ? 2 : 1);
        return static_cast<uint64_t>(std::ceil(done));
    }
    if (last_.space == ptx::StateSpace::Local) {
        // Local memory is interleaved per thread: the lanes' words are contiguous; assume L1 hits.
        double cycles = std::max(1.0, std::ceil(32.0 * last_.accessBytes / 128.0));
        double start = std::max(now, sm.l1FreeAt);
        sm.l1FreeAt = start + cycles;
        return static_cast<uint64_t>(std::ceil(start + cycles - 1 + spec_.l1HitLatency));
    }
    mem::GlobalAccess g;
    mem::coalesce(last_.addresses, last_.execMask, last_.accessBytes, g);
    // The tag stage looks up l1LinesPerCycle lines a cycle, the data stage reads
    // l1DataLinesPerCycle lines and l1SectorsPerCycle sectors a cycle; the slowest decides.
    double cycles = std::max({spec_.globalRequestCycles, std::ceil(double(g.lines) / spec_.l1LinesPerCycle),
                              std::ceil(double(g.lines) / std::max(spec_.l1DataLinesPerCycle, 0.01)),
                              std::ceil(double(g.sectors) / spec_.l1SectorsPerCycle)});
    // A store writes through: each line beyond the first goes to L2 as a write of its own, so a
    // store scattered over 32 rows (the naive transpose's) holds the pipe for 31 such writes; a
    // coalesced store costs what it did.
    if (store && !atomic && g.lines > 1) cycles = std::max(cycles, std::ceil(double(g.lines - 1) * spec_.l1StoreLineCycles));
    double start1 = std::max(now, sm.l1FreeAt);
    sm.l1FreeAt = start1 + cycles;
    double leave = start1 + cycles;
    double done = leave - 1 + spec_.l1HitLatency;
    // DRAM sectors. Without l2DirtyBytes: a load or atomic that misses in L2 reads its sector; a
    // write that first dirties a sector will write it back once, charged at once (the L2 keeps byte
    // masks, so a store miss reads nothing). With it, see writeBackModel below.
    if (spec_.l2DirtyBytes > 0) return writeBackModel(sm, store, atomic, g, leave, done);
    uint32_t n2 = 0, nd = 0, nm = 0;
    for (uint32_t k = 0; k < g.sectors; ++k) {
        uint64_t a = g.sectorAddr[k];
        if (isMapped(a)) {
            ++nm;
            continue;
        }
        if (l1LoadHit(sm, a, atomic)) continue;
        ++n2;
        bool dirtied = false;
        if (l2_->access(a, store || atomic, &dirtied)) ++l2Hits_;
        else if (!store || atomic) ++nd;
        if (dirtied) ++nd;
    }
    if (nm) done = std::max(done, mappedTurn(leave, nm, store && !atomic));
    if (n2) {
        l2Lookups_ += n2;
        double xfer = n2 * 32.0 / spec_.l2BytesPerCycle;
        double s2 = std::max(leave, l2FreeAt_);
        l2FreeAt_ = s2 + xfer;
        done = std::max(done, s2 + xfer + spec_.l2HitLatency);
        if (atomic) done = std::max(done, l2AtomicsDone(s2 + xfer));
        if (nd) {
            dramSectors_ += nd;
            double xd = nd * 32.0 / spec_.dramBytesPerCycle();
            double sd = std::max(s2, dramFreeAt_);
            dramFreeAt_ = sd + xd;
            done = std::max(done, sd + xd + spec_.dramLatency);
        }
    }
    return static_cast<uint64_t>(std::ceil(done));
}

bool TimedRun::l1LoadHit(Sm& sm, uint64_t sector, bool atomic) {
    if (!last_.isLoad || atomic) return false;
    ++l1Lookups_;
    const bool hit = sm.l1->access(sector, false);
    if (hit) ++l1Hits_;
    return hit;
}

// The write-back model (l2DirtyBytes > 0; measurements in docs/timing-validation.md, "Write-back"):
// - a load or atomic that misses in L2 reads its sector from DRAM;
// - a store that writes only part of a sector the L2 does not hold leaves it dirty but not whole
//   (l2PartialWriteFill); when it is written to DRAM the sector is completed by a DRAM read first
//   (ECC covers the whole sector). The H100 reads nothing more for small strided copies (their
//   output stays in L2) and twice the input for 16-32 MB ones; in place the sector is whole;
// - the L2 keeps up to l2DirtyBytes dirty and writes a dirty sector to DRAM when it is evicted;
//   past that budget a newly dirtied sector is written at once and held clean (a 16 MB copy writes
//   part of its output during the kernel, a 4 MB one none of it);
// - DRAM reads and writes share one queue, a write costing dramWriteCost reads; the warp waits
//   for its reads only (the L2 absorbs the writes).
uint64_t TimedRun::writeBackModel(Sm& sm, bool store, bool atomic, const mem::GlobalAccess& g, double leave, double done) {
    // Bytes of each sector this store writes (lanes' accesses are naturally aligned: one sector each).
    uint32_t cover[128];
    const bool partialCheck = store && !atomic && spec_.l2PartialWriteFill;
    if (partialCheck) {
        std::fill(cover, cover + g.sectors, 0u);
        const uint32_t bytesMask = uint32_t((uint64_t(1) << std::min<uint32_t>(last_.accessBytes, 32)) - 1);
        uint32_t k = 0;   // lanes usually ascend: walk the sorted sectors, search only when they do not
        for (uint32_t m = last_.execMask; m; m &= m - 1) {
            const uint64_t addr = last_.addresses[std::countr_zero(m)];
            const uint64_t sector = addr & ~uint64_t(31);
            if (g.sectorAddr[k] != sector) {
                while (k + 1 < g.sectors && g.sectorAddr[k] < sector) ++k;
                if (g.sectorAddr[k] != sector)
                    k = uint32_t(std::lower_bound(g.sectorAddr, g.sectorAddr + g.sectors, sector) - g.sectorAddr);
            }
            cover[k] |= bytesMask << (addr & 31);
        }
    }
    const uint64_t dirtyBudget = spec_.l2DirtyBytes / 32;
    uint32_t n2 = 0, reads = 0, writes = 0, nm = 0;
    for (uint32_t k = 0; k < g.sectors; ++k) {
        const uint64_t a = g.sectorAddr[k];
        if (isMapped(a)) {
            ++nm;
            continue;
        }
        if (l1LoadHit(sm, a, atomic)) continue;
        ++n2;
        const bool write = store || atomic;
        const bool overBudget = write && l2_->dirtySectors() >= dirtyBudget;
        const bool partial = partialCheck && cover[k] != 0xFFFFFFFFu;
        bool dirtied = false;
        uint32_t evicted = 0, evictedPartial = 0;
        const bool hit = l2_->access(a, write, &dirtied, &evicted, overBudget, partial, &evictedPartial);
        if (hit) ++l2Hits_;
        else if (!store || atomic) ++reads;
        if (dirtied && overBudget) {
            ++writes;
            if (partial && !hit) ++reads;   // written through: completed from DRAM first
        }
        writes += evicted;
        reads += evictedPartial;            // an evicted partial sector is completed from DRAM first
    }
    if (nm) done = std::max(done, mappedTurn(leave, nm, store && !atomic));
    if (!n2) return static_cast<uint64_t>(std::ceil(done));
    l2Lookups_ += n2;
    const double xfer = n2 * 32.0 / spec_.l2BytesPerCycle;
    const double s2 = std::max(leave, l2FreeAt_);
    l2FreeAt_ = s2 + xfer;
    done = std::max(done, s2 + xfer + spec_.l2HitLatency);
    if (atomic) done = std::max(done, l2AtomicsDone(s2 + xfer));
    if (reads || writes) {
        dramSectors_ += reads + writes;
        const double readsDone = dramTurn(s2, leave, reads, writes);
        if (reads) done = std::max(done, readsDone);
    }
    return static_cast<uint64_t>(std::ceil(done));
}

// Mapped (zero-copy) host memory: the GPU does not cache it (the Best Practices Guide: "the data
// is not cached on the GPU"), so every sector crosses PCIe, one queue for the whole GPU at
// mappedGBs in each direction (PCIe is full duplex: reads and writes queue apart), and is done
// mappedLatency cycles after its turn (an atomic is a read: it waits for the answer).
bool TimedRun::isMapped(uint64_t sector) const {
    for (auto& [base, bytes] : opt_.mappedRanges)
        if (sector - base < bytes) return true;
    return false;
}

double TimedRun::mappedTurn(double arrive, uint32_t sectors, bool write) {
    mappedSectors_ += sectors;
    if (write) mappedWriteSectors_ += sectors;
    const double gbs = spec_.mappedGBs > 0 ? spec_.mappedGBs : std::max(spec_.pcieGBs, 1.0);
    const double xfer = sectors * 32.0 / (gbs * 1e3 / spec_.clockMHz);
    double& freeAt = pcieFreeAt_[write ? 1 : 0];
    const double start = std::max(arrive, freeAt);
    freeAt = start + xfer;
    return start + xfer + spec_.mappedLatency;
}

// One request's DRAM sectors join the DRAM queue at `arrive` (reads first); returns when its reads
// are back: the queue, then the loaded latency. `now` ages the DRAM's recent load.
double TimedRun::dramTurn(double arrive, double now, uint32_t reads, uint32_t writes) {
    const double perSector = 32.0 / spec_.dramBytesPerCycle();
    const double writeCost = spec_.dramWriteCost > 0 ? spec_.dramWriteCost : 1.0;
    const double xr = reads * perSector, xw = writes * perSector * writeCost;
    const double sd = std::max(arrive, dramFreeAt_);
    dramFreeAt_ = sd + xr + xw;
    if (spec_.dramQueueCycles > 0) {
        dramBusy_ = dramBusy_ * std::exp(-(std::max(now, dramBusyAt_) - dramBusyAt_) / spec_.dramLoadWindow) + xr + xw;
        dramBusyAt_ = std::max(now, dramBusyAt_);
    }
    // The wait is the backlog ahead of it, or what random arrivals at the recent load make one
    // wait on average, whichever is longer (a burst is its own backlog; they are not added).
    return std::max(sd, arrive + dramRandomWait()) + xr + spec_.dramLatency;
}

// The mean wait of a queue with random arrivals at the DRAM's recent load u (busy share over the
// last dramLoadWindow cycles, at most dramMaxLoad): dramQueueCycles * u / (1 - u). The probe's
// loaded latency: 394 ns with one warp per SM, about 1 us at 86 % of the copies' peak.
double TimedRun::dramRandomWait() const {
    if (spec_.dramQueueCycles <= 0) return 0;
    const double u = std::min(dramBusy_ / spec_.dramLoadWindow, spec_.dramMaxLoad);
    return spec_.dramQueueCycles * u / (1.0 - u);
}

// When a global atomic's L2 work is done (the per-region sector-op queues, or the older per-word
// queue); `arrive` when none applies.
double TimedRun::l2AtomicsDone(double arrive) {
    if (spec_.l2AtomicOpCycles > 0) return l2AtomicTurn(arrive);
    double done = arrive;
    if (spec_.l2AtomicCycles > 0) {
        // Atomics on one address are applied one warp request at a time at the L2 (the lanes of
        // a request that share the address are combined there): a counter every thread bumps is
        // a queue, however the lanes are spread.
        uint64_t seen[32];
        int ns = 0;
        for (uint32_t m = last_.execMask; m; m &= m - 1) {
            uint64_t word = last_.addresses[std::countr_zero(m)] >> 2;
            if (std::find(seen, seen + ns, word) != seen + ns) continue;
            seen[ns++] = word;
            double& freeAt = atomicFreeAt_[word];
            double sa = std::max(arrive, freeAt);
            freeAt = sa + spec_.l2AtomicCycles;
            done = std::max(done, sa + spec_.l2AtomicCycles + spec_.l2HitLatency);
        }
    }
    return done;
}

// Global atomics by sector-op (mem/atomics.hpp; probe: tests/validation/timing/probes): the
// sector-ops of each l2AtomicRegionBytes region wait for that region's L2 unit, which applies one
// every l2AtomicOpCycles. A histogram's hot bins are a queue whatever the SMs; repeated addresses
// within a request cost a pass each. Returns when the last region's old values are back.
double TimedRun::l2AtomicTurn(double arrive) {
    // ptxas's per-warp form of an aggregated atomic sends one lane; an f32/f64 add has its own rate.
    const sim::Instr* in = last_.instr;
    const bool aggregated = in && in->aggregated;
    const bool floatAdd = in && in->atom == sim::AtomOp::Add && ptx::isFloat(in->type);
    const uint32_t lanes = aggregated ? last_.execMask & (0u - last_.execMask) : last_.execMask;
    const mem::AtomicWork w = mem::atomicWork(last_.addresses, lanes, spec_.l2AtomicRegionBytes);
    const double perOp = floatAdd && spec_.l2AtomicF32OpCycles > 0 ? spec_.l2AtomicF32OpCycles : spec_.l2AtomicOpCycles;
    const double latency = spec_.l2AtomicLatency > 0 ? spec_.l2AtomicLatency : spec_.l2HitLatency;
    double done = arrive;
    for (uint32_t r = 0; r < w.regions; ++r) {
        double& freeAt = atomicFreeAt_[w.region[r]];
        freeAt = std::max(arrive, freeAt) + w.regionOps[r] * perOp;
        done = std::max(done, freeAt + latency);
    }
    return done;
}

// What an LDGSTS (cp.async) costs beyond its global read: it writes the bytes into shared memory
// through the same L1/shared data pipe as an ordinary shared store, at 64 bytes a wavefront (the
// H100's Nsight Compute counters: 2 shared wavefronts for each 128-byte LDGSTS of the async-matmul
// kernels, where st.shared of the same 128 bytes takes 1; docs/measurements/async-copy-h100.txt).
// The pipe is booked when the copy issues (a throughput cost, as the SM's shared traffic is one
// queue here); the copy has landed once its write is through. Returns the copy's completion.
uint64_t TimedRun::cpAsyncSharedWrite(Sm& sm, uint64_t dataBack) {
    constexpr uint32_t kLdgstsBytesPerWavefront = 64;
    const uint32_t bytes = uint32_t(std::popcount(last_.execMask)) * last_.accessBytes;
    if (bytes == 0) return dataBack;
    const double wavefronts = double((bytes + kLdgstsBytesPerWavefront - 1) / kLdgstsBytesPerWavefront);
    sm.l1FreeAt = std::max(sm.l1FreeAt, double(now_)) + wavefronts;
    return dataBack + static_cast<uint64_t>(wavefronts);
}

bool TimedRun::issueOne(Sm& sm, Scheduler& sc, TWarp& w) {
    const sim::Warp& gw = gpuWarp(w);
    const int32_t pc = gw.pc();
    const Instr* in = &gpu_.program().code[static_cast<size_t>(pc)];
    const PcInfo& pi = pcInfo_[static_cast<size_t>(pc)];
    // Accounting: whatever it waited for until now, then one cycle "selected".
    setReason(w, StallReason::Selected, now_);
    setReason(w, StallReason::NotSelected, now_ + 1);   // placeholder, replaced below
    TBlock* tb = w.block;
    last_.valid = false;
    bool ok;
    if (stepless_) {
        // Nobody downstream needs this instruction's Step (see stepless_): the Gpu runs it without
        // building one, on its lean path when the warp is converged; a memory instruction's
        // accesses come in last_.
        ok = gpu_.issueQuiet(*tb->blk, *w.gw, pi.memory ? &last_ : nullptr);
    } else {
        ok = gpu_.stepWarp(tb->gpuSlot, w.warpInBlock);
    }
    sc.issuedSlot = static_cast<int32_t>(w.slot);
    sc.issuedPc = pc;
    sc.issuedCycle = now_;
    sc.lastIssued = static_cast<int32_t>(w.slot);
    sc.lastRank = w.rank;
    sc.lastLocal = w.local;
    if (!ok) {
        finished_ = gpu_.state() != sim::LaunchState::Running;
        return false;
    }
    // Latency of the result and the kind of stall a consumer would see (decodeProgram; an
    // expanded integer division also takes the scheduler's issue slots).
    if (pi.pipe != PipeOther) sc.pipeFreeAt[pi.pipe] = now_ + pi.interval;
    if (pi.divideSlots) sc.busyUntil = now_ + pi.divideSlots;
    uint64_t ready = now_ + pi.latency;
    StallReason kind = pi.kind;
    if (last_.valid) {
        const auto sp = last_.space;
        kind = StallReason::Wait;
        if (sp == ptx::StateSpace::Param) {
            ready = now_ + spec_.aluLatency;
        } else if (sp == ptx::StateSpace::Const) {
            ready = now_ + spec_.aluLatency * 2;
            kind = StallReason::ShortScoreboard;
        } else if (sp == ptx::StateSpace::Shared) {
            ready = in->op == Op::Ld ? sharedLoadReady(sm, w, pc) : memoryCompletion(sm, true, last_.isStore, last_.isAtomic, now_);
            kind = StallReason::ShortScoreboard;
        } else {
            ready = memoryCompletion(sm, false, last_.isStore, last_.isAtomic, now_);
            kind = StallReason::LongScoreboard;
            if (in->op == Op::CpAsync) ready = cpAsyncSharedWrite(sm, ready);
        }
    }
    lastActivity_ = std::max(lastActivity_, ready);
    for (uint32_t k = pi.writes, e = pi.writes + pi.writeCount; k < e; ++k) w.ops[operandSlots_[k]] = OperandReady(ready, kind);
    switch (in->op) {   // cp.async's groups (TWarp::asyncGroup)
    case Op::CpAsync: w.asyncOpen = std::max(w.asyncOpen, ready); break;
    case Op::CpAsyncCommit:
    case Op::CpAsyncWaitAll:
        if (w.asyncGroups == TWarp::kAsyncGroups) {
            w.asyncOlder = std::max(w.asyncOlder, w.asyncGroup[0]);
            std::copy(w.asyncGroup + 1, w.asyncGroup + TWarp::kAsyncGroups, w.asyncGroup);
            --w.asyncGroups;
        }
        w.asyncGroup[w.asyncGroups++] = w.asyncOpen;
        w.asyncOpen = 0;
        if (in->op == Op::CpAsyncCommit) break;
        [[fallthrough]];
    case Op::CpAsyncWait: {   // (it issued once they had landed: evaluateNext) they are gone
        const uint32_t keep = in->op == Op::CpAsyncWait ? static_cast<uint32_t>(in->src[0].imm) : 0;
        const uint32_t drop = w.asyncGroups > keep ? w.asyncGroups - keep : 0;
        std::copy(w.asyncGroup + drop, w.asyncGroup + w.asyncGroups, w.asyncGroup);
        w.asyncGroups = static_cast<uint8_t>(w.asyncGroups - drop);
        w.asyncOlder = 0;
        break;
    }
    default: break;
    }

    // Did the block retire (the Gpu recycles its Block object at once)?
    if (gpu_.stats().blocksCompleted != blocksCompletedSeen_) {
        blocksCompletedSeen_ = gpu_.stats().blocksCompleted;
        for (TWarp* x : tb->warps) finishWarp(*x);
        Sm& home = *sms_[tb->sm];
        // Its slot frees only when the SM has torn the block down: the H100 runs empty blocks one
        // per SM at 300 cycles and 2 more per warp each, where the dispatch alone would allow 158.
        // (Placed now, the block that takes the slot starts no earlier.)
        home.slotFreeAt = now_ + spec_.blockRetireCycles +
                          static_cast<uint64_t>(std::llround(spec_.blockRetireCyclesPerWarp * double(tb->warps.size())));
        home.blocks.erase(std::find(home.blocks.begin(), home.blocks.end(), tb->linear));
        const uint32_t erased = tb->gpuSlot;
        if (erased < slotToBlock_.size() && slotToBlock_[erased] == tb)
            slotToBlock_.erase(slotToBlock_.begin() + erased);
        else
            slotToBlock_.clear();   // (not expected) syncResidency looks every block up
        for (TWarp* x : tb->warps) dropRank(home.schedulers[x->sched], *x);
        for (TWarp* x : tb->warps) home.slots[x->slot] = nullptr;   // (the records are reused in place)
        blocks_.erase(tb->linear);
        syncResidency(erased);
        return true;
    }
    const bool sync = pi.sync || gpuWarp(w).state != sim::WarpState::Ready;
    if (sync) rescanBlock(*tb, &w);
    else evaluateNext(w, now_ + 1);
    return true;
}

// ---------------------------------------------------------------- 6. dependencies and stall accounting
void TimedRun::setReason(TWarp& w, StallReason r, uint64_t at) {
    if (at > w.since) {
        const uint64_t n = at - w.since;
        stalls_[static_cast<size_t>(w.reason)] += n;
        if (w.line < lineStalls_.size()) lineStalls_[w.line][static_cast<size_t>(w.reason)] += n;
        w.since = at;
    }
    w.reason = r;
}

// The per-cycle marks (not selected, throttled): a warp that keeps its reason keeps accumulating
// from `since`, charged when the reason changes (same sums, per line too: a warp's line changes
// only when it issues, and issuing charges first).
void TimedRun::markReason(TWarp& w, StallReason r) {
    if (w.reason != r) setReason(w, r, now_);
}

void TimedRun::finishWarp(TWarp& w) {
    if (w.phase == WarpPhase::Done) return;
    setReason(w, w.reason, std::max(w.since, now_ + 1));
    w.phase = WarpPhase::Done;
    leaveQueues(w);
}

void TimedRun::evaluateNext(TWarp& w, uint64_t earliest) {
    const sim::Warp& gw = gpuWarp(w);
    const int32_t pc = gw.pc();
    w.regsHint = gw.regs;
    w.predsHint = gw.preds;
    if (pc < 0) {
        finishWarp(w);
        return;
    }
    const PcInfo& pi = pcInfo_[static_cast<size_t>(pc)];
    // The latest of its operands (the first one on a tie decides the reason).
    uint64_t ready = earliest;
    StallReason why = StallReason::Wait;
    for (uint32_t k = pi.needs, e = pi.needs + pi.needCount; k < e; ++k) {
        const OperandReady o = w.ops[operandSlots_[k]];
        if (o.at() > ready) {
            ready = o.at();
            why = o.kind();
        }
    }
    if (pi.asyncWait) {
        // cp.async.wait_group N / wait_all: until every group but the N newest has landed.
        const sim::Instr& in = gpu_.program().code[static_cast<size_t>(pc)];
        const uint32_t keep = in.op == Op::CpAsyncWaitAll ? 0 : static_cast<uint32_t>(in.src[0].imm);
        uint64_t until = w.asyncOlder;
        for (uint32_t k = 0; k + keep < w.asyncGroups; ++k) until = std::max(until, w.asyncGroup[k]);
        if (in.op == Op::CpAsyncWaitAll) until = std::max(until, w.asyncOpen);
        if (until > ready) {
            ready = until;
            why = StallReason::LongScoreboard;
        }
    }
    if (pi.waitAll) {
        // Fences wait for every outstanding result; calls and returns switch register frames,
        // so they wait too (conservative).
        for (uint32_t r = 0; r < numRegs_; ++r)
            if (w.ops[r].at() > ready) {
                ready = w.ops[r].at();
                why = pi.fence ? StallReason::Membar : w.ops[r].kind();
            }
    }
    w.readyAt = ready;
    w.pending = why;
    setNext(w, pc);
    setReason(w, why, earliest);
    Sm& sm = *sms_[w.block->sm];
    Scheduler& sc = sm.schedulers[w.sched];
    enqueueWaiting(sc, w);
    lowerCheck(sm, sc, ready);
}

void TimedRun::rescanBlock(TBlock& tb, TWarp* issued) {
    for (TWarp* w : tb.warps) {
        const sim::Warp& gw = tb.blk->warps[w->warpInBlock];
        if (w->phase == WarpPhase::Done) continue;
        if (gw.state == sim::WarpState::Done) {
            finishWarp(*w);
        } else if (gw.state == sim::WarpState::AtBarrier) {
            if (w->phase != WarpPhase::AtBarrier) {
                w->phase = WarpPhase::AtBarrier;
                leaveQueues(*w);
                w->readyAt = kNever;
                w->pending = StallReason::Barrier;
                cacheNext(*w);
                setReason(*w, StallReason::Barrier, std::max(w->since, now_ + 1));
            }
        } else if (w->phase == WarpPhase::AtBarrier) {
            // Released: it may issue from the next cycle on.
            w->phase = WarpPhase::Active;
            setReason(*w, StallReason::Barrier, now_ + 1);
            evaluateNext(*w, now_ + 1);
        } else if (w == issued) {
            // The warp that just issued (Active, not at a barrier).
            evaluateNext(*w, now_ + 1);
        }
    }
}

// ---------------------------------------------------------------- 7. views and results
TimedRun::AsyncGroupTimes TimedRun::asyncGroupTimes(uint32_t block, uint32_t warpInBlock) const {
    AsyncGroupTimes t;
    auto it = blocks_.find(block);
    if (it == blocks_.end() || warpInBlock >= it->second->warps.size()) return t;
    const TWarp& w = *it->second->warps[warpInBlock];
    t.resident = true;
    t.committed.assign(w.asyncGroup, w.asyncGroup + w.asyncGroups);
    t.open = w.asyncOpen;
    return t;
}

SmView TimedRun::smView(uint32_t smIndex) const {
    SmView v;
    if (smIndex >= sms_.size()) return v;
    const Sm& sm = *sms_[smIndex];
    v.blocks = sm.blocks;
    v.warps.resize(sm.slots.size());
    for (uint32_t s = 0; s < sm.slots.size(); ++s) {
        WarpView& wv = v.warps[s];
        wv.slot = s;
        const TWarp* w = sm.slots[s];
        if (!w) continue;
        wv.block = w->block->linear;
        wv.warpInBlock = w->warpInBlock;
        wv.phase = w->phase;
        wv.pc = w->phase == WarpPhase::Done ? -1 : gpuWarp(*w).pc();
        if (w->phase == WarpPhase::AtBarrier) wv.reason = StallReason::Barrier;
        else if (w->readyAt > now_) wv.reason = w->pending;
        else wv.reason = w->reason;
    }
    for (auto& sc : sm.schedulers) {
        SchedulerView sv;
        if (sc.issuedCycle == now_) {
            sv.issuedSlot = sc.issuedSlot;
            sv.issuedPc = sc.issuedPc;
            if (sc.issuedSlot >= 0) {
                v.warps[static_cast<size_t>(sc.issuedSlot)].reason = StallReason::Selected;
                v.warps[static_cast<size_t>(sc.issuedSlot)].pc = sc.issuedPc;
            }
        }
        for (uint32_t s : sc.slots)
            if (sm.slots[s]) sv.slots.push_back(s);
        v.schedulers.push_back(std::move(sv));
    }
    return v;
}

TimingResult TimedRun::result() const {
    TimingResult r;
    r.cycles = finished_ ? std::max(now_ + 1, lastActivity_) : now_;
    r.microseconds = double(r.cycles) / spec_.clockMHz;
    r.occupancy = occ_;
    r.registersPerThread = opt_.registersPerThread;
    r.registersEstimated = opt_.registersEstimated;
    r.warmL2 = opt_.l2 != nullptr;
    r.stalls = stalls_;
    // Warps still running: charge their current stall up to now.
    for (auto& sm : sms_)
        for (auto& w : sm->slots)
            if (w && w->phase != WarpPhase::Done && now_ > w->since) {
                r.stalls[static_cast<size_t>(w->reason)] += now_ - w->since;
            }
    for (size_t line = 0; line < lineStalls_.size(); ++line) {
        bool any = false;
        for (auto v : lineStalls_[line]) any |= v != 0;
        if (any) r.stallsByLine[static_cast<uint32_t>(line)] = lineStalls_[line];
    }
    r.warpInstructions = gpu_.stats().warpInstructions;
    r.l1Hits = l1Hits_;
    r.l1Lookups = l1Lookups_;
    r.l2Hits = l2Hits_;
    r.l2Lookups = l2Lookups_;
    r.mappedSectors = mappedSectors_;
    r.mappedWriteSectors = mappedWriteSectors_;
    r.dramSectors = dramSectors_;
    return r;
}

trace::CacheConfig cacheConfigFor(const GpuSpec& spec, const sim::Gpu& gpu, uint32_t registersPerThread) {
    OccupancyInput in;
    in.threadsPerBlock = static_cast<uint32_t>(gpu.config().block.count());
    in.registersPerThread = registersPerThread;
    in.sharedBytesPerBlock = gpu.sharedBytesPerBlock();
    return cacheConfigFor(spec, computeOccupancy(spec, in));
}

trace::CacheConfig cacheConfigFor(const GpuSpec& spec, const Occupancy& occ) {
    const uint64_t sharedUsed = uint64_t(occ.activeBlocksPerSM) * occ.sharedPerBlockAllocated;
    trace::CacheConfig c;
    c.numSMs = spec.smCount;
    c.l1Bytes = std::max<uint64_t>(spec.l1SharedBytesPerSM > sharedUsed ? spec.l1SharedBytesPerSM - sharedUsed : 0, 16 * 1024);
    c.l1Ways = 4;
    c.l2Bytes = spec.l2Bytes;
    c.l2Ways = 16;
    return c;
}

std::shared_ptr<mem::SectorCache> warmL2(const GpuSpec& spec) {
    const trace::CacheConfig c = cacheConfigFor(spec, Occupancy{});
    return std::make_shared<mem::SectorCache>(c.l2Bytes, c.l2Ways);
}

double predictLaunchUs(sim::Gpu& gpu, const GpuSpec& spec, std::optional<uint32_t> registersPerThread,
                       sim::StepListener* downstream) {
    TimingOptions o;
    if (registersPerThread) {
        o.registersPerThread = *registersPerThread;
        o.registersEstimated = false;
    }
    std::unique_ptr<TimedRun> run;
    try {
        run = std::make_unique<TimedRun>(gpu, spec, o, downstream);
    } catch (const Error& e) {
        if (e.kind() != Error::Kind::Input) throw;   // a block that does not fit: no prediction
        gpu.setListener(downstream);
        return 0;
    }
    run->run();
    return run->result().microseconds + spec.kernelGapUs;
}

TimingResult runTimed(sim::Gpu& gpu, const GpuSpec& spec, TimingOptions options, sim::StepListener* downstream) {
    TimedRun t(gpu, spec, options, downstream);
    t.run();
    return t.result();
}

} // namespace warpscope::timing
