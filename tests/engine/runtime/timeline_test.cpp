// The host runtime: the timeline model's ordering rules (stream order, the legacy default
// stream, non-blocking streams, events, pageable copies, copy engines, kernels sharing the GPU,
// graphs), SimDevice's streams and graphs on real nvcc output, and the host-script operations
// that drive them, with their errors.
#include "support.hpp"

#include "base/error.hpp"
#include "runtime/lesson.hpp"
#include "runtime/timeline.hpp"
#include "timing/gpu_spec.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

using namespace warpscope;
using runtime::TimelineKind;
using runtime::TimelineModel;
namespace fs = std::filesystem;

namespace {
// A GPU with round numbers: 1 GB/s = 1000 bytes per microsecond, no fixed costs.
timing::GpuSpec plainGpu(uint32_t copyEngines = 2) {
    timing::GpuSpec s = timing::findPreset("h100", {});
    s.copyEngines = copyEngines;
    s.pcieGBs = 1;
    s.pageableGBs = 0.5;
    s.copyLatencyUs = s.pageableLatencyUs = 0;
    s.copyQueuedLatencyUs = s.copyAfterKernelUs = s.pageableAfterKernelUs = s.pageableStageBytes = 0;
    s.launchHostUs = s.copyHostUs = s.eventHostUs = s.graphLaunchHostUs = 0;
    s.launchLatencyUs = s.kernelGapUs = s.kernelOverheadUs = s.graphNodeUs = s.syncWakeUs = 0;
    s.duplexEfficiency = 1;
    return s;
}
const runtime::TimelineOp& op(const TimelineModel& m, size_t i) { return m.timeline().ops.at(i); }
} // namespace

TEST_CASE("timeline: work in one stream runs in issue order", "[runtime]") {
    TimelineModel m(plainGpu());
    int s = m.createStream(false);
    size_t a = m.copy(TimelineKind::CopyHtoD, s, 1000, true, false, "in");
    size_t k = m.kernel(s, 5, 0.1, "k", 0);
    size_t b = m.copy(TimelineKind::CopyDtoH, s, 1000, true, false, "out");
    CHECK(op(m, a).startUs == Approx(0));
    CHECK(op(m, a).endUs == Approx(1));      // 1000 bytes at 1000 bytes/us
    CHECK(op(m, k).startUs == Approx(1));
    CHECK(op(m, k).endUs == Approx(6));
    CHECK(op(m, b).startUs == Approx(6));
    CHECK(op(m, b).endUs == Approx(7));
}

TEST_CASE("timeline: copies in opposite directions on two streams overlap; one copy engine serialises them", "[runtime]") {
    for (uint32_t engines : {2u, 1u}) {
        TimelineModel m(plainGpu(engines));
        int s1 = m.createStream(false), s2 = m.createStream(false);
        size_t a = m.copy(TimelineKind::CopyHtoD, s1, 10000, true, false, "a");
        size_t b = m.copy(TimelineKind::CopyDtoH, s2, 10000, true, false, "b");
        size_t c = m.copy(TimelineKind::CopyHtoD, s2, 10000, true, false, "c");
        INFO(engines << " copy engines");
        if (engines == 2) {
            CHECK(op(m, b).startUs == Approx(0));        // its own engine
            CHECK(op(m, c).startUs == Approx(10));       // same engine as a: waits for it
        } else {
            CHECK(op(m, b).startUs == Approx(10));
            CHECK(op(m, c).startUs == Approx(20));
        }
        CHECK(op(m, a).startUs == Approx(0));
    }
}

TEST_CASE("timeline: the duplex efficiency slows the overlapped part of opposite copies", "[runtime]") {
    timing::GpuSpec g = plainGpu();
    g.duplexEfficiency = 0.5;
    TimelineModel m(g);
    int s1 = m.createStream(false), s2 = m.createStream(false);
    m.copy(TimelineKind::CopyHtoD, s1, 10000, true, false, "a");            // 0..10
    size_t b = m.copy(TimelineKind::CopyDtoH, s2, 4000, true, false, "b");  // all 4 us overlap: twice as long
    CHECK(op(m, b).endUs == Approx(8));
}

