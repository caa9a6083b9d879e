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

#include <bit>
#include <cstdio>

namespace warpscope::gui {

std::vector<LaneGroup> laneGroups(const std::array<uint32_t, 32>& maskPerLane, uint32_t exec) {
    std::vector<LaneGroup> out;
    uint32_t left = exec;
    while (left) {
        const int l = std::countr_zero(left);
        LaneGroup g;
        g.mask = maskPerLane[static_cast<size_t>(l)];
        for (int k = l; k < 32; ++k)
            if ((left >> k & 1u) && maskPerLane[static_cast<size_t>(k)] == g.mask) g.lanes |= 1u << k;
        left &= ~g.lanes;
        g.first = l;
        g.size = std::popcount(g.lanes);
        const uint32_t run = g.size == 32 ? 0xffffffffu : ((1u << g.size) - 1) << l;
        g.tile = g.lanes == g.mask && g.lanes == run && std::has_single_bit(static_cast<uint32_t>(g.size)) && l % g.size == 0;
        out.push_back(g);
    }
    return out;
}

int laneGroupOf(const std::vector<LaneGroup>& groups, int lane) {
    if (lane < 0 || lane > 31) return -1;
    for (size_t i = 0; i < groups.size(); ++i)
        if (groups[i].lanes >> lane & 1u) return static_cast<int>(i);
    return -1;
}

std::vector<std::pair<int, int>> laneRuns(uint32_t lanes) {
    std::vector<std::pair<int, int>> runs;
    for (int l = 0; l < 32;) {
        if (!(lanes >> l & 1u)) {
            ++l;
            continue;
        }
        int e = l;
        while (e + 1 < 32 && (lanes >> (e + 1) & 1u)) ++e;
        runs.emplace_back(l, e);
        l = e + 1;
    }
    return runs;
}

namespace {
bool allTiles(const std::vector<LaneGroup>& groups) {
    for (const LaneGroup& g : groups)
        if (!g.tile) return false;
    return !groups.empty();
}
} // namespace

std::string laneGroupText(const std::vector<LaneGroup>& groups, int index) {
    if (index < 0 || static_cast<size_t>(index) >= groups.size()) return {};
    const LaneGroup& g = groups[static_cast<size_t>(index)];
    std::string s = std::string(g.tile ? "tile " : "group ") + std::to_string(index) + " of " + std::to_string(groups.size()) + ": lanes ";
    auto runs = laneRuns(g.lanes);
    for (size_t i = 0; i < runs.size(); ++i) {
        if (i) s += " ";
        s += std::to_string(runs[i].first);
        if (runs[i].second > runs[i].first) s += "-" + std::to_string(runs[i].second);
    }
    char m[16];
    std::snprintf(m, sizeof m, "0x%08x", g.mask);
    s += " (" + std::to_string(g.size) + "), mask " + m;
    if (g.mask != g.lanes) s += " (the mask and the lanes that carried it differ)";
    return s;
}

std::string laneGroupsSummary(const std::vector<LaneGroup>& groups) {
    if (groups.empty()) return "no lanes";
    bool same = true;
    for (const LaneGroup& g : groups) same = same && g.size == groups[0].size;
    const bool tiles = allTiles(groups);
    const std::string noun = tiles ? (groups.size() == 1 ? "tile" : "tiles") : (groups.size() == 1 ? "group" : "groups");
    std::string s = std::to_string(groups.size()) + " " + noun;
    if (same) return s + " of " + std::to_string(groups[0].size) + (groups[0].size == 1 ? " lane" : " lanes");
    s += " (";
    for (size_t i = 0; i < groups.size(); ++i) s += (i ? ", " : "") + std::to_string(groups[i].size);
    return s + " lanes)";
}

} // namespace warpscope::gui
