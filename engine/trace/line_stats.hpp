// Per-source-line statistics collected from Step records: the cheapest useful listener, used by
// the CLI, the benchmarks ("counting on") and the divergence panel.
#pragma once
#include "sim/program.hpp"
#include "sim/step.hpp"

#include <bit>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

namespace warpscope::trace {

struct LineStats {
    uint64_t warpInstructions = 0;
    uint64_t threadInstructions = 0;   // executing lanes summed
    uint64_t activeLanes = 0;          // SIMT-active lanes summed (before predication)
    uint64_t branches = 0;
    uint64_t divergentBranches = 0;
    double efficiency() const { return warpInstructions ? double(threadInstructions) / double(warpInstructions) : 0; }
};

class LineStatsCollector : public sim::StepListener {
public:
    void onStep(const sim::Step& s) override {
        // Indexed by line number: this runs for every issued instruction.
        const uint32_t line = s.instr->line;
        if (line >= lines_.size()) grow(line);
        LineStats& ls = lines_[line];
        ++ls.warpInstructions;
        ls.threadInstructions += sim::laneCount(s.execMask);
        ls.activeLanes += sim::laneCount(s.activeMask);
        if (s.branch) {
            ++ls.branches;
            if (s.divergent) ++ls.divergentBranches;
        }
    }
    // Gpu::run hands over sums by pc instead of Steps (the same totals, far cheaper).
    bool sumsOnly() const override { return true; }
    void addCounts(const sim::Instr* code, const sim::PcCounts* counts, size_t n) override {
        for (size_t pc = 0; pc < n; ++pc) {
            const sim::PcCounts& c = counts[pc];
            if (c.warpInstructions == 0) continue;
            const uint32_t line = code[pc].line;
            if (line >= lines_.size()) grow(line);
            LineStats& ls = lines_[line];
            ls.warpInstructions += c.warpInstructions;
            ls.threadInstructions += c.threadInstructions;
            ls.activeLanes += c.activeLanes;
            ls.branches += c.branches;
            ls.divergentBranches += c.divergentBranches;
        }
    }
    // Source line (0 = unknown) -> stats, for the lines that ran.
    std::map<uint32_t, LineStats> byLine() const {
        std::map<uint32_t, LineStats> m;
        for (uint32_t l = 0; l < lines_.size(); ++l)
            if (lines_[l].warpInstructions) m[l] = lines_[l];
        return m;
    }
    void clear() { lines_.clear(); }
    // Sums are independent of issue order, so parallel runs merge them exactly.
    std::unique_ptr<sim::StepListener> fork() const override { return std::make_unique<LineStatsCollector>(); }
    void join(sim::StepListener& fork) override {
        const auto& o = static_cast<LineStatsCollector&>(fork).lines_;
        if (o.size() > lines_.size()) lines_.resize(o.size());
        for (size_t l = 0; l < o.size(); ++l) {
            lines_[l].warpInstructions += o[l].warpInstructions;
            lines_[l].threadInstructions += o[l].threadInstructions;
            lines_[l].activeLanes += o[l].activeLanes;
            lines_[l].branches += o[l].branches;
            lines_[l].divergentBranches += o[l].divergentBranches;
        }
    }

private:
    // Out of line, so onStep stays a small leaf function (it runs for every issued instruction).
    [[gnu::noinline]] void grow(uint32_t line) { lines_.resize(line + 1); }
    std::vector<LineStats> lines_;
};

} // namespace warpscope::trace
