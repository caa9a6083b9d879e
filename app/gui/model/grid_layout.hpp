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
