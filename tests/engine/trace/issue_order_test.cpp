// The serial issue order rebuilt from per-warp schedules (trace/issue_order.hpp) is the order a
// serial run issues in, and the counter collector's parallel mode gives the serial numbers, cache
// model included: on every bundled lesson that runs in parallel, a larger vector add, and a kernel
// made to stress the scheduler (uneven warps, named barriers with counts, bar.red, a partial warp
// that exits early, few resident blocks so blocks are admitted mid-run).
#include "support.hpp"

#include "runtime/lesson.hpp"
#include "trace/counters.hpp"
#include "trace/line_stats.hpp"
#include "trace/issue_order.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

using namespace warpscope;
using wst::arg;

namespace {
// Records every Step's (warp, ordinal) and the schedules; forks for parallel runs.
struct OrderRecorder : sim::StepListener {
    explicit OrderRecorder(uint32_t wpb) : log(wpb), wpb_(wpb) {}
    void onStep(const sim::Step& s) override {
        const uint32_t o = log.record(s);
        seq.push_back({s.warp, o});
    }
    std::unique_ptr<sim::StepListener> fork() const override { return std::make_unique<OrderRecorder>(wpb_); }
    void join(sim::StepListener& f) override {
        log.absorb(static_cast<OrderRecorder&>(f).log);
        ++joined;
    }
    trace::ScheduleLog log;
    std::vector<std::pair<uint64_t, uint32_t>> seq;
    int joined = 0;
    uint32_t wpb_;
};

// Visits every instruction; collects the rebuilt order.
struct Everything : trace::OrderVisitor {
    std::vector<std::pair<uint64_t, uint32_t>> seq;
    uint64_t badIndex = 0;
    uint32_t firstMark(uint64_t) override { return 1; }
    uint32_t visit(uint64_t warp, uint32_t ordinal, uint64_t index) override {
        if (index != seq.size()) ++badIndex;
        seq.push_back({warp, ordinal});
        return ordinal + 1;
    }
};

struct LaunchResult {
    std::vector<std::pair<uint64_t, uint32_t>> serialSeq, replayedSerial, replayedParallel;
    std::map<std::string, double> serialMetrics, parallelMetrics;
    std::map<uint32_t, trace::MemCounters> serialLines, parallelLines;
    int joined = 0;
    std::string kernel;
};

// Runs `run(dev)` twice: serially with recorders, then on `threads` threads with forking ones.
template <class Run>
std::vector<LaunchResult> both(sim::LaunchOptions opt, uint32_t threads, Run run) {
    std::vector<LaunchResult> out;
    {
        runtime::SimDevice dev(opt);
        dev.onLaunch = [&](sim::Gpu& g) {
            LaunchResult r;
            r.kernel = g.program().kernelName;
            OrderRecorder rec(g.warpsPerBlock());
            trace::CounterCollector cc;
            cc.setProgram(g.program());   // (shared loads as ptxas merges them, as the parallel run)
            sim::FanOut fan;
            fan.add(&rec);
            fan.add(&cc);
            g.setListener(&fan);
            g.run();
            g.setListener(nullptr);
            r.serialSeq = rec.seq;
            Everything all;
            trace::replaySerialOrder(trace::LaunchShape::of(g), rec.log, &all);
            r.replayedSerial = all.seq;
            CHECK(all.badIndex == 0);
            r.serialMetrics = cc.metrics();
            r.serialLines = cc.byLine();
            out.push_back(std::move(r));
        };
        run(dev);
    }
    size_t i = 0;
    {
        runtime::SimDevice dev(opt);
        dev.onLaunch = [&](sim::Gpu& g) {
            REQUIRE(i < out.size());
            LaunchResult& r = out[i++];
            OrderRecorder rec(g.warpsPerBlock());
            trace::CounterCollector cc;
            cc.enableParallel(trace::LaunchShape::of(g), g.program());
            sim::FanOut fan;
            fan.add(&rec);
            fan.add(&cc);
            g.setListener(&fan);
            INFO(g.serialReason());
            g.runToEnd(threads);
            g.setListener(nullptr);
            r.joined = rec.joined;
            Everything all;
            trace::replaySerialOrder(trace::LaunchShape::of(g), rec.log, &all);
            r.replayedParallel = all.seq;
            r.parallelMetrics = cc.metrics();
            r.parallelLines = cc.byLine();
        };
        run(dev);
    }
    CHECK(i == out.size());
    return out;
}

void checkSame(const LaunchResult& r, bool expectParallel) {
    INFO("kernel " << r.kernel);
    if (expectParallel) CHECK(r.joined >= 2);
    CHECK(r.serialSeq.size() > 0);
    CHECK(r.replayedSerial == r.serialSeq);
    CHECK(r.replayedParallel == r.serialSeq);
    CHECK(r.parallelMetrics == r.serialMetrics);
    REQUIRE(r.parallelLines.size() == r.serialLines.size());
    for (auto& [line, c] : r.serialLines) {
        const trace::MemCounters& p = r.parallelLines.at(line);
        CHECK(p.inst == c.inst);
        CHECK(p.threadInstPredOn == c.threadInstPredOn);
        CHECK(p.globalLdSectors == c.globalLdSectors);
        CHECK(p.globalStSectors == c.globalStSectors);
        CHECK(p.sharedLdConflicts == c.sharedLdConflicts);
        CHECK(p.sharedStWavefronts == c.sharedStWavefronts);
    }
}

std::vector<LaunchResult> lesson(const std::string& id, std::map<std::string, std::string> overrides = {}, uint32_t threads = 3) {
    runtime::Lesson L = runtime::loadLesson(std::filesystem::path(wst::sourcePath("lessons")) / id);
    runtime::ParamValues p = runtime::resolveParams(L, overrides);
    return both({}, threads, [&](runtime::SimDevice& dev) { runtime::runLesson(L, p, dev); });
}

// Uneven warps: (warp + block) % 5 loop trips; warps 0-1 and 2-3 meet at named barriers of 64
// threads, warps 0-3 then at bar.red and bar.sync 0; warp 4 (16 lanes) exits after its loop, so
// the block-wide barriers count only the live warps.
const char* kSchedPtx = R"(.version 7.0
.target sm_75
.address_size 64
.visible .entry sched(.param .u64 out)
{
  .reg .pred %p<5>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  shr.u32 %r3, %r1, 5;
  add.u32 %r4, %r3, %r2;
  rem.u32 %r4, %r4, 5;
  mov.u32 %r5, 0;
LOOP:
  setp.ge.u32 %p1, %r5, %r4;
  @%p1 bra AFTER;
  add.u32 %r5, %r5, 1;
  bra.uni LOOP;
AFTER:
  setp.eq.u32 %p4, %r3, 4;
  @%p4 bra OUT;
  setp.lt.u32 %p2, %r3, 2;
  @%p2 bra PAIR1;
  bar.sync 2, 64;
  bra.uni JOIN;
PAIR1:
  bar.sync 1, 64;
JOIN:
  setp.ne.u32 %p3, %r5, 0;
  bar.red.popc.u32 %r6, 0, %p3;
  bar.sync 0;
  add.u32 %r7, %r5, %r6;
  mad.lo.u32 %r8, %r2, 144, %r1;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r8, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r7;
OUT:
  ret;
}
)";
} // namespace

