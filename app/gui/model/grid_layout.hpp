// Where Grid & warps puts each block's tile (window-free, so tests check it): tiles of 32 lanes by
// the block's warps, as large as fit the panel. A 2D grid is always laid out as rows of gridDim.x
// blocks, so block (x, y) sits in column x of row y, as a student draws it; when gridDim.x tiles
// do not fit at any size the panel scrolls sideways instead of wrapping the rows.
#pragma once
#include <cstdint>

namespace warpscope::gui {

struct TileLayout {
    float laneW = 2, rowH = 3, pad = 3, labelH = 0;
    float tileW = 0, tileH = 0;
    int cols = 1;
};
// W x H: the panel's room; wpb: warps per block; zoom: the panel's zoom; fontH: a text line.
TileLayout gridTileLayout(float W, float H, uint32_t wpb, uint64_t blocks, float zoom, float fontH, uint32_t gridX, bool is2d);

} // namespace warpscope::gui

#include <array>
#include <string>
#include <vector>

namespace warpscope::gui {

// A warp's lanes grouped by the member mask of its last warp-synchronous instruction (shfl, vote,
// match, redux .sync; bar.warp.sync): with cooperative groups each group is a tile
// (tiled_partition<8>: lanes 8k to 8k + 7, mask 0xff << 8k); labeled_partition and
// coalesced_threads give groups that need not be contiguous, shown by mask all the same.
struct LaneGroup {
    uint32_t mask = 0;         // the member mask the lanes carried
    uint32_t lanes = 0;        // the lanes that carried it
    int first = 0, size = 0;   // lowest lane, number of lanes
    bool tile = false;         // lanes == mask, contiguous, size a power of two aligned to it
};
// Groups in order of their lowest lane; lanes outside `exec` belong to none.
std::vector<LaneGroup> laneGroups(const std::array<uint32_t, 32>& maskPerLane, uint32_t exec);
// The index of the group holding `lane`, -1 if none.
int laneGroupOf(const std::vector<LaneGroup>& groups, int lane);
// "tile 1 of 4: lanes 8-15 (8), mask 0x0000ff00" / "group 0 of 2: lanes 1 3 5 ... (16), mask 0xaaaaaaaa".
std::string laneGroupText(const std::vector<LaneGroup>& groups, int index);
// One line for the panel: "4 tiles of 8 lanes" / "2 groups (16, 16 lanes)" / "1 tile of 32 lanes".
std::string laneGroupsSummary(const std::vector<LaneGroup>& groups);
// Consecutive lane runs of a mask [first, last], for outlining a group on the lane strip.
std::vector<std::pair<int, int>> laneRuns(uint32_t lanes);

} // namespace warpscope::gui
