// Grid & warps panel: every block of the grid; resident blocks show each warp as a strip of 32
// lanes coloured by state, pending and finished blocks are plain tiles. Scales from one block to
// many thousands: only the visible rows of tiles are drawn.
#include "gui/panels/panels.hpp"
#include "gui/model/grid_layout.hpp"

#include <cmath>

namespace warpscope::gui {


namespace {
// "(x,y,z)" of a linear block index (x fastest, as CUDA numbers blocks).
std::string blockCoords(const Snapshot& s, uint64_t lin) {
    uint64_t gx = std::max(1u, s.grid[0]), gy = std::max(1u, s.grid[1]);
    return "(" + std::to_string(lin % gx) + "," + std::to_string(lin / gx % gy) + "," + std::to_string(lin / (gx * gy)) + ")";
}
} // namespace

void drawGridPanel(AppContext& app) {
    const Snapshot& s = *app.snap;
    if (!s.program) {
        ImGui::TextDisabled(s.state == RunState::Loading ? "Building the launch..." : "No launch yet.");
        if (!s.lesson) return;
    }
    uint64_t done = s.blocksLaunched - std::min<uint64_t>(s.blocksLaunched, s.resident.size());
    // Wrapped, not cut, in a narrow panel.
    ImGui::TextWrapped("grid (%u,%u,%u) x block (%u,%u,%u): %llu %s of %u %s", s.grid[0], s.grid[1], s.grid[2], s.block[0], s.block[1],
                s.block[2], static_cast<unsigned long long>(s.blockCount), s.blockCount == 1 ? "block" : "blocks", s.warpsPerBlock,
                s.warpsPerBlock == 1 ? "warp" : "warps");
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%zu resident, %llu done, %llu pending", s.resident.size(), static_cast<unsigned long long>(done),
                       static_cast<unsigned long long>(s.blockCount - std::min<uint64_t>(s.blockCount, s.blocksLaunched)));
    ImGui::PopStyleColor();
    bool follow = app.settings.followIssuing;
    if (ImGui::Checkbox("##follow", &follow)) {
        app.settings.followIssuing = follow;
        app.session.setFollow(follow);
    }
    ImGui::SameLine(0, ImGui::GetStyle().ItemInnerSpacing.x);
    ImGui::TextWrapped("Follow the issuing warp");   // wraps in a narrow panel
    sameLineIfFits(ImGui::GetFontSize() * 6 + ImGui::CalcTextSize("zoom").x + ImGui::GetStyle().ItemInnerSpacing.x);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::SliderFloat("zoom", &app.ui.gridZoom, 0.5f, 4.0f, "%.1fx");
    // With tiles to show in a short panel (Presenter on a projector) the legend folds away, so the
    // selected warp's tile strip below keeps its room.
    const bool hasTiles = s.program && s.selected && s.selected->syncPc >= 0;
    const bool foldLegend = hasTiles && ImGui::GetContentRegionAvail().y < ImGui::GetTextLineHeightWithSpacing() * 16;
    const bool legendOpen = !foldLegend || ImGui::TreeNode("Legend");
    if (legendOpen) drawLegend(true);
    if (legendOpen) {   // block tiles legend
        float sz = ImGui::GetTextLineHeight() * 0.8f;
        ImDrawList* dl = ImGui::GetWindowDrawList();
        ImVec2 p = ImGui::GetCursorScreenPos();
        dl->AddRect(p, ImVec2(p.x + sz, p.y + sz), col(blockPendingColor()), 0, 0, 1.5f);
        ImGui::Dummy(ImVec2(sz, sz));
        ImGui::SameLine();
        ImGui::TextUnformatted("block pending");
        sameLineIfFits(sz + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize("block done").x, ImGui::GetStyle().ItemSpacing.x * 2);
        p = ImGui::GetCursorScreenPos();
        dl->AddRectFilled(p, ImVec2(p.x + sz, p.y + sz), col(blockDoneColor()));
        ImGui::Dummy(ImVec2(sz, sz));
        ImGui::SameLine();
        ImGui::TextUnformatted("block done");
        if (foldLegend) ImGui::TreePop();
    }
    if (!s.program) return;

