// Planted bugs (tests/kernels/faults.cu): each stops the launch with a report that names the
// kernel, block, thread, lane, source line, PTX line and, for memory, address and allocation.
#include "support.hpp"

#include "base/error.hpp"
#include "sim/gpu.hpp"

#include <catch2/catch.hpp>

#include <functional>
#include <optional>
#include <string>
#include <tuple>

using namespace warpscope;
using wst::arg;

namespace {
constexpr const char* kFaults = "tests/kernels/faults.ptx";

Error expectError(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e;
    }
    FAIL("expected a warpscope::Error");
    throw std::logic_error("unreachable");
}
} // namespace

TEST_CASE("out-of-bounds store names the allocation, offset, thread and line", "[sim]") {
    wst::Sim sim(kFaults);
    auto out = sim.upload(std::vector<float>(100, 0.f), "out");
    Error e = expectError([&] { sim.launch("oob_store", 2, 64, {arg(out), arg(int32_t(100))}); });
    CHECK(e.kind() == Error::Kind::Fault);
    const FaultSite& s = e.site();
    CHECK(s.kernel == "oob_store");
    CHECK(s.allocation == "out");
    REQUIRE(s.offset.has_value());
    CHECK(*s.offset == 400);                  // element 100: the first one past the end
    REQUIRE(s.blockX.has_value());
    CHECK(*s.blockX == 1);
    CHECK(*s.threadX == 36);                  // 64 + 36 = 100
    CHECK(*s.lane == 4);
    CHECK(*s.sourceLine == 7);
    CHECK(s.ptxLine.has_value());
    std::string msg = e.what();
    CHECK(msg.find("past the end of 'out'") != std::string::npos);
    CHECK(msg.find("source line 7") != std::string::npos);
}

TEST_CASE("misaligned access is reported, not silently allowed", "[sim]") {
    wst::Sim sim(kFaults);
    auto base = sim.upload(std::vector<char>(256, 0), "bytes");
    auto out = sim.upload(std::vector<float>(32, 0.f), "out");
    Error e = expectError([&] { sim.launch("misaligned", 1, 32, {arg(base), arg(out)}); });
    CHECK(e.kind() == Error::Kind::Fault);
    CHECK(std::string(e.what()).find("Misaligned") != std::string::npos);
    CHECK(e.site().allocation == "bytes");
}

TEST_CASE("__syncthreads in divergent code: lanes that only run to the end count as arrived once they exit", "[sim]") {
    // divergent_barrier: lanes 8-31 of each warp skip the barrier and store, then exit. On Volta
    // and later the GPU counts exited threads as arrived, so the kernel finishes; synccheck says
    // why it is undefined behaviour all the same.
    for (uint32_t threads : {1u, 2u}) {
        sim::LaunchOptions opt;
        opt.threads = threads;
        wst::Sim sim(kFaults, opt);
        auto out = sim.upload(std::vector<int>(64, -1));
        sim.launch("divergent_barrier", 1, 64, {arg(out)});
        auto v = sim.download<int>(out, 64);
        for (int t = 0; t < 64; ++t) CHECK(v[size_t(t)] == t);
        REQUIRE(sim.dev.reports().size() == 1);
        const auto& r = sim.dev.reports()[0];
        CHECK(r.tool == "synccheck");
        CHECK(r.hazard == "divergent barrier");
        CHECK(*r.site.sourceLine == 23);
        CHECK(*r.site.lane == 8);   // the first lane that went on
        CHECK(r.message.find("count a thread that has exited as arrived") != std::string::npos);
    }
}

TEST_CASE("__syncthreads in divergent code that the other lanes can meet again is a deadlock error", "[sim]") {
    // divergent_barrier_loop: lanes 8-31 skip the barrier but go round the loop, where they
    // could meet it again; which barrier they would count at is undefined: an error.
    wst::Sim sim(kFaults);
    auto out = sim.upload(std::vector<int>(64, 0));
    Error e = expectError([&] { sim.launch("divergent_barrier_loop", 1, 64, {arg(out), arg(int32_t(4))}); });
    CHECK(e.kind() == Error::Kind::Deadlock);
    CHECK(std::string(e.what()).find("Barrier in divergent code") != std::string::npos);
    CHECK(std::string(e.what()).find("can reach a barrier again") != std::string::npos);
    CHECK(*e.site().sourceLine == 71);
    CHECK(*e.site().lane == 8);
}

