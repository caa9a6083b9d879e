// The streams-overlap lesson's claims (lessons/streams-overlap/steps.md), checked on the
// simulated timeline: the numbers the text quotes, to 5 %, and the orderings it states.
#include "support.hpp"

#include "runtime/lesson.hpp"
#include "timing/gpu_spec.hpp"

#include <algorithm>

#include <catch2/catch.hpp>

using namespace warpscope;

namespace {
runtime::Timeline timelineOf(const std::map<std::string, std::string>& params, const std::string& gpu = "h100") {
    runtime::Lesson l = runtime::loadLesson(wst::sourcePath("lessons/streams-overlap"));
    runtime::SimDevice dev;
    dev.enableTimeline(timing::findPreset(gpu, {}));
    auto r = runtime::runLesson(l, runtime::resolveParams(l, params), dev);
    for (auto& c : r.checks) {
        INFO(c.buffer << ": " << c.detail);
        CHECK(c.passed);
    }
    return r.timeline;
}
bool twoOpsOverlap(const runtime::Timeline& t) {
    std::vector<const runtime::TimelineOp*> dev;
    for (auto& op : t.ops)
        if (op.engine != runtime::TimelineEngine::Host && op.kind != runtime::TimelineKind::EventRecord) dev.push_back(&op);
    for (size_t i = 0; i < dev.size(); ++i)
        for (size_t j = i + 1; j < dev.size(); ++j)
            if (std::min(dev[i]->endUs, dev[j]->endUs) - std::max(dev[i]->startUs, dev[j]->startUs) > 0.01) return true;
    return false;
}
} // namespace

TEST_CASE("streams-overlap: one stream in a row, four streams pipelined, eight too many", "[lessons]") {
    auto one = timelineOf({{"STREAMS", "1"}});
    auto four = timelineOf({{"STREAMS", "4"}});
    auto eight = timelineOf({{"STREAMS", "8"}});
    CHECK(one.totalUs() == Approx(177).epsilon(0.05));
    CHECK(four.totalUs() == Approx(150).epsilon(0.05));
    CHECK(eight.totalUs() == Approx(170).epsilon(0.05));
    CHECK_FALSE(twoOpsOverlap(one));
    CHECK(one.totalUs() / four.totalUs() > 1.1);       // "about 15 % less"
    CHECK(one.totalUs() / four.totalUs() < 1.3);       // and far from 4 times
    CHECK(eight.totalUs() > four.totalUs());
    // The two copy engines work at the same time in the pipeline.
    double both = four.busyUs(runtime::TimelineEngine::CopyHtoD) + four.busyUs(runtime::TimelineEngine::CopyDtoH);
    CHECK(both > four.deviceEndUs());
}

TEST_CASE("streams-overlap: pageable memory overlaps nothing and is about five times slower", "[lessons]") {
    auto pinned = timelineOf({{"STREAMS", "4"}});
    auto pageable = timelineOf({{"STREAMS", "4"}, {"PINNED", "0"}});
    CHECK(pageable.totalUs() == Approx(1260).epsilon(0.05));
    CHECK(pageable.overlapUs() == Approx(0));
    CHECK_FALSE(twoOpsOverlap(pageable));
    CHECK(pageable.totalUs() / pinned.totalUs() > 4.5);
    // "every copy is five to six times slower than its pinned twin; a copy back pays the most"
    auto copyUs = [](const runtime::Timeline& t, runtime::TimelineKind k) {
        for (auto& op : t.ops)
            if (op.kind == k) return op.endUs - op.startUs;
        return 0.0;
    };
    for (auto k : {runtime::TimelineKind::CopyHtoD, runtime::TimelineKind::CopyDtoH}) {
        double ratio = copyUs(pageable, k) / copyUs(pinned, k);
        CHECK(ratio > 4.5);
        CHECK(ratio < 7);
    }
    CHECK(copyUs(pageable, runtime::TimelineKind::CopyDtoH) > copyUs(pageable, runtime::TimelineKind::CopyHtoD));
}

TEST_CASE("streams-overlap: four chunks on the legacy default stream are slower than one", "[lessons]") {
    auto one = timelineOf({{"STREAMS", "1"}});
    auto legacy = timelineOf({{"STREAMS", "4"}, {"LEGACY", "1"}});
    CHECK(legacy.totalUs() == Approx(231).epsilon(0.05));
    CHECK_FALSE(twoOpsOverlap(legacy));
    CHECK(legacy.totalUs() > one.totalUs());
}

