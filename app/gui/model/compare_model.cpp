// Simulator vs hardware: the comparison run, the counters table, the background runner.
#include "gui/model/compare_model.hpp"
#include "base/files.hpp"

#include "hw/cuda_device.hpp"
#include "hw/compare.hpp"
#include "base/error.hpp"
#include "run/run.hpp"
#include "timing/cycle_model.hpp"
#include "timing/gpu_spec.hpp"
#include "trace/counters.hpp"

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

namespace warpscope::gui {

// ---------------------------------------------------------------- 1. GPU toggle
GpuToggle gpuToggleFrom(const std::string& availability) {
    GpuToggle t;
    t.enabled = availability.empty();
    t.reason = availability;
    return t;
}

GpuToggle gpuToggle() {
    static const GpuToggle cached = gpuToggleFrom(hw::cudaAvailability());
    return cached;
}

// ---------------------------------------------------------------- 3. counters table
std::vector<CounterRow> counterRows(const std::map<std::string, double>& sim, const std::set<std::string>& estimated,
                                    const hw::NcuRow* ncuRow, const std::map<std::string, std::string>* units) {
    std::vector<CounterRow> rows;
    for (const std::string& m : hw::comparedMetricNames(false)) {
        auto it = sim.find(m);
        if (it == sim.end()) continue;
        CounterRow r;
        r.metric = m;
        r.sim = it->second;
        r.estimated = estimated.count(m) > 0;
        r.sassVsPtx = hw::isSassVsPtx(m);
        if (ncuRow) {
            auto h = ncuRow->metrics.find(m);
            if (h != ncuRow->metrics.end()) r.hw = h->second;
        }
        if (units) {
            auto u = units->find(m);
            if (u != units->end()) r.unit = u->second;
        }
        rows.push_back(std::move(r));
    }
    return rows;
}

std::shared_ptr<const NcuImport> loadNcuCsv(const std::string& path) {
    auto imp = std::make_shared<NcuImport>();
    imp->path = path;
    imp->report = hw::parseNcuCsv(base::readFileOrThrow(path));
    if (imp->report.rows.empty()) throw Error(Error::Kind::Input, "'" + path + "' has no kernel rows.");
    return imp;
}

std::string ncuMatchNote(const NcuImport& ncu, const CompareResult& r) {
    const auto& rows = ncu.report.rows;
    if (rows.size() != r.launches.size())
        return "The CSV has " + std::to_string(rows.size()) + " kernel rows; the lesson launched " + std::to_string(r.launches.size()) +
               " kernels: rows are matched to launches in order.";
    for (size_t i = 0; i < rows.size(); ++i)
        if (!rows[i].kernel.empty() && rows[i].kernel.find(r.launches[i].kernel) == std::string::npos)
            return "Row " + std::to_string(i + 1) + " is kernel '" + rows[i].kernel + "' but launch " + std::to_string(i + 1) + " is '" +
                   r.launches[i].kernel + "'.";
    return "";
}

// ---------------------------------------------------------------- 4. runs
namespace {
std::string elementText(const runtime::HostBuffer& b, size_t i) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.9g", b.get(i));
    return buf;
}
} // namespace

