// Per-launch counters of a whole program, for the grader ($WARPSCOPE_LAUNCH_COUNTERS=FILE): the
// runtime appends one JSON line per kernel launch with what the simulator counted for it (kernel,
// grid, block, warp and thread instructions, the busiest thread's instructions, divergent
// branches, global requests and sectors, the predicted time: the cycle model's under
// WARPSCOPE_TIMED=1, else the issue-rate bound). engine/grade/program_exercise.cpp reads it.
#pragma once
#include "sim/step.hpp"
#include "trace/counters.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::cudart {

// Watches one launch: the Nsight-named counters (trace::CounterCollector) and each thread's
// instruction count (whether the work is spread over threads or done by one).
class LaunchProbe : public sim::StepListener {
public:
    void onStep(const sim::Step& s) override;
    const trace::MemCounters& total() const { return counters_.total(); }
    uint64_t threadInstructions() const { return threadTotal_; }
    uint64_t busiestThread() const;
    uint64_t threadsThatRan() const;

private:
    trace::CounterCollector counters_;
    std::vector<uint64_t> perThread_;
    uint64_t threadTotal_ = 0;
};

// `t` as a JSON string: in quotes, quotes and backslashes escaped, control characters as spaces
// (the counters file's lines and the runtime's timeline file).
std::string jsonString(const std::string& t);

// One line of the counters file for a finished launch. `timed`: `micros` is the cycle model's.
std::string launchCountersLine(const std::string& kernel, const std::string& name, const uint32_t grid[3], const uint32_t block[3],
                               uint64_t warpInstructions, const LaunchProbe& probe, double micros, bool timed);

} // namespace warpscope::cudart
