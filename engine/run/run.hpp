// The engine's front door: one way to run a lesson (or spec) and get everything a front end shows.
//
// A RunSpec says what to measure (predicted times, counters, per-line statistics, the stream
// timeline, checkers) and on which backend and GPU preset; run() opens the device, runs the host
// script and hands back a RunReport with one LaunchReport per kernel launch. Every front end uses
// it: the CLI commands (run, compare, time-compare, ncu-compare, bench), the grader, the app's
// compare and timeline models. The app's stepping worker, which drives each launch by hand, builds
// the same per-launch pipeline (LaunchPipeline) and steps through it.
//
// Data flow of one simulated launch (docs/architecture.md):
//   SimDevice::launch -> hook -> LaunchPipeline(gpu): listeners (counters sized by the preset,
//   line statistics, the caller's observers) -> TimedRun (the cycle model picks the issue order)
//   or Gpu::runToEnd (round-robin, spread over threads) -> LaunchReport.
#pragma once
#include "base/error.hpp"
#include "runtime/device.hpp"
#include "runtime/lesson.hpp"
#include "runtime/sim_device.hpp"
#include "sim/step.hpp"
#include "timing/cycle_model.hpp"
#include "timing/gpu_spec.hpp"
#include "trace/counters.hpp"
#include "trace/line_stats.hpp"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::run {

enum class Backend { Sim, Gpu };

struct RunSpec {
    Backend backend = Backend::Sim;
    // The GPU preset (a name or a JSON file) whose cycle model times the launches and whose caches
    // size the counters; resolved once by timing::resolvePreset. Ignored when `gpu` is given.
    std::string preset = timing::kDefaultPreset;
    std::optional<timing::GpuSpec> gpu;        // an already resolved preset (the app's pick)

    // What to measure (simulator only; the GPU backend measures times with events).
    bool timed = false;         // the cycle model drives every launch: predicted times, stalls
    bool warm = false;          // timed, with one L2 kept from launch to launch (implies timed)
    bool counters = false;      // Nsight Compute-named counters per launch (LaunchReport::counters)
    bool lineStats = false;     // per-source-line statistics over all launches (RunReport::lines)
    bool timeline = false;      // the stream timeline (on the simulator: implies timed)
    timing::TimingOptions timing;                    // policy, --registers, --blocks-per-sm
    // Registers per thread by kernel (e.g. what a GPU reported). Order of precedence: a count
    // forced in `timing` (registersEstimated false), then this map, then lesson.json "registers",
    // then 32, estimated.
    std::map<std::string, uint32_t> registers;
    // Which launches the cycle model times (by launch index); null: all of them. The others run
    // functionally and have no LaunchReport::timing.
    std::function<bool(size_t launch)> timeLaunch;
    // A block that does not fit an SM of the preset: false (default) stops the run with the
    // occupancy error; true runs that launch functionally, with no prediction (compare views).
    bool untimedWhenNoFit = false;

    sim::LaunchOptions sim;     // checkers, threads, instruction budget, device memory, hooks
    std::vector<sim::StepListener*> observers;   // also listen to every simulated launch
};

struct LaunchReport {
    std::string kernel;
    base::LaunchConfig config;
    uint64_t blocks = 0;
    sim::LaunchStats stats;
    std::optional<timing::TimingResult> timing;   // when the cycle model timed it
    std::shared_ptr<trace::CounterCollector> counters;   // when RunSpec::counters
    // The time a measurement of back-to-back launches would see: the cycle model's time plus the
    // preset's gap between queued kernels (0 when not timed).
    double queuedUs = 0;
};

struct RunReport {
    std::string device;                     // the device's name
    std::string lesson;
    runtime::ParamValues params;
    timing::GpuSpec gpu;                    // the preset used (empty name when none was needed)
    runtime::RunResult result;              // buffers, checks, host-side launches, timeline
    std::vector<LaunchReport> launches;     // simulated launches, in order
    std::shared_ptr<trace::LineStatsCollector> lines;   // when RunSpec::lineStats
    std::vector<sim::CheckReport> reports;  // checker findings, launch order (kept after a fault)
    std::vector<std::string> notes;         // remarks that are not findings
    uint64_t raceShadowBytes = 0;
    std::optional<Error> error;             // where the run stopped (fault, deadlock, budget, ...)
    bool ok() const { return !error; }
    // Sum of the timed launches' predicted microseconds (cycle model only, no gaps).
    double predictedUs() const;
};

