// The Timeline panel's model: runs on a worker thread, lanes, layout and view arithmetic.
//
// Sections: 1. runs  2. the runner  3. lanes and rectangles  4. view  5. helpers
#include "gui/model/timeline_model.hpp"

#include "hw/cuda_device.hpp"
#include "base/error.hpp"
#include "run/run.hpp"
#include "timing/cycle_model.hpp"
#include "sim/step.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>

namespace warpscope::gui {

// ---------------------------------------------------------------- 1. runs
namespace {

// Sits downstream of the cycle model and stops a launch when the run is cancelled or takes too
// long (checked every few thousand warp-instructions, so it costs nothing measurable).
class StopCheck : public sim::StepListener {
public:
    StopCheck(const std::atomic<bool>* cancel, std::chrono::steady_clock::time_point deadline, double limitSeconds)
        : cancel_(cancel), deadline_(deadline), limit_(limitSeconds) {}
    void onStep(const sim::Step&) override {
        if ((++n_ & 4095) != 0) return;
        if (cancel_ && cancel_->load(std::memory_order_relaxed)) throw Error(Error::Kind::Input, "cancelled");
        if (std::chrono::steady_clock::now() > deadline_) {
            char buf[200];
            std::snprintf(buf, sizeof buf,
                          "The simulated timeline took longer than %.0f s and was stopped; choose a smaller problem (N, WORK, KERNELS).",
                          limit_);
            throw Error(Error::Kind::Budget, buf);
        }
    }

private:
    const std::atomic<bool>* cancel_;
    std::chrono::steady_clock::time_point deadline_;
    double limit_;
    uint64_t n_ = 0;
};

} // namespace

TimelineResult runTimeline(const TimelineRequest& req, const std::atomic<bool>* cancel) {
    TimelineResult r;
    r.lessonId = req.lesson.id;
    r.preset = req.spec.name;
    r.params = req.params;
    auto t0 = std::chrono::steady_clock::now();
    try {
        auto deadline = t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                 std::chrono::duration<double>(std::max(0.1, req.timeLimitSeconds)));
        StopCheck stop(cancel, deadline, req.timeLimitSeconds);
        // The cycle model times every kernel, with lesson.json's register counts and a listener
        // that can stop a long launch.
        run::RunSpec spec;
        spec.gpu = req.spec;
        spec.timeline = true;
        spec.observers.push_back(&stop);
        run::RunReport rep = run::run(req.lesson, req.params, spec);
        if (rep.error) throw *rep.error;
        runtime::RunResult& rr = rep.result;
        r.sim = std::move(rr.timeline);
        r.simOk = true;
        if (r.sim.empty()) {
            r.simOk = false;
            r.simError = "The host program recorded no operations.";
        }
    } catch (const std::exception& e) {
        r.simError = e.what();
    } catch (...) {
        r.simError = "unknown error";
    }
    r.simSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (cancel && cancel->load()) return r;

    if (!req.useGpu) return r;
    r.hwTried = true;
    std::unique_ptr<runtime::Device> gpu = hw::openCudaDeviceOrWhy(r.hwError);
    if (!gpu) return r;
    try {
        r.hwDevice = gpu->name();
        runtime::RunResult rr = runtime::runLesson(req.lesson, req.params, *gpu);
        r.hw = std::move(rr.timeline);
        r.hwOk = !r.hw.empty();
        if (!r.hwOk) r.hwError = "The GPU run recorded no timeline.";
    } catch (const std::exception& e) {
        r.hwError = e.what();
    } catch (...) {
        r.hwError = "unknown error";
    }
    return r;
}

// ---------------------------------------------------------------- 2. the runner
TimelineRunner::TimelineRunner()
    : BackgroundRunner(
          [](const TimelineRequest& req, uint64_t id, const std::atomic<bool>& cancel) {
              TimelineResult r = runTimeline(req, &cancel);
              r.id = id;
              return r;
          },
          true) {}

// ---------------------------------------------------------------- 3. lanes and rectangles
namespace {
bool onEngineLane(const runtime::TimelineOp& op) {
    return op.kind != runtime::TimelineKind::Graph && op.kind != runtime::TimelineKind::EventRecord;
}
bool isStacked(const runtime::TimelineOp& op) { return onEngineLane(op); }   // spans and markers don't take a row
} // namespace

