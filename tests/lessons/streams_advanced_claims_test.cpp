// The streams-advanced lesson's claims (lessons/streams-advanced/steps.md), checked on the
// simulated timeline and the cycle model: host functions, stream priorities, mapped (zero-copy)
// memory and an L2 access policy window (docs/guide-topics.md).
#include "support.hpp"

#include "runtime/lesson.hpp"
#include "timing/gpu_spec.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace warpscope;

namespace {
struct Run {
    runtime::Timeline timeline;
    timing::TimingResult lastTiming;   // the cycle model's view of the last kernel
};
Run runOf(const std::map<std::string, std::string>& params, const std::string& gpu = "h100") {
    runtime::Lesson l = runtime::loadLesson(wst::sourcePath("lessons/streams-advanced"));
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

TEST_CASE("streams-advanced: a host function holds its stream's copy back and costs tens of microseconds", "[lessons]") {
    const double latency = timing::findPreset("h100", {}).hostFuncLatencyUs;
    auto plain = runOf({{"MODE", "0"}, {"STREAMS", "4"}}).timeline;
    auto withFn = runOf({{"MODE", "1"}, {"STREAMS", "4"}}).timeline;
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
    CHECK(withFn.totalUs() == Approx(195).epsilon(0.05));
}

TEST_CASE("streams-advanced: a high-priority stream's kernel overtakes a long kernel's remaining waves", "[lessons]") {
    std::map<std::string, std::string> p = {{"MODE", "2"}, {"N", "65536"}, {"WORK", "64"}};
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

TEST_CASE("streams-advanced: mapped host memory needs no copies; the kernel is longer but the program shorter", "[lessons]") {
    auto copies = runOf({{"MODE", "0"}, {"STREAMS", "1"}}).timeline;
    auto mapped = runOf({{"MODE", "3"}}).timeline;
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

TEST_CASE("streams-advanced: a persisting L2 window keeps the re-read table: hit rate up, time down", "[lessons]") {
    auto off = runOf({{"MODE", "4"}, {"WINDOW", "0"}}, "teaching");
    auto on = runOf({{"MODE", "4"}, {"WINDOW", "1"}}, "teaching");
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
    auto none = runOf({{"MODE", "4"}, {"WINDOW", "1"}, {"SET_ASIDE", "0"}}, "teaching");
    CHECK(none.lastTiming.l2Hits == off.lastTiming.l2Hits);
}
