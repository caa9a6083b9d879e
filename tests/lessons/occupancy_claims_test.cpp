// The occupancy-and-latency lesson's claims (lessons/occupancy-and-latency/steps.md), checked on
// the occupancy calculator and the cycle model with the H100 preset. Registers are passed
// explicitly (10, as `ptxas -v` reports for sm_90), not read from lesson.json.
#include "support.hpp"

#include "runtime/lesson.hpp"
#include "runtime/sim_device.hpp"
#include "timing/cycle_model.hpp"
#include "timing/gpu_spec.hpp"
#include "timing/occupancy.hpp"

#include <catch2/catch.hpp>

using namespace warpscope;

namespace {
const timing::GpuSpec& h100() {
    static const timing::GpuSpec spec = timing::findPreset("h100", {});
    return spec;
}

timing::Occupancy occ(uint32_t threads, uint32_t regs, uint32_t sharedKiB) {
    return timing::computeOccupancy(h100(), {threads, regs, sharedKiB * 1024});
}

// Runs the lesson on the cycle model; returns the launch's timing result.
timing::TimingResult timedRun(const std::map<std::string, std::string>& params, uint32_t registers = 10) {
    runtime::Lesson l = runtime::loadLesson(wst::sourcePath("lessons/occupancy-and-latency"));
    runtime::SimDevice dev;
    timing::TimingResult out;
    dev.onLaunch = [&](sim::Gpu& g) {
        timing::TimingOptions opt;
        opt.registersPerThread = registers;
        opt.registersEstimated = false;
        timing::TimedRun run(g, h100(), opt);
        run.run();
        out = run.result();
    };
    runtime::RunResult r = runtime::runLesson(l, runtime::resolveParams(l, params), dev);
    for (auto& c : r.checks) {
        INFO(c.buffer << ": " << c.detail);
        CHECK(c.passed);   // the copy matches the CPU reference
    }
    return out;
}
} // namespace

TEST_CASE("occupancy lesson: the calculator's numbers in the text", "[lessons]") {
    // 256-thread blocks, 10 registers, no shared memory: 8 blocks of 8 warps, limited by warps.
    auto full = occ(256, 10, 0);
    CHECK(full.activeBlocksPerSM == 8);
    CHECK(full.activeWarpsPerSM == 64);
    CHECK(full.limiter == timing::Limiter::Warps);
    // Registers: up to 32 per thread keep 64 warps; 33 drop to 48, 64 to 32, 128 to 16, 255 to 8.
    CHECK(occ(256, 32, 0).activeWarpsPerSM == 64);
    CHECK(occ(256, 33, 0).activeWarpsPerSM == 48);
    CHECK(occ(256, 33, 0).limiter == timing::Limiter::Registers);
    CHECK(occ(256, 64, 0).activeWarpsPerSM == 32);
    CHECK(occ(256, 128, 0).activeWarpsPerSM == 16);
    CHECK(occ(256, 255, 0).activeWarpsPerSM == 8);
    // Shared memory (SMEM KiB per block, plus 1 KiB the hardware reserves per block).
    const std::pair<uint32_t, uint32_t> smem[] = {{0, 64}, {24, 64}, {32, 48}, {48, 32}, {64, 24}, {100, 16}, {120, 8}};
    for (auto [kib, warps] : smem) {
        INFO("SMEM=" << kib);
        CHECK(occ(256, 10, kib).activeWarpsPerSM == warps);
        if (kib >= 32) CHECK(occ(256, 10, kib).limiter == timing::Limiter::SharedMemory);
    }
    CHECK(occ(256, 10, 48).sharedPerBlockAllocated == 49 * 1024);
    // Block size: 32-thread blocks hit the limit of 32 blocks per SM (32 warps); 64 to 1024 reach 64.
    CHECK(occ(32, 10, 0).activeWarpsPerSM == 32);
    CHECK(occ(32, 10, 0).limiter == timing::Limiter::Blocks);
    for (uint32_t b : {64u, 128u, 512u, 1024u}) CHECK(occ(b, 10, 0).activeWarpsPerSM == 64);
    // Little's law figures: about 11.5 bytes per cycle of DRAM bandwidth per SM, a DRAM latency of
    // about 760 cycles with one warp per SM (the H100 probe), growing with the load.
    const double perSm = h100().dramBytesPerCycle() / h100().smCount;
    CHECK(perSm == Approx(11.5).margin(0.1));
    CHECK(h100().dramLatency > 700);
    CHECK(h100().dramLatency < 800);
    CHECK(h100().dramQueueCycles > 0);
}