TEST_CASE("__syncthreads after part of a warp returned: the kernel finishes with the GPU's results", "[sim]") {
    // 200 elements in blocks of 128: threads 72-127 of block 1 return before the barrier, warp 2
    // of that block in part (lanes 8-31). Each thread adds its right neighbour from shared memory.
    const int n = 200;
    std::vector<float> in(n);
    for (int i = 0; i < n; ++i) in[size_t(i)] = float(i) * 0.5f + 1.0f;
    for (bool watched : {false, true}) {
        INFO((watched ? "with a Step listener" : "lean path"));
        wst::Sim sim("tests/bugs/beyond.ptx");
        struct Count : sim::StepListener {
            uint64_t arrivals = 0;
            void onStep(const sim::Step& s) override { arrivals += s.barrierArrival; }
        } count;
        if (watched) sim.dev.onLaunch = [&](sim::Gpu& g) { g.setListener(&count); };
        auto din = sim.upload(in, "in"), dout = sim.upload(std::vector<float>(256, -1.0f), "out");
        sim.launch("syncthreads_after_return", 2, 128, {arg(din), arg(dout), arg(int32_t(n))});
        auto out = sim.download<float>(dout, 256);
        for (int i = 0; i < n; ++i) {
            const int t = i % 128, j = t + 1 < 128 && i + 1 < n ? i + 1 : i;
            CHECK(out[size_t(i)] == in[size_t(i)] + in[size_t(j)]);
        }
        for (int i = n; i < 256; ++i) CHECK(out[size_t(i)] == -1.0f);
        REQUIRE(sim.dev.reports().size() == 1);
        CHECK(sim.dev.reports()[0].tool == "synccheck");
        CHECK(*sim.dev.reports()[0].site.lane == 8);
        CHECK(*sim.dev.reports()[0].site.blockX == 1);
        // Every warp that did not return whole arrives once: 4 in block 0, 3 in block 1.
        if (watched) CHECK(count.arrivals == 7);
    }
}

TEST_CASE("a barrier that can never complete is a deadlock, not a hang", "[sim]") {
    wst::Sim sim(kFaults);
    auto out = sim.upload(std::vector<int>(64, 0));
    Error e = expectError([&] { sim.launch("barrier_deadlock", 1, 64, {arg(out)}); });
    CHECK(e.kind() == Error::Kind::Deadlock);
    CHECK(std::string(e.what()).find("never complete") != std::string::npos);
}

TEST_CASE("a runaway loop stops at the instruction budget", "[sim]") {
    sim::LaunchOptions opt;
    opt.instructionBudget = 200000;
    wst::Sim sim(kFaults, opt);
    auto flag = sim.upload(std::vector<int>(1, 0)), out = sim.upload(std::vector<int>(32, 0));
    Error e = expectError([&] { sim.launch("runaway", 1, 32, {arg(flag), arg(out)}); });
    CHECK(e.kind() == Error::Kind::Budget);
    CHECK(std::string(e.what()).find("200000") != std::string::npos);
    CHECK(e.site().sourceLine.has_value());
}

TEST_CASE("shared-memory index out of range", "[sim]") {
    wst::Sim sim(kFaults);
    auto out = sim.upload(std::vector<int>(64, 0));
    Error e = expectError([&] { sim.launch("shared_oob", 1, 64, {arg(out), arg(int32_t(8))}); });
    CHECK(e.kind() == Error::Kind::Fault);
    CHECK(std::string(e.what()).find("shared") != std::string::npos);
    CHECK(*e.site().threadX == 56);   // 56 + 8 = 64, the first index past s[64]
    // The same kernel with an in-range offset runs cleanly.
    sim.launch("shared_oob", 1, 56, {arg(out), arg(int32_t(8))});
}

