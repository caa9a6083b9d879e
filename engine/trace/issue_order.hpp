// The serial issue order of a launch that ran in parallel shares (sim::Gpu::runToEnd with
// threads). Each share issues its blocks' warps in its own round-robin order; for race-free
// blocks every warp's own instruction sequence is the same as in a serial run, and the serial
// order is a function of those sequences alone: how many instructions each warp issued and after
// which of them it waited at a barrier (and with which id and thread count). So a listener that
// must see Steps in the serial order (a cache model, "the last N steps") records that little per
// warp in its forks (ScheduleLog) and afterwards replays the scheduler without executing anything
// (replaySerialOrder), visiting the instructions it kept data for in serial order.
//
// The replay mirrors sim::Gpu's barrier release; admission in block order up to
// maxResidentBlocks, the round-robin pick over resident blocks and warps (skipping blocks without
// ready warps) and retirement are the simulator's own code (sim::Residency, sim/residency.hpp). tests/engine/trace/issue_order_test.cpp compares it with real serial runs, so a
// change to the engine's scheduler that is not made here too fails there.
//
// Sections: 1. launch shape and per-warp schedule  2. replay
#pragma once
#include "sim/program.hpp"
#include "sim/step.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::sim {
class Gpu;
}

namespace warpscope::trace {

// ---------------------------------------------------------------- 1. launch shape and per-warp schedule
// What the scheduler of one launch depends on besides the warps' own sequences.
struct LaunchShape {
    uint64_t firstBlock = 0, endBlock = 0;   // the blocks of the launch, in linear order
    uint32_t warpsPerBlock = 1;
    uint32_t maxResidentBlocks = 32;
    static LaunchShape of(const sim::Gpu& gpu);
    uint64_t firstWarp() const { return firstBlock * warpsPerBlock; }
    uint64_t warpCount() const { return (endBlock - firstBlock) * warpsPerBlock; }
};

// Why the serial order of this program's launches cannot be rebuilt from per-warp records (""
// when it can): a barrier whose id or thread count is a register (the Step does not carry it).
std::string issueOrderUnsupported(const sim::Program& program);

struct BarrierWait {
    uint32_t after = 0;   // the warp's ordinal (1-based) of the barrier instruction it waited at
    uint32_t id = 0;      // barrier id (0..15)
    uint32_t count = 0;   // expected threads; 0 = all of the block
};

struct WarpSchedule {
    uint32_t issued = 0;              // instructions the warp issued
    std::vector<BarrierWait> waits;   // in issue order
};

// Per-warp schedules of the warps a listener saw: in a fork, one share's (indexed from the first
// warp that issued, which is warp 0 of the share's first block); after absorbing every fork in
// block order, the whole launch's. A fork's listener calls record() for each Step and uses the
// returned ordinal to key what it keeps.
class ScheduleLog {
public:
    explicit ScheduleLog(uint32_t warpsPerBlock = 1) : wpb_(warpsPerBlock ? warpsPerBlock : 1) {}
    // The Step's ordinal in its warp (1-based). Throws Error(Internal) for a Step it cannot place
    // (a parallel run then falls back to one thread).
    uint32_t record(const sim::Step& s);
    // Moves a fork's schedules into place (forks are absorbed in block order).
    void absorb(ScheduleLog& fork);
    uint64_t base() const { return base_; }
    const std::vector<WarpSchedule>& warps() const { return warps_; }
    const WarpSchedule* find(uint64_t warp) const {
        return warp >= base_ && warp - base_ < warps_.size() ? &warps_[warp - base_] : nullptr;
    }
    void clear() {
        warps_.clear();
        started_ = false;
        base_ = 0;
    }

private:
    uint32_t wpb_;
    bool started_ = false;
    uint64_t base_ = 0;
    std::vector<WarpSchedule> warps_;
};

// ---------------------------------------------------------------- 2. replay
// What replaySerialOrder reports. Marks are per-warp ordinals the visitor asked for.
class OrderVisitor {
public:
    static constexpr uint32_t kNone = 0xffffffffu;
    virtual ~OrderVisitor() = default;
    // The first ordinal of `warp` to visit (kNone: none); asked when its block is admitted.
    virtual uint32_t firstMark(uint64_t warp) = 0;
    // That instruction issued at serial position `index` (0-based within the launch); returns the
    // warp's next ordinal to visit (greater than `ordinal`), or kNone.
    virtual uint32_t visit(uint64_t warp, uint32_t ordinal, uint64_t index) = 0;
};

struct OrderedStep {
    uint64_t warp = 0;
    uint32_t ordinal = 0;
    uint64_t index = 0;
};

// Replays the scheduler over `log` (the whole launch's schedules). Returns the number of
// instructions. `tail`, when given, receives the last `tailLength` instructions in issue order.
// Throws Error(Internal) when the schedules are inconsistent (a warp missing, or no warp could
// issue while blocks remain).
uint64_t replaySerialOrder(const LaunchShape& shape, const ScheduleLog& log, OrderVisitor* visitor,
                           size_t tailLength = 0, std::vector<OrderedStep>* tail = nullptr);

} // namespace warpscope::trace