TEST_CASE("issue order: rebuilt from per-warp schedules on the lessons", "[trace][order]") {
    for (const char* id : {"vector-add", "matmul", "reduction", "stencil-1d", "bank-conflicts", "coalescing", "occupancy-and-latency"}) {
        INFO("lesson " << id);
        auto rs = lesson(id);
        REQUIRE_FALSE(rs.empty());
        for (auto& r : rs) checkSame(r, false);
    }
}

TEST_CASE("issue order: a 1024-block vector add on 2 threads", "[trace][order]") {
    auto rs = lesson("vector-add", {{"N", "262144"}}, 2);
    REQUIRE(rs.size() == 1);
    checkSame(rs[0], true);
    CHECK(rs[0].serialSeq.size() > 100000);
}

TEST_CASE("issue order: uneven warps, named barriers, early exits, few resident blocks", "[trace][order]") {
    for (uint32_t resident : {1u, 3u, 32u}) {
        INFO("resident blocks " << resident);
        sim::LaunchOptions opt;
        opt.maxResidentBlocks = resident;
        auto rs = both(opt, 4, [&](runtime::SimDevice& dev) {
            dev.loadModule(kSchedPtx, "sched.ptx");
            auto out = dev.malloc(37 * 144 * 4, "out");
            runtime::LaunchConfig cfg;
            cfg.grid.x = 37;
            cfg.block.x = 144;
            dev.launch("sched", cfg, {arg(out)});
        });
        REQUIRE(rs.size() == 1);
        checkSame(rs[0], true);
    }
}

