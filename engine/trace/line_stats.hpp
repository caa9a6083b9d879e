// Per-source-line statistics collected from Step records: the cheapest useful listener, used by
// the CLI, the benchmarks ("counting on") and the divergence panel.
#pragma once
#include "sim/program.hpp"
#include "trace/step.hpp"

#include <bit>
#include <cstdint>
#include <map>

namespace warpscope::trace {

struct LineStats {
    uint64_t warpInstructions = 0;
    uint64_t threadInstructions = 0;   // executing lanes summed
    uint64_t activeLanes = 0;          // SIMT-active lanes summed (before predication)
    uint64_t branches = 0;
    uint64_t divergentBranches = 0;
    double efficiency() const { return warpInstructions ? double(threadInstructions) / double(warpInstructions) : 0; }
};

class LineStatsCollector : public StepListener {
public:
    void onStep(const Step& s) override {
        LineStats& ls = byLine_[s.instr->line];
        ++ls.warpInstructions;
        ls.threadInstructions += static_cast<uint64_t>(std::popcount(s.execMask));
        ls.activeLanes += static_cast<uint64_t>(std::popcount(s.activeMask));
        if (s.branch) {
            ++ls.branches;
            if (s.divergent) ++ls.divergentBranches;
        }
    }
    const std::map<uint32_t, LineStats>& byLine() const { return byLine_; }
    void clear() { byLine_.clear(); }

private:
    std::map<uint32_t, LineStats> byLine_;   // source line (0 = unknown) -> stats
};

} // namespace warpscope::trace
