// grid.sync() of warpscope's <cooperative_groups.h> (the simulator's grid barrier, Instr::gridSync)
// compiled by clang, run to the end on 1, 2 and 4 threads (Gpu::runCooperative): the same memory,
// launch statistics and errors; a kernel with a global atomic between its grid syncs stays serial;
// a fault after a grid sync and a block that never reaches one are reported as the serial run does.
#include "support.hpp"

#include "base/error.hpp"
#include "compile/compile.hpp"
#include "runtime/sim_device.hpp"
#include "sim/gpu.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

using namespace warpscope;

namespace {

// Three phases over a 3-word-per-thread state: each reads words other blocks wrote before the
// last grid sync, with float arithmetic, a data-dependent branch and a block barrier in between.
// `bad` >= 0: that block writes far out of bounds after the second grid sync. `early` >= 0: that
// block returns before the second grid sync (the others then wait forever). phases_atomic: phase
// 2 also counts into total[1] with a global atomicAdd. (clang contracts a * b + c into fma.)
const char* kSource = R"(#include <cooperative_groups.h>
namespace cg = cooperative_groups;

template <bool atomics> __device__ void body(const float* in, float* a, float* b, unsigned* total, int n, int bad, int early) {
    cg::grid_group grid = cg::this_grid();
    __shared__ float tile[128];
    const int r = (int)grid.thread_rank();
    float v = in[r] * 1.5f + 0.25f;
    if (((int)v) & 1) v = v * v - 3.0f;
    a[r] = v;
    grid.sync();
    tile[threadIdx.x] = a[(r + 517) % n] + a[(r * 7 + 3) % n];
    __syncthreads();
    b[r] = tile[(threadIdx.x + 1) % blockDim.x] * 0.5f - tile[threadIdx.x];
    if (atomics && b[r] > 0.0f) atomicAdd(&total[1], 1u);
    if ((int)blockIdx.x == early) return;
    grid.sync();
    if ((int)blockIdx.x == bad && threadIdx.x == 5) a[n * 4096] = 1.0f;
    a[r] = b[(r + 901) % n] + b[(n - 1 - r)];
    grid.sync();
    if (r == 0) {
        float s = 0.0f;
        for (int i = 0; i < n; i += 37) s += a[i];
        total[0] = __float_as_uint(s);
        total[2] = (unsigned)grid.num_blocks();
    }
}
extern "C" __global__ void phases(const float* in, float* a, float* b, unsigned* total, int n, int bad, int early) {
    body<false>(in, a, b, total, n, bad, early);
}
extern "C" __global__ void phases_atomic(const float* in, float* a, float* b, unsigned* total, int n, int bad, int early) {
    body<true>(in, a, b, total, n, bad, early);
}
)";

const std::string& phasesPtx() {
    static const std::string text = [] {
        compile::Options o;
        o.compiler = compile::Compiler::Clang;
        o.arch = "sm_86";
        compile::Result r = compile::compile(kSource, "phases.cu", o);
        INFO(r.error << "\n" << r.log);
        REQUIRE(r.ok);
        return r.ptx;
    }();
    return text;
}

bool haveClang() {
    for (auto& a : compile::available())
        if (a.compiler == compile::Compiler::Clang) return true;
    return false;
}

struct Run {
    std::vector<float> a, b;
    std::vector<uint32_t> total;
    std::vector<uint64_t> stats;
    std::string serialReason, error;
};

constexpr int kBlocks = 24, kThreads = 128, kN = kBlocks * kThreads;

