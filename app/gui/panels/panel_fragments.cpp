// Fragments panel: the selected warp's matrix instruction (wmma, mma.sync, ldmatrix, movmatrix)
// with its A, B, C and D tiles drawn as matrices. Each element is coloured by the lane that holds
// it (one hue per group of four lanes, the row groups of the mma layouts; four shades inside a
// group) and, when the cells are big enough, labelled with that lane and the register of its
// fragment. The chosen lane's elements are outlined; hovering an element says
// "A[r][c] = value, lane L, register R"; clicking one chooses its lane. The data comes from
// model/fragment_view (the engine's fragment tables and the warp's registers).
#include "gui/model/fragment_view.hpp"
#include "gui/panels/panels.hpp"

#include <algorithm>
#include <cstdio>

namespace warpscope::gui {

namespace {

// Tiles side by side in rows of the arrangement: {A, B} over {C, D}, or all in one row.
using Arrangement = std::vector<std::vector<int>>;

float fitCell(const FragmentView& v, const Arrangement& arr, float w, float h, float titleH, float gap) {
    float s = 1e9f;
    float totalH = 0;
    int rowsSum = 0;
    for (auto& row : arr) {
        int cols = 0, maxRows = 0;
        for (int i : row) {
            cols += v.tiles[size_t(i)].cols;
            maxRows = std::max(maxRows, v.tiles[size_t(i)].rows);
        }
        s = std::min(s, (w - gap * float(row.size() - 1)) / float(std::max(cols, 1)));
        rowsSum += maxRows;
        totalH += titleH;
    }
    totalH += gap * float(arr.size() - 1) + 2;
    s = std::min(s, (h - totalH) / float(std::max(rowsSum, 1)));
    return s;
}

bool lightColour(Rgb c) { return 0.299f * c.r + 0.587f * c.g + 0.114f * c.b > 150.0f; }

} // namespace

void drawFragmentsPanel(AppContext& app) {
    const Snapshot& s = *app.snap;
    FragmentView v = buildFragmentView(s);
    if (!v.valid) {
        ImGui::Text("Block %u, warp %u", s.selBlock, s.selWarp);
        ImGui::TextWrapped("%s", v.message.c_str());
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("Step the warp to a wmma.load, wmma.mma, mma.sync, ldmatrix or movmatrix to see which lane holds which element.");
        ImGui::PopStyleColor();
        return;
    }
    ImGui::PushFont(app.fonts.bold);
    ImGui::TextWrapped("%s", v.instruction.c_str());
    ImGui::PopFont();
    if (ImGui::IsItemHovered()) tooltip("PTX line %u: %s", v.ptxLine, v.ptx.c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    if (v.executed)
        ImGui::TextWrapped("Block %u, warp %u: executed at line %u%s", s.selBlock, s.selWarp, v.line,
                           v.movedOn ? "; it has moved on, values are the registers' now" : "");
    else
        ImGui::TextWrapped("Block %u, warp %u: its next instruction, line %u", s.selBlock, s.selWarp, v.line);
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) tooltip("PTX line %u: %s", v.ptxLine, v.ptx.c_str());

    // One row of controls: the lane, the zoom, and what the lane holds (wrapping where narrow).
    int& lane = app.ui.fragmentLane;
    lane = std::clamp(lane, 0, 31);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::SliderInt("lane", &lane, 0, 31);
    if (ImGui::IsItemHovered()) tooltip("The lane whose elements are outlined (or click an element). Colour: the lane that holds an element, one hue per group of 4 lanes; hover an element for its value and register.");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    ImGui::SliderFloat("zoom", &app.ui.fragmentZoom, 1.0f, 4.0f, "%.1fx");
    {
        std::string holds = "lane " + std::to_string(lane) + " holds";
        for (const FragmentTile& t : v.tiles) holds += " " + t.name + ":" + std::to_string(laneCells(t, lane).size());
        ImGui::SameLine();
        if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(holds.c_str()).x) ImGui::NewLine();
        ImGui::TextDisabled("%s", holds.c_str());
    }

