// The Timeline panel's model: runs on the worker thread (debounced, restartable, failing with a
// message), the lane layout (ordering, rows, clipping), the view arithmetic, and kernel -> line.
#include "gui/model/timeline_model.hpp"

#include "hw/cuda_device.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

using namespace warpscope;
using namespace warpscope::gui;
using runtime::TimelineEngine;
using runtime::TimelineKind;
using runtime::TimelineOp;
namespace fs = std::filesystem;

namespace {
runtime::Lesson lessonAt(const std::string& rel) { return runtime::loadLesson(fs::path(WARPSCOPE_SOURCE_DIR) / rel); }

TimelineRequest streamsRequest(int streams, std::map<std::string, std::string> more = {}) {
    TimelineRequest r;
    r.lesson = lessonAt("lessons/streams-overlap");
    more["STREAMS"] = std::to_string(streams);
    if (!more.count("N")) more["N"] = "65536";
    r.params = runtime::resolveParams(r.lesson, more);
    r.spec = timing::findPreset("h100", {});
    return r;
}

TimelineOp op(TimelineKind k, TimelineEngine e, int stream, double a, double b, int launch = -1) {
    TimelineOp o;
    o.kind = k;
    o.engine = e;
    o.stream = stream;
    o.startUs = a;
    o.endUs = b;
    o.launchIndex = launch;
    o.label = std::string(runtime::kindName(k));
    return o;
}

// host call, two streams with copies both ways, two kernels that overlap, an event, a graph span.
runtime::Timeline sample() {
    runtime::Timeline t;
    t.ops.push_back(op(TimelineKind::HostCall, TimelineEngine::Host, -1, 0, 2));
    t.ops.push_back(op(TimelineKind::CopyHtoD, TimelineEngine::CopyHtoD, 1, 2, 10));
    t.ops.push_back(op(TimelineKind::Kernel, TimelineEngine::Compute, 2, 12, 18, 1));
    t.ops.push_back(op(TimelineKind::Kernel, TimelineEngine::Compute, 1, 10, 20, 0));
    t.ops.push_back(op(TimelineKind::CopyDtoH, TimelineEngine::CopyDtoH, 2, 20, 30));
    t.ops.push_back(op(TimelineKind::EventRecord, TimelineEngine::Compute, 1, 20, 20));
    t.ops.push_back(op(TimelineKind::Graph, TimelineEngine::Compute, 2, 12, 18));
    t.ops.push_back(op(TimelineKind::HostWait, TimelineEngine::Host, -1, 2, 30));
    return t;
}
} // namespace

TEST_CASE("the timeline runner publishes a simulated timeline of the streams lesson", "[timeline]") {
    TimelineRunner runner;
    for (int streams : {2, 4}) {
        uint64_t id = runner.request(streamsRequest(streams));
        REQUIRE(runner.waitIdle(120));
        auto r = runner.result();
        REQUIRE(r);
        CHECK(r->id == id);
        INFO(r->simError);
        REQUIRE(r->simOk);
        CHECK_FALSE(r->hwTried);
        CHECK(r->lessonId == "streams-overlap");
        CHECK(r->preset == "h100");
        CHECK_FALSE(r->sim.measured);
        TimelineFigures f = timelineFigures(r->sim);
        CHECK(f.copies == 2 * streams);
        CHECK(f.kernels == streams);
        CHECK(f.totalUs > 0);
        CHECK(f.overlapUs > 0);   // chunks on streams: copies of one overlap the kernel of another
        // Lanes: the four engines, then streams 1..STREAMS, each with a copy in, a kernel and a copy out.
        auto lanes = timelineLanes(r->sim);
        REQUIRE(lanes.size() == 4u + static_cast<size_t>(streams));
        for (int i = 0; i < streams; ++i) {
            const TimelineLane& l = lanes[4 + static_cast<size_t>(i)];
            CHECK(l.kind == LaneKind::Stream);
            CHECK(l.stream == i + 1);
            CHECK(l.name == "stream " + std::to_string(i + 1));
            REQUIRE(l.ops.size() == 3);
            CHECK(r->sim.ops[l.ops[0]].kind == TimelineKind::CopyHtoD);
            CHECK(r->sim.ops[l.ops[1]].kind == TimelineKind::Kernel);
            CHECK(r->sim.ops[l.ops[2]].kind == TimelineKind::CopyDtoH);
            CHECK(r->sim.ops[l.ops[1]].launchIndex == i);
        }
    }
}