std::vector<TimelineLane> timelineLanes(const runtime::Timeline& t) {
    using runtime::TimelineEngine;
    std::vector<TimelineLane> lanes(4);
    lanes[0].kind = LaneKind::Host;
    lanes[0].name = "host thread";
    lanes[1].kind = LaneKind::CopyHtoD;
    lanes[1].name = "copy engine HtoD";
    lanes[2].kind = LaneKind::Compute;
    lanes[2].name = "compute";
    lanes[3].kind = LaneKind::CopyDtoH;
    lanes[3].name = "copy engine DtoH";
    std::map<int, size_t> streamLane;
    std::vector<int> streams;
    for (auto& op : t.ops)
        if ((op.engine != TimelineEngine::Host || op.kind == runtime::TimelineKind::HostFunc) && op.stream >= 0 && !streamLane.count(op.stream))
            streamLane[op.stream] = 0;
    for (auto& [s, idx] : streamLane) {
        idx = lanes.size();
        TimelineLane l;
        l.kind = LaneKind::Stream;
        l.stream = s;
        l.name = s == 0 ? "stream 0 (legacy default)" : "stream " + std::to_string(s);
        lanes.push_back(std::move(l));
    }
    for (size_t i = 0; i < t.ops.size(); ++i) {
        const runtime::TimelineOp& op = t.ops[i];
        if (op.kind == runtime::TimelineKind::HostFunc) {   // runs on a driver thread: its stream's lane only
            lanes[streamLane[op.stream]].ops.push_back(i);
            continue;
        }
        if (op.engine == TimelineEngine::Host) {
            lanes[0].ops.push_back(i);
            continue;
        }
        if (onEngineLane(op)) {
            size_t e = op.engine == TimelineEngine::CopyHtoD ? 1 : op.engine == TimelineEngine::Compute ? 2 : 3;
            lanes[e].ops.push_back(i);
        }
        if (op.stream >= 0) lanes[streamLane[op.stream]].ops.push_back(i);
    }
    for (auto& l : lanes) {
        std::stable_sort(l.ops.begin(), l.ops.end(), [&](size_t a, size_t b) { return t.ops[a].startUs < t.ops[b].startUs; });
        // Interval partitioning: each operation takes the first row that is free when it starts.
        std::vector<double> rowEnd;
        l.opRows.assign(l.ops.size(), 0);
        for (size_t k = 0; k < l.ops.size(); ++k) {
            const runtime::TimelineOp& op = t.ops[l.ops[k]];
            if (!isStacked(op)) continue;
            size_t row = 0;
            const double eps = 1e-9;
            while (row < rowEnd.size() && rowEnd[row] > op.startUs + eps) ++row;
            if (row == rowEnd.size()) rowEnd.push_back(0);
            rowEnd[row] = std::max(op.endUs, op.startUs);
            l.opRows[k] = static_cast<int>(row);
        }
        l.rows = std::max<int>(1, static_cast<int>(rowEnd.size()));
    }
    return lanes;
}

std::vector<TimelineRect> layoutTimeline(const runtime::Timeline& t, const std::vector<TimelineLane>& lanes, double viewStartUs,
                                         double viewEndUs, float widthPx, float minWidthPx) {
    std::vector<TimelineRect> out;
    double span = viewEndUs - viewStartUs;
    if (!(span > 0) || !(widthPx > 0)) return out;
    double scale = widthPx / span;
    for (size_t li = 0; li < lanes.size(); ++li) {
        const TimelineLane& lane = lanes[li];
        std::vector<TimelineRect> spans, rest;
        for (size_t k = 0; k < lane.ops.size(); ++k) {
            const runtime::TimelineOp& op = t.ops[lane.ops[k]];
            bool marker = op.kind == runtime::TimelineKind::EventRecord;
            if (op.endUs < viewStartUs || op.startUs > viewEndUs) continue;
            if (marker && (op.startUs < viewStartUs)) continue;
            TimelineRect r;
            r.op = lane.ops[k];
            r.lane = static_cast<int>(li);
            r.row = k < lane.opRows.size() ? lane.opRows[k] : 0;
            r.marker = marker;
            r.span = op.kind == runtime::TimelineKind::Graph;
            double x0 = (op.startUs - viewStartUs) * scale, x1 = (op.endUs - viewStartUs) * scale;
            if (x0 < 0) {
                x0 = 0;
                r.clippedLeft = true;
            }
            if (x1 > widthPx) {
                x1 = widthPx;
                r.clippedRight = true;
            }
            if (!marker && x1 - x0 < minWidthPx) {
                x1 = std::min<double>(widthPx, x0 + minWidthPx);
                x0 = std::max<double>(0, x1 - minWidthPx);
            }
            if (marker) x1 = x0;
            r.x0 = static_cast<float>(x0);
            r.x1 = static_cast<float>(x1);
            (r.span ? spans : rest).push_back(r);
        }
        // Spans first (drawn behind), then the rest by start.
        auto byStart = [](const TimelineRect& a, const TimelineRect& b) { return a.x0 < b.x0; };
        std::stable_sort(spans.begin(), spans.end(), byStart);
        std::stable_sort(rest.begin(), rest.end(), byStart);
        out.insert(out.end(), spans.begin(), spans.end());
        out.insert(out.end(), rest.begin(), rest.end());
    }
    return out;
}

