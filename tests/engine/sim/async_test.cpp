// Asynchronous copies, mbarriers and warp reductions: the planted mistakes of
// tests/kernels/async.cu (nvcc 13, sm_90) each give a clear report at the lane and line. (Their
// correct use is checked against the H100 in tests/golden/async-copy and warp-reduce.)
#include "support.hpp"

#include "base/error.hpp"
#include "runtime/lesson.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace warpscope;
using wst::arg;

namespace {
constexpr const char* kAsync = "tests/kernels/async.ptx";

std::optional<Error> runKernel(wst::Sim& sim, const std::string& kernel, uint32_t block, std::vector<runtime::ParamBytes> params) {
    try {
        sim.launch(kernel, 1, block, std::move(params));
    } catch (const Error& e) {
        return e;
    }
    return std::nullopt;
}

bool hasReport(const runtime::SimDevice& dev, const std::string& hazard, const std::string& text, int line) {
    for (auto& r : dev.reports())
        if (r.tool == "racecheck" && r.hazard == hazard && r.message.find(text) != std::string::npos && r.site.sourceLine &&
            *r.site.sourceLine == line)
            return true;
    return false;
}
} // namespace

TEST_CASE("racecheck: reading a cp.async destination before its group is waited for", "[sim][async]") {
    sim::LaunchOptions opt;
    opt.racecheck = true;
    wst::Sim sim(kAsync, opt);
    auto in = sim.upload(std::vector<float>(64, 2.f));
    auto out = sim.upload(std::vector<float>(64, 0.f));
    REQUIRE_FALSE(runKernel(sim, "read_before_wait", 64, {arg(in), arg(out)}));
    CHECK(hasReport(sim.dev, "read before cp.async completes", "not completed", 11));
    // The copy still lands at the wait: the second read sees it, the first one the zeros before.
    for (float v : sim.download<float>(out, 64)) CHECK(v == 2.f);
}

TEST_CASE("racecheck: another warp's copy read after the wait without __syncthreads()", "[sim][async]") {
    sim::LaunchOptions opt;
    opt.racecheck = true;
    wst::Sim sim(kAsync, opt);
    std::vector<float> src(64);
    for (int i = 0; i < 64; ++i) src[size_t(i)] = float(i);
    auto in = sim.upload(src);
    auto out = sim.upload(std::vector<float>(64, 0.f));
    REQUIRE_FALSE(runKernel(sim, "no_barrier_after_wait", 64, {arg(in), arg(out)}));
    CHECK(hasReport(sim.dev, "read-after-write", "no __syncthreads()", 22));
}

TEST_CASE("the golden asynchronous-copy kernels run with no checker report", "[sim][async]") {
    // pipelines, barriers and the double-buffered matmul wait and synchronise correctly: neither
    // the pending-copy check nor the shared-memory racecheck may fire on them.
    for (const char* spec : {"tests/golden/async-copy/spec.json", "tests/golden/warp-reduce/spec.json"}) {
        INFO(spec);
        runtime::Lesson l = runtime::loadLesson(wst::sourcePath(spec));
        sim::LaunchOptions opt;
        opt.racecheck = opt.initcheck = true;
        runtime::SimDevice dev(opt);
        runtime::runLesson(l, runtime::resolveParams(l, {}), dev);
        std::string seen;
        for (auto& r : dev.reports()) seen += "\n" + r.tool + " " + r.hazard + ": " + r.message;
        INFO(seen);
        CHECK(dev.reports().empty());
    }
}

TEST_CASE("a wait for copies that were never committed is a fault at lane and line", "[sim][async]") {
    wst::Sim sim(kAsync);
    auto in = sim.upload(std::vector<float>(64, 1.f));
    auto out = sim.upload(std::vector<float>(64, 0.f));
    auto e = runKernel(sim, "never_committed", 64, {arg(in), arg(out)});
    REQUIRE(e);
    CHECK(e->kind() == Error::Kind::Fault);
    CHECK(std::string(e->what()).find("never committed") != std::string::npos);
    CHECK(e->site().sourceLine == 29);
    CHECK(e->site().lane == 0);
}

TEST_CASE("more arrivals than an mbarrier phase expects is a phase mismatch", "[sim][async]") {
    wst::Sim sim(kAsync);
    auto out = sim.upload(std::vector<float>(64, 0.f));
    auto e = runKernel(sim, "phase_mismatch", 64, {arg(out)});
    REQUIRE(e);
    CHECK(std::string(e->what()).find("Barrier phase mismatch: 3 arrivals") != std::string::npos);
    CHECK(e->site().sourceLine == 42);
    CHECK(e->site().lane == 21);   // 21 threads made 63 arrivals of 64
}