// The per-launch pipeline: the listeners and the cycle model one simulated launch runs with.
// run() uses it for every launch; a front end that steps a launch by hand (the app) builds it in
// its SimDevice hook, adds itself as an observer, and steps `timed()` or the Gpu itself.
class LaunchPipeline {
public:
    struct Setup {
        const timing::GpuSpec* gpu = nullptr;     // required when timed; sizes the counters' caches
        bool timed = false;
        bool counters = false;
        bool countersOnSimSMs = false;  // untimed counters: blocks spread over the simulator's SMs
        bool parallelCounters = false;  // untimed: counters may fork (blocks over threads)
        timing::TimingOptions timing;
        std::optional<uint32_t> registers;        // resolved for this kernel (see RunSpec)
        std::vector<sim::StepListener*> observers;
        // A timed launch packs the register files before the cycle model starts (faster, the
        // same results) unless an observer reads the Gpu's registers while the launch runs.
        bool observersReadRegisters = false;
    };
    // Attaches the listeners to `gpu` (and, when timed, the cycle model, which forwards each
    // Step to them). Throws Error(Input) when timed and a block does not fit an SM of the preset.
    LaunchPipeline(sim::Gpu& gpu, Setup setup);
    ~LaunchPipeline();
    LaunchPipeline(const LaunchPipeline&) = delete;
    LaunchPipeline& operator=(const LaunchPipeline&) = delete;

    timing::TimedRun* timed() { return timed_.get(); }
    trace::CounterCollector* counters() { return counters_.get(); }
    std::shared_ptr<trace::CounterCollector> sharedCounters() const { return counters_; }
    // Runs the launch to its end (the cycle model's order when timed, else round-robin over
    // `threads` threads). Throws the launch's fault.
    void run(uint32_t threads);
    // What the launch did so far (call after run(), or after a fault).
    LaunchReport report() const;

private:
    sim::Gpu& gpu_;
    Setup setup_;
    std::shared_ptr<trace::CounterCollector> counters_;
    sim::FanOut fanOut_;
    sim::StepListener* listener_ = nullptr;   // what listens (one observer, or the fan-out)
    std::unique_ptr<timing::TimedRun> timed_;
};

// Registers per thread for `kernel` under `spec`'s precedence (forced, by kernel, lesson.json).
std::optional<uint32_t> registersFor(const RunSpec& spec, const runtime::Lesson* lesson, const std::string& kernel);

// The setup run() gives one simulated launch of `kernel` on `device`: `gpu` (may be null when not
// timed), the counters when `spec` asks for them (spread over the simulator's SMs), `spec`'s
// observers, `timing` with what the host program set for this launch (its stream's L2 access
// policy window, the persisting set-aside, mapped host memory: SimDevice::launchTimingOptions) and
// the kernel's registers (registersFor). The app's stepping worker builds its pipeline from the
// same setup, so a launch stepped in the app is timed as `warpscope run --timed` times it.
LaunchPipeline::Setup launchSetup(const RunSpec& spec, const timing::GpuSpec* gpu, bool timed, const timing::TimingOptions& timing,
                                  const runtime::SimDevice& device, const runtime::Lesson* lesson, const std::string& kernel);

// Runs `lesson` with `params` as `spec` says. Never throws for what the run does (a fault, a
// deadlock, a budget: RunReport::error, with everything measured up to it); throws Error for a
// spec that cannot start (unknown preset, no GPU for the GPU backend).
RunReport run(const runtime::Lesson& lesson, const runtime::ParamValues& params, const RunSpec& spec);

// The same on a device the caller opened (e.g. a CudaDevice set up for steady-state timing). For
// a SimDevice the spec's measurements apply; its `sim` options are the device's own.
RunReport run(const runtime::Lesson& lesson, const runtime::ParamValues& params, const RunSpec& spec, runtime::Device& device);

} // namespace warpscope::run