TEST_CASE("streams-overlap: with one copy engine the issue order decides", "[lessons]") {
    std::map<std::string, std::string> p = {{"N", "65536"}, {"WORK", "64"}};
    auto with = [&](const char* streams, const char* order) {
        auto q = p;
        q["STREAMS"] = streams;
        q["ORDER"] = order;
        return timelineOf(q, "teaching").totalUs();
    };
    double one = with("1", "0"), depth = with("4", "0"), breadth = with("4", "1");
    CHECK(one == Approx(209).epsilon(0.05));
    CHECK(depth == Approx(242).epsilon(0.05));
    CHECK(breadth == Approx(166).epsilon(0.05));
    CHECK(depth > one);
    CHECK(breadth < one);
    // With a copy engine per direction (H100) the two orders come out the same (within 1 %).
    double h0 = timelineOf({{"STREAMS", "4"}, {"ORDER", "0"}}).totalUs(), h1 = timelineOf({{"STREAMS", "4"}, {"ORDER", "1"}}).totalUs();
    CHECK(std::abs(h0 - h1) / h0 < 0.01);
}

TEST_CASE("streams-overlap: a graph of 100 tiny kernels beats 100 launches by 1.4 times", "[lessons]") {
    auto launches = timelineOf({{"MODE", "1"}});
    auto graph = timelineOf({{"MODE", "2"}});
    CHECK(launches.totalUs() == Approx(407).epsilon(0.05));
    CHECK(graph.totalUs() == Approx(284).epsilon(0.05));
    CHECK(launches.totalUs() / graph.totalUs() > 1.3);
    // One host call for the whole graph.
    size_t graphCalls = 0, launchCalls = 0;
    for (auto& op : graph.ops) graphCalls += op.kind == runtime::TimelineKind::HostCall;
    for (auto& op : launches.ops) launchCalls += op.kind == runtime::TimelineKind::HostCall && op.label.rfind("cudaLaunchKernel", 0) == 0;
    CHECK(launchCalls == 100);
    CHECK(graphCalls <= 3);   // the graph launch and the final synchronisation
}

// ---- The Programming Guide's remaining topics (modes 3 to 6; docs/guide-topics.md).
namespace {
struct Run {
    runtime::Timeline timeline;
    timing::TimingResult lastTiming;   // the cycle model's view of the last kernel
};
Run runOf(const std::map<std::string, std::string>& params, const std::string& gpu = "h100") {
    runtime::Lesson l = runtime::loadLesson(wst::sourcePath("lessons/streams-overlap"));
    runtime::SimDevice dev;
    dev.enableTimeline(timing::findPreset(gpu, {}));
    auto r = runtime::runLesson(l, runtime::resolveParams(l, params), dev);
    for (auto& c : r.checks) {
        INFO(c.buffer << ": " << c.detail);
        CHECK(c.passed);
    }
    return {r.timeline, dev.lastTiming()};
}
std::vector<const runtime::TimelineOp*> opsOf(const runtime::Timeline& t, runtime::TimelineKind k) {
    std::vector<const runtime::TimelineOp*> v;
    for (auto& op : t.ops)
        if (op.kind == k) v.push_back(&op);
    return v;
}
} // namespace

TEST_CASE("streams-overlap: a host function holds its stream's copy back and costs tens of microseconds", "[lessons]") {
    const double latency = timing::findPreset("h100", {}).hostFuncLatencyUs;
    auto plain = timelineOf({{"STREAMS", "4"}});
    auto withFn = runOf({{"MODE", "3"}, {"STREAMS", "4"}}).timeline;
    auto fns = opsOf(withFn, runtime::TimelineKind::HostFunc);
    REQUIRE(fns.size() == 4);
    auto kernels = opsOf(withFn, runtime::TimelineKind::Kernel);
    auto outs = opsOf(withFn, runtime::TimelineKind::CopyDtoH);
    REQUIRE(kernels.size() == 4);
    REQUIRE(outs.size() == 4);
    for (size_t i = 0; i < 4; ++i) {
        INFO("chunk " << i);
        CHECK(fns[i]->stream == kernels[i]->stream);
        CHECK(fns[i]->startUs >= kernels[i]->endUs + latency - 1e-6);   // after its stream's kernel and the wake-up
        CHECK(fns[i]->durationUs() == Approx(10));                       // CALLBACK_US
        CHECK(outs[i]->startUs >= fns[i]->endUs - 1e-6);                 // the copy back waits for it
        if (i > 0) CHECK(fns[i]->startUs >= fns[i - 1]->endUs - 1e-6);  // one driver thread: one at a time
    }
    CHECK(withFn.totalUs() - plain.totalUs() > latency);
    CHECK(withFn.totalUs() == Approx(206).epsilon(0.05));
}

