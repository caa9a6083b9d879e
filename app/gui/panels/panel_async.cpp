// Async copies panel: the selected warp's cp.async copies that have not landed in shared memory,
// one row per commit group (how many copies and bytes, which lanes, the global source and shared
// destination ranges, pending or, in Timed mode, when the cycle model has the data back), and a
// map of the block's shared memory, 32 words (one per bank) a row or a multiple of 32 where the room
// is wide and short, with the words pending copies
// will write drawn hatched: this warp's in orange, the other warps' in blue. Shared memory changes
// only when a wait lands a group. The data comes from model/async_view.
#include "gui/model/async_view.hpp"
#include "gui/panels/panels.hpp"

#include <algorithm>
#include <cstdio>

namespace warpscope::gui {

namespace {
void hatch(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 c) {
    const float step = std::max(3.0f, (b.x - a.x) * 0.45f);
    dl->PushClipRect(a, b, true);
    for (float x = a.x - (b.y - a.y); x < b.x; x += step) dl->AddLine(ImVec2(x, b.y), ImVec2(x + (b.y - a.y), a.y), c, 1.0f);
    dl->PopClipRect();
}

void legendBox(ImDrawList* dl, Rgb c, bool hatched, const char* text) {
    const float h = ImGui::GetTextLineHeight();
    ImVec2 p = ImGui::GetCursorScreenPos();
    ImVec2 a(p.x, p.y + 2), b(p.x + h - 4, p.y + h - 2);
    dl->AddRectFilled(a, b, col(c, hatched ? 90 : 255));
    if (hatched) hatch(dl, a, b, col(c));
    ImGui::Dummy(ImVec2(h, h));
    ImGui::SameLine(0, 2);
    ImGui::TextUnformatted(text);
}
} // namespace

void drawAsyncPanel(AppContext& app) {
    const Snapshot& s = *app.snap;
    AsyncView v = buildAsyncView(s);
    if (!v.valid) {
        ImGui::TextWrapped("%s", v.message.c_str());
        return;
    }
    ImGui::PushFont(app.fonts.bold);
    if (v.copies)
        ImGui::TextWrapped("Block %u, warp %u: %u %s in flight, %u bytes, %zu group%s", v.block, v.warp, v.copies,
                           v.copies == 1 ? "copy" : "copies", v.bytes, v.groups.size(), v.groups.size() == 1 ? "" : "s");
    else
        ImGui::TextWrapped("Block %u, warp %u: no copies in flight", v.block, v.warp);
    ImGui::PopFont();
    if (ImGui::IsItemHovered())
        tooltip("A copy reads global memory when it issues; its bytes land in shared memory when cp.async.wait_group waits for its group.%s",
                v.timed ? " Timed mode: the state says when the cycle model has each group's data back." : "");
    if (!v.copies) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("%s Copies land in shared memory when cp.async.wait_group waits for their group.", v.message.c_str());
        ImGui::PopStyleColor();
    }