TEST_CASE("timeline: the legacy default stream waits for blocking streams and they wait for it", "[runtime]") {
    TimelineModel m(plainGpu());
    int s1 = m.createStream(false);
    m.copy(TimelineKind::CopyHtoD, s1, 10000, true, false, "long");           // 0..10 on stream 1
    size_t k0 = m.kernel(0, 2, 0.1, "k0", 0);                                  // stream 0: after stream 1's work
    CHECK(op(m, k0).startUs == Approx(10));
    size_t after = m.copy(TimelineKind::CopyDtoH, s1, 1000, true, false, "x"); // stream 1 again: after k0
    CHECK(op(m, after).startUs == Approx(12));
}

TEST_CASE("timeline: non-blocking streams ignore the legacy default stream", "[runtime]") {
    TimelineModel m(plainGpu());
    int nb = m.createStream(true);
    m.kernel(0, 20, 0.1, "k0", 0);                                                 // stream 0: 0..20
    size_t c = m.copy(TimelineKind::CopyHtoD, nb, 1000, true, false, "c");
    CHECK(op(m, c).startUs == Approx(0));
    size_t k1 = m.kernel(0, 1, 0.1, "k1", 1);   // stream 0 does not wait for the non-blocking stream either
    CHECK(op(m, k1).startUs == Approx(20));
}

TEST_CASE("timeline: an event orders work across streams; event times give elapsed time", "[runtime]") {
    TimelineModel m(plainGpu());
    int s1 = m.createStream(true), s2 = m.createStream(true);
    m.recordEvent(0, s1);
    m.copy(TimelineKind::CopyHtoD, s1, 5000, true, false, "a");   // 0..5
    m.recordEvent(1, s1);
    m.streamWaitEvent(s2, 1);
    size_t k = m.kernel(s2, 1, 0.1, "k", 0);
    CHECK(op(m, k).startUs == Approx(5));
    CHECK(m.eventTimeUs(1) - m.eventTimeUs(0) == Approx(5));
    // Waiting on an event recorded later does not reach back: only the record before the wait counts.
    size_t k2 = m.kernel(s1, 1, 0.1, "k2", 1);
    CHECK(op(m, k2).startUs == Approx(5));
    CHECK_THROWS_AS(m.eventTimeUs(7), Error);
}

TEST_CASE("timeline: a pageable copy holds the host, so later work cannot overlap it", "[runtime]") {
    timing::GpuSpec g = plainGpu();
    g.launchHostUs = 1;
    for (bool pinned : {true, false}) {
        TimelineModel m(g);
        int s1 = m.createStream(false), s2 = m.createStream(false);
        size_t c = m.copy(TimelineKind::CopyHtoD, s1, 5000, pinned, false, "c");   // pinned: 0..5; pageable: 0..10
        size_t k = m.kernel(s2, 3, 0.1, "k", 0);
        INFO((pinned ? "pinned" : "pageable"));
        if (pinned) {
            CHECK(op(m, c).endUs == Approx(5));
            CHECK(op(m, k).startUs == Approx(1));                 // issued at once: overlaps the copy
            CHECK(m.timeline().overlapUs() == Approx(3));
        } else {
            CHECK(op(m, c).endUs == Approx(10));                  // half the bandwidth
            CHECK(op(m, k).startUs >= op(m, c).endUs);            // the host was stuck in the copy
            CHECK(m.timeline().overlapUs() == Approx(0));
        }
    }
}

TEST_CASE("timeline: kernels from two streams share the GPU when their blocks fit, else queue", "[runtime]") {
    TimelineModel m(plainGpu());
    int s1 = m.createStream(false), s2 = m.createStream(false), s3 = m.createStream(false);
    size_t a = m.kernel(s1, 10, 0.4, "a", 0);
    size_t b = m.kernel(s2, 10, 0.5, "b", 1);   // 0.4 + 0.5 fits: side by side
    size_t c = m.kernel(s3, 10, 0.5, "c", 2);   // 0.9 + 0.5 does not: waits for a to end
    CHECK(op(m, a).startUs == Approx(0));
    CHECK(op(m, b).startUs == Approx(0));
    CHECK(op(m, c).startUs == Approx(10));
}