TEST_CASE("issue order: barriers with register operands are not rebuilt", "[trace][order]") {
    runtime::SimDevice dev;
    std::string ptx = kSchedPtx;
    ptx.replace(ptx.find("bar.sync 0;"), 11, "bar.sync %r3;");
    dev.loadModule(ptx, "sched.ptx");
    CHECK(trace::issueOrderUnsupported(dev.program("sched")).find("register") != std::string::npos);
    runtime::SimDevice plain;
    plain.loadModule(kSchedPtx, "sched.ptx");
    CHECK(trace::issueOrderUnsupported(plain.program("sched")).empty());
}

// Not run by ctest (hidden tag): wall time of a lesson's launches with the counters (cache model
// included) and per-line statistics attached, serially and on 2, 4, ... threads (up to the cores,
// or WARPSCOPE_BENCH_THREADS), median of 3 (WARPSCOPE_BENCH_REPS); the counters must match. The
// engine half of the app's parallel To end, for machines without the GUI's packages.
// WARPSCOPE_BENCH_LESSON (default vector-add) and WARPSCOPE_BENCH_PARAMS ("N=4194304,...").
TEST_CASE("issue order: timing of counters on every core", "[.order-bench]") {
    auto env = [](const char* k, const char* d) { const char* v = std::getenv(k); return std::string(v ? v : d); };
    const std::string id = env("WARPSCOPE_BENCH_LESSON", "vector-add");
    std::map<std::string, std::string> overrides;
    std::string list = env("WARPSCOPE_BENCH_PARAMS", id == "vector-add" ? "N=262144" : "");
    for (size_t at = 0; at < list.size();) {
        size_t comma = list.find(',', at), eq = list.find('=', at);
        if (comma == std::string::npos) comma = list.size();
        if (eq < comma) overrides[list.substr(at, eq - at)] = list.substr(eq + 1, comma - eq - 1);
        at = comma + 1;
    }
    const uint32_t maxThreads = static_cast<uint32_t>(std::stoul(env("WARPSCOPE_BENCH_THREADS", std::to_string(std::max(2u, std::thread::hardware_concurrency())).c_str())));
    const int reps = std::max(1, std::stoi(env("WARPSCOPE_BENCH_REPS", "3")));
    runtime::Lesson L = runtime::loadLesson(std::filesystem::path(wst::sourcePath("lessons")) / id);
    runtime::ParamValues p = runtime::resolveParams(L, overrides);
    std::vector<std::map<std::string, double>> reference;
    for (uint32_t t = 1; t <= maxThreads; t = t == 1 ? 2 : t * 2) {
        std::vector<double> ms;
        std::vector<std::map<std::string, double>> metrics;
        uint64_t instructions = 0;
        for (int rep = 0; rep < reps; ++rep) {
            runtime::SimDevice dev;
            double total = 0;
            metrics.clear();
            instructions = 0;
            dev.onLaunch = [&](sim::Gpu& g) {
                trace::CounterCollector cc;
                trace::LineStatsCollector ls;
                if (t > 1) cc.enableParallel(trace::LaunchShape::of(g), g.program());
                sim::FanOut fan;
                fan.add(&cc);
                fan.add(&ls);
                g.setListener(&fan);
                auto t0 = std::chrono::steady_clock::now();
                g.runToEnd(t);
                metrics.push_back(cc.metrics());   // the cache replay happens here
                total += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
                g.setListener(nullptr);
                instructions += g.stats().warpInstructions;
            };
            runtime::runLesson(L, p, dev);
            ms.push_back(total);
        }
        std::sort(ms.begin(), ms.end());
        WARN(id << " " << list << ", counters + line stats, " << t << " thread(s): median " << ms[ms.size() / 2] << " ms (min " << ms.front()
                << ", max " << ms.back() << "), " << instructions << " warp-instructions");
        if (reference.empty()) reference = metrics;
        CHECK(metrics == reference);
    }
}
