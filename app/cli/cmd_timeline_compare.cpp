// warpscope timeline-compare <lesson|spec>: the simulated timeline of a host program (the stream
// model on a GPU preset) next to the timeline measured on the real GPU (events around every
// operation), for a sweep of one parameter (e.g. STREAMS=1,2,4,8): total time per variant, the
// ratio simulated / measured, and the speed-up over the first variant on both.
#include "cli.hpp"
#include "hw/cuda_device.hpp"
#include "base/error.hpp"
#include "runtime/lesson.hpp"
#include "run/run.hpp"
#include "timing/gpu_spec.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

using namespace warpscope;


namespace {
double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
} // namespace

int runTimelineCompare(int argc, char** argv, const fs::path& lessonsDir) {
    std::string target, gpuName = timing::kDefaultPreset, sweepName, traceDir;
    std::vector<std::string> sweepValues;
    int repeat = 7;
    bool asJson = false, simOnly = false;
    std::map<std::string, std::string> overrides;
    for (int i = 0; i < argc; ++i) {
        std::string a = argv[i];
        auto val = [&] { return optionValue(argc, argv, i); };
        if (a == "--json") asJson = true;
        else if (a == "--sim-only") simOnly = true;
        else if (a == "--gpu") gpuName = val();
        else if (a == "--trace-dir") traceDir = val();
        else if (a == "--repeat") {
            std::string v = val();
            try {
                repeat = std::max(1, std::stoi(v));
            } catch (const std::exception&) {
                throw Error(Error::Kind::Input, "--repeat expects a number, got '" + v + "'.");
            }
        } else if (a == "--param" || a == "--sweep") {
            std::string kv = val();
            auto eq = kv.find('=');
            if (eq == std::string::npos || eq == 0) throw Error(Error::Kind::Input, a + " expects NAME=VALUE" + (a == "--sweep" ? std::string(",VALUE...") : "") + ".");
            if (a == "--param") {
                overrides[kv.substr(0, eq)] = kv.substr(eq + 1);
            } else {
                sweepName = kv.substr(0, eq);
                std::stringstream list(kv.substr(eq + 1));
                for (std::string v; std::getline(list, v, ',');)
                    if (!v.empty()) sweepValues.push_back(v);
            }
        } else if (target.empty() && !a.empty() && a[0] != '-') target = a;
        else throw Error(Error::Kind::Input, "Unknown option '" + a + "' for timeline-compare.");
    }
    if (target.empty()) throw Error(Error::Kind::Input, "timeline-compare needs a lesson folder, lesson id or spec file.");
    runtime::Lesson lesson = runtime::loadLesson(resolveLessonArg(target, lessonsDir));
    timing::GpuSpec spec = timing::resolvePreset(gpuName);
    if (sweepValues.empty()) sweepValues.push_back("");

    std::unique_ptr<runtime::Device> gpu;
    if (!simOnly) gpu = hw::openCudaDevice(0);   // throws a clear Device error where there is none
    if (!traceDir.empty()) fs::create_directories(traceDir);

    nlohmann::json out;
    out["lesson"] = lesson.id;
    out["preset"] = spec.name;
    if (gpu) out["gpu"] = gpu->name();
    out["sweep"] = sweepName;
    out["repeat"] = repeat;
    struct Row {
        std::string value;
        double sim = 0, hw = 0;
        bool passedSim = false, passedHw = false;
    };
    std::vector<Row> rows;
    for (auto& v : sweepValues) {
        auto ov = overrides;
        if (!sweepName.empty()) ov[sweepName] = v;
        runtime::ParamValues params = runtime::resolveParams(lesson, ov);
        Row row;
        row.value = v;
        run::RunSpec simSpec;
        simSpec.gpu = spec;
        simSpec.timeline = true;
        run::RunReport simRun = run::run(lesson, params, simSpec);
        if (simRun.error) throw *simRun.error;
        const runtime::RunResult& rs = simRun.result;
        row.sim = rs.timeline.totalUs();
        row.passedSim = rs.allChecksPassed();
        std::vector<runtime::Timeline> both{rs.timeline};
        nlohmann::json jr = {{"value", v}, {"simulated_us", row.sim}, {"simulated", timelineJson(rs.timeline)}};
        if (gpu) {
            // The first run pays for JIT, allocations and page-locking. The timed runs put no
            // events around each operation (they cost the host about a microsecond each); the
            // host clock from the start of the program to the end of its last synchronisation
            // is the total. One more run with events draws the measured timeline.
            auto* cuda = dynamic_cast<hw::CudaDevice*>(gpu.get());
            runtime::runLesson(lesson, params, *gpu);
            std::vector<double> totals;
            if (cuda) cuda->recordEachOperation(false);
            for (int r = 0; r < repeat; ++r) {
                runtime::RunResult rh = runtime::runLesson(lesson, params, *gpu);
                totals.push_back(rh.timeline.totalUs());
                row.passedHw = rh.allChecksPassed();
            }
            if (cuda) cuda->recordEachOperation(true);
            runtime::RunResult best = runtime::runLesson(lesson, params, *gpu);
            row.hw = median(totals);
            jr["measured_with_events_us"] = best.timeline.totalUs();
            both.push_back(best.timeline);
            jr["measured_us"] = row.hw;
            jr["measured_runs_us"] = totals;
            jr["measured"] = timelineJson(best.timeline);
            jr["ratio"] = row.hw > 0 ? row.sim / row.hw : 0.0;
        }
        if (!traceDir.empty()) {
            std::string name = lesson.id + (sweepName.empty() ? "" : "-" + sweepName + "-" + v) + ".json";
            std::ofstream f(fs::path(traceDir) / name);
            f << runtime::toChromeTrace(both) << "\n";
        }
        rows.push_back(row);
        out["variants"].push_back(jr);
    }
    if (asJson) {
        std::cout << out.dump(2) << "\n";
    } else {
        std::printf("%s on the %s preset%s%s\n\n", lesson.id.c_str(), spec.name.c_str(), gpu ? " vs " : "", gpu ? gpu->name().c_str() : "");
        std::string fixed;
        for (auto& [k, val] : overrides) fixed += " " + k + "=" + val;
        if (!fixed.empty()) std::printf("fixed parameters:%s\n\n", fixed.c_str());
        std::printf("| %s | simulated (us) | measured (us, median of %d) | sim / hw | speed-up sim | speed-up hw |\n", sweepName.empty() ? "variant" : sweepName.c_str(), repeat);
        std::printf("|---|---|---|---|---|---|\n");
        for (auto& r : rows) {
            double s0 = rows[0].sim, h0 = rows[0].hw;
            if (gpu)
                std::printf("| %s | %.1f | %.1f | %.2f | %.2f | %.2f |\n", r.value.c_str(), r.sim, r.hw, r.sim / r.hw, s0 / r.sim, h0 / r.hw);
            else
                std::printf("| %s | %.1f | - | - | %.2f | - |\n", r.value.c_str(), r.sim, s0 / r.sim);
        }
        for (auto& r : rows)
            if (!r.passedSim || (gpu && !r.passedHw)) std::printf("\nwarning: checks failed for %s=%s\n", sweepName.c_str(), r.value.c_str());
    }
    return 0;
}