TEST_CASE("timeline: synchronisation moves the host clock; a graph costs one host call", "[runtime]") {
    timing::GpuSpec g = plainGpu();
    g.launchHostUs = 4;
    g.graphLaunchHostUs = 3;
    g.graphNodeUs = 0.5;
    g.kernelGapUs = 2;
    {
        TimelineModel m(g);
        int s = m.createStream(false);
        for (int i = 0; i < 10; ++i) m.kernel(s, 0.1, 0.01, "tiny", i);
        m.synchronizeDevice();
        CHECK(m.hostNowUs() == Approx(40.1).epsilon(0.01));   // ten launch calls, then the last kernel
    }
    {
        TimelineModel m(g);
        int s = m.createStream(false);
        m.beginGraphLaunch(s, "g");
        for (int i = 0; i < 10; ++i) m.kernel(s, 0.1, 0.01, "tiny", -1);
        m.endGraphLaunch();
        m.synchronizeDevice();
        // 3 us of host, then 10 kernels 0.5 us apart: 3 + 0.1 + 9 * (0.5 + 0.1)
        CHECK(m.hostNowUs() == Approx(8.5).epsilon(0.01));
        auto& ops = m.timeline().ops;
        size_t graphOps = 0;
        for (auto& o : ops) graphOps += o.kind == TimelineKind::Graph;
        CHECK(graphOps == 1);
    }
}

TEST_CASE("timeline: Chrome trace JSON has a lane per engine and per stream", "[runtime]") {
    TimelineModel m(plainGpu());
    int s = m.createStream(false);
    m.copy(TimelineKind::CopyHtoD, s, 1000, true, false, "in");
    m.kernel(s, 1, 0.1, "k", 0);
    auto j = nlohmann::json::parse(runtime::toChromeTrace(m.timeline()));
    std::set<std::string> lanes;
    size_t spans = 0;
    for (auto& e : j["traceEvents"]) {
        if (e["ph"] == "M" && e["name"] == "thread_name") lanes.insert(e["args"]["name"].get<std::string>());
        if (e["ph"] == "X") ++spans;
    }
    CHECK(lanes.count("copy engine HtoD"));
    CHECK(lanes.count("compute"));
    CHECK(lanes.count("stream 1"));
    CHECK(lanes.count("host thread"));
    CHECK(spans >= 4);   // each device operation on its engine lane and its stream lane, plus host calls
}

// ---------------------------------------------------------------- SimDevice and host scripts
TEST_CASE("graphs: capture does not run the work; each launch replays it exactly", "[runtime]") {
    runtime::Lesson l = runtime::loadLesson(wst::sourcePath("lessons/streams-overlap"));
    runtime::SimDevice one, graph;
    auto direct = runtime::runLesson(l, runtime::resolveParams(l, {{"MODE", "1"}, {"KERNELS", "37"}}), one);
    auto replay = runtime::runLesson(l, runtime::resolveParams(l, {{"MODE", "2"}, {"KERNELS", "37"}}), graph);
    CHECK(direct.allChecksPassed());
    CHECK(replay.allChecksPassed());
    CHECK(direct.buffers.at("counter") == replay.buffers.at("counter"));

    // By hand: a captured launch leaves memory alone until the graph runs, then runs each time.
    wst::Sim sim("lessons/streams-overlap/kernel.ptx");
    auto& dev = sim.dev;
    std::vector<int32_t> zeros(32, 0);
    auto p = sim.upload(zeros, "counter");
    int s = dev.createStream(false);
    dev.beginCapture(s);
    runtime::LaunchConfig cfg;
    cfg.grid = {1, 1, 1};
    cfg.block = {32, 1, 1};
    dev.launchOn(s, "tick", cfg, {wst::arg(p), wst::arg(int32_t(32))});
    CHECK(sim.download<int32_t>(p, 32)[0] == 0);
    int g = dev.endCapture(s);
    dev.launchGraph(g, s);
    dev.launchGraph(g, s);
    CHECK(sim.download<int32_t>(p, 32)[5] == 2);
    CHECK_THROWS_AS(dev.launchGraph(g + 1, s), Error);
    CHECK_THROWS_AS(dev.beginCapture(0), Error);
}