    if (!v.groups.empty()) {
        const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit;
        const float rows = float(std::min<size_t>(v.groups.size(), 6) + 1);
        const float tableH = ImGui::GetTextLineHeightWithSpacing() * rows + ImGui::GetStyle().ScrollbarSize + ImGui::GetStyle().CellPadding.y * 2 * rows;
        if (ImGui::BeginTable("asyncgroups", 6, flags, ImVec2(0, tableH))) {
            for (const char* h : {"group", "copies", "lanes", "from (global)", "to (shared)", "state"}) ImGui::TableSetupColumn(h);
            ImGui::TableHeadersRow();
            for (const AsyncGroupRow& g : v.groups) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                if (g.group == ~0u) ImGui::TextUnformatted("open");
                else ImGui::Text("%u", g.group);
                if (ImGui::IsItemHovered()) tooltip("%s", asyncGroupText(g).c_str());
                ImGui::TableNextColumn();
                ImGui::Text("%u (%u B)", g.copies, g.bytes);
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(laneListText(g.lanes).c_str());
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(g.sourcesKnown ? sourceText(g).c_str() : "?");
                if (ImGui::IsItemHovered()) tooltip("%s", sourceText(g).c_str());
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(destinationText(g, 2).c_str());
                if (ImGui::IsItemHovered()) tooltip("shared %s", destinationText(g, 16).c_str());
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(g.state.c_str());
            }
            ImGui::EndTable();
        }
    }

    // The block's shared memory, one cell per 4-byte word, 32 a row (bank = column).
    const uint32_t words = uint32_t(v.words.size());
    ImGui::TextWrapped("Shared memory (%u B): %u words pending, %u this warp's", words * 4, v.pendingWords, v.pendingWordsThisWarp);
    {
        // The legend, each entry on the line while it fits.
        ImDrawList* dl = ImGui::GetWindowDrawList();
        struct Entry {
            Rgb c;
            bool hatched;
            const char* text;
        };
        const Entry entries[] = {{okabe_ito::Orange, true, "this warp's"}, {okabe_ito::SkyBlue, true, "other warps'"}, {Rgb{128, 128, 128}, false, "not pending"}};
        for (size_t i = 0; i < 3; ++i) {
            if (i) {
                ImGui::SameLine(0, ImGui::GetFontSize());
                if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(entries[i].text).x + ImGui::GetTextLineHeight() * 1.5f) ImGui::NewLine();
            }
            legendBox(dl, entries[i].c, entries[i].hatched, entries[i].text);
        }
    }
    if (words == 0) {
        ImGui::TextDisabled("This launch has no shared memory.");
        return;
    }
    ImGui::BeginChild("asyncshared", ImVec2(0, 0), false);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float availW = ImGui::GetContentRegionAvail().x - 2;
    const float availH = ImGui::GetContentRegionAvail().y - 2;
    // 32 words a row (one per bank), or a multiple of 32 when the room is wide and short (a
    // projector): whichever gives the biggest cells; never smaller than 3 pixels (then it scrolls).
    uint32_t perRow = 32;
    float cell = 0;
    for (uint32_t cols : {32u, 64u, 128u, 256u}) {
        const float c = std::min(availW / float(cols), availH / float((words + cols - 1) / cols));
        if (c > cell + 0.5f) {
            cell = c;
            perRow = cols;
        }
    }
    const uint32_t rowsN = (words + perRow - 1) / perRow;
    cell = std::clamp(cell, 3.0f, ImGui::GetFontSize() * 1.5f);
    ImVec2 o = ImGui::GetCursorScreenPos();
    ImVec2 mouse = ImGui::GetIO().MousePos;
    std::string tip;
    for (uint32_t w = 0; w < words; ++w) {
        const uint32_t r = w / perRow, c = w % perRow;
        ImVec2 a(o.x + c * cell, o.y + r * cell), b(a.x + cell - 1, a.y + cell - 1);
        switch (v.words[w]) {
        case SharedWord::Idle: dl->AddRectFilled(a, b, IM_COL32(128, 128, 128, app.settings.darkTheme ? 70 : 90)); break;
        case SharedWord::PendingOther:
            dl->AddRectFilled(a, b, col(okabe_ito::SkyBlue, 80));
            hatch(dl, a, b, col(okabe_ito::SkyBlue));
            break;
        case SharedWord::PendingThisWarp:
            dl->AddRectFilled(a, b, col(okabe_ito::Orange, 90));
            hatch(dl, a, b, col(okabe_ito::Orange));
            break;
        }
        if (mouse.x >= a.x && mouse.x <= b.x && mouse.y >= a.y && mouse.y <= b.y && ImGui::IsWindowHovered()) {
            char buf[160];
            const char* what = v.words[w] == SharedWord::PendingThisWarp ? "pending: a copy of this warp will write it at its wait"
                               : v.words[w] == SharedWord::PendingOther  ? "pending: another warp's copy will write it"
                                                                         : "no copy pending";
            std::snprintf(buf, sizeof buf, "shared offset %u (bank %u): %s", w * 4, w % 32, what);
            tip = buf;
        }
    }
    ImGui::Dummy(ImVec2(float(perRow) * cell, float(rowsN) * cell));
    if (!tip.empty()) tooltip("%s", tip.c_str());
    ImGui::EndChild();
}

} // namespace warpscope::gui
