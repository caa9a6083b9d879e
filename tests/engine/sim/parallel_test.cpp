// Parallel run to the end (Gpu::runToEnd with threads): every lesson and every planted-bug kernel
// gives the same memory, launch statistics, per-line statistics and errors on 4 threads as on one,
// and kernels whose blocks may talk to each other run serially.
#include "support.hpp"

#include "base/error.hpp"
#include "runtime/lesson.hpp"
#include "runtime/sim_device.hpp"
#include "sim/gpu.hpp"
#include "trace/line_stats.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace warpscope;
namespace fs = std::filesystem;

namespace {

struct Outcome {
    std::vector<std::vector<uint8_t>> memory;
    std::vector<uint64_t> stats;   // warp/thread instructions, branches, divergent, barriers, blocks (summed)
    std::map<uint32_t, trace::LineStats> lines;
    std::string error;
    std::vector<std::string> reports;
    std::vector<std::string> serialReasons;
};

// viaSteps: the collector sits behind a FanOut, so it sees every Step (onStep) instead of the
// per-pc sums Gpu::run hands a sums-only listener at the end.
Outcome runOn(const fs::path& spec, uint32_t threads, bool viaSteps = false) {
    trace::LineStatsCollector lines;
    sim::FanOut fan;
    fan.add(&lines);
    Outcome o;
    wst::LessonOutcome r = wst::runLessonSpec(
        spec.string(), false,
        [&](sim::Gpu& g) {
            g.setListener(viaSteps ? static_cast<sim::StepListener*>(&fan) : &lines);
            o.serialReasons.push_back(g.serialReason());
        },
        threads);
    o.memory = std::move(r.memory);
    o.stats = std::move(r.stats);
    o.error = std::move(r.error);
    o.reports = std::move(r.reports);
    o.lines = lines.byLine();
    return o;
}

// Every lesson and every planted-bug case.
std::vector<fs::path> allCases() {
    std::vector<fs::path> specs;
    for (auto& e : fs::directory_iterator(wst::sourcePath("lessons")))
        if (fs::exists(e.path() / "lesson.json")) specs.push_back(e.path());
    for (auto& e : fs::directory_iterator(wst::sourcePath("tests/bugs")))
        if (e.path().extension() == ".json") specs.push_back(e.path());
    return specs;
}

void checkSameLines(const Outcome& want, Outcome& got) {
    REQUIRE(want.lines.size() == got.lines.size());
    for (auto& [line, st] : want.lines) {
        CHECK(got.lines[line].warpInstructions == st.warpInstructions);
        CHECK(got.lines[line].threadInstructions == st.threadInstructions);
        CHECK(got.lines[line].activeLanes == st.activeLanes);
        CHECK(got.lines[line].branches == st.branches);
        CHECK(got.lines[line].divergentBranches == st.divergentBranches);
    }
}

} // namespace

TEST_CASE("a parallel run to the end gives the serial run's results, statistics and faults", "[sim][parallel]") {
    const std::vector<fs::path> specs = allCases();
    int parallel = 0, serial = 0;
    for (auto& p : specs) {
        INFO("case " << p.string());
        // The shares of a run with a sums-only listener pack their register files; those of a run
        // whose listener sees every Step (a FanOut) do not.
        Outcome one = runOn(p, 1), four = runOn(p, 4), fourSteps = runOn(p, 4, true);
        CHECK(one.error == four.error);
        CHECK(one.error == fourSteps.error);
        CHECK(one.reports == four.reports);   // reports that do not stop a launch come from every share
        CHECK(one.reports == fourSteps.reports);
        // Blocks racing on global words (planted race bugs) may leave other winners in parallel.
        if (p.filename().string().find("-race") == std::string::npos) {
            CHECK(one.memory == four.memory);
            CHECK(one.memory == fourSteps.memory);
        }
        CHECK(one.stats == four.stats);
        CHECK(one.stats == fourSteps.stats);
        checkSameLines(one, four);
        checkSameLines(one, fourSteps);
        for (auto& r : four.serialReasons) (r.empty() ? parallel : serial)++;
    }
    CHECK(parallel >= 5);   // most lessons' launches run in parallel
    CHECK(serial >= 2);     // the global-atomic kernels do not
}