TEST_CASE("a newer request replaces a queued one, and the legacy stream gets its own lane", "[timeline]") {
    TimelineRunner runner;
    runner.request(streamsRequest(8), 5.0);   // debounced: replaced before it starts
    uint64_t id = runner.request(streamsRequest(2, {{"LEGACY", "1"}}), 0.05);
    CHECK(runner.running());
    CHECK(runner.latestRequest() == id);
    REQUIRE(runner.waitIdle(120));
    auto r = runner.result();
    REQUIRE(r);
    CHECK(r->id == id);
    CHECK(r->params.at("STREAMS") == 2);
    REQUIRE(r->simOk);
    auto lanes = timelineLanes(r->sim);
    REQUIRE(lanes.size() == 5);
    CHECK(lanes[4].stream == 0);
    CHECK(lanes[4].name == "stream 0 (legacy default)");
    CHECK(lanes[4].ops.size() == 6);
}

TEST_CASE("a failed, stopped or cancelled timeline run gives a message, not a crash", "[timeline]") {
    SECTION("kernel fault") {
        TimelineRequest req;
        req.lesson = lessonAt("tests/bugs/read-past-end.json");
        req.params = runtime::resolveParams(req.lesson, {});
        req.spec = timing::findPreset("h100", {});
        TimelineResult r = runTimeline(req);
        CHECK_FALSE(r.simOk);
        CHECK_FALSE(r.simError.empty());
    }
    SECTION("time limit") {
        TimelineRequest req = streamsRequest(1, {{"N", "4194304"}, {"WORK", "4096"}});
        req.timeLimitSeconds = 0.1;
        TimelineResult r = runTimeline(req);
        CHECK_FALSE(r.simOk);
        CHECK(r.simError.find("longer than") != std::string::npos);
        CHECK(r.simSeconds < 30);
    }
    SECTION("cancelled") {
        std::atomic<bool> cancel{true};
        TimelineResult r = runTimeline(streamsRequest(2), &cancel);
        CHECK_FALSE(r.simOk);
        CHECK(r.simError == "cancelled");
    }
    SECTION("GPU asked for") {
        TimelineRequest req = streamsRequest(2);
        req.useGpu = true;
        TimelineResult r = runTimeline(req);
        CHECK(r.simOk);
        CHECK(r.hwTried);
        if (!hw::cudaAvailability().empty()) {
            CHECK_FALSE(r.hwOk);
            CHECK(r.hwError == hw::cudaAvailability());
        } else if (r.hwOk) {
            CHECK(r.hw.measured);
            CHECK(timelineFigures(r.hw).kernels == 2);
        }
    }
}