TEST_CASE("trap stops the launch at the lane that trapped", "[sim]") {
    wst::Sim sim(kFaults);
    auto out = sim.upload(std::vector<int>(32, 0));
    Error e = expectError([&] { sim.launch("trap_kernel", 1, 32, {arg(out)}); });
    CHECK(e.kind() == Error::Kind::Fault);
    CHECK(*e.site().lane == 5);
}

TEST_CASE("bad launches are input errors", "[sim]") {
    wst::Sim sim(kFaults);
    auto out = sim.upload(std::vector<int>(32, 0));
    CHECK_THROWS_AS(sim.launch("trap_kernel", 1, 2048, {arg(out)}), Error);
    CHECK_THROWS_AS(sim.launch("trap_kernel", 1, 32, {}), Error);
    CHECK_THROWS_AS(sim.launch("no_such_kernel", 1, 32, {arg(out)}), Error);
    CHECK_THROWS_AS(sim.launch("trap_kernel", 0, 32, {arg(out)}), Error);
}

// --- barrier thread counts (synccheck) and barriers after whole warps exited -------------------
namespace {
constexpr const char* kBugs = "tests/bugs/bugs.ptx";

// Warps below `split` run the first barrier, the others the second; every warp then stores its
// thread index so a completed launch is visible.
std::string twoBarrierKernel(const std::string& first, const std::string& second, uint32_t split) {
    return ".version 7.0\n.target sm_75\n.address_size 64\n"
           ".visible .entry two_barriers(.param .u64 out)\n{\n"
           "  .reg .pred %p<2>;\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<4>;\n"
           "  ld.param.u64 %rd1, [out];\n"
           "  mov.u32 %r1, %tid.x;\n"
           "  setp.lt.u32 %p1, %r1, " + std::to_string(split) + ";\n"
           "  @%p1 bra FIRST;\n"
           "  " + second + "\n"
           "  bra.uni DONE;\n"
           "FIRST:\n"
           "  " + first + "\n"
           "DONE:\n"
           "  cvta.to.global.u64 %rd2, %rd1;\n"
           "  mul.wide.u32 %rd3, %r1, 4;\n"
           "  add.s64 %rd2, %rd2, %rd3;\n"
           "  st.global.u32 [%rd2], %r1;\n"
           "  ret;\n}\n";
}

std::optional<Error> runTwoBarriers(const std::string& first, const std::string& second, uint32_t split, uint32_t threads,
                                    std::function<void(sim::Gpu&)> hook = {}) {
    runtime::SimDevice dev;
    dev.onLaunch = hook;
    dev.loadModule(twoBarrierKernel(first, second, split), "two_barriers.ptx");
    auto out = dev.malloc(threads * 4, "out");
    runtime::LaunchConfig cfg;
    cfg.block.x = threads;
    try {
        dev.launch("two_barriers", cfg, {arg(out)});
    } catch (const Error& e) {
        return e;
    }
    return std::nullopt;
}
} // namespace

TEST_CASE("warps that disagree on a barrier's thread count stop the launch (synccheck)", "[sim]") {
    // bugs.cu: warp 0 runs bar.sync 1, 64 and waits; warp 1 arrives with bar.sync 1, 32. On an
    // H100 this hangs; the simulator stops at warp 1's barrier and names both sides.
    wst::Sim sim(kBugs);
    auto out = sim.upload(std::vector<int>(64, 0), "out");
    Error e = expectError([&] { sim.launch("mismatched_barrier_count", 1, 64, {arg(out)}); });
    CHECK(e.kind() == Error::Kind::Fault);
    const std::string msg = e.what();
    INFO(msg);
    CHECK(msg.find("Mismatched barrier thread counts at barrier 1") != std::string::npos);
    CHECK(msg.find("warp 1 lane 0 arrives expecting 32 threads") != std::string::npos);
    CHECK(msg.find("warp 0 lane 0 already waits there expecting 64 threads (source line 208, PTX line") != std::string::npos);
    CHECK(msg.find("bar.sync 1, 64") != std::string::npos);
    CHECK(msg.find("kernel mismatched_barrier_count, block (0,0,0), thread (32,0,0), warp 1 lane 0, source line 210") != std::string::npos);
    const FaultSite& s = e.site();
    CHECK(s.kernel == "mismatched_barrier_count");
    CHECK(*s.threadX == 32);
    CHECK(*s.lane == 0);
    CHECK(*s.sourceLine == 210);
    CHECK(s.ptxLine.has_value());
}