TEST_CASE("a parallel run's shares cover the grid in block order, smaller towards the end", "[sim][parallel]") {
    for (uint64_t blocks : {1ull, 2ull, 3ull, 7ull, 100ull, 1024ull, 16384ull, 1000003ull})
        for (uint64_t threads : {1ull, 2ull, 3ull, 16ull, 64ull}) {
            INFO(blocks << " blocks, " << threads << " threads");
            const std::vector<uint64_t> b = sim::Gpu::shareBounds(blocks, threads);
            REQUIRE(b.size() >= 2);
            CHECK(b.front() == 0);
            CHECK(b.back() == blocks);
            for (size_t i = 1; i < b.size(); ++i) {
                REQUIRE(b[i] > b[i - 1]);   // no empty share
                if (i >= 2) CHECK(b[i] - b[i - 1] <= b[i - 1] - b[i - 2]);   // never larger than the one before
            }
            // The first share leaves the other threads most of the grid; the last is small, so
            // threads finishing at different times wait little; and there are not many shares.
            CHECK(b[1] <= std::max<uint64_t>(1, std::max(blocks / (2 * threads), blocks / (32 * threads))));
            CHECK(b.back() - b[b.size() - 2] <= std::max<uint64_t>(1, blocks / (32 * threads)));
            CHECK(b.size() - 1 <= std::min<uint64_t>(blocks, 8 * threads + 32 * threads));
        }
    // Two threads, 16384 blocks (vector add at 2^22): a quarter of the grid first, 1/64 last.
    const std::vector<uint64_t> v = sim::Gpu::shareBounds(16384, 2);
    CHECK(v[1] == 4096);
    CHECK(v.back() - v[v.size() - 2] <= 256);
}

TEST_CASE("kernels whose blocks may communicate run serially", "[sim][parallel]") {
    Outcome o = runOn(wst::sourcePath("tests/bugs/last-block-sum-ok.json"), 4);
    REQUIRE_FALSE(o.serialReasons.empty());
    CHECK(o.serialReasons[0].find("(blocks may communicate)") != std::string::npos);   // a fence and a global atomic
    CHECK(o.error.empty());
    Outcome m = runOn(wst::sourcePath("lessons/matmul"), 4);
    INFO("error: " << m.error);
    REQUIRE_FALSE(m.serialReasons.empty());
    CHECK(m.serialReasons[0].empty());
}

TEST_CASE("per-line statistics summed by pc in a run equal the ones summed from every Step", "[sim][parallel]") {
    for (auto& p : allCases()) {
        INFO("case " << p.string());
        Outcome sums = runOn(p, 1), steps = runOn(p, 1, true);
        CHECK(sums.error == steps.error);
        CHECK(sums.memory == steps.memory);
        CHECK(sums.stats == steps.stats);
        checkSameLines(steps, sums);
    }
}

namespace {
// bump(data, n, stride, badBlock, keep): thread i adds 1 to data[(i * stride) % n] in place if its
// lane is below `keep` (31: every warp stores with a lane off), then thread 0 of block badBlock
// stores 4 GiB past data (a fault). STORE is the store instruction under test.
constexpr const char* kBumpPtx = R"(
.version 7.5
.target sm_75
.address_size 64

.visible .entry bump(
	.param .u64 bump_param_0,
	.param .u32 bump_param_1,
	.param .u32 bump_param_2,
	.param .u32 bump_param_3,
	.param .u32 bump_param_4
)
{
	.reg .pred 	%p<5>;
	.reg .b32 	%r<12>;
	.reg .b64 	%rd<8>;

	ld.param.u64 	%rd1, [bump_param_0];
	ld.param.u32 	%r1, [bump_param_1];
	ld.param.u32 	%r2, [bump_param_2];
	ld.param.u32 	%r3, [bump_param_3];
	ld.param.u32 	%r11, [bump_param_4];
	mov.u32 	%r4, %ctaid.x;
	mov.u32 	%r5, %ntid.x;
	mov.u32 	%r6, %tid.x;
	mad.lo.s32 	%r7, %r4, %r5, %r6;
	setp.ge.u32 	%p1, %r7, %r1;
	@%p1 bra 	$L__end;
	mul.wide.u32 	%rd2, %r7, %r2;
	cvt.u64.u32 	%rd3, %r1;
	rem.u64 	%rd4, %rd2, %rd3;
	shl.b64 	%rd5, %rd4, 2;
	add.s64 	%rd6, %rd1, %rd5;
	ld.global.u32 	%r8, [%rd6];
	add.s32 	%r9, %r8, 1;
	and.b32 	%r10, %r6, 31;
	setp.lt.u32 	%p4, %r10, %r11;
	@%p4 STORE 	[%rd6], %r9;
	setp.eq.u32 	%p2, %r4, %r3;
	setp.eq.u32 	%p3, %r6, 0;
	and.pred 	%p2, %p2, %p3;
	@!%p2 bra 	$L__end;
	add.s64 	%rd7, %rd1, 4294967296;
	STORE 	[%rd7], %r9;
$L__end:
	ret;
}
)";

struct BumpRun {
    std::vector<uint32_t> data;
    std::string error;
    std::string serialReason = "(no launch)";
};

