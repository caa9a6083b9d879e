// Grid & warps' tile layout (grid_layout.hpp).
#include "gui/model/grid_layout.hpp"

#include <algorithm>
#include <cmath>

namespace warpscope::gui {

TileLayout gridTileLayout(float W, float H, uint32_t wpb, uint64_t blocks, float zoom, float fontH, uint32_t gridX, bool is2d) {
    TileLayout best;
    const float lanes[] = {18, 14, 11, 8, 6, 4, 3, 2, 1.5f, 1};
    for (float lw : lanes) {
        TileLayout t;
        t.laneW = lw * zoom;
        t.rowH = std::clamp(t.laneW * 1.1f, 2.0f, fontH * 1.1f);
        t.pad = t.laneW >= 4 ? 6 : 3;
        t.labelH = t.laneW >= 6 ? fontH + 2 : 0;
        t.tileW = 32 * t.laneW + t.pad * 2;
        t.tileH = static_cast<float>(wpb) * t.rowH + t.labelH + t.pad * 2;
        int fit = std::max(1, static_cast<int>(W / t.tileW));
        // A 2D grid keeps gridDim.x tiles per row (block (x, y) at column x, row y).
        t.cols = is2d ? static_cast<int>(std::max<uint32_t>(1, gridX)) : fit;
        double rows = std::ceil(double(blocks) / t.cols);
        best = t;
        bool fitsWide = !is2d || t.cols <= fit;
        if ((rows * t.tileH <= H && fitsWide) || lw <= 1) break;
    }
    return best;
}

} // namespace warpscope::gui