TEST_CASE("streams-overlap: a high-priority stream's kernel overtakes a long kernel's remaining waves", "[lessons]") {
    std::map<std::string, std::string> p = {{"MODE", "4"}, {"N", "65536"}, {"WORK", "64"}};
    auto with = [&](const char* prio) {
        auto q = p;
        q["PRIORITY"] = prio;
        auto t = runOf(q, "teaching").timeline;
        auto k = opsOf(t, runtime::TimelineKind::Kernel);
        REQUIRE(k.size() == 2);
        return std::make_pair(*k[0], *k[1]);   // the long kernel (stream 1), the urgent one (stream 2)
    };
    auto [longEq, urgentEq] = with("0");
    auto [longHi, urgentHi] = with("-5");
    CHECK(urgentEq.startUs >= longEq.endUs - 1e-6);          // equal priority: it waits for the whole long kernel
    CHECK(urgentHi.endUs < longHi.endUs);                    // higher priority: it ends first
    CHECK(urgentHi.endUs < urgentEq.endUs / 2);
    CHECK(longHi.yieldedUs == Approx(urgentHi.durationUs()).epsilon(0.01));   // the long kernel ends that much later
    CHECK(longHi.endUs == Approx(longEq.endUs + urgentHi.durationUs()).epsilon(0.01));
    CHECK(urgentEq.endUs == Approx(144).epsilon(0.05));
    CHECK(urgentHi.endUs == Approx(20).epsilon(0.05));
}

TEST_CASE("streams-overlap: mapped host memory needs no copies; the kernel is longer but the program shorter", "[lessons]") {
    auto copies = runOf({{"STREAMS", "1"}}).timeline;
    auto mapped = runOf({{"MODE", "5"}}).timeline;
    CHECK(opsOf(mapped, runtime::TimelineKind::CopyHtoD).empty());
    CHECK(opsOf(mapped, runtime::TimelineKind::CopyDtoH).empty());
    auto k = opsOf(mapped, runtime::TimelineKind::Kernel), k0 = opsOf(copies, runtime::TimelineKind::Kernel);
    REQUIRE(k.size() == 1);
    REQUIRE(k0.size() == 1);
    INFO("mapped kernel " << k[0]->durationUs() << " us, device-memory kernel " << k0[0]->durationUs() << " us, totals " << mapped.totalUs()
                          << " and " << copies.totalUs() << " us");
    CHECK(k[0]->mapped);
    CHECK_FALSE(k0[0]->mapped);
    CHECK(k[0]->durationUs() > 10 * k0[0]->durationUs());   // 4 MiB each way over PCIe instead of HBM
    CHECK(k[0]->durationUs() == Approx(87).epsilon(0.05));
    CHECK(mapped.totalUs() < copies.totalUs());             // reads and writes overlap each other and the work
    CHECK(mapped.totalUs() == Approx(97).epsilon(0.05));
}

TEST_CASE("streams-overlap: a persisting L2 window keeps the re-read table: hit rate up, time down", "[lessons]") {
    auto off = runOf({{"MODE", "6"}, {"WINDOW", "0"}}, "teaching");
    auto on = runOf({{"MODE", "6"}, {"WINDOW", "1"}}, "teaching");
    auto rate = [](const Run& r) { return double(r.lastTiming.l2Hits) / double(std::max<uint64_t>(r.lastTiming.l2Lookups, 1)); };
    auto kernelUs = [](const Run& r) { return opsOf(r.timeline, runtime::TimelineKind::Kernel).at(0)->durationUs(); };
    INFO("hit rate " << rate(off) << " -> " << rate(on) << ", kernel " << kernelUs(off) << " -> " << kernelUs(on) << " us");
    CHECK(rate(off) < 0.02);             // LRU: the stream evicts the table before it is read again
    CHECK(rate(on) > rate(off) + 0.03);  // the table's second reads hit
    CHECK(rate(on) == Approx(0.125).epsilon(0.1));
    CHECK(kernelUs(on) < kernelUs(off));
    CHECK(kernelUs(off) == Approx(343).epsilon(0.05));
    CHECK(kernelUs(on) == Approx(323).epsilon(0.05));
    // Without a set-aside a persisting window keeps nothing, as on the GPU.
    auto none = runOf({{"MODE", "6"}, {"WINDOW", "1"}, {"SET_ASIDE", "0"}}, "teaching");
    CHECK(none.lastTiming.l2Hits == off.lastTiming.l2Hits);
}