BumpRun runBump(const std::string& store, uint32_t threads, uint32_t stride, uint32_t badBlock, bool viaSteps,
                uint32_t keep = 32, uint64_t budget = 500'000'000) {
    constexpr uint32_t kN = 300'007, kBlock = 128;   // 1.2 MB: 19 chunks of the journal, the last partial
    std::string ptx = kBumpPtx;
    for (size_t at; (at = ptx.find("STORE")) != std::string::npos;) ptx.replace(at, 5, store);
    sim::LaunchOptions opt;
    opt.threads = threads;
    opt.instructionBudget = budget;
    runtime::SimDevice dev(opt);
    dev.loadModule(ptx, "bump.ptx");
    std::vector<uint32_t> host(kN);
    for (uint32_t i = 0; i < kN; ++i) host[i] = i * 3u;
    runtime::DevPtr p = dev.malloc(kN * 4, "data");
    dev.memcpyHtoD(p, host.data(), kN * 4);
    trace::LineStatsCollector lines;
    sim::FanOut fan;   // a listener that takes every Step: stores go through the general interpreter
    fan.add(&lines);
    BumpRun r;
    dev.onLaunch = [&](sim::Gpu& g) {
        if (viaSteps) g.setListener(&fan);
        r.serialReason = g.serialReason();
    };
    runtime::LaunchConfig cfg;
    cfg.block.x = kBlock;
    cfg.grid.x = (kN + kBlock - 1) / kBlock;
    try {
        dev.launch("bump", cfg, {wst::arg(p), wst::arg(kN), wst::arg(stride), wst::arg(badBlock), wst::arg(keep)});
    } catch (const Error& e) {
        r.error = e.what();
    }
    r.data.resize(kN);
    dev.memcpyDtoH(r.data.data(), p, kN * 4);
    return r;
}

// "" when equal, else the number of differing words and the first one (a 300'000-word vector
// expanded by CHECK would take minutes to print).
std::string differences(const std::vector<uint32_t>& want, const std::vector<uint32_t>& got) {
    if (want.size() != got.size()) return "sizes " + std::to_string(want.size()) + " and " + std::to_string(got.size());
    size_t n = 0, first = 0;
    for (size_t i = 0; i < want.size(); ++i)
        if (want[i] != got[i] && n++ == 0) first = i;
    if (n == 0) return "";
    return std::to_string(n) + " words differ, the first at " + std::to_string(first) + ": " + std::to_string(want[first]) +
           " serially, " + std::to_string(got[first]) + " in parallel";
}
} // namespace

TEST_CASE("a share that faults after other shares wrote leaves memory exactly as the serial run", "[sim][parallel]") {
    // The later shares write their blocks' words in place (data[j] += 1) while the first share
    // faults in block 0: the parallel run must undo every one of those writes before the serial
    // re-run, or words would be bumped twice or bumped by blocks the serial run never reaches.
    struct Path {
        const char* store;
        uint32_t stride;
        bool viaSteps;
        uint32_t keep;
        const char* what;
    };
    const Path paths[] = {
        {"st.global.u32", 1, false, 32, "pre-decoded store (whole warps)"},
        {"st.global.u32", 1, true, 32, "interpreter, one region per warp"},
        {"st.global.u32", 40'009, false, 32, "pre-decoded store scattered over the allocation"},
        {"st.global.u32", 1, false, 31, "interpreter lane by lane (a lane of every warp off)"},
        {"st.u32", 1, false, 32, "generic addresses (resolve per lane)"},
    };
    constexpr uint32_t kNoFault = ~0u, kLastBlock = (300'007 + 127) / 128 - 1;
    for (const Path& path : paths) {
        for (uint32_t bad : {0u, kLastBlock, kNoFault}) {
            INFO(path.what << ", faulting block " << bad);
            const BumpRun one = runBump(path.store, 1, path.stride, bad, path.viaSteps, path.keep);
            for (uint32_t threads : {2u, 3u}) {
                INFO(threads << " threads");
                const BumpRun many = runBump(path.store, threads, path.stride, bad, path.viaSteps, path.keep);
                CHECK(many.serialReason.empty());   // it did run in parallel shares
                CHECK(many.error == one.error);
                CHECK(differences(one.data, many.data) == "");
            }
            if (bad == kNoFault) {
                CHECK(one.error.empty());
                bool allOnce = true;   // the stride is coprime to n: every word bumped once
                for (uint32_t i = 0; i < one.data.size(); ++i)
                    allOnce = allOnce && one.data[i] == i * 3u + (path.keep == 32 || i % 32 != 31 ? 1 : 0);
                CHECK(allOnce);
            } else {
                CHECK(one.error.find("Out-of-bounds store") != std::string::npos);
            }
        }
    }
}

TEST_CASE("a parallel run over the instruction budget restores memory and reports the serial run's error", "[sim][parallel]") {
    // 2345 blocks of 4 warps, about 23 warp-instructions each: each of 2 shares stays under a budget
    // of 150'000, their sum does not, so the launch is undone and run serially to the budget.
    const BumpRun one = runBump("st.global.u32", 1, 1, ~0u, false, 32, 150'000);
    const BumpRun two = runBump("st.global.u32", 2, 1, ~0u, false, 32, 150'000);
    REQUIRE(one.error.find("budget") != std::string::npos);
    CHECK(two.serialReason.empty());
    CHECK(two.error == one.error);
    CHECK(differences(one.data, two.data) == "");
}