// ---------------------------------------------------------------- 4. view
TimelineView clampView(TimelineView v, double totalUs, double minSpanUs) {
    double maxEnd = totalUs > 0 ? totalUs * 1.02 : 1.0;
    if (!(v.spanUs > 0)) {
        v.startUs = 0;
        v.spanUs = maxEnd;
        return v;
    }
    v.spanUs = std::clamp(v.spanUs, std::min(minSpanUs, maxEnd), maxEnd);
    v.startUs = std::clamp(v.startUs, 0.0, maxEnd - v.spanUs);
    return v;
}

TimelineView zoomView(TimelineView v, double anchorUs, double factor, double totalUs) {
    v = clampView(v, totalUs);
    double frac = (anchorUs - v.startUs) / v.spanUs;
    frac = std::clamp(frac, 0.0, 1.0);
    TimelineView n;
    n.spanUs = v.spanUs * factor;
    n.startUs = anchorUs - frac * n.spanUs;
    // Keep the anchor fixed even when the span hits its limits.
    TimelineView c = clampView(n, totalUs);
    if (c.spanUs != n.spanUs) {
        c.startUs = anchorUs - frac * c.spanUs;
        c = clampView(c, totalUs);
    }
    return c;
}

double tickStepUs(double spanUs, float widthPx, float minPx) {
    if (!(spanUs > 0) || !(widthPx > 0)) return 1;
    double raw = spanUs * std::max(1.0f, minPx) / widthPx;
    double base = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (base * m >= raw * (1 - 1e-9)) return base * m;
    return base * 10;
}

// ---------------------------------------------------------------- 5. helpers
uint32_t kernelSourceLine(const std::vector<std::string>& lines, const std::string& kernel) {
    if (kernel.empty()) return 0;
    auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string& s = lines[i];
        for (size_t p = s.find(kernel); p != std::string::npos; p = s.find(kernel, p + 1)) {
            if (p > 0 && ident(s[p - 1])) continue;
            size_t q = p + kernel.size();
            if (q < s.size() && ident(s[q])) continue;
            while (q < s.size() && std::isspace(static_cast<unsigned char>(s[q]))) ++q;
            if (q < s.size() && s[q] != '(') continue;
            if (q >= s.size() && (i + 1 >= lines.size() || lines[i + 1].find('(') == std::string::npos)) continue;
            bool global = false;
            for (size_t j = i >= 2 ? i - 2 : 0; j <= i; ++j) global = global || lines[j].find("__global__") != std::string::npos;
            if (global) return static_cast<uint32_t>(i + 1);
        }
    }
    return 0;
}

std::string formatUs(double us) {
    char buf[48];
    double a = std::abs(us);
    if (a >= 1e6) std::snprintf(buf, sizeof buf, "%.3g s", us / 1e6);
    else if (a >= 1000) std::snprintf(buf, sizeof buf, "%.2f ms", us / 1000);
    else if (a >= 100) std::snprintf(buf, sizeof buf, "%.0f \xC2\xB5s", us);
    else if (a >= 10) std::snprintf(buf, sizeof buf, "%.1f \xC2\xB5s", us);
    else std::snprintf(buf, sizeof buf, "%.2f \xC2\xB5s", us);
    return buf;
}

std::string formatBytes(uint64_t b) {
    char buf[48];
    if (b >= (1ull << 30)) std::snprintf(buf, sizeof buf, "%.2f GiB", b / double(1ull << 30));
    else if (b >= (1ull << 20)) std::snprintf(buf, sizeof buf, "%.1f MiB", b / double(1ull << 20));
    else if (b >= (1ull << 10)) std::snprintf(buf, sizeof buf, "%.1f KiB", b / 1024.0);
    else std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(b));
    return buf;
}