    // The selected warp's tiles: its lanes grouped by the member masks of its last warp-synchronous
    // instruction (cooperative groups' tiled_partition, labeled_partition, coalesced_threads).
    std::vector<LaneGroup> groups;
    int tileGroup = -1;
    if (s.selected && s.selected->syncPc >= 0) {
        groups = laneGroups(s.selected->syncMask, s.selected->syncExec);
        app.ui.tileLane = std::clamp(app.ui.tileLane, 0, 31);
        tileGroup = laneGroupOf(groups, app.ui.tileLane);
        const size_t pc = static_cast<size_t>(s.selected->syncPc);
        const InstrInfo* in = pc < s.program->code.size() ? &s.program->code[pc] : nullptr;
        std::string op = in ? in->text.substr(0, in->text.find_first_of(" \t")) : std::string("?");
        ImGui::TextWrapped("Warp %u: %s (masks of %s, line %u)", s.selWarp, laneGroupsSummary(groups).c_str(), op.c_str(),
                           in ? in->line : 0);
        // The selected warp's 32 lanes at a readable size, whatever the grid's zoom: tiles outlined.
        const float fontH = ImGui::GetTextLineHeight();
        const float lw = std::floor(std::clamp(ImGui::GetContentRegionAvail().x / 32.0f, 4.0f, fontH * 1.5f));
        ImVec2 sp = ImGui::GetCursorScreenPos();
        sp.x += 2;
        ImDrawList* sdl = ImGui::GetWindowDrawList();
        drawLaneStrip(sdl, ImVec2(sp.x, sp.y + 2), lw, fontH, s.selected->warp.lanes);
        for (size_t gi = 0; gi < groups.size(); ++gi) {
            const bool mine = static_cast<int>(gi) == tileGroup;
            const Rgb hue = mine ? okabe_ito::Vermillion : gi % 2 ? Rgb{20, 20, 20} : Rgb{250, 250, 250};
            for (auto [l0, l1] : laneRuns(groups[gi].lanes))
                sdl->AddRect(ImVec2(sp.x + l0 * lw + 1, sp.y + 3), ImVec2(sp.x + (l1 + 1) * lw - 1, sp.y + fontH + 1), col(hue), 0, 0,
                             mine ? 3.0f : 2.0f);
        }
        ImGui::InvisibleButton("##tilestrip", ImVec2(32 * lw + 2, fontH + 4));
        if (ImGui::IsItemHovered()) {
            const int lane = std::clamp(static_cast<int>((ImGui::GetIO().MousePos.x - sp.x) / lw), 0, 31);
            const int g = laneGroupOf(groups, lane);
            tooltip("lane %d: %s\nclick to highlight this lane's tile", lane,
                    g >= 0 ? laneGroupText(groups, g).c_str() : "did not take part");
            if (ImGui::IsItemClicked()) app.ui.tileLane = lane;
        }
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
        ImGui::SliderInt("lane##tile", &app.ui.tileLane, 0, 31);
        if (ImGui::IsItemHovered()) tooltip("The lane whose tile is highlighted (or click a lane above or in the grid).");
        ImGui::SameLine();
        std::string t = tileGroup >= 0 ? laneGroupText(groups, tileGroup) : "lane " + std::to_string(app.ui.tileLane) + " did not take part";
        ImGui::TextWrapped("%s", t.c_str());
    }

