// The Best Practices Guide's matrix-multiply tables (Tables 2 and 3, V100) against the cycle
// model; docs/timing-validation.md has the numbers and the discussion. The test runs a slice of
// the V100 preset (8 of its 80 SMs, with L2 and DRAM bandwidth and L2 size scaled by 8/80: the
// same per-SM machine) on 256 x 256 outputs so that it stays fast; the CLI reproduces the full
// V100 at 512 x 512 (`warpscope run tests/validation/bpg_matmul.json --gpu v100`).
#include "support.hpp"

#include "runtime/lesson.hpp"
#include "timing/cycle_model.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <map>

using namespace warpscope;
using namespace warpscope::timing;

namespace {

std::map<std::string, double> bpgTimes() {
    static std::map<std::string, double> times;
    if (!times.empty()) return times;
    GpuSpec slice;
    for (auto& p : builtinPresets())
        if (p.name == "v100") slice = p;
    const double share = 8.0 / slice.smCount;
    slice.name = "v100-slice";
    slice.smCount = 8;
    slice.dramGBs *= share;
    slice.l2BytesPerCycle *= share;
    slice.l2Bytes = static_cast<uint64_t>(double(slice.l2Bytes) * share);
    runtime::Lesson l = runtime::loadLesson(wst::sourcePath("tests/validation/bpg_matmul.json"));
    runtime::SimDevice dev;
    dev.onLaunch = [&](sim::Gpu& g) { times[g.program().kernelName] = runTimed(g, slice).microseconds; };
    auto r = runtime::runLesson(l, runtime::resolveParams(l, {{"M", "256"}, {"N", "256"}}), dev);
    REQUIRE(r.allChecksPassed());
    REQUIRE(times.size() == 6);
    return times;
}

// The guide's effective bandwidths (GB/s, Tesla V100); time ratios are their inverse ratios.
const std::map<std::string, double> kGuideGBs = {{"ab_naive", 119.9},  {"ab_tile_a", 144.4}, {"ab_tiles_ab", 195.5},
                                                 {"aat_naive", 12.8},  {"aat_tiles", 140.2}, {"aat_tiles_padded", 199.4}};

double guideTimeRatio(const std::string& k, const std::string& ref) { return kGuideGBs.at(ref) / kGuideGBs.at(k); }

} // namespace

TEST_CASE("BPG C = AA^T: the three kernels come out in the guide's order", "[timing][bpg]") {
    auto t = bpgTimes();
    INFO("aat_naive " << t["aat_naive"] << " us, aat_tiles " << t["aat_tiles"] << " us, aat_tiles_padded " << t["aat_tiles_padded"] << " us");
    CHECK(t["aat_naive"] > t["aat_tiles"]);
    CHECK(t["aat_tiles"] > t["aat_tiles_padded"]);
}

TEST_CASE("BPG C = AA^T: bank conflicts cost what the guide measured (within 35 %)", "[timing][bpg]") {
    auto t = bpgTimes();
    double sim = t["aat_tiles"] / t["aat_tiles_padded"];
    double guide = guideTimeRatio("aat_tiles", "aat_tiles_padded");
    INFO("simulator " << sim << ", guide " << guide);
    CHECK(std::abs(sim / guide - 1.0) <= 0.35);
}

TEST_CASE("BPG C = AB: the three kernels come out in the guide's order, within 35 % of its ratios", "[timing][bpg]") {
    // The V100 preset's globalRequestCycles was fitted to this table, so this pins the fit down
    // (a model change that loses it is caught) rather than checking the model independently.
    auto t = bpgTimes();
    INFO("ab_naive " << t["ab_naive"] << " us, ab_tile_a " << t["ab_tile_a"] << " us, ab_tiles_ab " << t["ab_tiles_ab"] << " us");
    CHECK(t["ab_naive"] > t["ab_tile_a"]);
    CHECK(t["ab_tile_a"] > t["ab_tiles_ab"]);
    for (const char* k : {"ab_naive", "ab_tile_a"}) {
        double sim = t[k] / t["ab_tiles_ab"];
        double guide = guideTimeRatio(k, "ab_tiles_ab");
        INFO(k << ": simulator " << sim << ", guide " << guide);
        CHECK(std::abs(sim / guide - 1.0) <= 0.35);
    }
}

TEST_CASE("BPG C = AA^T: the strided version costs what the guide measured (within 35 %)", "[timing][bpg]") {
    // l1DataLinesPerCycle (one 128-byte line a cycle through the L1 data stage) was measured on
    // the H100's version of this kernel, not fitted to the guide's V100 table.
    auto t = bpgTimes();
    double sim = t["aat_naive"] / t["aat_tiles_padded"];
    double guide = guideTimeRatio("aat_naive", "aat_tiles_padded");
    INFO("simulator " << sim << ", guide " << guide);
    CHECK(std::abs(sim / guide - 1.0) <= 0.35);
}