TEST_CASE("timeline lanes: engines first, then streams; overlapping work stacks in rows", "[timeline]") {
    runtime::Timeline t = sample();
    auto lanes = timelineLanes(t);
    REQUIRE(lanes.size() == 6);
    CHECK(lanes[0].kind == LaneKind::Host);
    CHECK(lanes[1].kind == LaneKind::CopyHtoD);
    CHECK(lanes[2].kind == LaneKind::Compute);
    CHECK(lanes[3].kind == LaneKind::CopyDtoH);
    CHECK(lanes[4].stream == 1);
    CHECK(lanes[5].stream == 2);
    // host: the call and the wait, in start order
    REQUIRE(lanes[0].ops.size() == 2);
    CHECK(lanes[0].ops[0] == 0);
    CHECK(lanes[0].rows == 1);
    // compute: two kernels overlapping in time take two rows; events and graph spans are not on it
    REQUIRE(lanes[2].ops.size() == 2);
    CHECK(lanes[2].ops[0] == 3);   // starts first (10 us)
    CHECK(lanes[2].rows == 2);
    CHECK(lanes[2].opRows[0] == 0);
    CHECK(lanes[2].opRows[1] == 1);
    // stream 1: copy, kernel, event; stream 2: graph span, kernel, copy out (span takes no row)
    CHECK(lanes[4].ops.size() == 3);
    CHECK(lanes[4].rows == 1);
    CHECK(lanes[5].ops.size() == 3);
    CHECK(lanes[5].rows == 1);
}

TEST_CASE("timeline lanes: a host function goes on its stream's lane, not the host thread's", "[timeline]") {
    runtime::Timeline t;
    runtime::TimelineOp k;
    k.kind = runtime::TimelineKind::Kernel;
    k.engine = runtime::TimelineEngine::Compute;
    k.stream = 3;
    k.startUs = 0;
    k.endUs = 5;
    t.ops.push_back(k);
    runtime::TimelineOp f;
    f.kind = runtime::TimelineKind::HostFunc;
    f.engine = runtime::TimelineEngine::Host;
    f.stream = 3;
    f.label = "check the chunk";
    f.startUs = 51;
    f.endUs = 61;
    t.ops.push_back(f);
    auto lanes = timelineLanes(t);
    REQUIRE(lanes.front().kind == LaneKind::Host);
    CHECK(lanes.front().ops.empty());       // not the program's host thread
    REQUIRE(lanes.back().kind == LaneKind::Stream);
    CHECK(lanes.back().stream == 3);
    CHECK(lanes.back().ops == std::vector<size_t>{0, 1});
    CHECK(describeOp(t.ops[1]).find("host thread of the driver") != std::string::npos);
}

TEST_CASE("timeline layout: pixels for a view, clipped at its edges, ordered by lane and start", "[timeline]") {
    runtime::Timeline t = sample();
    auto lanes = timelineLanes(t);
    // View 5..25 us over 200 px: 10 px per us.
    auto rects = layoutTimeline(t, lanes, 5, 25, 200);
    for (size_t i = 1; i < rects.size(); ++i) {
        CHECK(rects[i - 1].lane <= rects[i].lane);
        if (rects[i - 1].lane == rects[i].lane && !rects[i - 1].span && !rects[i].span) CHECK(rects[i - 1].x0 <= rects[i].x0);
    }
    for (auto& r : rects) {
        CHECK(r.x0 >= 0);
        CHECK(r.x1 <= 200);
        CHECK(r.x0 <= r.x1);
    }
    auto find = [&](size_t opIndex, int lane) -> const TimelineRect* {
        for (auto& r : rects)
            if (r.op == opIndex && r.lane == lane) return &r;
        return nullptr;
    };
    CHECK(find(0, 0) == nullptr);   // the host call ends at 2 us, before the view
    const TimelineRect* htod = find(1, 1);
    REQUIRE(htod);
    CHECK(htod->clippedLeft);
    CHECK_FALSE(htod->clippedRight);
    CHECK(htod->x0 == Approx(0));
    CHECK(htod->x1 == Approx(50));
    const TimelineRect* k0 = find(3, 2);
    REQUIRE(k0);
    CHECK(k0->x0 == Approx(50));
    CHECK(k0->x1 == Approx(150));
    CHECK(k0->row == 0);
    const TimelineRect* k1 = find(2, 2);
    REQUIRE(k1);
    CHECK(k1->row == 1);
    const TimelineRect* dtoh = find(4, 3);
    REQUIRE(dtoh);
    CHECK(dtoh->clippedRight);
    CHECK(dtoh->x1 == Approx(200));
    const TimelineRect* ev = find(5, 4);
    REQUIRE(ev);
    CHECK(ev->marker);
    CHECK(ev->x0 == Approx(150));
    const TimelineRect* graph = find(6, 5);
    REQUIRE(graph);
    CHECK(graph->span);
    CHECK(&rects[0] <= graph);
    // The graph span is drawn first on its lane (behind its nodes).
    for (auto& r : rects)
        if (r.lane == 5) {
            CHECK(&r == graph);
            break;
        }
    // Short operations stay visible: at least minWidth pixels.
    auto wide = layoutTimeline(t, lanes, 0, 3000, 300, 3.0f);
    for (auto& r : wide)
        if (!r.marker) CHECK(r.x1 - r.x0 >= Approx(3.0f));
    // Nothing for an empty view.
    CHECK(layoutTimeline(t, lanes, 5, 5, 200).empty());
    CHECK(layoutTimeline(t, lanes, 100, 200, 200).empty());
}

