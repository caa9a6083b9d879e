// Rebuilding the serial issue order from per-warp schedules (see issue_order.hpp).
//
// Sections: 1. per-warp schedules  2. the scheduler replay
#include "trace/issue_order.hpp"

#include "base/error.hpp"
#include "sim/gpu.hpp"
#include "sim/residency.hpp"

#include <algorithm>

namespace warpscope::trace {

namespace {
// A barrier instruction that makes the warp wait (bar.sync / barrier.sync / bar.red; not
// bar.warp.sync, not bar.arrive).
bool waitsAtBarrier(const sim::Instr& in) {
    return (in.op == sim::Op::Bar || in.op == sim::Op::Barrier) && in.type != ptx::Type::B8 && !in.barArrive;
}
// The operand that holds the thread count, as sim::Gpu reads it; nullptr when there is none.
const sim::Operand* countOperand(const sim::Instr& in) {
    if (in.barRed == 0) return in.nsrc >= 2 ? &in.src[1] : nullptr;
    return in.src[1].kind != sim::Operand::Kind::None ? &in.src[1] : nullptr;
}
[[noreturn]] void inconsistent(const std::string& what) {
    throw Error(Error::Kind::Unsupported, "The serial issue order could not be rebuilt: " + what + ".");
}
} // namespace

// ---------------------------------------------------------------- 1. per-warp schedules
LaunchShape LaunchShape::of(const sim::Gpu& gpu) {
    LaunchShape s;
    s.firstBlock = gpu.options().firstBlock;
    s.endBlock = std::min<uint64_t>(gpu.options().endBlock, gpu.blockCount());
    s.warpsPerBlock = std::max(1u, gpu.warpsPerBlock());
    s.maxResidentBlocks = std::max(1u, gpu.options().maxResidentBlocks);
    return s;
}

std::string issueOrderUnsupported(const sim::Program& program) {
    for (const sim::Instr& in : program.code) {
        if (!waitsAtBarrier(in)) continue;
        const sim::Operand* count = countOperand(in);
        if (in.src[0].kind != sim::Operand::Kind::Imm || (count && count->kind != sim::Operand::Kind::Imm))
            return "a barrier's id or thread count is a register (PTX line " + std::to_string(in.ptxLine) + ")";
    }
    return "";
}

uint32_t ScheduleLog::record(const sim::Step& s) {
    if (!started_) {
        // A share's first Step is warp 0 of its first block (the first block admitted issues first).
        base_ = uint64_t(s.block) * wpb_;
        started_ = true;
    }
    if (s.warp < base_) inconsistent("a Step of a warp before the share's first block");
    const uint64_t i = s.warp - base_;
    if (i >= warps_.size()) warps_.resize(std::max<uint64_t>(i + 1, warps_.size() + warps_.size() / 2));
    WarpSchedule& w = warps_[i];
    const uint32_t ordinal = ++w.issued;
    // Where the warp arrived at a barrier (Step::barrierArrival: a bar.sync, or the exit of the
    // last lanes that ran on while the others waited at one).
    if (s.barrierArrival) w.waits.push_back({ordinal, s.barrierId & 15u, s.barrierCount});
    return ordinal;
}

void ScheduleLog::absorb(ScheduleLog& fork) {
    if (!fork.started_) return;
    // Trailing entries past the fork's last warp that issued were only capacity.
    size_t used = fork.warps_.size();
    while (used > 0 && fork.warps_[used - 1].issued == 0) --used;
    if (!started_) {
        base_ = fork.base_;
        started_ = true;
    }
    if (fork.base_ < base_) inconsistent("forks absorbed out of block order");
    const uint64_t at = fork.base_ - base_;
    if (warps_.size() < at + used) warps_.resize(at + used);
    for (size_t i = 0; i < used; ++i) warps_[at + i] = std::move(fork.warps_[i]);
    fork.clear();
}

// ---------------------------------------------------------------- 2. the scheduler replay
namespace {
enum class St : uint8_t { Ready, AtBarrier, Done };
struct RWarp {
    const WarpSchedule* sched = nullptr;
    uint64_t global = 0;
    uint32_t pos = 0;        // instructions issued so far
    uint32_t nextWait = 0;   // index into sched->waits
    uint32_t mark = OrderVisitor::kNone;
    uint32_t barrierId = 0, barrierCount = 0;
    St state = St::Ready;
};
struct RBlock {
    uint64_t linear = 0;
    uint32_t ready = 0;
    std::vector<RWarp> warps;
};

// sim::Gpu::tryReleaseBarrier without the bar.red results: at most one barrier instance releases.
void tryRelease(RBlock& b) {
    for (RWarp& w : b.warps) {
        if (w.state != St::AtBarrier) continue;
        const uint32_t id = w.barrierId, expected = w.barrierCount;
        uint32_t arrived = 0;
        bool allLive = true;
        for (const RWarp& o : b.warps) {
            if (o.state == St::Done) continue;
            if (o.state == St::AtBarrier && o.barrierId == id) arrived += 32;
            else allLive = false;
        }
        if (!(expected ? arrived >= expected : allLive)) continue;
        uint32_t released = 0;
        for (RWarp& o : b.warps) {
            if (o.state == St::AtBarrier && o.barrierId == id) {
                o.state = St::Ready;
                ++b.ready;
                ++released;
                if (expected && released * 32 >= expected) break;
            }
        }
        return;
    }
}
} // namespace

uint64_t replaySerialOrder(const LaunchShape& shape, const ScheduleLog& log, OrderVisitor* visitor, size_t tailLength,
                           std::vector<OrderedStep>* tail) {
    const uint32_t wpb = std::max(1u, shape.warpsPerBlock);
    // Admission and retirement are sim::Gpu's own (sim::Residency); only the blocks differ.
    sim::Residency<RBlock> res;
    res.next = shape.firstBlock;
    uint64_t index = 0;
    std::vector<OrderedStep> ring(tail ? tailLength : 0);

    auto admit = [&] {
        res.admit(std::max(1u, shape.maxResidentBlocks), shape.endBlock, [&](RBlock& blk, uint64_t linear) {
            RBlock* const b = &blk;
            b->linear = linear;
            b->ready = wpb;
            b->warps.assign(wpb, RWarp{});
            for (uint32_t wi = 0; wi < wpb; ++wi) {
                RWarp& w = b->warps[wi];
                w.global = b->linear * wpb + wi;
                w.sched = log.find(w.global);
                if (!w.sched || w.sched->issued == 0) inconsistent("warp " + std::to_string(w.global) + " has no schedule");
                w.mark = visitor ? visitor->firstMark(w.global) : OrderVisitor::kNone;
            }
        });
    };
    auto retireIfDone = [&](RBlock& b) {
        for (const RWarp& w : b.warps)
            if (w.state != St::Done) return;
        res.retire(b);
        admit();
    };
    // One instruction of warp w (sim::Gpu::issue's effect on the scheduler's state).
    auto issue = [&](RBlock& b, RWarp& w) {
        const uint32_t ord = ++w.pos;
        if (ord == w.mark) w.mark = visitor->visit(w.global, ord, index);
        if (!ring.empty()) ring[index % ring.size()] = {w.global, ord, index};
        ++index;
        const auto& waits = w.sched->waits;
        if (w.nextWait < waits.size() && waits[w.nextWait].after == ord) {
            const BarrierWait& bw = waits[w.nextWait++];
            w.state = St::AtBarrier;
            --b.ready;
            w.barrierId = bw.id;
            w.barrierCount = bw.count;
            tryRelease(b);
        }
        if (ord == w.sched->issued) {
            if (w.state == St::Ready) --b.ready;
            w.state = St::Done;
            tryRelease(b);
        }
    };

    admit();
    for (;;) {
        if (res.resident.empty()) break;
        uint32_t wi = 0;
        RBlock* const b = res.pick(
            wpb, [](const RBlock& blk) { return blk.ready != 0; },
            [](const RBlock& blk, uint32_t i) { return blk.warps[i].state == St::Ready; }, wi);
        if (!b) inconsistent("no warp could issue while " + std::to_string(res.resident.size()) + " blocks were resident");
        RWarp& w = b->warps[wi];
        issue(*b, w);
        if (w.state == St::Done) retireIfDone(*b);
    }
    if (tail) {
        tail->clear();
        const uint64_t n = std::min<uint64_t>(index, ring.size());
        for (uint64_t i = index - n; i < index; ++i) tail->push_back(ring[i % ring.size()]);
    }
    return index;
}

} // namespace warpscope::trace