TEST_CASE("occupancy lesson: time falls as resident warps rise, then flattens", "[lessons]") {
    // SMEM (KiB) -> resident warps: 120 -> 8, 100 -> 16, 64 -> 24, 48 -> 32, 32 -> 48, 0 -> 64.
    auto t8 = timedRun({{"SMEM", "120"}}), t16 = timedRun({{"SMEM", "100"}}), t24 = timedRun({{"SMEM", "64"}});
    auto t32 = timedRun({{"SMEM", "48"}}), t48 = timedRun({{"SMEM", "32"}}), t64 = timedRun({{"SMEM", "0"}});
    CHECK(t8.occupancy.activeWarpsPerSM == 8);
    CHECK(t64.occupancy.activeWarpsPerSM == 64);
    const double c8 = double(t8.cycles), c16 = double(t16.cycles), c24 = double(t24.cycles), c32 = double(t32.cycles),
                 c48 = double(t48.cycles), c64 = double(t64.cycles);
    INFO("cycles: 8w " << c8 << ", 16w " << c16 << ", 24w " << c24 << ", 32w " << c32 << ", 48w " << c48 << ", 64w " << c64);
    // Monotone: more resident warps never make it slower.
    CHECK(c8 > c16);
    CHECK(c16 > c24);
    CHECK(c24 > c32);
    CHECK(c32 >= c48);
    CHECK(c48 >= c64);
    // "With 1 block per SM the copy takes more than 3 times as long as with 8."
    CHECK(c8 > 3.0 * c64);
    // "Going from 8 to 16 warps almost halves the time."
    CHECK(c8 / c16 > 1.8);
    // "Each step gains less: 32 warps take about 1.3 times as long as 64, and 48 warps hardly
    // longer than 64."
    CHECK(c8 - c16 > 3 * (c32 - c64));
    CHECK(c32 / c64 == Approx(1.6).margin(0.05));   // "about 1.6 times"
    CHECK(c48 / c64 == Approx(1.2).margin(0.05));   // "about 1.2 times"
    // "More than four times as long" with one block per SM.
    CHECK(c8 / c64 > 5.5);   // "almost six times as long"; the model's 5.8
    CHECK(c8 / c64 < 6.0);
    // The table in the text: about 36,500 / 18,700 / 13,100 / 10,100 / 7,500 / 6,300 cycles.
    CHECK(c8 == Approx(36500).epsilon(0.02));
    CHECK(c16 == Approx(18700).epsilon(0.02));
    CHECK(c24 == Approx(13100).epsilon(0.02));
    CHECK(c32 == Approx(10100).epsilon(0.02));
    CHECK(c48 == Approx(7500).epsilon(0.02));
    CHECK(c64 == Approx(6300).epsilon(0.02));
    CHECK(t64.microseconds == Approx(3.2).margin(0.05));
    // "An SM takes a new block about every 158 cycles ... handing each SM its 32 blocks alone takes
    // some 5,000 cycles", most of the 6,300 at full occupancy.
    CHECK(h100().blockDispatchCycles == 158);
    CHECK(32.0 * h100().blockDispatchCycles == Approx(5000).margin(100));
    CHECK(32.0 * h100().blockDispatchCycles > 0.75 * c64);
    // "Each SM runs its 32 blocks one after the other, roughly 1,140 cycles each" (4224 blocks / 132 SMs).
    CHECK(1081344 / 256 == 4224);
    CHECK(4224 / h100().smCount == 32);
    CHECK(c8 / 32 == Approx(1140).epsilon(0.05));   // "roughly 1,140 cycles" a block
    // "about 300 while the SM retires the finished block and starts the next" (measured: 300 to 360)
    CHECK(h100().blockRetireCycles + 8 * h100().blockRetireCyclesPerWarp == Approx(300).margin(20));
    // DRAM during the kernel at full occupancy: the 4.3 MB read at about 1.4 TB/s (the output stays
    // dirty in the L2, under the preset's l2DirtyBytes).
    const double bytes = 1081344.0 * 4;
    CHECK(double(h100().l2DirtyBytes) > bytes);
    CHECK(bytes / (t64.microseconds * 1e-6) / 1e12 == Approx(1.4).margin(0.1));
    // Waiting for memory dominates at every occupancy: long_scoreboard is most of the warp-cycles.
    for (auto* t : {&t8, &t64}) {
        uint64_t all = 0;
        for (auto v : t->stalls) all += v;
        CHECK(double(t->stalls[size_t(timing::StallReason::LongScoreboard)]) > 0.85 * double(all));
    }
}

TEST_CASE("occupancy lesson: the same resident warps give the same time, whatever limits them", "[lessons]") {
    auto byRegs = timedRun({}, 64), bySmem = timedRun({{"SMEM", "48"}});
    CHECK(byRegs.occupancy.limiter == timing::Limiter::Registers);
    CHECK(bySmem.occupancy.limiter == timing::Limiter::SharedMemory);
    CHECK(byRegs.occupancy.activeWarpsPerSM == 32);
    CHECK(bySmem.occupancy.activeWarpsPerSM == 32);
    CHECK(double(byRegs.cycles) == Approx(double(bySmem.cycles)).epsilon(0.01));
    auto tiny = timedRun({{"BLOCK", "32"}});   // 32 blocks of 1 warp: also 32 warps
    CHECK(tiny.occupancy.activeWarpsPerSM == 32);
    // ... but 256 blocks per SM to hand out, one every 158 cycles: "about 41,400 cycles (20.9 us),
    // about four times as long"; the H100 took 23.3 us with its ~2 us launch.
    CHECK(double(tiny.cycles) == Approx(41400).epsilon(0.02));
    CHECK(tiny.microseconds == Approx(20.9).margin(0.2));
    CHECK(double(tiny.cycles) / double(bySmem.cycles) == Approx(4.1).margin(0.2));   // "about four times as long"
    CHECK(33792 / h100().smCount == 256);
    CHECK(256.0 * h100().blockDispatchCycles == Approx(40000).margin(500));
    CHECK(tiny.microseconds + h100().kernelGapUs == Approx(23.3).epsilon(0.1));
}
