// warpscope compare <lesson|spec>: runs the lesson on the simulator and on the real GPU with the
// same PTX and prints them side by side: outputs (bit-identical, or how far apart), launches
// (hardware time next to the cycle model's prediction), and counters (the simulator's next to an imported Nsight Compute CSV).
#include "cli.hpp"
#include "base/files.hpp"
#include "hw/cuda_device.hpp"
#include "hw/compare.hpp"
#include "hw/ncu_import.hpp"
#include "base/error.hpp"
#include "run/run.hpp"
#include "runtime/lesson.hpp"
#include "runtime/sim_device.hpp"
#include "timing/cycle_model.hpp"
#include "timing/gpu_spec.hpp"
#include "trace/counters.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

using namespace warpscope;
using nlohmann::json;

int runCompare(int argc, char** argv, const fs::path& lessonsDir) {
    std::string target, ncuPath, gpuName = timing::kDefaultPreset;
    bool asJson = false;
    std::map<std::string, std::string> overrides;
    for (int i = 0; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--json") asJson = true;
        else if (a == "--ncu" && i + 1 < argc) ncuPath = argv[++i];
        else if (a == "--gpu" && i + 1 < argc) gpuName = argv[++i];
        else if (a == "--param" && i + 1 < argc) addParamOverride(argv[++i], overrides);
        else if (target.empty() && a[0] != '-') target = a;
        else throw Error(Error::Kind::Input, "Unknown option '" + a + "' for compare.");
    }
    if (target.empty()) throw Error(Error::Kind::Input, "compare needs a lesson folder, lesson id or spec file.");
    runtime::Lesson lesson = runtime::loadLesson(resolveLessonArg(target, lessonsDir));
    runtime::ParamValues params = runtime::resolveParams(lesson, overrides);
    // The table shows the metrics checked against an H100 (hw/compare.hpp).
    const std::vector<std::string> compared = hw::comparedMetricNames(true);

    // Simulator, with counters (the preset's caches). The cycle model of the GPU preset predicts
    // each launch's time as back-to-back launches measure it; the counters listen through it.
    run::RunSpec spec;
    spec.preset = gpuName;
    spec.timed = true;
    spec.counters = true;
    spec.untimedWhenNoFit = true;   // a block that does not fit: no prediction, still counters
    run::RunReport simRun = run::run(lesson, params, spec);
    if (simRun.error) throw *simRun.error;
    const runtime::RunResult& simResult = simRun.result;
    std::vector<std::shared_ptr<trace::CounterCollector>> counters;
    std::vector<double> predictedUs;
    for (auto& l : simRun.launches) {
        counters.push_back(l.counters);
        predictedUs.push_back(l.queuedUs);
    }

    // Hardware.
    json out;
    out["lesson"] = lesson.id;
    out["simulator"]["passed"] = simResult.allChecksPassed();
    std::optional<runtime::RunResult> hwResult;
    std::string hwName, hwUnavailable = hw::cudaAvailability();
    // Live hardware counters: the host program once more under CUPTI's range profiler (each
    // kernel replayed for every pass its metrics need), unless an ncu CSV was given.
    std::vector<std::map<std::string, double>> liveCounters;
    std::string liveWhy = "Live hardware counters need a GPU.";
    if (hwUnavailable.empty()) {
        try {
            auto gpu = hw::openCudaDevice(0);
            hwName = gpu->name();
            // Hardware time: the steady-state method of time-compare (warm-up, median of queued
            // launches); the program's own first launch (module loading, cold caches) kept beside it.
            auto* cuda = dynamic_cast<hw::CudaDevice*>(gpu.get());
            if (cuda) cuda->setSteadyStateRepeats(hw::CudaDevice::kSteadyStateRepeats);
            hwResult = runtime::runLesson(lesson, params, *gpu);
            if (cuda) cuda->setSteadyStateRepeats(0);   // the counters' replay times nothing
            liveWhy = "an ncu CSV was given";
            if (ncuPath.empty()) {
                hw::LiveCounters live = hw::readLiveCounters(*gpu, lesson, params, compared);
                liveWhy = live.unavailable;
                liveCounters = std::move(live.launches);
                if (liveWhy.empty() && liveCounters.size() != counters.size()) {
                    liveWhy = "CUPTI saw " + std::to_string(liveCounters.size()) + " kernel launches, the lesson made " +
                              std::to_string(counters.size());
                    liveCounters.clear();
                }
            }
        } catch (const Error& e) {
            hwUnavailable = e.what();
        }
    }
    std::optional<hw::NcuReport> ncu;
    if (!ncuPath.empty()) {
        ncu = hw::parseNcuCsv(base::readFileOrThrow(ncuPath));
        if (ncu->rows.size() != counters.size())
            throw Error(Error::Kind::Input, "The Nsight Compute CSV has " + std::to_string(ncu->rows.size()) + " kernel rows; the lesson launched " +
                                                std::to_string(counters.size()) + " kernels.");
    }

    // Outputs.
    bool allIdentical = hwResult.has_value();
    for (auto& b : lesson.buffers) {
        json jb;
        jb["buffer"] = b.name;
        if (hwResult) {
            runtime::HostBuffer s, h;
            s.type = h.type = b.type;
            s.bytes = simResult.buffers.at(b.name);
            h.bytes = hwResult->buffers.at(b.name);
            runtime::Tolerance any;
            any.ulp = 1e300;
            runtime::Comparison c = runtime::compareBuffers(s, h, s.count(), any);
            jb["elements"] = c.compared;
            jb["differing"] = c.differing;
            jb["max_abs"] = c.maxAbs;
            jb["max_ulp"] = c.worstUlp;
            if (c.differing) allIdentical = false;
        }
        out["outputs"].push_back(jb);
    }
    for (size_t i = 0; i < simResult.launches.size(); ++i) {
        const auto& l = simResult.launches[i];
        json jl = {{"kernel", l.kernel}, {"simulated_warp_instructions", l.warpInstructions}, {"simulator_host_ms", l.elapsedMs}};
        if (hwResult && i < hwResult->launches.size()) {
            jl["hardware_ms"] = hwResult->launches[i].elapsedMs;
            jl["hardware_method"] = hwResult->launches[i].firstLaunchMs > 0
                                        ? "steady state: median of " + std::to_string(hw::CudaDevice::kSteadyStateRepeats) +
                                              " back-to-back launches after a warm-up (CUDA events)"
                                        : "one launch (CUDA events)";
            if (hwResult->launches[i].firstLaunchMs > 0) jl["hardware_first_launch_ms"] = hwResult->launches[i].firstLaunchMs;
        }
        if (i < predictedUs.size() && predictedUs[i] > 0) {
            jl["predicted_ms"] = predictedUs[i] / 1000.0;
            jl["predicted_preset"] = simRun.gpu.name;
        }
        auto sm = counters[i]->metrics();
        for (auto& m : compared) {
            jl["counters"][m]["simulator"] = sm.at(m);
            if (ncu && ncu->rows[i].metrics.count(m)) jl["counters"][m]["hardware"] = ncu->rows[i].metrics.at(m);
            else if (i < liveCounters.size() && liveCounters[i].count(m)) jl["counters"][m]["hardware"] = liveCounters[i].at(m);
        }
        out["launches"].push_back(jl);
    }
    if (hwResult) out["hardware"] = {{"device", hwName}, {"passed", hwResult->allChecksPassed()}};
    else out["hardware"] = {{"unavailable", hwUnavailable}};
    out["outputs_identical"] = allIdentical;
    out["hardware_counters"] = ncu ? "ncu csv: " + ncuPath : !liveCounters.empty() ? std::string("cupti") : "unavailable: " + liveWhy;

    if (asJson) {
        std::cout << out.dump(2) << "\n";
        return hwResult ? 0 : 4;
    }
    std::printf("compare %s: simulator vs %s\n", lesson.id.c_str(), hwResult ? hwName.c_str() : "(no GPU)");
    if (!hwResult) std::printf("  hardware unavailable: %s\n", hwUnavailable.c_str());
    std::printf("\n  outputs\n  %-16s %10s %10s %12s %10s\n", "buffer", "elements", "differing", "max |diff|", "max ulp");
    for (auto& jb : out["outputs"]) {
        if (!hwResult) {
            std::printf("  %-16s %10s\n", jb["buffer"].get<std::string>().c_str(), "n/a");
            continue;
        }
        std::printf("  %-16s %10zu %10zu %12.4g %10.4g%s\n", jb["buffer"].get<std::string>().c_str(), jb["elements"].get<size_t>(),
                    jb["differing"].get<size_t>(), jb["max_abs"].get<double>(), jb["max_ulp"].get<double>(),
                    jb["differing"].get<size_t>() == 0 ? "   bit-identical" : "");
    }
    std::printf("\n  launches\n");
    for (auto& jl : out["launches"]) {
        std::string predicted = jl.contains("predicted_ms")
                                    ? std::to_string(jl["predicted_ms"].get<double>()) + " ms on the " + simRun.gpu.name + " preset"
                                    : "n/a (the block does not fit the " + simRun.gpu.name + " preset)";
        std::string hwText = "n/a";
        if (jl.contains("hardware_ms")) {
            hwText = std::to_string(jl["hardware_ms"].get<double>()) + " ms (" + jl["hardware_method"].get<std::string>() + ")";
            if (jl.contains("hardware_first_launch_ms"))
                hwText += "; first launch " + std::to_string(jl["hardware_first_launch_ms"].get<double>()) + " ms (cold, with module loading)";
        }
        std::printf("  %s: hardware %s, predicted %s, simulator %llu warp-instructions\n", jl["kernel"].get<std::string>().c_str(), hwText.c_str(),
                    predicted.c_str(), (unsigned long long)jl["simulated_warp_instructions"].get<uint64_t>());
        std::printf("    %-66s %12s %12s\n", "counter", "hardware", "simulator");
        for (auto& [m, v] : jl["counters"].items()) {
            std::string hwv = v.contains("hardware") ? std::to_string(v["hardware"].get<double>()) : "-";
            if (hwv != "-") hwv = hwv.substr(0, hwv.find('.'));
            std::printf("    %-66s %12s %12.0f%s\n", m.c_str(), hwv.c_str(), v["simulator"].get<double>(),
                        hw::isSassVsPtx(m) ? "  (SASS vs PTX)" : "");
        }
    }
    if (!ncu && !liveCounters.empty())
        std::printf("\n  Hardware counters read live through CUPTI's range profiler (each kernel replayed per pass).\n");
    if (!ncu && liveCounters.empty())
        std::printf("\n  %s\n", liveWhy.c_str());
    if (!ncu && liveCounters.empty())
        std::printf("\n  Hardware counters need Nsight Compute: run\n    ncu --csv --page raw --metrics <names> warpscope run %s --backend gpu > hw.csv\n  and pass --ncu hw.csv (see scripts/validate-metrics.sh for the metric list).\n",
                    target.c_str());
    return hwResult ? 0 : 4;
}