TEST_CASE("timeline: copy engines as the H100 runs them (queued setup, wait after a kernel, pageable staging)", "[runtime]") {
    // docs/timing-validation.md, "Copy engines and issue order": each key on its own, round numbers.
    SECTION("a pinned copy queued behind another pays copyQueuedLatencyUs; a lone one copyLatencyUs") {
        timing::GpuSpec g = plainGpu();
        g.copyLatencyUs = 7;
        g.copyQueuedLatencyUs = 2;
        TimelineModel m(g);
        int s1 = m.createStream(false), s2 = m.createStream(false);
        size_t a = m.copy(TimelineKind::CopyHtoD, s1, 10000, true, false, "a");   // lone: 0 + 7 + 10
        size_t b = m.copy(TimelineKind::CopyHtoD, s2, 10000, true, false, "b");   // queued: 17 + 2 + 10
        CHECK(op(m, a).endUs == Approx(17));
        CHECK(op(m, b).startUs == Approx(17));
        CHECK(op(m, b).endUs == Approx(29));
        // Without the key every copy pays the full latency after the one ahead.
        g.copyQueuedLatencyUs = 0;
        TimelineModel m0(g);
        int t1 = m0.createStream(false), t2 = m0.createStream(false);
        m0.copy(TimelineKind::CopyHtoD, t1, 10000, true, false, "a");
        size_t b0 = m0.copy(TimelineKind::CopyHtoD, t2, 10000, true, false, "b");
        CHECK(op(m0, b0).endUs == Approx(34));
    }
    SECTION("a copy issued while its stream's kernel runs starts copyAfterKernelUs after the kernel ends") {
        timing::GpuSpec g = plainGpu();
        g.copyAfterKernelUs = 8;
        g.launchHostUs = 1;
        TimelineModel m(g);
        int s = m.createStream(false);
        size_t k = m.kernel(s, 20, 0.1, "k", 0);                                  // 1..21
        size_t c = m.copy(TimelineKind::CopyDtoH, s, 1000, true, false, "out");    // issued at 1: waits
        CHECK(op(m, k).endUs == Approx(21));
        CHECK(op(m, c).startUs == Approx(29));
        // Issued after the kernel is done (the host was busy elsewhere): no wait.
        TimelineModel m2(g);
        int s2 = m2.createStream(false);
        m2.kernel(s2, 2, 0.1, "k", 0);                                              // 1..3
        m2.synchronizeStream(s2);                                                   // the host waits to 3
        size_t c2 = m2.copy(TimelineKind::CopyDtoH, s2, 1000, true, false, "out");
        CHECK(op(m2, c2).startUs == Approx(3));
    }
    SECTION("a pageable host-to-device copy returns once staged; the last piece's DMA follows") {
        timing::GpuSpec g = plainGpu();
        g.pageableStageBytes = 1000;
        TimelineModel m(g);
        int s = m.createStream(false);
        size_t c = m.copy(TimelineKind::CopyHtoD, s, 5000, false, false, "in");   // staged 0..10 at 0.5 GB/s, DMA of 1000 B at 1 GB/s
        CHECK(op(m, c).kind == TimelineKind::CopyHtoD);
        CHECK(op(m, c).endUs == Approx(11));
        CHECK(m.hostNowUs() == Approx(10));                                         // the host is free at 10, not 11
        size_t k = m.kernel(s, 1, 0.1, "k", 0);
        CHECK(op(m, k).startUs == Approx(11));                                      // the kernel waits for the DMA
        // A pageable copy back still holds the host to its end, and waits for the kernel first.
        g.pageableAfterKernelUs = 5;
        g.pageableDtoHGBs = g.pageableDtoHLatencyUs = 0;                            // as host-to-device: 0.5 GB/s
        TimelineModel m2(g);
        int s2 = m2.createStream(false);
        m2.kernel(s2, 4, 0.1, "k", 0);                                              // 0..4
        size_t d = m2.copy(TimelineKind::CopyDtoH, s2, 1000, false, false, "out");  // 4 + 5, then 2 us
        CHECK(op(m2, d).kind == TimelineKind::CopyDtoH);                           // the copy's index, not the host wait's
        CHECK(op(m2, d).startUs == Approx(9));
        CHECK(op(m2, d).endUs == Approx(11));
        CHECK(m2.hostNowUs() == Approx(11));
    }
}