TEST_CASE("a smaller barrier count arriving first ends in a deadlock that says why", "[sim]") {
    // Warp 0 arrives first with 32: that instance completes with warp 0 alone, and warp 1 then
    // waits for 64 threads that never come.
    auto e = runTwoBarriers("bar.sync 1, 32;", "bar.sync 1, 64;", 32, 64);
    REQUIRE(e.has_value());
    CHECK(e->kind() == Error::Kind::Deadlock);
    const std::string msg = e->what();
    INFO(msg);
    CHECK(msg.find("waits at barrier 1 for 64 threads") != std::string::npos);
    CHECK(msg.find("last completed with a count of 32 threads (warp 0") != std::string::npos);
    CHECK(msg.find("disagree on the barrier's thread count") != std::string::npos);
}

TEST_CASE("barrier counts that agree are not reported", "[sim]") {
    // Named barriers per pair of warps, each pair with its own id and count.
    CHECK_FALSE(runTwoBarriers("bar.sync 1, 64;", "bar.sync 2, 64;", 64, 128).has_value());
    // No count means the whole block: the same as an explicit count of every thread.
    CHECK_FALSE(runTwoBarriers("bar.sync 1;", "bar.sync 1, 64;", 32, 64).has_value());
    CHECK_FALSE(runTwoBarriers("barrier.sync 0;", "bar.sync 0;", 32, 96).has_value());
    // An implicit count (the whole block) against an explicit smaller one is a mismatch.
    auto e = runTwoBarriers("bar.sync 1;", "bar.sync 1, 32;", 32, 64);
    REQUIRE(e.has_value());
    CHECK(e->kind() == Error::Kind::Fault);
    CHECK(std::string(e->what()).find("expecting all threads of the block") != std::string::npos);
}

TEST_CASE("__syncthreads after a whole warp returned completes (exited threads do not count)", "[sim]") {
    // PTX ISA, exit: a barrier for all threads of the CTA is released when the only threads that
    // have not arrived are ones that exited. So `if (threadIdx.x >= 64) return; ... __syncthreads()`
    // with 96 threads is legal on sm_70+: no hang on hardware, nothing for synccheck to report.
    sim::LaunchOptions opt;
    opt.racecheck = opt.initcheck = true;
    wst::Sim sim(kBugs, opt);
    auto out = sim.upload(std::vector<int>(96, -1), "out");
    sim.launch("partial_block_barrier_ok", 1, 96, {arg(out)});
    auto v = sim.download<int>(out, 96);
    for (int t = 0; t < 64; ++t) CHECK(v[size_t(t)] == 63 - t);
    for (int t = 64; t < 96; ++t) CHECK(v[size_t(t)] == -1);
    CHECK(sim.dev.reports().empty());
    // The same with the third warp returning from inside a partial last warp of 80 threads.
    wst::Sim sim2(kBugs, opt);
    auto out2 = sim2.upload(std::vector<int>(80, -1), "out");
    sim2.launch("partial_block_barrier_ok", 1, 80, {arg(out2)});
    CHECK(sim2.download<int>(out2, 80)[0] == 63);
}

