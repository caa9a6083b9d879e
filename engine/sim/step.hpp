// One record per issued warp-instruction, produced by the simulator (sim::Gpu) and read by its
// listeners (trace/ collectors, the cycle model, the app): the single source for panels,
// counters, per-line statistics, timing and step-back. Listeners see it only when attached; with none attached the
// simulator does not fill the per-lane parts at all.
#pragma once
#include "ptx/ast.hpp"

#include <cstdint>
#include <vector>

namespace warpscope::sim {

struct Instr;

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
    // Memory instructions (ld/st/atom/red): the resolved state space, bytes per lane (vector
    // accesses count all elements) and the per-lane addresses in that space.
    ptx::StateSpace space = ptx::StateSpace::None;
    uint8_t accessBytes = 0;
    bool isLoad = false, isStore = false, isAtomic = false;
    const uint64_t* addresses = nullptr;   // 32 entries; valid for lanes in execMask
};

class StepListener {
public:
    virtual ~StepListener() = default;
    virtual void onStep(const Step& step) = 0;
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

private:
    std::vector<StepListener*> listeners_;
};

} // namespace warpscope::sim