TEST_CASE("streams-overlap on the simulator: results are the same on every variant", "[runtime]") {
    runtime::Lesson l = runtime::loadLesson(wst::sourcePath("lessons/streams-overlap"));
    std::vector<uint8_t> first;
    for (const char* streams : {"1", "2", "8"})
        for (const char* pinned : {"0", "1"})
            for (const char* legacy : {"0", "1"}) {
                runtime::SimDevice dev;
                auto r = runtime::runLesson(l, runtime::resolveParams(l, {{"N", "65536"}, {"STREAMS", streams}, {"PINNED", pinned}, {"LEGACY", legacy}}), dev);
                INFO("STREAMS=" << streams << " PINNED=" << pinned << " LEGACY=" << legacy);
                CHECK(r.allChecksPassed());
                if (first.empty()) first = r.buffers.at("data");
                CHECK(r.buffers.at("data") == first);
            }
}

namespace {
std::string hostScriptError(const std::string& host, const std::string& extra = "") {
    fs::path dir = fs::temp_directory_path() / ("warpscope-streams-" + std::to_string(std::hash<std::string>{}(host + extra)));
    fs::create_directories(dir);
    fs::copy_file(wst::sourcePath("lessons/streams-overlap/kernel.ptx"), dir / "kernel.ptx", fs::copy_options::overwrite_existing);
    std::ofstream(dir / "lesson.json") << R"({"id": "t", "ptx": "kernel.ptx", "params": {"N": 1024},
        "buffers": {"data": {"type": "f32", "count": "N", "pinned": 1, "transfer": "manual"}, "counter": {"type": "s32", "count": 32}},
        "streams": {"count": 2})" + extra + R"(, "host": )" + host + "}";
    std::string msg;
    try {
        runtime::Lesson l = runtime::loadLesson(dir);
        runtime::SimDevice dev;
        runtime::runLesson(l, runtime::resolveParams(l, {}), dev);
    } catch (const Error& e) {
        msg = e.what();
    }
    fs::remove_all(dir);
    return msg;
}
} // namespace

TEST_CASE("host scripts: stream, event, loop and graph mistakes are clear errors", "[runtime]") {
    CHECK(hostScriptError(R"([{"to_device": "data", "stream": 3}])").find("host[0].stream: stream 3 does not exist") != std::string::npos);
    CHECK(hostScriptError(R"([{"wait": "e", "stream": 1}])").find("no event named 'e'") != std::string::npos);
    CHECK(hostScriptError(R"([{"for": "N", "to": 2, "do": []}])").find("must be a new name") != std::string::npos);
    CHECK(hostScriptError(R"([{"for": "i", "to": 200000, "do": [{"sync": "device"}]}])").find("more than 100000 operations") != std::string::npos);
    CHECK(hostScriptError(R"([{"graph": "g", "stream": 1}])").find("no graph named 'g'") != std::string::npos);
    CHECK(hostScriptError(R"([{"capture": "g", "stream": 1, "do": [{"sync": "device"}]}])").find("inside a capture") != std::string::npos);
    CHECK(hostScriptError(R"([{"capture": "g", "stream": 0, "do": []}])").find("cannot be captured") != std::string::npos);
    CHECK(hostScriptError(R"([{"capture": "g", "stream": 1, "do": [{"to_device": "data", "stream": 2}]}])").find("captured stream 1") !=
          std::string::npos);
    CHECK(hostScriptError(R"([{"to_host": "data", "offset": 1000, "count": 100}])").find("outside buffer 'data'") != std::string::npos);
    CHECK(hostScriptError(R"([{"sync": "sometimes"}])").find("host[0].sync") != std::string::npos);
    CHECK(hostScriptError(R"([{"timeline": "pause"}])").find("\"restart\"") != std::string::npos);
    CHECK(hostScriptError("[]", R"(, "extra": 1)").find("unknown key 'extra'") != std::string::npos);
    // A correct script: copies with offsets, an event across streams, an elapsed timer.
    CHECK(hostScriptError(R"([{"record": "a", "stream": 1}, {"to_device": "data", "stream": 1, "count": 512},
                              {"to_device": "data", "stream": 2, "offset": 512}, {"record": "b", "stream": 2},
                              {"wait": "b", "stream": 1}, {"elapsed": "t", "from": "a", "to": "b"}, {"sync": "device"}])")
              .empty());
}