TEST_CASE("timeline view: fit, zoom around a point, clamp, ticks", "[timeline]") {
    TimelineView fit = clampView({}, 100);
    CHECK(fit.startUs == 0);
    CHECK(fit.spanUs == Approx(102));
    TimelineView z = zoomView(fit, 51, 0.5, 100);   // zoom in around the middle
    CHECK(z.spanUs == Approx(51));
    CHECK(z.startUs == Approx(25.5));
    TimelineView back = zoomView(z, 51, 2.0, 100);
    CHECK(back.spanUs == Approx(102));
    CHECK(back.startUs == Approx(0));
    TimelineView far = clampView({500, 10}, 100);   // panned past the end
    CHECK(far.startUs == Approx(92));
    TimelineView neg = clampView({-5, 10}, 100);
    CHECK(neg.startUs == 0);
    CHECK(zoomView(fit, 0, 1e-9, 100).spanUs > 0);   // never zero
    CHECK(tickStepUs(100, 1000, 50) == Approx(5));
    CHECK(tickStepUs(150, 1000, 80) == Approx(20));
    CHECK(tickStepUs(1.0, 1000, 100) == Approx(0.1));
    CHECK(tickStepUs(30000, 600, 60) == Approx(5000));
}

TEST_CASE("kernel source line, number formats and descriptions", "[timeline]") {
    std::vector<std::string> lines;
    std::ifstream f(fs::path(WARPSCOPE_SOURCE_DIR) / "lessons/streams-overlap/kernel.cu");
    for (std::string l; std::getline(f, l);) lines.push_back(l);
    CHECK(kernelSourceLine(lines, "process") == 8);
    CHECK(kernelSourceLine(lines, "tick") == 21);
    CHECK(kernelSourceLine(lines, "proc") == 0);
    CHECK(kernelSourceLine(lines, "nothing") == 0);
    CHECK(kernelSourceLine({"// calls process(data)", "__global__ void", "process(float* d)"}, "process") == 3);
    CHECK(formatUs(12.345) == "12.3 \xC2\xB5s");
    CHECK(formatUs(2500) == "2.50 ms");
    CHECK(formatBytes(1 << 20) == "1.0 MiB");
    TimelineOp c = op(TimelineKind::CopyHtoD, TimelineEngine::CopyHtoD, 3, 10, 20);
    c.bytes = 1000000;
    c.pinned = true;
    std::string d = describeOp(c);
    CHECK(d.find("stream 3") != std::string::npos);
    CHECK(d.find("100.0 GB/s") != std::string::npos);
    CHECK(d.find("pinned") != std::string::npos);
    TimelineOp k = op(TimelineKind::Kernel, TimelineEngine::Compute, 0, 0, 5, 2);
    k.inGraph = true;
    d = describeOp(k);
    CHECK(d.find("legacy default") != std::string::npos);
    CHECK(d.find("graph") != std::string::npos);
    CHECK(d.find("launch 3") != std::string::npos);
}
