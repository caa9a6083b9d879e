// What every simulator-vs-hardware comparison shares (the CLI's `compare`, the app's Compare
// panel): the list of compared Nsight Compute metrics, and one call that reads them live from the
// GPU through CUPTI while the lesson's host program runs again.
#pragma once
#include "runtime/device.hpp"
#include "runtime/lesson.hpp"

#include <map>
#include <string>
#include <vector>

namespace warpscope::hw {

struct ComparedMetric {
    const char* name;
    // Checked against an H100 in the recorded runs (tests/validation/cupti): the CLI's compare
    // table shows these; the app shows every metric in the list.
    bool validated;
};

// The metrics compared, in display order (one place to add one).
const std::vector<ComparedMetric>& comparedMetrics();
// Their names: all of them, or only the validated ones.
std::vector<std::string> comparedMetricNames(bool validatedOnly);
// Instruction and branch counts: the hardware counts SASS instructions, the simulator PTX ones.
bool isSassVsPtx(const std::string& metric);

struct LiveCounters {
    std::vector<std::map<std::string, double>> launches;   // one per kernel launch, in order
    std::string unavailable;                                // why there are none ("" when read)
};
// Runs the lesson's host program once more on `gpu` (a hw::CudaDevice) under CUPTI's range
// profiler and returns `metrics` per launch. Never throws: failures land in `unavailable`.
LiveCounters readLiveCounters(runtime::Device& gpu, const runtime::Lesson& lesson, const runtime::ParamValues& params,
                              const std::vector<std::string>& metrics);

} // namespace warpscope::hw