TEST_CASE("an mbarrier nobody initialised is a fault", "[sim][async]") {
    wst::Sim sim(kAsync);
    auto out = sim.upload(std::vector<float>(64, 0.f));
    auto e = runKernel(sim, "uninitialised_mbarrier", 32, {arg(out)});
    REQUIRE(e);
    CHECK(std::string(e->what()).find("no mbarrier was initialised") != std::string::npos);
    CHECK(e->site().sourceLine == 51);
}

TEST_CASE("__reduce_add_sync naming lanes that skip it is a member-mask fault", "[sim][async]") {
    wst::Sim sim(kAsync);
    auto in = sim.upload(std::vector<uint32_t>(32, 1u));
    auto out = sim.upload(std::vector<uint32_t>(32, 0u));
    auto e = runKernel(sim, "reduce_in_branch", 32, {arg(in), arg(out)});
    REQUIRE(e);
    CHECK(std::string(e->what()).find("redux.sync (__reduce_*_sync)") != std::string::npos);
    CHECK(e->site().sourceLine == 58);
}

TEST_CASE("a misaligned cp.async destination is a fault", "[sim][async]") {
    wst::Sim sim(kAsync);
    auto in = sim.upload(std::vector<float>(64, 1.f));
    auto out = sim.upload(std::vector<float>(32, 0.f));
    auto e = runKernel(sim, "misaligned_copy", 32, {arg(in), arg(out)});
    REQUIRE(e);
    CHECK(std::string(e->what()).find("Misaligned cp.async") != std::string::npos);
    CHECK(e->site().sourceLine == 65);
}

TEST_CASE("cooperative launch: grid.sync() works, a grid too large for the preset fails as the hardware does", "[sim][async]") {
    wst::Sim sim("tests/golden/grid-sync/kernel.ptx");
    std::vector<int> in(2048);
    for (int i = 0; i < 2048; ++i) in[size_t(i)] = i % 7 - 3;
    auto pin = sim.upload(in), a = sim.upload(std::vector<int>(2048, 0)), b = sim.upload(std::vector<int>(2048, 0));
    auto total = sim.upload(std::vector<int>(4, 0));
    const std::vector<runtime::ParamBytes> params = {arg(pin), arg(a), arg(b), arg(total)};
    base::LaunchConfig cfg;
    cfg.grid = {16, 1, 1};
    cfg.block = {128, 1, 1};
    cfg.cooperative = true;
    sim.dev.launch("grid_phases", cfg, params);
    auto t = sim.download<int>(total, 4);
    CHECK(t[0] == 1);    // grid.is_valid()
    CHECK(t[1] == 16);
    // Every block saw every other block's phase-one values (b[r] sums a window of 5 of them).
    auto bv = sim.download<int>(b, 2048);
    long long sum = 0;
    for (int r = 0; r < 2048; ++r) {
        int want = 0;
        for (int k = 0; k < 5; ++k) {
            const int j = (r + k * 97) % 2048;
            want += in[size_t(j)] * 3 + j / 128;
        }
        CHECK(bv[size_t(r)] == want);
        sum += want;
    }
    CHECK(t[2] == int(sum));

    // The same kernel launched the ordinary way: grid.sync() traps, and the report says why.
    cfg.cooperative = false;
    try {
        sim.dev.launch("grid_phases", cfg, params);
        FAIL("grid.sync() outside a cooperative launch must fail");
    } catch (const Error& e) {
        CHECK(e.kind() == Error::Kind::Fault);
        CHECK(std::string(e.what()).find("cudaLaunchCooperativeKernel") != std::string::npos);
        CHECK(e.site().sourceLine == 15);
    }

    // 1024-thread blocks: two fit an H100 SM, 264 the device; 300 cannot be co-resident.
    cfg.cooperative = true;
    cfg.block = {1024, 1, 1};
    cfg.grid = {300, 1, 1};
    try {
        sim.dev.launch("grid_phases", cfg, params);
        FAIL("a cooperative grid larger than the device holds must not launch");
    } catch (const Error& e) {
        CHECK(std::string(e.what()).find("cudaErrorCooperativeLaunchTooLarge") != std::string::npos);
        CHECK(std::string(e.what()).find("264") != std::string::npos);
    }
}