TEST_CASE("a block's barrier counters agree with its warps after every issue: counted, divergent, mismatched and partial barriers", "[sim]") {
    // Block::waitingWarps, waitingAt, waitingCount, countedWaiting and readyWarps stand for passes
    // over the warps in tryReleaseBarrier and synccheck. Each launch below is stepped one issue at a
    // time (the lean path) and with a Step listener (the general path), the counters checked
    // against the warps after every issue; its results and errors must be the plain run's.
    for (bool watched : {false, true}) {
        INFO((watched ? "with a Step listener" : "lean path"));
        uint64_t issues = 0, bad = 0;
        struct Nobody : sim::StepListener {
            void onStep(const sim::Step&) override {}
        } nobody;
        auto checked = [&](sim::Gpu& g) {
            if (watched) g.setListener(&nobody);
            auto check = [&] {
                for (const auto& b : g.residentBlocks()) bad += !b->countersConsistent();
            };
            check();
            while (g.step()) {
                ++issues;
                check();
            }
        };
        auto errorOf = [](const std::function<void()>& f) -> std::string {
            try {
                f();
            } catch (const Error& e) {
                return e.what();
            }
            return "";
        };
        // Lanes parked at a barrier while the rest of their warp runs to its end.
        auto divergent = [&](bool hook) {
            wst::Sim sim(kFaults);
            if (hook) sim.dev.onLaunch = checked;
            auto out = sim.upload(std::vector<int>(64, -1));
            sim.launch("divergent_barrier", 1, 64, {arg(out)});
            return sim.download<int>(out, 64);
        };
        CHECK(divergent(true) == divergent(false));
        auto loop = [&](bool hook) {
            wst::Sim sim(kFaults);
            if (hook) sim.dev.onLaunch = checked;
            auto out = sim.upload(std::vector<int>(64, 0));
            return errorOf([&] { sim.launch("divergent_barrier_loop", 1, 64, {arg(out), arg(int32_t(4))}); });
        };
        CHECK(loop(true) == loop(false));
        auto deadlock = [&](bool hook) {
            wst::Sim sim(kFaults);
            if (hook) sim.dev.onLaunch = checked;
            auto out = sim.upload(std::vector<int>(64, 0));
            return errorOf([&] { sim.launch("barrier_deadlock", 1, 64, {arg(out)}); });
        };
        CHECK(deadlock(true).find("never complete") != std::string::npos);
        CHECK(deadlock(true) == deadlock(false));
        // A barrier after part of a warp returned, in two blocks.
        auto afterReturn = [&](bool hook) {
            wst::Sim sim("tests/bugs/beyond.ptx");
            if (hook) sim.dev.onLaunch = checked;
            std::vector<float> in(200, 1.5f);
            auto din = sim.upload(in, "in"), dout = sim.upload(std::vector<float>(256, -1.0f), "out");
            sim.launch("syncthreads_after_return", 2, 128, {arg(din), arg(dout), arg(int32_t(200))});
            return sim.download<float>(dout, 256);
        };
        CHECK(afterReturn(true) == afterReturn(false));
        // Named barriers with counts, mismatched counts, whole warps that returned.
        auto mismatched = [&](bool hook) {
            wst::Sim sim(kBugs);
            if (hook) sim.dev.onLaunch = checked;
            auto out = sim.upload(std::vector<int>(64, 0), "out");
            return errorOf([&] { sim.launch("mismatched_barrier_count", 1, 64, {arg(out)}); });
        };
        CHECK(mismatched(true).find("Mismatched barrier thread counts") != std::string::npos);
        CHECK(mismatched(true) == mismatched(false));
        auto partial = [&](bool hook, uint32_t threads) {
            wst::Sim sim(kBugs);
            if (hook) sim.dev.onLaunch = checked;
            auto out = sim.upload(std::vector<int>(threads, -1), "out");
            sim.launch("partial_block_barrier_ok", 1, threads, {arg(out)});
            return sim.download<int>(out, threads);
        };
        CHECK(partial(true, 96) == partial(false, 96));
        CHECK(partial(true, 80) == partial(false, 80));
        const std::vector<std::tuple<std::string, std::string, uint32_t, uint32_t>> pairs = {
            {"bar.sync 1, 64;", "bar.sync 2, 64;", 64, 128}, {"bar.sync 1;", "bar.sync 1, 64;", 32, 64},
            {"barrier.sync 0;", "bar.sync 0;", 32, 96},      {"bar.sync 1;", "bar.sync 1, 32;", 32, 64},
            {"bar.sync 1, 32;", "bar.sync 1, 64;", 32, 64},  {"bar.sync 1, 64;", "bar.sync 1, 64;", 64, 256},
        };
        for (const auto& [first, second, split, threads] : pairs) {
            INFO(first << " / " << second);
            const auto a = runTwoBarriers(first, second, split, threads, checked), b = runTwoBarriers(first, second, split, threads);
            CHECK(a.has_value() == b.has_value());
            if (a && b) CHECK(std::string(a->what()) == b->what());
        }
        CHECK(issues > 500);
        CHECK(bad == 0);
    }
}