TEST_CASE("host scripts: timers and the timeline come back in the run result", "[runtime]") {
    runtime::Lesson l = runtime::loadLesson(wst::sourcePath("lessons/streams-overlap"));
    runtime::SimDevice dev;
    dev.enableTimeline(timing::findPreset("h100", {}));
    auto r = runtime::runLesson(l, runtime::resolveParams(l, {{"N", "65536"}, {"STREAMS", "2"}}), dev);
    size_t copies = 0, kernels = 0;
    for (auto& o : r.timeline.ops) {
        copies += o.kind == TimelineKind::CopyHtoD || o.kind == TimelineKind::CopyDtoH;
        kernels += o.kind == TimelineKind::Kernel;
    }
    CHECK(copies == 4);
    CHECK(kernels == 2);
    CHECK(r.timeline.totalUs() > r.timeline.busyUs(runtime::TimelineEngine::CopyHtoD));
    // Without a timeline GPU the simulator keeps none (and runs at functional speed).
    runtime::SimDevice plain;
    auto r2 = runtime::runLesson(l, runtime::resolveParams(l, {{"N", "65536"}}), plain);
    CHECK(r2.timeline.empty());
}

namespace {
// Runs a lesson with one buffer (`buffer`: its JSON, named by `name`) whose check compares its
// first elements with their initial values (iota), over `host`, and returns that check's result.
runtime::CheckResult oneBufferCheck(const std::string& name, const std::string& buffer, const std::string& host, bool nonBlocking) {
    fs::path dir = fs::temp_directory_path() / ("warpscope-check-" + std::to_string(std::hash<std::string>{}(buffer + host)) + (nonBlocking ? "nb" : ""));
    fs::create_directories(dir);
    fs::copy_file(wst::sourcePath("lessons/streams-overlap/kernel.ptx"), dir / "kernel.ptx", fs::copy_options::overwrite_existing);
    std::ofstream(dir / "lesson.json") << R"({"id": "t", "ptx": "kernel.ptx", "params": {"N": 1024},
        "buffers": {")" + name + "\": " + buffer + R"(},
        "streams": {"count": 2, "non_blocking": )" + std::string(nonBlocking ? "true" : "false") + R"(},
        "checks": [{"buffer": ")" + name + R"(", "expect": [0, 1, 2, 3]}], "host": )" + host + "}";
    runtime::Lesson l = runtime::loadLesson(dir);
    runtime::SimDevice dev;
    runtime::RunResult r = runtime::runLesson(l, runtime::resolveParams(l, {}), dev);
    fs::remove_all(dir);
    REQUIRE(r.checks.size() == 1);
    return r.checks[0];
}
// A manual buffer the script copies itself.
runtime::CheckResult readBackCheck(const std::string& host, bool nonBlocking = false) {
    return oneBufferCheck("data", R"({"type": "f32", "count": "N", "init": "iota", "pinned": 1, "transfer": "manual"})", host, nonBlocking);
}
// A mapped buffer; `launch` runs a kernel on it (work 0: each element stored unchanged), then `after`.
runtime::CheckResult mappedCheck(const std::string& launch, const std::string& after) {
    return oneBufferCheck("zdata", R"({"type": "f32", "count": "N", "init": "iota", "host": "mapped"})", "[" + launch + after + "]", false);
}
} // namespace

