// warpscope time-compare <lesson|spec>: the timing model's predicted time for each launch next to
// the time measured on the real GPU (CUDA events, median of --repeat runs), their ratio, and the
// rank correlation over the lesson's launches (a family of variants of one computation).
#include "hw/cuda_device.hpp"
#include "runtime/error.hpp"
#include "runtime/lesson.hpp"
#include "runtime/sim_device.hpp"
#include "timing/cycle_model.hpp"
#include "timing/gpu_spec.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

namespace fs = std::filesystem;
using namespace warpscope;

fs::path resolveLessonArg(const std::string& arg, const fs::path& lessonsDir);

namespace {
// Spearman's rank correlation (no ties expected among distinct kernels' times).
double rankCorrelation(const std::vector<double>& a, const std::vector<double>& b) {
    const size_t n = a.size();
    if (n < 2) return 1.0;
    auto ranks = [n](const std::vector<double>& v) {
        std::vector<size_t> idx(n);
        for (size_t i = 0; i < n; ++i) idx[i] = i;
        std::sort(idx.begin(), idx.end(), [&](size_t x, size_t y) { return v[x] < v[y]; });
        std::vector<double> r(n);
        for (size_t k = 0; k < n; ++k) r[idx[k]] = double(k);
        return r;
    };
    auto ra = ranks(a), rb = ranks(b);
    double d2 = 0;
    for (size_t i = 0; i < n; ++i) d2 += (ra[i] - rb[i]) * (ra[i] - rb[i]);
    return 1.0 - 6.0 * d2 / (double(n) * (double(n) * double(n) - 1.0));
}
} // namespace

int runTimeCompare(int argc, char** argv, const fs::path& lessonsDir) {
    std::string target, gpuName = "h100";
    int repeat = 20;
    bool asJson = false;
    timing::TimingOptions topt;
    std::map<std::string, std::string> overrides;
    for (int i = 0; i < argc; ++i) {
        std::string a = argv[i];
        auto val = [&]() -> std::string {
            if (i + 1 >= argc) throw Error(Error::Kind::Input, a + " needs a value.");
            return argv[++i];
        };
        if (a == "--json") asJson = true;
        else if (a == "--gpu") gpuName = val();
        else if (a == "--repeat") repeat = std::max(1, std::stoi(val()));
        else if (a == "--registers") {
            topt.registersPerThread = uint32_t(std::stoul(val()));
            topt.registersEstimated = false;
        } else if (a == "--param") {
            std::string kv = val();
            auto eq = kv.find('=');
            if (eq == std::string::npos) throw Error(Error::Kind::Input, "--param expects NAME=VALUE.");
            overrides[kv.substr(0, eq)] = kv.substr(eq + 1);
        } else if (target.empty() && a[0] != '-') target = a;
        else throw Error(Error::Kind::Input, "Unknown option '" + a + "' for time-compare.");
    }
    if (target.empty()) throw Error(Error::Kind::Input, "time-compare needs a lesson folder, lesson id or spec file.");
    runtime::Lesson lesson = runtime::loadLesson(resolveLessonArg(target, lessonsDir));
    runtime::ParamValues params = runtime::resolveParams(lesson, overrides);
    timing::GpuSpec spec = timing::findPreset(gpuName, timing::presetFolders());

    // Predicted: the timed model drives the functional engine.
    runtime::SimDevice sim;
    std::vector<timing::TimingResult> predicted;
    sim.onLaunch = [&](sim::Gpu& g) {
        timing::TimedRun run(g, spec, topt);
        run.run();
        predicted.push_back(run.result());
    };
    runtime::RunResult simResult = runtime::runLesson(lesson, params, sim);

    // Measured: the whole host program `repeat` times on the GPU; median per launch.
    std::string unavailable = hw::cudaAvailability();
    std::vector<std::vector<double>> measured(predicted.size());
    std::string gpuDevice;
    if (unavailable.empty()) {
        auto gpu = hw::openCudaDevice(0);
        gpuDevice = gpu->name();
        for (int r = 0; r < repeat; ++r) {
            runtime::RunResult hw = runtime::runLesson(lesson, params, *gpu);
            for (size_t i = 0; i < hw.launches.size() && i < measured.size(); ++i) measured[i].push_back(hw.launches[i].elapsedMs * 1000.0);
        }
    }
    std::vector<double> med(predicted.size(), 0), pred(predicted.size(), 0);
    nlohmann::json out;
    out["lesson"] = lesson.id;
    out["preset"] = spec.name;
    out["gpu"] = unavailable.empty() ? gpuDevice : "unavailable: " + unavailable;
    for (size_t i = 0; i < predicted.size(); ++i) {
        pred[i] = predicted[i].microseconds;
        if (!measured[i].empty()) {
            auto m = measured[i];
            std::sort(m.begin(), m.end());
            med[i] = m[m.size() / 2];
        }
        out["launches"].push_back({{"kernel", simResult.launches[i].kernel},
                                   {"predicted_us", pred[i]},
                                   {"predicted_cycles", predicted[i].cycles},
                                   {"measured_median_us", med[i]},
                                   {"ratio", med[i] > 0 ? pred[i] / med[i] : 0.0},
                                   {"active_warps_per_sm", predicted[i].occupancy.activeWarpsPerSM}});
    }
    const double rho = unavailable.empty() ? rankCorrelation(pred, med) : 0.0;
    out["rank_correlation"] = rho;
    if (asJson) {
        std::cout << out.dump(2) << "\n";
        return unavailable.empty() ? 0 : 4;
    }
    std::printf("time-compare %s: %s preset vs %s (median of %d runs)\n", lesson.id.c_str(), spec.name.c_str(),
                unavailable.empty() ? gpuDevice.c_str() : "no GPU", repeat);
    std::printf("| kernel | predicted (us) | measured (us) | predicted / measured |\n| --- | ---: | ---: | ---: |\n");
    for (auto& l : out["launches"])
        std::printf("| %s | %.2f | %.2f | %.2f |\n", l["kernel"].get<std::string>().c_str(), l["predicted_us"].get<double>(),
                    l["measured_median_us"].get<double>(), l["ratio"].get<double>());
    if (unavailable.empty()) std::printf("rank correlation (Spearman) over the %zu launches: %.2f\n", pred.size(), rho);
    else std::printf("hardware unavailable: %s\n", unavailable.c_str());
    return unavailable.empty() ? 0 : 4;
}