Run runPhases(uint32_t threads, int bad = -1, int early = -1, bool atomics = false, uint64_t budget = 500'000'000) {
    sim::LaunchOptions opt;
    opt.threads = threads;
    opt.instructionBudget = budget;
    runtime::SimDevice dev(opt);
    dev.loadModule(phasesPtx(), "phases.ptx");
    std::vector<float> in(kN);
    for (int i = 0; i < kN; ++i) in[i] = static_cast<float>((i * 2654435761u) % 1000u) / 37.0f - 11.0f;
    runtime::DevPtr pin = dev.malloc(kN * 4, "in"), pa = dev.malloc(kN * 4, "a"), pb = dev.malloc(kN * 4, "b"),
                    pt = dev.malloc(16, "total");
    dev.memcpyHtoD(pin, in.data(), kN * 4);
    std::vector<uint8_t> zeros(kN * 4, 0);
    dev.memcpyHtoD(pa, zeros.data(), kN * 4);
    dev.memcpyHtoD(pb, zeros.data(), kN * 4);
    dev.memcpyHtoD(pt, zeros.data(), 16);
    Run r;
    dev.onLaunch = [&](sim::Gpu& g) { r.serialReason = g.serialReason(); };
    runtime::LaunchConfig cfg;
    cfg.grid.x = kBlocks;
    cfg.block.x = kThreads;
    cfg.cooperative = true;
    try {
        dev.launch(atomics ? "phases_atomic" : "phases", cfg,
                   {wst::arg(pin), wst::arg(pa), wst::arg(pb), wst::arg(pt), wst::arg(kN), wst::arg(bad), wst::arg(early)});
    } catch (const Error& e) {
        r.error = e.what();
    }
    const sim::LaunchStats& s = dev.lastStats();
    r.stats = {s.warpInstructions, s.threadInstructions, s.branches, s.divergentBranches, s.barriers, s.blocksCompleted};
    r.a.resize(kN);
    r.b.resize(kN);
    r.total.resize(4);
    dev.memcpyDtoH(r.a.data(), pa, kN * 4);
    dev.memcpyDtoH(r.b.data(), pb, kN * 4);
    dev.memcpyDtoH(r.total.data(), pt, 16);
    return r;
}

void checkSame(const Run& one, const Run& many) {
    CHECK(many.error == one.error);
    CHECK(many.stats == one.stats);
    CHECK(many.total == one.total);
    CHECK(std::memcmp(many.a.data(), one.a.data(), kN * 4) == 0);
    CHECK(std::memcmp(many.b.data(), one.b.data(), kN * 4) == 0);
}

} // namespace

TEST_CASE("grid.sync(): a cooperative launch's phases on 2 and 4 threads give the serial run's memory and statistics",
          "[sim][parallel][grid]") {
    if (!haveClang()) {
        WARN("clang not installed: skipped");
        return;
    }
    CHECK(phasesPtx().find("__warpscope_grid_sync") != std::string::npos);
    // The grid barrier is no atomic (so runToEnd may share the blocks): phases has none.
    const std::string& text = phasesPtx();
    const size_t plain = text.find(".entry phases("), atomic = text.find(".entry phases_atomic(");
    REQUIRE(plain != std::string::npos);
    REQUIRE(atomic != std::string::npos);
    const std::string plainText = plain < atomic ? text.substr(plain, atomic - plain) : text.substr(plain);
    CHECK(plainText.find("atom.") == std::string::npos);
    CHECK(plainText.find("__warpscope_grid_sync") != std::string::npos);
    const Run one = runPhases(1);
    REQUIRE(one.error.empty());
    CHECK(one.serialReason.empty());
    // What the phases compute, on the host.
    std::vector<float> in(kN), a(kN), b(kN);
    for (int i = 0; i < kN; ++i) in[i] = static_cast<float>((i * 2654435761u) % 1000u) / 37.0f - 11.0f;
    for (int r = 0; r < kN; ++r) {
        float v = std::fma(in[r], 1.5f, 0.25f);
        if (static_cast<int>(v) & 1) v = std::fma(v, v, -3.0f);
        a[r] = v;
    }
    std::vector<float> tile(kN);
    for (int r = 0; r < kN; ++r) tile[r] = a[(r + 517) % kN] + a[(r * 7 + 3) % kN];
    for (int r = 0; r < kN; ++r) {
        const int base = r / kThreads * kThreads, t = r % kThreads;
        b[r] = std::fma(tile[base + (t + 1) % kThreads], 0.5f, -tile[r]);
    }
    std::vector<float> a2(kN);
    for (int r = 0; r < kN; ++r) a2[r] = b[(r + 901) % kN] + b[kN - 1 - r];
    CHECK(std::memcmp(one.b.data(), b.data(), kN * 4) == 0);
    CHECK(std::memcmp(one.a.data(), a2.data(), kN * 4) == 0);
    CHECK(one.total[2] == kBlocks);
    CHECK(one.stats[5] == kBlocks);
    for (uint32_t threads : {2u, 4u}) {
        INFO(threads << " threads");
        checkSame(one, runPhases(threads));
    }
}

