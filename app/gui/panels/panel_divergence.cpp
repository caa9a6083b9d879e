// Divergence summary: per source line, warp-instructions issued, average lanes doing work
// (SIMT efficiency) and divergent branches. Click a row to focus the line in the Source panel.
#include "gui/panels/panels.hpp"

#include <cfloat>

namespace warpscope::gui {

void drawDivergencePanel(AppContext& app) {
    const Snapshot& s = *app.snap;
    uint64_t warpInstr = 0, threadInstr = 0, branches = 0, divergent = 0;
    for (auto& [line, ls] : s.lineStats) {
        warpInstr += ls.warpInstructions;
        threadInstr += ls.threadInstructions;
        branches += ls.branches;
        divergent += ls.divergentBranches;
    }
    ImGui::Text("%llu warp-instructions, %.1f of 32 lanes doing work on average, %llu branches, %llu divergent",
                static_cast<unsigned long long>(warpInstr), warpInstr ? double(threadInstr) / double(warpInstr) : 0.0,
                static_cast<unsigned long long>(branches), static_cast<unsigned long long>(divergent));
    helpMarker("Counted over every instruction issued so far in this run (all launches). 'Lanes doing work' counts "
               "the lanes whose predicate is on (Nsight Compute's smsp__thread_inst_executed_pred_on per "
               "instruction): 32 means no lane was idle. A lane masked only by its own predicate counts as idle "
               "here but as executing in smsp__thread_inst_executed_per_inst_executed.ratio (Metrics panel), "
               "so that ratio can be higher.");
    if (s.lineStats.empty()) {
        ImGui::TextDisabled("Nothing issued yet: step the kernel.");
        return;
    }
    const auto* lines = s.lesson ? &s.lesson->sourceLines : nullptr;
    ImGuiTableFlags tf = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit |
                         ImGuiTableFlags_Resizable;
    if (ImGui::BeginTable("div", 6, tf)) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn("line");
        ImGui::TableSetupColumn("source", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableSetupColumn("warp-instr");
        ImGui::TableSetupColumn("lanes doing work", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 9);
        ImGui::TableSetupColumn("branches");
        ImGui::TableSetupColumn("divergent");
        ImGui::TableHeadersRow();
        for (auto& [line, ls] : s.lineStats) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            char lab[32];
            std::snprintf(lab, sizeof lab, "%u##l%u", line, line);
            if (ImGui::Selectable(lab, app.ui.clickedLine == line && line != 0, ImGuiSelectableFlags_SpanAllColumns)) app.ui.clickedLine = line;
            ImGui::TableNextColumn();
            std::string text = line == 0 ? "(no source line)" : lines && line <= lines->size() ? (*lines)[line - 1] : "";
            size_t a = text.find_first_not_of(" \t");
            ImGui::PushFont(app.fonts.mono);
            ImGui::TextUnformatted(a == std::string::npos ? "" : text.c_str() + a);
            ImGui::PopFont();
            ImGui::TableNextColumn();
            ImGui::Text("%llu", static_cast<unsigned long long>(ls.warpInstructions));
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
