// One record per issued warp-instruction, produced by the simulator (sim::Gpu) and read by its
// listeners (trace/ collectors, the cycle model, the app): the single source for panels,
// counters, per-line statistics, timing and step-back. Listeners see it only when attached; with none attached the
// simulator does not fill the per-lane parts at all.
#pragma once
#include "ptx/ast.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace warpscope::sim {

struct Instr;

// Lanes in a 32-bit mask. std::popcount is a libgcc call on baseline x86-64 (no POPCNT), and it
// runs several times per issued instruction; this is a handful of inline operations.
inline uint32_t laneCount(uint32_t m) {
    if (m == 0xffffffffu) return 32;   // the common case: a converged, unpredicated warp
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    return (((m + (m >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

struct Step {
    uint64_t index = 0;            // issue order within the launch, from 0
    uint32_t block = 0;            // linear block index
    uint32_t warpInBlock = 0;
    uint32_t warp = 0;             // block * warpsPerBlock + warpInBlock
    int32_t pc = 0;
    const sim::Instr* instr = nullptr;
    uint32_t activeMask = 0;       // lanes active when the instruction issued
    uint32_t execMask = 0;         // lanes that executed it (active and guard predicate true)
    uint32_t maskAfter = 0;        // the warp's active mask afterwards (divergence/reconvergence)
    bool branch = false;           // a branch instruction (bra)
    bool divergent = false;        // a branch that split the warp
    // The warp arrived at a block barrier with this Step: it waits from here on (or was released at
    // once). Usually the Step of a bar.sync; for lanes parked at a barrier while the rest of the
    // warp ran to its end (Gpu::parkAtBarrier), the Step after which the last of those exited.
    bool barrierArrival = false;
    uint8_t barrierId = 0;
    uint32_t barrierCount = 0;     // threads the barrier expects (0: the whole block)
    // Memory instructions (ld/st/atom/red): the resolved state space, bytes per lane (vector
    // accesses count all elements) and the per-lane addresses in that space.
    ptx::StateSpace space = ptx::StateSpace::None;
    uint8_t accessBytes = 0;
    bool isLoad = false, isStore = false, isAtomic = false;
    const uint64_t* addresses = nullptr;   // 32 entries; valid for lanes in execMask
    // cp.async (whose `addresses` are its global sources): per lane in execMask, the shared
    // destination offset (low 32 bits) and the bytes taken from the source (high 32 bits; fewer
    // than accessBytes: the rest is zero fill). Null for every other instruction.
    const uint64_t* asyncShared = nullptr;
};

// What one memory instruction (ld/ldu/st/atom/red) accessed: the memory fields of its Step, for a
// client that wants no Step (Gpu::issueQuiet: the cycle model).
struct MemoryAccess {
    bool valid = false;            // the instruction was a memory access (else nothing below is set)
    ptx::StateSpace space = ptx::StateSpace::None;
    uint8_t accessBytes = 0;       // bytes per lane, as Step::accessBytes
    bool isLoad = false, isStore = false, isAtomic = false;
    uint32_t execMask = 0;         // lanes whose addresses are valid (0: no lane accessed memory)
    const sim::Instr* instr = nullptr;
    uint64_t addresses[32] = {};   // as Step::addresses
};

// Per-instruction sums of the Steps that issued one instruction (what LineStatsCollector adds up).
struct PcCounts {
    uint64_t warpInstructions = 0;
    uint64_t threadInstructions = 0;   // lanes in execMask, summed
    uint64_t activeLanes = 0;          // lanes in activeMask, summed
    uint64_t branches = 0;
    uint64_t divergentBranches = 0;
};

class StepListener {
public:
    virtual ~StepListener() = default;
    virtual void onStep(const Step& step) = 0;
    // A launch begins: the run API (run::LaunchPipeline::run) calls this on its observers before
    // the launch's first Step, so a listener that keeps something per launch need not guess the
    // boundary from Step::index (which restarts per thread's share in a parallel run).
    virtual void onLaunchStart() {}
    // A listener that only sums Steps per instruction may say so: Gpu::run (and runToEnd) then
    // keep those sums by pc itself and hand them over once, at the end of the run (also after a
    // fault), instead of building a Step for every instruction. Stepping still calls onStep.
    virtual bool sumsOnly() const { return false; }
    // `counts` has one entry per pc of `code` (Program::code); entries of instructions that never
    // issued are zero.
    virtual void addCounts(const Instr* /*code*/, const PcCounts* /*counts*/, size_t /*n*/) {}
    // Parallel runs (Gpu::runToEnd with threads): a fresh listener of the same kind for one
    // thread's share of the blocks, or nullptr when this listener's result depends on the issue
    // order of all blocks (a cache model): the launch then runs on one thread. Steps a fork sees
    // carry the same block/warp/pc/masks, but `index` counts within that thread's share.
    virtual std::unique_ptr<StepListener> fork() const { return nullptr; }
    // Adds what a fork collected; called once per fork, in block order.
    virtual void join(StepListener& /*fork*/) {}
};

// Hands every Step to several listeners, in order.
class FanOut : public StepListener {
public:
    void add(StepListener* l) {
        if (l) listeners_.push_back(l);
    }
    bool empty() const { return listeners_.empty(); }
    void onStep(const Step& step) override {
        for (auto* l : listeners_) l->onStep(step);
    }
    void onLaunchStart() override {
        for (auto* l : listeners_) l->onLaunchStart();
    }
    std::unique_ptr<StepListener> fork() const override {
        auto f = std::make_unique<FanOut>();
        for (auto* l : listeners_) {
            auto c = l->fork();
            if (!c) return nullptr;
            f->add(c.get());
            f->owned_.push_back(std::move(c));
        }
        return f;
    }
    void join(StepListener& fork) override {
        auto& f = static_cast<FanOut&>(fork);
        for (size_t i = 0; i < listeners_.size() && i < f.listeners_.size(); ++i) listeners_[i]->join(*f.listeners_[i]);
    }

private:
    std::vector<StepListener*> listeners_;
    std::vector<std::unique_ptr<StepListener>> owned_;   // a fork's own listeners
};

} // namespace warpscope::sim