    ImGui::BeginChild("tiles", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float titleH = ImGui::GetTextLineHeightWithSpacing();
    const float gap = ImGui::GetFontSize() * 1.2f;
    ImVec2 avail = ImGui::GetContentRegionAvail();   // at zoom 1 the tiles fit: no scrollbars
    avail.x -= 2;

    Arrangement oneRow(1), twoRows;
    for (size_t i = 0; i < v.tiles.size(); ++i) oneRow[0].push_back(int(i));
    if (v.tiles.size() == 4) twoRows = {{0, 1}, {2, 3}};
    Arrangement arr = oneRow;
    float cell = fitCell(v, oneRow, avail.x, avail.y, titleH, gap);
    if (!twoRows.empty()) {
        float c2 = fitCell(v, twoRows, avail.x, avail.y, titleH, gap);
        if (c2 > cell) {
            cell = c2;
            arr = twoRows;
        }
    }
    const float minCell = 3.0f;   // the whole instruction stays in view; the zoom enlarges it
    cell = std::clamp(cell, minCell, ImGui::GetFontSize() * 3.0f) * app.ui.fragmentZoom;

    // Labels: the lane number when it fits, and the register below it when two lines fit.
    ImFont* mono = app.fonts.mono;
    float labelSize = std::min(mono->FontSize, cell * 0.42f);
    float digitW = mono->CalcTextSizeA(labelSize, FLT_MAX, 0, "31").x;
    bool laneLabel = cell >= digitW + 4 && labelSize >= mono->FontSize * 0.5f;
    bool regLabel = laneLabel && cell >= labelSize * 2.1f;

    const Rgb outline = app.settings.darkTheme ? Rgb{255, 255, 255} : Rgb{0, 0, 0};
    ImVec2 mouse = ImGui::GetIO().MousePos;
    std::string tip;
    int clicked = -1;
    ImVec2 origin = ImGui::GetCursorScreenPos();
    float y = origin.y;
    float maxX = origin.x;
    for (auto& row : arr) {
        float x = origin.x;
        int maxRows = 0;
        for (size_t k = 0; k < row.size(); ++k) {
            const int ti = row[k];
            const FragmentTile& t = v.tiles[size_t(ti)];
            // A title may run on past its tile into the gap, or to the panel's edge after the last tile.
            const float titleRoom = k + 1 == row.size() ? std::max(t.cols * cell, origin.x + avail.x - x) : t.cols * cell + gap * 0.5f;
            maxRows = std::max(maxRows, t.rows);
            // The longest title that fits above the tile: "A  16x16 f16, input", "A f16", "A".
            {
                const float tileW = t.cols * cell;
                std::string titles[3] = {t.name + "  " + std::to_string(t.rows) + "x" + std::to_string(t.cols) + " " + t.type + ", " + t.role,
                                         t.name + " " + t.type, t.name};
                const std::string* title = &titles[2];
                for (auto& cand : titles)
                    if (ImGui::CalcTextSize(cand.c_str()).x <= titleRoom) {
                        title = &cand;
                        break;
                    }
                dl->AddText(ImVec2(x, y), ImGui::GetColorU32(ImGuiCol_Text), title->c_str());
                ImVec2 tp(x, y);
                if (mouse.x >= tp.x && mouse.x < tp.x + tileW && mouse.y >= tp.y && mouse.y < tp.y + titleH && ImGui::IsWindowHovered())
                    tip = titles[0];
            }
            float ty = y + titleH;
            for (int r = 0; r < t.rows; ++r)
                for (int c = 0; c < t.cols; ++c) {
                    const FragmentCell& fc = t.at(r, c);
                    ImVec2 a(x + c * cell, ty + r * cell), b(a.x + cell, a.y + cell);
                    bool mine = fc.lane == lane;
                    Rgb rgb = fc.lane >= 0 ? fragmentLaneColor(fc.lane) : Rgb{128, 128, 128};
                    dl->AddRectFilled(a, ImVec2(b.x - 1, b.y - 1), col(rgb), 0.0f);
                    if (!mine) dl->AddRectFilled(a, ImVec2(b.x - 1, b.y - 1), IM_COL32(255, 255, 255, app.settings.darkTheme ? 40 : 70));
                    if (laneLabel && fc.lane >= 0) {
                        char lbl[8];
                        std::snprintf(lbl, sizeof lbl, "%d", fc.lane);
                        ImU32 tc = lightColour(rgb) ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255);
                        float lw = mono->CalcTextSizeA(labelSize, FLT_MAX, 0, lbl).x;
                        float ly = regLabel ? a.y + cell * 0.5f - labelSize : a.y + (cell - labelSize) * 0.5f;
                        dl->AddText(mono, labelSize, ImVec2(a.x + (cell - lw) * 0.5f, ly), tc, lbl);
                        if (regLabel) {
                            std::snprintf(lbl, sizeof lbl, "r%d", fc.reg);
                            float rw = mono->CalcTextSizeA(labelSize, FLT_MAX, 0, lbl).x;
                            dl->AddText(mono, labelSize, ImVec2(a.x + (cell - rw) * 0.5f, a.y + cell * 0.5f), tc, lbl);
                        }
                    }
                    if (mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y && ImGui::IsWindowHovered()) {
                        tip = fragmentCellText(t, r, c);
                        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) clicked = fc.lane;
                    }
                }
            // The chosen lane's elements, outlined on top; 8x8 matrix borders for ldmatrix .x2/.x4.
            for (int r = 0; r < t.rows; ++r)
                for (int c = 0; c < t.cols; ++c)
                    if (t.at(r, c).lane == lane) {
                        ImVec2 a(x + c * cell, ty + r * cell);
                        dl->AddRect(a, ImVec2(a.x + cell - 1, a.y + cell - 1), col(outline), 0.0f, 0, std::max(2.0f, cell * 0.08f));
                    }
            for (int m = 1; m < t.subTiles; ++m) {
                float sx = x + m * 8 * cell - 0.5f;
                dl->AddLine(ImVec2(sx, ty), ImVec2(sx, ty + t.rows * cell), col(outline), 2.0f);
            }
            dl->AddRect(ImVec2(x - 1, ty - 1), ImVec2(x + t.cols * cell, ty + t.rows * cell), ImGui::GetColorU32(ImGuiCol_Border));
            x += t.cols * cell + gap;
        }
        maxX = std::max(maxX, x - gap);
        y += titleH + maxRows * cell + gap;
    }
    ImGui::Dummy(ImVec2(maxX - origin.x, y - gap - origin.y));
    if (!tip.empty()) tooltip("%s", tip.c_str());
    if (clicked >= 0) lane = clicked;
    ImGui::EndChild();
}

} // namespace warpscope::gui
