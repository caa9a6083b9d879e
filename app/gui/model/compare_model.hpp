// The model behind the hardware toggle and the Compare panel (window-free, tested):
//  - whether the "Run on GPU" toggle can be on, and why not (hw::cudaAvailability);
//  - a comparison run: the lesson's host program on the simulator (with counters) and, when
//    asked and possible, on the real GPU with the same PTX; outputs compared element by element;
//  - hardware counters imported from an `ncu --csv` file, matched to launches in order, next to
//    the simulator's (estimated ones marked; instruction and branch counts are SASS vs PTX).
// CompareRunner does the runs on its own thread so the UI never blocks.
//
// Sections: 1. GPU toggle  2. results  3. counters table  4. runs  5. the runner
#pragma once
#include "gui/model/background.hpp"
#include "hw/compare.hpp"
#include "hw/ncu_import.hpp"
#include "runtime/lesson.hpp"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace warpscope::gui {

// ---------------------------------------------------------------- 1. GPU toggle
struct GpuToggle {
    bool enabled = false;
    std::string reason;   // why it is disabled (hw::cudaAvailability's sentence)
};
GpuToggle gpuToggleFrom(const std::string& availability);   // "" = a GPU can be opened
GpuToggle gpuToggle();                                       // probes once, then cached

// ---------------------------------------------------------------- 2. results
struct BufferDiff {
    std::string name, type;
    size_t elements = 0, differing = 0;
    double maxAbs = 0, maxUlp = 0;
    std::optional<size_t> firstDiffering;
    std::string firstSim, firstHw;          // the values at firstDiffering
};

struct LaunchSide {
    std::string kernel;
    double simHostMs = 0;
    uint64_t simWarpInstructions = 0;
    double predictedMs = 0;                 // the cycle model on `predictedPreset`, plus its launch gap
    std::string predictedPreset;
    std::map<std::string, double> simMetrics;
    std::optional<double> hwMs;             // steady state: median of back-to-back launches (CUDA events)
    std::optional<double> hwFirstMs;        // the program's own first launch (cold, module loading)
};

struct CompareResult {
    std::string lessonId;
    bool useGpu = false;
    bool simOk = false;
    std::string simError;
    bool simChecksPassed = false;
    bool hwRan = false;
    std::string hwDevice;
    std::string hwError;                    // why there is no hardware run (no GPU, JIT or launch failure)
    bool hwChecksPassed = false;
    std::vector<BufferDiff> buffers;        // only when the hardware ran
    std::vector<std::string> bufferNames;   // the lesson's buffers (always)
    std::vector<LaunchSide> launches;
    std::set<std::string> estimated;        // simulator metrics from the cache model
    std::vector<hw::NcuRow> liveRows;       // hardware counters per launch read through CUPTI (empty: none)
    std::string liveCounters;               // how the hardware counters were read, or why they were not
};

// ---------------------------------------------------------------- 3. counters table
struct CounterRow {
    std::string metric;
    double sim = 0;
    std::optional<double> hw;
    std::string unit;
    bool estimated = false;   // the simulator's value comes from its cache model
    bool sassVsPtx = false;   // instruction/branch counts: hardware counts SASS, the simulator PTX
};
// One launch's rows: the compared metrics (hw::comparedMetrics) the simulator has, with the hardware value where the
// imported row has it (ncuRow may be null).
std::vector<CounterRow> counterRows(const std::map<std::string, double>& sim, const std::set<std::string>& estimated,
                                    const hw::NcuRow* ncuRow, const std::map<std::string, std::string>* units = nullptr);

// An imported Nsight Compute CSV (throws warpscope::Error when unreadable or not an ncu CSV).
struct NcuImport {
    std::string path;
    hw::NcuReport report;
};
std::shared_ptr<const NcuImport> loadNcuCsv(const std::string& path);
// How the imported rows line up with the launches ("" when they match one to one).
std::string ncuMatchNote(const NcuImport& ncu, const CompareResult& r);

// ---------------------------------------------------------------- 4. runs
// Runs the lesson on the simulator (always) and on GPU 0 (when useGpu); never throws: failures
// are recorded in the result.
CompareResult runCompare(const runtime::Lesson& lesson, const runtime::ParamValues& params, bool useGpu);

// ---------------------------------------------------------------- 5. the runner
struct CompareRequest {
    runtime::Lesson lesson;
    runtime::ParamValues params;
    bool useGpu = false;
};
// A run already going finishes first (it is not cancelled); only the latest request is kept.
class CompareRunner : public BackgroundRunner<CompareRequest, CompareResult> {
public:
    CompareRunner();
    void start(const runtime::Lesson& lesson, const runtime::ParamValues& params, bool useGpu);
};

} // namespace warpscope::gui
