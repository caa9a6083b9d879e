// Grid & warps' tiles (grid_layout.hpp laneGroups): a warp's lanes grouped by the member masks of
// its last warp-synchronous instruction. On masks as cooperative groups make them (tiles of 8 and
// 4, a partition by label, the coalesced odd lanes), and on the cooperative-groups lesson stepped
// in a Session (nvcc's PTX): warp 2 after its tile-of-8 shuffles, warp 1 after cg::reduce on tiles
// of 4, warp 0 after the tile of 32, a warp that has run none.
#include "gui/model/grid_layout.hpp"
#include "gui/model/session.hpp"

#include "runtime/lesson.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace warpscope;
using namespace warpscope::gui;
namespace fs = std::filesystem;

namespace {
std::array<uint32_t, 32> tileMasks(int size) {
    std::array<uint32_t, 32> m{};
    const uint32_t ones = size == 32 ? 0xffffffffu : (1u << size) - 1;
    for (int l = 0; l < 32; ++l) m[static_cast<size_t>(l)] = ones << (l / size * size);
    return m;
}

std::shared_ptr<const Snapshot> atLine(Session& s, const runtime::Lesson& L, uint32_t warp, uint32_t line) {
    s.setSpeed(0);
    s.load(L, runtime::resolveParams(L, {}));
    REQUIRE(s.waitIdle(60));
    s.select(0, warp);
    REQUIRE(s.waitIdle(60));
    s.runToLine(line);
    REQUIRE(s.waitIdle(120));
    auto snap = s.snapshot();
    REQUIRE(snap->selected);
    REQUIRE(snap->selected->warp.line == line);
    return snap;
}
} // namespace

TEST_CASE("grid tiles: lanes grouped by member mask, tiles and other groups", "[grid-tiles]") {
    SECTION("tiles of 8: four, each its 8 lanes and mask 0xff << 8k") {
        auto g = laneGroups(tileMasks(8), 0xffffffffu);
        REQUIRE(g.size() == 4);
        for (int k = 0; k < 4; ++k) {
            CHECK(g[static_cast<size_t>(k)].tile);
            CHECK(g[static_cast<size_t>(k)].first == 8 * k);
            CHECK(g[static_cast<size_t>(k)].size == 8);
            CHECK(g[static_cast<size_t>(k)].mask == 0xffu << (8 * k));
            CHECK(g[static_cast<size_t>(k)].lanes == g[static_cast<size_t>(k)].mask);
        }
        CHECK(laneGroupOf(g, 13) == 1);
        CHECK(laneGroupText(g, 1) == "tile 1 of 4: lanes 8-15 (8), mask 0x0000ff00");
        CHECK(laneGroupsSummary(g) == "4 tiles of 8 lanes");
    }
    SECTION("tiles of 4 and one of 32") {
        auto g = laneGroups(tileMasks(4), 0xffffffffu);
        REQUIRE(g.size() == 8);
        CHECK(laneGroupOf(g, 30) == 7);
        CHECK(g[7].mask == 0xf0000000u);
        CHECK(laneGroupsSummary(laneGroups(tileMasks(32), 0xffffffffu)) == "1 tile of 32 lanes");
    }
    SECTION("lanes that did not execute belong to no tile") {
        auto g = laneGroups(tileMasks(8), 0x0000ffffu);
        REQUIRE(g.size() == 2);
        CHECK(laneGroupOf(g, 20) == -1);
        CHECK(laneGroupOf(g, 32) == -1);
        CHECK(laneGroupOf(g, -1) == -1);
    }
    SECTION("coalesced_threads on the odd lanes: one group, not a tile, outlined run by run") {
        std::array<uint32_t, 32> m{};
        for (int l = 1; l < 32; l += 2) m[static_cast<size_t>(l)] = 0xaaaaaaaau;
        auto g = laneGroups(m, 0xaaaaaaaau);
        REQUIRE(g.size() == 1);
        CHECK_FALSE(g[0].tile);
        CHECK(g[0].size == 16);
        CHECK(laneRuns(g[0].lanes).size() == 16);
        CHECK(laneGroupsSummary(g) == "1 group of 16 lanes");
        CHECK(laneGroupText(g, 0).rfind("group 0 of 1: lanes 1 3 5 7", 0) == 0);
    }
    SECTION("labeled_partition by lane % 3: three groups of unequal size") {
        std::array<uint32_t, 32> m{};
        uint32_t byLabel[3] = {};
        for (int l = 0; l < 32; ++l) byLabel[l % 3] |= 1u << l;
        for (int l = 0; l < 32; ++l) m[static_cast<size_t>(l)] = byLabel[l % 3];
        auto g = laneGroups(m, 0xffffffffu);
        REQUIRE(g.size() == 3);
        CHECK(laneGroupsSummary(g) == "3 groups (11, 11, 10 lanes)");
        CHECK(laneGroupOf(g, 5) == 2);
    }
    SECTION("a mask that differs from the lanes that carried it says so") {
        std::array<uint32_t, 32> m{};
        m.fill(0x0000ffffu);   // lanes 16-31 carry a mask that leaves them out
        auto g = laneGroups(m, 0xffffffffu);
        REQUIRE(g.size() == 1);
        CHECK_FALSE(g[0].tile);
        CHECK(laneGroupText(g, 0).find("differ") != std::string::npos);
        CHECK(laneRuns(0x80000001u) == std::vector<std::pair<int, int>>{{0, 0}, {31, 31}});
    }
}