std::string describeOp(const runtime::TimelineOp& op) {
    using K = runtime::TimelineKind;
    std::string s = std::string(runtime::kindName(op.kind)) + ": " + op.label + "\n";
    if (op.kind == K::HostFunc)
        s += "stream " + std::to_string(op.stream) + ", on a host thread of the driver: the stream's later work waits for it\n";
    else if (op.engine == runtime::TimelineEngine::Host) s += "on the host thread\n";
    else s += (op.stream == 0 ? std::string("stream 0 (legacy default)") : "stream " + std::to_string(op.stream)) + ", " +
              std::string(runtime::engineName(op.engine)) + "\n";
    s += "start " + formatUs(op.startUs) + ", duration " + formatUs(op.durationUs()) + " (ends " + formatUs(op.endUs) + ")\n";
    if (op.kind == K::Kernel && op.priority != 0) s += "stream priority " + std::to_string(op.priority) + "\n";
    if (op.yieldedUs > 0) s += "ended " + formatUs(op.yieldedUs) + " later: a higher-priority kernel took its block slots\n";
    if (op.mapped) s += "reads or writes mapped (zero-copy) host memory over PCIe\n";
    if (op.bytes) {
        s += formatBytes(op.bytes);
        if (op.durationUs() > 0) {
            char buf[64];
            std::snprintf(buf, sizeof buf, ", %.1f GB/s", static_cast<double>(op.bytes) / op.durationUs() / 1e3);
            s += buf;
        }
        s += "\n";
    }
    if (op.kind == K::CopyHtoD || op.kind == K::CopyDtoH)
        s += op.pinned ? "host memory: pinned (page-locked): asynchronous, full PCIe bandwidth\n"
                       : "host memory: pageable: staged through a pinned buffer, holds the host thread\n";
    if (op.inGraph) s += "a node of a CUDA graph launch\n";
    if (op.kind == K::Graph) s += "graph launch: its nodes follow with the small per-node gap\n";
    if (op.launchIndex >= 0) s += "launch " + std::to_string(op.launchIndex + 1) + " of the program (click: source and metrics)\n";
    if (!s.empty() && s.back() == '\n') s.pop_back();
    return s;
}

TimelineFigures timelineFigures(const runtime::Timeline& t) {
    TimelineFigures f;
    f.totalUs = t.totalUs();
    f.hostUs = t.busyUs(runtime::TimelineEngine::Host);
    f.htodUs = t.busyUs(runtime::TimelineEngine::CopyHtoD);
    f.computeUs = t.busyUs(runtime::TimelineEngine::Compute);
    f.dtohUs = t.busyUs(runtime::TimelineEngine::CopyDtoH);
    f.overlapUs = t.overlapUs();
    for (auto& op : t.ops) {
        if (op.kind == runtime::TimelineKind::CopyHtoD || op.kind == runtime::TimelineKind::CopyDtoH) ++f.copies;
        if (op.kind == runtime::TimelineKind::Kernel) ++f.kernels;
    }
    return f;
}

timing::GpuSpec timelinePreset(const timing::GpuSpec* chosen) {
    if (chosen) return *chosen;
    try {
        return timing::resolvePreset();
    } catch (...) {
        return timing::builtinPresets().empty() ? timing::GpuSpec{} : timing::builtinPresets().front();
    }
}

TraceExport exportChromeTrace(const TimelineResult& r, const std::string& requested) {
    std::vector<runtime::Timeline> ts;
    if (r.simOk) ts.push_back(r.sim);
    if (r.hwOk) ts.push_back(r.hw);
    const std::string path = requested.empty() ? "./warpscope-trace.json" : requested;
    std::ofstream f(path, std::ios::binary);
    if (f) f << runtime::toChromeTrace(ts);
    if (!f) return {false, "Could not write " + path + "."};
    size_t n = 0;
    for (auto& t : ts) n += t.ops.size();
    return {true, "Wrote " + path + " (" + std::to_string(ts.size()) + (ts.size() == 1 ? " timeline, " : " timelines, ") + std::to_string(n) +
                      " operations): open it in ui.perfetto.dev or chrome://tracing."};
}

} // namespace warpscope::gui