TEST_CASE("grid.sync(): a global atomic between grid syncs keeps the launch on one thread", "[sim][parallel][grid]") {
    if (!haveClang()) return;
    // The atomic is communication between blocks that the grid barrier does not order (the blocks
    // of one phase would race for total[1]: its value is the same, but not every kernel's is).
    const Run one = runPhases(1, -1, -1, true);
    const Run four = runPhases(4, -1, -1, true);
    CHECK(four.serialReason.find("global atomics") != std::string::npos);
    REQUIRE(one.error.empty());
    CHECK(one.total[1] > 0);
    checkSame(one, four);
}

TEST_CASE("grid.sync(): a fault after a grid sync, a block that never reaches one and the budget are reported as serially",
          "[sim][parallel][grid]") {
    if (!haveClang()) return;
    for (int bad : {0, 13, kBlocks - 1}) {
        INFO("block " << bad << " stores out of bounds after the second grid sync");
        const Run one = runPhases(1, bad);
        CHECK(one.error.find("Out-of-bounds") != std::string::npos);
        CHECK(one.error.find("block (" + std::to_string(bad) + ",0,0)") != std::string::npos);
        for (uint32_t threads : {2u, 4u}) {
            INFO(threads << " threads");
            checkSame(one, runPhases(threads, bad));
        }
    }
    for (int early : {0, 17}) {
        INFO("block " << early << " returns before the second grid sync");
        const Run one = runPhases(1, -1, early);
        CHECK(one.error.find("Deadlock at grid.sync()") != std::string::npos);
        CHECK(one.error.find("1 of the grid's blocks ended") != std::string::npos);
        for (uint32_t threads : {2u, 4u}) {
            INFO(threads << " threads");
            checkSame(one, runPhases(threads, -1, early));
        }
    }
    {
        const Run full = runPhases(1);
        const uint64_t budget = full.stats[0] * 2 / 3;   // past the second grid sync: every share is under it, their sum is not
        const Run one = runPhases(1, -1, -1, false, budget);
        CHECK(one.error.find("budget") != std::string::npos);
        for (uint32_t threads : {2u, 4u}) {
            INFO(threads << " threads, a budget of " << budget);
            checkSame(one, runPhases(threads, -1, -1, false, budget));
        }
    }
}

TEST_CASE("grid.sync() in a launch that is not cooperative traps with the cooperative launch named", "[sim][grid]") {
    if (!haveClang()) return;
    sim::LaunchOptions opt;
    runtime::SimDevice dev(opt);
    dev.loadModule(phasesPtx(), "phases.ptx");
    runtime::DevPtr p = dev.malloc(kN * 4, "buf");
    runtime::LaunchConfig cfg;
    cfg.grid.x = 2;
    cfg.block.x = kThreads;
    std::string error;
    try {
        dev.launch("phases", cfg, {wst::arg(p), wst::arg(p), wst::arg(p), wst::arg(p), wst::arg(2 * kThreads), wst::arg(-1), wst::arg(-1)});
    } catch (const Error& e) {
        error = e.what();
    }
    CHECK(error.find("cudaLaunchCooperativeKernel") != std::string::npos);
}

TEST_CASE("racecheck: the grid barrier orders the blocks' global accesses before and after it", "[sim][grid]") {
    if (!haveClang()) return;
    // Each phase reads words other blocks wrote before the last grid sync: no hazard.
    sim::LaunchOptions opt;
    opt.racecheck = true;
    opt.threads = 4;
    runtime::SimDevice dev(opt);
    dev.loadModule(phasesPtx(), "phases.ptx");
    runtime::DevPtr pin = dev.malloc(kN * 4, "in"), pa = dev.malloc(kN * 4, "a"), pb = dev.malloc(kN * 4, "b"),
                    pt = dev.malloc(16, "total");
    std::vector<uint8_t> zeros(kN * 4, 0);
    for (runtime::DevPtr p : {pin, pa, pb}) dev.memcpyHtoD(p, zeros.data(), kN * 4);
    dev.memcpyHtoD(pt, zeros.data(), 16);
    runtime::LaunchConfig cfg;
    cfg.grid.x = kBlocks;
    cfg.block.x = kThreads;
    cfg.cooperative = true;
    dev.launch("phases", cfg, {wst::arg(pin), wst::arg(pa), wst::arg(pb), wst::arg(pt), wst::arg(kN), wst::arg(-1), wst::arg(-1)});
    std::string said;
    for (auto& r : dev.reports()) said += r.message + "\n";
    INFO(said);
    CHECK(dev.reports().empty());
    CHECK(dev.lastStats().blocksCompleted == kBlocks);
}
