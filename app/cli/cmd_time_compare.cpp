// warpscope time-compare <lesson|spec>: the timing model's predicted time for each launch next to
// the time measured on the real GPU (CUDA events, median of --repeat back-to-back launches after a
// warm-up), their ratio, and the
// rank correlation over the lesson's launches (a family of variants of one computation).
#include "cli.hpp"
#include "hw/cuda_device.hpp"
#include "base/error.hpp"
#include "runtime/lesson.hpp"
#include "runtime/sim_device.hpp"
#include "timing/cycle_model.hpp"
#include "timing/gpu_spec.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <iostream>

using namespace warpscope;


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
    std::string target, gpuName = "h100", saveJson, measuredFile;
    int repeat = 20;
    bool asJson = false, forcedRegisters = false;
    timing::TimingOptions topt;
    std::map<std::string, std::string> overrides;
    for (int i = 0; i < argc; ++i) {
        std::string a = argv[i];
        auto val = [&] { return optionValue(argc, argv, i); };
        if (a == "--json") asJson = true;
        else if (a == "--gpu") gpuName = val();
        else if (a == "--repeat") repeat = std::max(1, std::stoi(val()));
        else if (a == "--save-json") saveJson = val();
        else if (a == "--measured") measuredFile = val();
        else if (a == "--registers") {
            topt.registersPerThread = uint32_t(std::stoul(val()));
            topt.registersEstimated = false;
            forcedRegisters = true;
        } else if (a == "--param") {
            addParamOverride(val(), overrides);
        } else if (target.empty() && a[0] != '-') target = a;
        else throw Error(Error::Kind::Input, "Unknown option '" + a + "' for time-compare.");
    }
    if (target.empty()) throw Error(Error::Kind::Input, "time-compare needs a lesson folder, lesson id or spec file.");
    runtime::Lesson lesson = runtime::loadLesson(resolveLessonArg(target, lessonsDir));
    runtime::ParamValues params = runtime::resolveParams(lesson, overrides);
    timing::GpuSpec spec = timing::findPreset(gpuName, timing::presetFolders());

    // Measured first: the host program once on the GPU, each synchronous launch followed by a
    // warm-up and `repeat` back-to-back launches of the same kernel timed by events between them
    // (the median is kept). Timing the lesson's own launch alone would add the host's launch
    // call, lazy module loading and first-touch costs, a floor of several microseconds that hides
    // what the kernel itself costs. The driver also says how many registers ptxas gave each
    // kernel, which the prediction then uses for its occupancy.
    // With --measured FILE, a JSON written earlier by --save-json stands in for the GPU.
    std::vector<double> med;
    std::map<std::string, uint32_t> hwRegisters;
    std::string gpuDevice, unavailable;
    if (!measuredFile.empty()) {
        std::ifstream in(measuredFile);
        if (!in) throw Error(Error::Kind::Input, "Cannot read '" + measuredFile + "'.");
        nlohmann::json rec;
        try {
            rec = nlohmann::json::parse(in);
            gpuDevice = rec.at("gpu").get<std::string>() + " (recorded)";
            for (auto& l : rec.at("launches")) {
                med.push_back(l.at("measured_median_us").get<double>());
                if (l.contains("registers_hw") && l["registers_hw"].get<uint32_t>() > 0)
                    hwRegisters[l.at("kernel").get<std::string>()] = l["registers_hw"].get<uint32_t>();
            }
        } catch (const nlohmann::json::exception& e) {
            throw Error(Error::Kind::Input, measuredFile + ": not a time-compare --save-json file (" + e.what() + ").");
        }
    } else if ((unavailable = hw::cudaAvailability()).empty()) {
        auto gpu = hw::openCudaDevice(0);
        gpuDevice = gpu->name();
        auto* cuda = dynamic_cast<hw::CudaDevice*>(gpu.get());
        if (cuda) cuda->setSteadyStateRepeats(repeat);
        runtime::RunResult hw = runtime::runLesson(lesson, params, *gpu);
        for (auto& l : hw.launches) {
            med.push_back(l.elapsedMs * 1000.0);
            if (cuda && !hwRegisters.count(l.kernel))
                if (int r = cuda->registersPerThread(l.kernel); r > 0) hwRegisters[l.kernel] = uint32_t(r);
        }
    }
    const bool haveHw = !med.empty();

    // Predicted: the timed model drives the functional engine. Registers per thread: --registers,
    // else what the GPU reported, else lesson.json, else 32 (estimated).
    runtime::SimDevice sim;
    std::vector<timing::TimingResult> predicted;
    sim.onLaunch = [&](sim::Gpu& g) {
        timing::TimingOptions o = topt;
        const std::string& k = g.program().kernelName;
        if (!forcedRegisters) {
            if (auto it = hwRegisters.find(k); it != hwRegisters.end()) {
                o.registersPerThread = it->second;
                o.registersEstimated = false;
            } else if (auto r = lesson.registersFor(k)) {
                o.registersPerThread = *r;
                o.registersEstimated = false;
            }
        }
        timing::TimedRun run(g, spec, o);
        run.run();
        predicted.push_back(run.result());
    };
    runtime::RunResult simResult = runtime::runLesson(lesson, params, sim);
    if (haveHw && med.size() != predicted.size())
        throw Error(Error::Kind::Input, "The GPU run has " + std::to_string(med.size()) + " launches and the simulator " +
                                            std::to_string(predicted.size()) + ": the lesson's parameters differ from the recording.");

    std::vector<double> pred(predicted.size(), 0);
    med.resize(predicted.size(), 0);
    nlohmann::json out;
    out["lesson"] = lesson.id;
    out["preset"] = spec.name;
    out["gpu"] = haveHw ? gpuDevice : "unavailable: " + unavailable;
    out["method"] = "median of " + std::to_string(repeat) + " back-to-back launches after a warm-up (CUDA events)";
    for (size_t i = 0; i < predicted.size(); ++i) {
        // Each measured interval also holds the GPU's own gap between queued kernels (launch
        // processing, block dispatch, the drain at the end), which the cycle model leaves out.
        pred[i] = predicted[i].microseconds + spec.kernelGapUs;
        const std::string& k = simResult.launches[i].kernel;
        out["launches"].push_back({{"kernel", k},
                                   {"predicted_us", pred[i]},
                                   {"predicted_cycles", predicted[i].cycles},
                                   {"model_us", predicted[i].microseconds},
                                   {"measured_median_us", med[i]},
                                   {"ratio", med[i] > 0 ? pred[i] / med[i] : 0.0},
                                   {"registers", predicted[i].registersPerThread},
                                   {"registers_hw", hwRegisters.count(k) ? hwRegisters[k] : 0},
                                   {"active_warps_per_sm", predicted[i].occupancy.activeWarpsPerSM}});
    }
    const double rho = haveHw ? rankCorrelation(pred, med) : 0.0;
    out["rank_correlation"] = rho;
    if (!saveJson.empty()) {
        std::ofstream f(saveJson);
        f << out.dump(2) << "\n";
        if (!f) throw Error(Error::Kind::Input, "Cannot write '" + saveJson + "'.");
    }
    if (asJson) {
        std::cout << out.dump(2) << "\n";
        return haveHw ? 0 : 4;
    }
    std::printf("time-compare %s: %s preset vs %s (median of %d back-to-back launches after a warm-up)\n", lesson.id.c_str(),
                spec.name.c_str(), haveHw ? gpuDevice.c_str() : "no GPU", repeat);
    std::printf("| kernel | registers | cycle model (us) | predicted, + %.1f us launch gap | measured (us) | predicted / measured |\n"
                "| --- | ---: | ---: | ---: | ---: | ---: |\n", spec.kernelGapUs);
    for (auto& l : out["launches"])
        std::printf("| %s | %u | %.2f | %.2f | %.2f | %.2f |\n", l["kernel"].get<std::string>().c_str(), l["registers"].get<uint32_t>(),
                    l["model_us"].get<double>(), l["predicted_us"].get<double>(), l["measured_median_us"].get<double>(),
                    l["ratio"].get<double>());
    if (haveHw) std::printf("rank correlation (Spearman) over the %zu launches: %.2f\n", pred.size(), rho);
    else std::printf("hardware unavailable: %s\n", unavailable.c_str());
    return haveHw ? 0 : 4;
}