TEST_CASE("host scripts: reading a buffer whose asynchronous copy back nothing waited for fails its check", "[runtime]") {
    const std::string up = R"({"to_device": "data", "stream": 1}, )";
    // No synchronisation after the copy back: the host would read the buffer before the data arrives.
    runtime::CheckResult bad = readBackCheck("[" + up + R"({"to_host": "data", "stream": 1}])");
    CHECK_FALSE(bad.passed);
    INFO(bad.detail);
    CHECK(bad.detail.find("without waiting for its copy back") != std::string::npos);
    CHECK(bad.detail.find("host[1]") != std::string::npos);
    // Synchronising with another stream only, or waiting on the GPU side, does not help either.
    CHECK_FALSE(readBackCheck("[" + up + R"({"to_host": "data", "stream": 1}, {"sync": "stream", "stream": 2}])").passed);
    CHECK_FALSE(readBackCheck("[" + up + R"({"to_host": "data", "stream": 1}, {"record": "e", "stream": 1}, {"wait": "e", "stream": 2}])").passed);
    // An event recorded before the copy covers nothing after it.
    CHECK_FALSE(readBackCheck("[" + up + R"({"record": "e", "stream": 1}, {"to_host": "data", "stream": 1}, {"sync": "event", "event": "e"}])").passed);
    // Each way of waiting for it makes the read safe.
    CHECK(readBackCheck("[" + up + R"({"to_host": "data", "stream": 1}, {"sync": "stream", "stream": 1}])").passed);
    CHECK(readBackCheck("[" + up + R"({"to_host": "data", "stream": 1}, {"sync": "device"}])").passed);
    CHECK(readBackCheck("[" + up + R"({"to_host": "data", "stream": 1}, {"record": "e", "stream": 1}, {"sync": "event", "event": "e"}])").passed);
    CHECK(readBackCheck("[" + up + R"({"to_host": "data", "stream": 1}, {"record": "a", "stream": 1}, {"record": "b", "stream": 1}, {"elapsed": "t", "from": "a", "to": "b"}])").passed);
    // A plain cudaMemcpy waits for it (the legacy default stream waits for blocking streams) ...
    CHECK(readBackCheck("[" + up + R"({"to_host": "data", "stream": 1}, {"to_device": "data", "count": 0}])").passed);
    // ... but not for a non-blocking stream's copy.
    CHECK_FALSE(readBackCheck("[" + up + R"({"to_host": "data", "stream": 1}, {"to_device": "data", "count": 0}])", true).passed);
    // A synchronous copy back needs nothing more.
    CHECK(readBackCheck("[" + up + R"({"to_host": "data"}])").passed);
}

TEST_CASE("host scripts: reading a mapped buffer a kernel writes, without waiting for the kernel, fails its check", "[runtime]") {
    const std::string onStream1 = R"({"launch": "process", "grid": 4, "block": 256, "stream": 1, "args": ["zdata", "N", 0]})";
    const std::string onLegacy = R"({"launch": "process", "grid": 4, "block": 256, "args": ["zdata", "N", 0]})";
    runtime::CheckResult bad = mappedCheck(onStream1, "");
    CHECK_FALSE(bad.passed);
    INFO(bad.detail);
    CHECK(bad.detail.find("without waiting for the kernel that writes it (mapped memory: t: host[0] is asynchronous") != std::string::npos);
    CHECK_FALSE(mappedCheck(onLegacy, "").passed);   // a launch on the legacy stream returns at once too
    CHECK_FALSE(mappedCheck(onStream1, R"(, {"sync": "stream", "stream": 2})").passed);
    CHECK(mappedCheck(onStream1, R"(, {"sync": "stream", "stream": 1})").passed);
    CHECK(mappedCheck(onStream1, R"(, {"sync": "device"})").passed);
    CHECK(mappedCheck(onLegacy, R"(, {"sync": "device"})").passed);
    CHECK(mappedCheck(onStream1, R"(, {"record": "e", "stream": 1}, {"sync": "event", "event": "e"})").passed);
}
