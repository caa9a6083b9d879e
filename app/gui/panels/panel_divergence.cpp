// Divergence summary: per source line, warp-instructions issued, average lanes active (Nsight's
// executed ratio) and doing work (predicate on), and divergent branches. Click a row to focus the line in the Source panel.
#include "gui/panels/panels.hpp"
#include "gui/model/text_fit.hpp"

#include <cfloat>

namespace warpscope::gui {

void drawDivergencePanel(AppContext& app) {
    const Snapshot& s = *app.snap;
    uint64_t warpInstr = 0, threadInstr = 0, activeLanes = 0, branches = 0, divergent = 0;
    for (auto& [line, ls] : s.lineStats) {
        warpInstr += ls.warpInstructions;
        threadInstr += ls.threadInstructions;
        activeLanes += ls.activeLanes;
        branches += ls.branches;
        divergent += ls.divergentBranches;
    }
    auto per = [&](uint64_t lanes) { return warpInstr ? double(lanes) / double(warpInstr) : 0.0; };
    ImGui::TextWrapped("%llu warp-instructions, %llu branches, %llu divergent", static_cast<unsigned long long>(warpInstr),
                       static_cast<unsigned long long>(branches), static_cast<unsigned long long>(divergent));
    // The explanation's (?) comes first on its line, so a narrow panel cannot clip it.
    helpMarker("Two averages per warp-instruction, counted over every instruction issued so far in this run (all "
               "launches).\n\nLanes active: the lanes the warp ran the instruction with (its SIMT mask). This is "
               "Nsight Compute's smsp__thread_inst_executed_per_inst_executed.ratio (Metrics panel); divergence lowers it.\n\n"
               "Lanes doing work: of those, the lanes whose predicate is on (smsp__thread_inst_executed_pred_on). A lane "
               "switched off by its own predicate, as in `if (i < n)` compiled to a predicated instruction, is active but "
               "does no work, so this can be lower without any divergent branch.");
    // The sentence goes beside the (?) only when ten characters of it fit there: a wrapped text
    // starting near the right edge would get one letter per line.
    sameLineIfFits(ImGui::GetFontSize() * 10);
    ImGui::TextWrapped("of 32 lanes: %.1f active (Nsight's executed ratio), %.1f doing work (predicate on)", per(activeLanes), per(threadInstr));
    if (s.lineStats.empty()) {
        ImGui::TextDisabled("Nothing issued yet: step the kernel.");
        return;
    }
    const auto* lines = s.lesson ? &s.lesson->sourceLines : nullptr;
    // Instructions without a source line (compiler-generated, no .loc) are counted above but get
    // no row: there is no line to point at.
    auto noLine = s.lineStats.find(0);
    if (noLine != s.lineStats.end() && noLine->second.warpInstructions) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("%llu of them have no source line (compiler-generated); they are in the totals only.",
                           static_cast<unsigned long long>(noLine->second.warpInstructions));
        ImGui::PopStyleColor();
    }
    ImGuiTableFlags tf = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit |
                         ImGuiTableFlags_Resizable;
    if (ImGui::BeginTable("div", 7, tf)) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn("line");
        ImGui::TableSetupColumn("source", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableSetupColumn("warp-instr");
        ImGui::TableSetupColumn("lanes active");
        ImGui::TableSetupColumn("lanes doing work", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 9);
        ImGui::TableSetupColumn("branches");
        ImGui::TableSetupColumn("divergent");
        ImGui::TableHeadersRow();
        for (auto& [line, ls] : s.lineStats) {
            if (line == 0) continue;
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            char lab[32];
            std::snprintf(lab, sizeof lab, "%u##l%u", line, line);
            if (ImGui::Selectable(lab, app.ui.clickedLine == line, ImGuiSelectableFlags_SpanAllColumns)) app.ui.clickedLine = line;
            ImGui::TableNextColumn();
            std::string text = lines && line <= lines->size() ? (*lines)[line - 1] : "";
            size_t a = text.find_first_not_of(" \t");
            // A line wider than the column ends in "…" (whole in its tooltip; a click shows it in Source).
            std::string code = a == std::string::npos ? "" : text.substr(a);
            ImGui::PushFont(app.fonts.mono);
            std::string shown = ellipsize(code, ImGui::GetContentRegionAvail().x, [](const std::string& t) { return ImGui::CalcTextSize(t.c_str()).x; });
            ImGui::TextUnformatted(shown.c_str());
            ImGui::PopFont();
            if (shown != code && ImGui::IsItemHovered()) tooltip("%s", code.c_str());
            ImGui::TableNextColumn();
            ImGui::Text("%llu", static_cast<unsigned long long>(ls.warpInstructions));
            ImGui::TableNextColumn();
            ImGui::Text("%4.1f", ls.warpInstructions ? double(ls.activeLanes) / double(ls.warpInstructions) : 0.0);
            ImGui::TableNextColumn();
            double eff = ls.efficiency();
            Rgb c = eff >= 30 ? okabe_ito::BluishGreen : eff >= 16 ? okabe_ito::Yellow : okabe_ito::Vermillion;
            ImGui::PushStyleColor(ImGuiCol_PlotHistogram, colv(c));
            char ov[32];
            std::snprintf(ov, sizeof ov, "%4.1f", eff);
            float tw = ImGui::CalcTextSize("00.0").x + ImGui::GetStyle().ItemSpacing.x;
            ImGui::ProgressBar(static_cast<float>(eff / 32.0), ImVec2(std::max(10.0f, ImGui::GetContentRegionAvail().x - tw), 0), "");
            ImGui::PopStyleColor();
            ImGui::SameLine();
            ImGui::TextUnformatted(ov);
            ImGui::TableNextColumn();
            ImGui::Text("%llu", static_cast<unsigned long long>(ls.branches));
            ImGui::TableNextColumn();
            if (ls.divergentBranches) ImGui::TextColored(colv(okabe_ito::Orange), "%llu", static_cast<unsigned long long>(ls.divergentBranches));
            else ImGui::TextDisabled("0");
        }
        ImGui::EndTable();
    }
}

} // namespace warpscope::gui
