// The claims of lessons/cooperative-groups/steps.md, checked on the simulator: shuffles per
// launch and per warp, the lanes each shuffle executes for, the warp-instructions per line and per
// launch, and the member masks (tiles) each warp's last shuffle carried. (Grid & warps' grouping
// of those masks is tested in tests/app/grid_tiles_test.cpp; the lesson through clang with no
// toolkit in cli.lesson.cooperative-groups-clang.)
#include "support.hpp"

#include "runtime/lesson.hpp"
#include "runtime/sim_device.hpp"
#include "sim/gpu.hpp"
#include "sim/step.hpp"

#include <catch2/catch.hpp>

#include <map>

using namespace warpscope;

namespace {
struct LaunchCount : sim::StepListener {
    uint64_t warpInstructions = 0, shuffles = 0, shuffleLanes = 0, bfly = 0;
    std::map<uint32_t, uint64_t> byLine;                          // warp-instructions per source line
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> shflByWarp;   // (block, warp) -> shuffles
    std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> lastMasks;   // (block, warp) -> at the end
    void onStep(const sim::Step& s) override {
        ++warpInstructions;
        const uint32_t line = s.instr ? s.instr->line : 0;
        ++byLine[line];
        if (s.instr && s.instr->op == sim::Op::Shfl) {
            ++shuffles;
            shuffleLanes += static_cast<uint64_t>(__builtin_popcount(s.execMask));
            ++shflByWarp[{s.block, s.warpInBlock}];
            if (s.instr->text.find(".bfly") != std::string::npos) ++bfly;
        }
    }
};

struct Run {
    std::vector<std::unique_ptr<LaunchCount>> launches;
    runtime::RunResult result;
};

Run runLesson(int blocks) {
    runtime::Lesson l = runtime::loadLesson(wst::sourcePath("lessons/cooperative-groups"));
    runtime::SimDevice dev;
    Run r;
    dev.onLaunch = [&](sim::Gpu& g) {
        r.launches.push_back(std::make_unique<LaunchCount>());
        g.setListener(r.launches.back().get());
    };
    r.result = runtime::runLesson(l, runtime::resolveParams(l, {{"BLOCKS", std::to_string(blocks)}}), dev);
    dev.onLaunch = nullptr;
    for (auto& ch : r.result.checks) {
        INFO(ch.buffer << ": " << ch.detail);
        CHECK(ch.passed);
    }
    return r;
}
} // namespace

TEST_CASE("cooperative-groups lesson: shuffles, lanes and instructions as the steps state", "[lessons][claims][groups]") {
    Run r = runLesson(16);
    REQUIRE(r.launches.size() == 4);
    const LaunchCount &warp = *r.launches[0], &tile32 = *r.launches[1], &tile8 = *r.launches[2], &tile4 = *r.launches[3];
    // Step 1: 720 shuffles each: 16 x (8 x 5 + 5); the group version runs more instructions overall.
    CHECK(warp.shuffles == 720);
    CHECK(tile32.shuffles == 720);
    CHECK(warp.warpInstructions == 5488);
    CHECK(tile32.warpInstructions == 6672);
    // Step 3: tiles of 8: 3 shuffles per warp in the first round (5 for warp 0, which also adds
    // the partial sums), 464 in all, each for all 32 lanes (the four tiles at once).
    CHECK(tile8.shuffles == 464);
    CHECK(tile8.shflByWarp.at({0, 2}) == 3);
    CHECK(tile8.shflByWarp.at({0, 0}) == 3 + 5);
    CHECK(tile8.shuffleLanes == 464 * 32);
    CHECK(warp.shuffleLanes == 720 * 32);
    // Line 58 (the tile's shuffle loop, the mask recomputed each time) against line 15 (the warp's).
    CHECK(tile8.byLine.at(58) == 20 * 128);
    CHECK(warp.byLine.at(15) == 17 * 128);
    // Step 4: cg::reduce on tiles of 4: two butterflies per warp, then five for warp 0; 336 in all,
    // every one a butterfly.
    CHECK(tile4.shuffles == 336);
    CHECK(tile4.bfly == 336);
    CHECK(tile4.shflByWarp.at({0, 1}) == 2);
    for (uint32_t b = 0; b < 16; ++b)
        for (uint32_t w = 0; w < 8; ++w) CHECK(tile4.shflByWarp.at({b, w}) == (w == 0 ? 7u : 2u));
}

TEST_CASE("cooperative-groups lesson: the tiles each warp's last shuffle named (member masks)", "[lessons][claims][groups]") {
    // Run each launch to its end and read every block's Block::warpSync before it retires: warps
    // 1-7 end on their first-round tile (8 or 4 lanes), warp 0 on the tile of 32.
    runtime::Lesson l = runtime::loadLesson(wst::sourcePath("lessons/cooperative-groups"));
    runtime::SimDevice dev;
    struct Seen {
        uint32_t lane13 = 0, lane30 = 0, warp0 = 0;
    };
    std::vector<Seen> seen;
    dev.onLaunch = [&](sim::Gpu& g) {
        seen.emplace_back();
        // The one block, stepped here to its end: the masks as they stand before it retires.
        do {
            if (g.residentBlocks().empty()) break;
            const sim::Block& b = *g.residentBlocks()[0];
            if (b.warpSync.size() != 8) continue;
            Seen& s = seen.back();
            if (b.warpSync[2].pc >= 0) s.lane13 = b.warpSync[2].mask[13];
            if (b.warpSync[1].pc >= 0) s.lane30 = b.warpSync[1].mask[30];
            if (b.warpSync[0].pc >= 0) s.warp0 = b.warpSync[0].mask[5];
        } while (g.step());
    };
    runtime::runLesson(l, runtime::resolveParams(l, {{"BLOCKS", "1"}}), dev);
    dev.onLaunch = nullptr;
    REQUIRE(seen.size() == 4);
    CHECK(seen[0].lane13 == 0xffffffffu);
    CHECK(seen[1].lane13 == 0xffffffffu);
    CHECK(seen[2].lane13 == 0x0000ff00u);   // step 2: lane 13 is in tile 1 of 8
    CHECK(seen[3].lane30 == 0xf0000000u);   // step 4: lane 30 is in tile 7 of 4
    for (const Seen& s : seen) CHECK(s.warp0 == 0xffffffffu);   // step 5: warp 0 ends on a tile of 32
}