TEST_CASE("grid tiles: the cooperative-groups lesson's warps in a Session", "[grid-tiles]") {
    const fs::path dir = fs::path(WARPSCOPE_SOURCE_DIR) / "lessons" / "cooperative-groups";
    runtime::Lesson L = runtime::loadLesson(dir);
    Session s;
    {   // reduce_tile8 (launch 3), warp 2 after its three shuffles: tiles of 8.
        auto snap = atLine(s, L, 2, 59);
        CHECK(snap->launchIndex == 2);
        const WarpDetail& d = *snap->selected;
        REQUIRE(d.syncPc >= 0);
        CHECK(snap->program->code[static_cast<size_t>(d.syncPc)].text.rfind("shfl.sync.down.b32", 0) == 0);
        CHECK(snap->program->code[static_cast<size_t>(d.syncPc)].line == 58);
        auto g = laneGroups(d.syncMask, d.syncExec);
        CHECK(laneGroupsSummary(g) == "4 tiles of 8 lanes");
        CHECK(laneGroupText(g, laneGroupOf(g, 13)) == "tile 1 of 4: lanes 8-15 (8), mask 0x0000ff00");
    }
    {   // reduce_tile4 (launch 4), warp 1 after cg::reduce: tiles of 4 (a butterfly).
        auto snap = atLine(s, L, 1, 81);
        CHECK(snap->launchIndex == 3);
        const WarpDetail& d = *snap->selected;
        REQUIRE(d.syncPc >= 0);
        CHECK(snap->program->code[static_cast<size_t>(d.syncPc)].text.rfind("shfl.sync.bfly.b32", 0) == 0);
        auto g = laneGroups(d.syncMask, d.syncExec);
        CHECK(laneGroupsSummary(g) == "8 tiles of 4 lanes");
        CHECK(g.at(7).mask == 0xf0000000u);
    }
    {   // reduce_tile4, warp 0 after the partial sums' cg::reduce: one tile of 32.
        auto snap = atLine(s, L, 0, 88);
        auto g = laneGroups(snap->selected->syncMask, snap->selected->syncExec);
        CHECK(laneGroupsSummary(g) == "1 tile of 32 lanes");
    }
    {   // Before any shuffle (reduce_warp's first line that loads): nothing recorded, no tiles.
        auto snap = atLine(s, L, 0, 13);
        CHECK(snap->selected->syncPc == -1);
    }
}