CompareResult runCompare(const runtime::Lesson& lesson, const runtime::ParamValues& params, bool useGpu) {
    CompareResult r;
    r.lessonId = lesson.id;
    r.useGpu = useGpu;
    for (auto& b : lesson.buffers) r.bufferNames.push_back(b.name);
    for (auto& m : trace::CounterCollector::estimatedMetrics()) r.estimated.insert(m);

    runtime::RunResult simResult;
    try {
        // The cycle model of the default preset (the H100 the project's hardware numbers come
        // from) predicts each launch's time next to the measured one; the counters listen through it.
        run::RunSpec spec;
        spec.timed = true;
        spec.counters = true;
        spec.untimedWhenNoFit = true;
        run::RunReport simRun = run::run(lesson, params, spec);
        if (simRun.error) throw *simRun.error;
        simResult = std::move(simRun.result);
        r.simOk = true;
        r.simChecksPassed = simResult.allChecksPassed();
        for (size_t i = 0; i < simResult.launches.size(); ++i) {
            LaunchSide ls;
            ls.kernel = simResult.launches[i].kernel;
            ls.simHostMs = simResult.launches[i].elapsedMs;
            ls.simWarpInstructions = simResult.launches[i].warpInstructions;
            if (i < simRun.launches.size()) {
                const run::LaunchReport& lr = simRun.launches[i];
                if (lr.queuedUs > 0) {
                    ls.predictedMs = lr.queuedUs / 1000.0;
                    ls.predictedPreset = simRun.gpu.name;
                }
                if (lr.counters) ls.simMetrics = lr.counters->metrics();
            }
            r.launches.push_back(std::move(ls));
        }
    } catch (const std::exception& e) {
        r.simError = e.what();
    }

    if (!useGpu) {
        r.hwError = "Run on GPU is off.";
        return r;
    }
    std::unique_ptr<runtime::Device> gpu = hw::openCudaDeviceOrWhy(r.hwError);
    if (!gpu) return r;
    try {
        r.hwDevice = gpu->name();
        // The steady-state method of time-compare (warm-up, median of queued launches); the first
        // launch is kept beside it. The counters' replay below times nothing.
        auto* cuda = dynamic_cast<hw::CudaDevice*>(gpu.get());
        if (cuda) cuda->setSteadyStateRepeats(hw::CudaDevice::kSteadyStateRepeats);
        runtime::RunResult hwResult = runtime::runLesson(lesson, params, *gpu);
        if (cuda) cuda->setSteadyStateRepeats(0);
        r.hwRan = true;
        r.hwChecksPassed = hwResult.allChecksPassed();
        for (size_t i = 0; i < hwResult.launches.size(); ++i) {
            if (i >= r.launches.size()) {
                LaunchSide ls;
                ls.kernel = hwResult.launches[i].kernel;
                r.launches.push_back(ls);
            }
            r.launches[i].hwMs = hwResult.launches[i].elapsedMs;
            if (hwResult.launches[i].firstLaunchMs > 0) r.launches[i].hwFirstMs = hwResult.launches[i].firstLaunchMs;
        }
        // Live hardware counters: the host program once more under CUPTI's range profiler.
        hw::LiveCounters live = hw::readLiveCounters(*gpu, lesson, params, hw::comparedMetricNames(false));
        r.liveCounters = live.unavailable;
        if (r.liveCounters.empty()) {
            for (size_t i = 0; i < live.launches.size() && i < r.launches.size(); ++i) {
                hw::NcuRow row;
                row.kernel = r.launches[i].kernel;
                row.metrics = std::move(live.launches[i]);
                r.liveRows.push_back(std::move(row));
            }
            r.liveCounters = "Hardware counters read live through CUPTI (each kernel replayed per pass).";
        }
        if (r.simOk) {
            for (auto& spec : lesson.buffers) {
                auto si = simResult.buffers.find(spec.name), hi = hwResult.buffers.find(spec.name);
                if (si == simResult.buffers.end() || hi == hwResult.buffers.end()) continue;
                runtime::HostBuffer s, h;
                s.type = h.type = spec.type;
                s.bytes = si->second;
                h.bytes = hi->second;
                runtime::Tolerance any;
                any.ulp = 1e300;
                size_t n = std::min(s.count(), h.count());
                runtime::Comparison c = runtime::compareBuffers(s, h, n, any);
                BufferDiff d{spec.name, spec.type, c.compared, c.differing, c.maxAbs, c.worstUlp, {}, {}, {}};
                size_t eb = n ? s.bytes.size() / s.count() : 0;
                for (size_t i = 0; eb && i < n; ++i)
                    if (std::memcmp(s.bytes.data() + i * eb, h.bytes.data() + i * eb, eb) != 0) {
                        d.firstDiffering = i;
                        d.firstSim = elementText(s, i);
                        d.firstHw = elementText(h, i);
                        break;
                    }
                r.buffers.push_back(std::move(d));
            }
        }
    } catch (const std::exception& e) {
        r.hwRan = false;
        r.hwError = e.what();
    }
    return r;
}

// ---------------------------------------------------------------- 5. the runner
CompareRunner::CompareRunner()
    : BackgroundRunner([](const CompareRequest& req, uint64_t, const std::atomic<bool>&) { return runCompare(req.lesson, req.params, req.useGpu); },
                       false) {}

void CompareRunner::start(const runtime::Lesson& lesson, const runtime::ParamValues& params, bool useGpu) {
    request(CompareRequest{lesson, params, useGpu});
}

} // namespace warpscope::gui