    ImGui::BeginChild("tiles", ImVec2(0, 0), true, ImGuiWindowFlags_HorizontalScrollbar);   // a wide 2D grid scrolls, never wraps
    ImVec2 avail = ImGui::GetContentRegionAvail();
    float fontH = ImGui::GetTextLineHeight();
    TileLayout L = gridTileLayout(avail.x, avail.y, std::max(1u, s.warpsPerBlock), s.blockCount, app.ui.gridZoom, fontH, s.grid[0],
                             s.grid[1] > 1 || s.grid[2] > 1);
    uint64_t rows = (s.blockCount + L.cols - 1) / L.cols;
    ImVec2 origin = ImGui::GetCursorScreenPos();
    float scrollY = ImGui::GetScrollY();
    float viewH = ImGui::GetWindowHeight();
    uint64_t r0 = static_cast<uint64_t>(std::max(0.0f, scrollY / L.tileH));
    uint64_t r1 = std::min<uint64_t>(rows, static_cast<uint64_t>((scrollY + viewH) / L.tileH) + 1);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 mouse = ImGui::GetIO().MousePos;
    bool hoveredWin = ImGui::IsWindowHovered();
    std::string tip;
    uint32_t faultBlock = UINT32_MAX;
    if (s.error && s.error->site.blockX && s.grid[0]) {
        const auto& st = s.error->site;
        faultBlock = *st.blockX + s.grid[0] * (*st.blockY + s.grid[1] * *st.blockZ);
    }
    for (uint64_t r = r0; r < r1; ++r) {
        for (int c = 0; c < L.cols; ++c) {
            uint64_t lin = r * L.cols + c;
            if (lin >= s.blockCount) break;
            ImVec2 a(origin.x + c * L.tileW, origin.y + r * L.tileH);
            ImVec2 b(a.x + L.tileW - 2, a.y + L.tileH - 2);
            auto st = s.blockStatus(lin);
            bool hov = hoveredWin && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y;
            if (st == Snapshot::BlockStatus::Pending) {
                dl->AddRect(a, b, col(blockPendingColor()), 2, 0, 1.0f);
                if (hov) tip = "block " + std::to_string(lin) + " " + blockCoords(s, lin) + ": pending (not resident yet)";
            } else if (st == Snapshot::BlockStatus::Done) {
                dl->AddRectFilled(a, b, col(blockDoneColor(), 170), 2);
                if (hov) tip = "block " + std::to_string(lin) + " " + blockCoords(s, lin) + ": done";
            } else {
                const BlockView& bv = *s.residentBlock(static_cast<uint32_t>(lin));
                dl->AddRect(a, b, ImGui::GetColorU32(ImGuiCol_Border), 2, 0, 1.0f);
                if (L.labelH > 0) {
                    char lab[64];
                    std::snprintf(lab, sizeof lab, "(%u,%u,%u) SM%u", bv.idx[0], bv.idx[1], bv.idx[2], bv.sm);
                    dl->PushClipRect(a, b, true);
                    dl->AddText(ImVec2(a.x + L.pad, a.y + 1), ImGui::GetColorU32(ImGuiCol_TextDisabled), lab);
                    dl->PopClipRect();
                }
                for (const WarpView& w : bv.warps) {
                    ImVec2 wp(a.x + L.pad, a.y + L.pad + L.labelH + w.indexInBlock * L.rowH);
                    float h = std::max(1.0f, L.rowH - (L.rowH >= 4 ? 1 : 0));
                    uint32_t hl = 0;   // the faulting lane gets an outline
                    if (lin == faultBlock && s.error->site.lane && s.selected && s.selected->block == lin && s.selWarp == w.indexInBlock)
                        hl = 1u << *s.error->site.lane;
                    if (app.ui.highlight.on && app.ui.highlight.block == lin && app.ui.highlight.warp == w.indexInBlock) hl |= app.ui.highlight.lanes;
                    drawLaneStrip(dl, wp, L.laneW, h, w.lanes, hl);
                    bool sel = bv.linear == s.selBlock && w.indexInBlock == s.selWarp;
                    if (sel) dl->AddRect(ImVec2(wp.x - 2, wp.y - 1), ImVec2(wp.x + 32 * L.laneW + 1, wp.y + h + 1), col(okabe_ito::Yellow), 0, 0, 2.0f);
                    if (sel && !groups.empty()) {   // each tile outlined, hues alternating; the chosen lane's tile thick
                        const float inset = L.laneW >= 4 ? 1.0f : 0.5f;
                        for (size_t gi = 0; gi < groups.size(); ++gi) {
                            const bool mine = static_cast<int>(gi) == tileGroup;
                            // White and black stand out on every lane state's colour; the chosen tile is vermillion.
                            const Rgb hue = mine ? okabe_ito::Vermillion : gi % 2 ? Rgb{20, 20, 20} : Rgb{250, 250, 250};
                            for (auto [l0, l1] : laneRuns(groups[gi].lanes)) {
                                ImVec2 ta(wp.x + l0 * L.laneW + inset, wp.y + inset), tb(wp.x + (l1 + 1) * L.laneW - inset, wp.y + h - inset);
                                dl->AddRect(ta, tb, col(hue), 0, 0, mine ? 2.5f : 1.5f);
                            }
                        }
                    }
                    bool whov = hov && mouse.y >= wp.y && mouse.y < wp.y + L.rowH;
                    if (whov) {
                        const char* stName = w.masks.done ? "finished" : w.masks.atBarrier ? "waiting at barrier" : "ready";
                        int lane = std::clamp(static_cast<int>((mouse.x - wp.x) / L.laneW), 0, 31);
                        tip = "block " + std::to_string(lin) + " (" + std::to_string(bv.idx[0]) + "," + std::to_string(bv.idx[1]) + "," +
                              std::to_string(bv.idx[2]) + "), warp " + std::to_string(w.indexInBlock) + ": " + stName +
                              (w.line ? ", line " + std::to_string(w.line) : std::string()) + "\nlane " + std::to_string(lane) + ": " +
                              laneStateName(w.lanes[static_cast<size_t>(lane)]) + "\nactive " + maskText(w.masks.active);
                        if (sel && !groups.empty()) {
                            const int g = laneGroupOf(groups, lane);
                            tip += "\n" + (g >= 0 ? laneGroupText(groups, g) : std::string("not in a tile (did not take part)")) +
                                   "\nclick to highlight this lane's tile";
                        } else {
                            tip += "\nclick to select this warp";
                        }
                        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left) && sel) app.ui.tileLane = lane;
                        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left) && !sel) {
                            app.settings.followIssuing = false;
                            app.session.select(bv.linear, w.indexInBlock, false);
                        }
                    }
                }
                if (lin == faultBlock) dl->AddRect(a, b, col(faultColor()), 2, 0, 2.5f);
                if (hov && tip.empty()) tip = "block " + std::to_string(lin) + ": resident";
            }
        }
    }
    ImGui::Dummy(ImVec2(L.cols * L.tileW, rows * L.tileH));
    if (!tip.empty()) tooltip("%s", tip.c_str());
    ImGui::EndChild();
}

} // namespace warpscope::gui
