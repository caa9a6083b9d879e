// Shared banks panel: the selected warp's shared-memory instruction on the 32 banks. Columns are
// banks, rows are the word index inside a bank (byte offset / 128). A lane sits in the cell of
// the word it touches. Several distinct words in one bank in one phase are a bank conflict (the
// bank serves them one after another: red); several lanes on one word are a broadcast (served
// at once: green). 64-bit accesses run in 2 phases (lanes 0-15, 16-31), 128-bit in 4.
#include "gui/model/memory_model.hpp"
#include "gui/panels/panels.hpp"

#include <bit>

namespace warpscope::gui {

namespace {
const Rgb kSingle = okabe_ito::SkyBlue;
const Rgb kBroadcast = okabe_ito::BluishGreen;
const Rgb kConflict = okabe_ito::Vermillion;

std::string lanesText(uint32_t lanes) {
    std::string t;
    int n = 0;
    for (int l = 0; l < 32; ++l)
        if ((lanes >> l) & 1) {
            if (n++ < 8) t += (t.empty() ? "" : ", ") + std::to_string(l);
        }
    if (n > 8) t += ", ... (" + std::to_string(n) + " lanes)";
    return t;
}
} // namespace

void drawSharedBanksPanel(AppContext& app) {
    const MemAccess* a = memoryPicker(app, true, app.ui.sharedPick);
    if (!a) return;
    SharedDiagram d = buildSharedDiagram(*a);
    if (!d.valid) return;
    const char* op = d.isLoad ? "ld" : "st";
    // Headline numbers.
    uint32_t ways = 0;
    for (auto& ph : d.phases) ways = std::max(ways, ph.ways);
    ImGui::PushFont(app.fonts.bold);
    if (d.conflicts > 0) {
        ImGui::PushStyleColor(ImGuiCol_Text, colv(kConflict));
        ImGui::TextWrapped("%u-way bank conflict: %u wavefronts instead of %u", ways, d.wavefronts, d.ideal);
        ImGui::PopStyleColor();
    } else {
        ImGui::PushStyleColor(ImGuiCol_Text, colv(kBroadcast));
        ImGui::TextWrapped("No bank conflict: %u wavefront%s", d.wavefronts, d.wavefronts == 1 ? "" : "s");
        ImGui::PopStyleColor();
    }
    ImGui::PopFont();
    // A short panel (Presenter at 1280x720, scale 1.5) gives the grid the room: the counts on one
    // line, the legend's short labels, cells as small as it takes for every row to show.
    const float lineH = ImGui::GetTextLineHeight();
    const bool compact = ImGui::GetContentRegionAvail().y < lineH * 16;
    if (compact) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("%s, %u B/lane: %u wavefronts (ideal %u), %u conflicts, busiest bank %u", d.isLoad ? "load" : "store",
                           d.bytesPerLane, d.wavefronts, d.ideal, d.conflicts, d.worstBank);
        ImGui::PopStyleColor();
    }
    // What the access is, in a sentence above the table (it is the longest value).
    if (!compact) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s, %u bytes per lane, %u lanes, %zu phase%s", d.isLoad ? "load" : "store", d.bytesPerLane, d.activeLanes,
                       d.phases.size(), d.phases.size() > 1 ? "s" : "");
    ImGui::PopStyleColor();
    // Two columns, so a narrow panel keeps them readable and the bank diagram below stays in view;
    // a row's Nsight Compute name (or note) is its label's tooltip.
    if (ImGui::BeginTable("scounts", 2, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
        ImGui::TableSetupColumn("what");
        ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
        auto row = [](const char* k, const std::string& v, const std::string& m) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(k);
            if (!m.empty() && ImGui::IsItemHovered()) tooltip("%s", m.c_str());
            ImGui::TableNextColumn();
            ImGui::TextWrapped("%s", v.c_str());
        };
        // One PTX instruction's wavefronts: where ptxas merges neighbouring loads into one wider
        // load, the launch's Nsight-named count (Metrics panel) counts the group once.
        row("wavefronts", std::to_string(d.wavefronts) + " (ideal " + std::to_string(d.ideal) + ")",
            d.isLoad ? std::string("this PTX load's wavefronts (ptx__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum); "
                                   "ptxas may merge it with its neighbours into one LDS.64/LDS.128, counted once in "
                                   "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum")
                     : std::string("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"));
        row("bank conflicts", std::to_string(d.conflicts), std::string("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_") + op + ".sum");
        row("busiest bank", "bank " + std::to_string(d.worstBank) + " (" + std::to_string(ways) + " distinct word" + (ways == 1 ? "" : "s") + ")", "");
        row("broadcast words", std::to_string(d.broadcastWords), "several lanes, one word: served once");
        ImGui::EndTable();
    }
    }

    // The bank grid, one block per phase; rows = the distinct word rows used (gaps collapsed).
    std::vector<uint32_t> rows;
    for (auto& ph : d.phases)
        for (auto& bank : ph.banks)
            for (auto& w : bank) rows.push_back(w.row);
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    // The legend first: it wraps onto as many lines as the width needs, and the grid takes the rest.
    {
        float lh = ImGui::GetTextLineHeight();
        legendSwatch(kSingle, compact ? "one lane" : "one lane, no conflict", lh * 0.8f);
        legendSwatch(kBroadcast, compact ? "broadcast" : "broadcast (Nx = N lanes, one word)", lh * 0.8f);
        legendSwatch(kConflict, compact ? "conflict" : "bank conflict (distinct words, one bank)", lh * 0.8f);
        ImGui::NewLine();
    }
    ImGui::BeginChild("banks", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    float fontH = ImGui::GetTextLineHeight();
    float small = app.fonts.mono->FontSize * 0.72f;
    float labelW = ImGui::CalcTextSize("row 0000").x * 0.75f + 4;
    float avail = ImGui::GetContentRegionAvail().x - labelW - ImGui::GetStyle().ScrollbarSize;
    float cellW = std::max(fontH * (compact ? 0.6f : 0.9f), avail / 32.0f);
    // Bank numbers where they fit, else every fourth.
    const bool everyBank = cellW >= app.fonts.mono->CalcTextSizeA(small, FLT_MAX, 0, "31").x + 3;
    float cellH = std::clamp((ImGui::GetContentRegionAvail().y - fontH * 2.5f * d.phases.size()) /
                                 std::max<size_t>(1, rows.size() * d.phases.size()),
                             compact ? 2.5f : fontH * 0.55f, fontH * 1.25f);
    ImVec2 mouse = ImGui::GetIO().MousePos;
    std::string tip;
    for (size_t p = 0; p < d.phases.size(); ++p) {
        const SharedPhase& ph = d.phases[p];
        if (d.phases.size() > 1) {
            int first = std::countr_zero(ph.laneMask), last = 31 - std::countl_zero(ph.laneMask);
            ImGui::TextDisabled("phase %zu: lanes %d-%d, %u wavefront(s)", p + 1, first, last, std::max(1u, ph.ways));
        }
        ImVec2 o = ImGui::GetCursorScreenPos();
        // bank header
        for (int b = 0; b < 32; ++b) {
            if (!everyBank && b % 4) continue;
            float x = o.x + labelW + b * cellW;
            char n[8];
            std::snprintf(n, sizeof n, "%d", b);
            bool conflict = ph.banks[static_cast<size_t>(b)].size() > 1;
            dl->AddText(app.fonts.mono, small, ImVec2(x + 2, o.y), conflict ? col(kConflict) : ImGui::GetColorU32(ImGuiCol_TextDisabled), n);
        }
        dl->AddText(app.fonts.mono, small, ImVec2(o.x, o.y), ImGui::GetColorU32(ImGuiCol_TextDisabled), "bank");
        float gy = o.y + small + 3;
        for (size_t r = 0; r < rows.size(); ++r) {
            float y = gy + r * cellH;
            if (cellH >= small || (r % 4 == 0 && cellH >= small * 0.5f)) {   // tiny rows (a short panel): no labels
                char n[24];
                std::snprintf(n, sizeof n, "row %u", rows[r]);
                dl->AddText(app.fonts.mono, std::min(small, cellH), ImVec2(o.x, y), ImGui::GetColorU32(ImGuiCol_TextDisabled), n);
            }
            for (int b = 0; b < 32; ++b)
                dl->AddRect(ImVec2(o.x + labelW + b * cellW, y), ImVec2(o.x + labelW + (b + 1) * cellW, y + cellH), IM_COL32(128, 128, 128, 40));
        }
        for (int b = 0; b < 32; ++b) {
            const auto& words = ph.banks[static_cast<size_t>(b)];
            bool conflict = words.size() > 1;
            for (const BankWord& w : words) {
                size_t r = static_cast<size_t>(std::lower_bound(rows.begin(), rows.end(), w.row) - rows.begin());
                ImVec2 c0(o.x + labelW + b * cellW + 1, gy + r * cellH + 1), c1(o.x + labelW + (b + 1) * cellW - 1, gy + (r + 1) * cellH - 1);
                int n = std::popcount(w.lanes);
                Rgb c = conflict ? kConflict : n > 1 ? kBroadcast : kSingle;
                dl->AddRectFilled(c0, c1, col(c));
                if (conflict && n > 1) dl->AddRect(c0, c1, col(kBroadcast), 0, 0, 2.0f);   // broadcast inside a conflicting bank
                if (cellH >= small) {
                    char t[16];
                    int lane = std::countr_zero(w.lanes);
                    if (n > 1) std::snprintf(t, sizeof t, "%dx", n);
                    else std::snprintf(t, sizeof t, "%d", lane);
                    dl->AddText(app.fonts.mono, small, ImVec2(c0.x + 1, c0.y + (cellH - small) * 0.5f - 1), IM_COL32(0, 0, 0, 255), t);
                }
                if (mouse.x >= c0.x && mouse.x < c1.x && mouse.y >= c0.y && mouse.y < c1.y) {
                    uint64_t byteOff = (uint64_t(w.row) * 32 + b) * 4;
                    tip = "bank " + std::to_string(b) + ", row " + std::to_string(w.row) + " (shared offset " + std::to_string(byteOff) + ")\nlanes: " +
                          lanesText(w.lanes) + (n > 1 ? "\nbroadcast: one word, read once for all these lanes" : "") +
                          (conflict ? "\nconflict: this bank must deliver " + std::to_string(words.size()) + " different words in this phase" : "");
                }
            }
        }
        ImGui::Dummy(ImVec2(labelW + 32 * cellW, small + 3 + rows.size() * cellH + 4));
    }
    ImGui::EndChild();
    if (!tip.empty()) tooltip("%s", tip.c_str());
}

} // namespace warpscope::gui
