// Checker reports: the optional checkers (initcheck, racecheck) switched on or off, the launch's
// fault (memcheck / synccheck, always on) and every report, each with "go to line", which selects
// the source line and the block, warp and lane involved (outlined in the grid and warp panels).
#include "gui/panels/panels.hpp"

namespace warpscope::gui {

namespace {
std::string where(const FaultSite& f) {
    std::string w;
    if (f.blockX) w += "block (" + std::to_string(*f.blockX) + "," + std::to_string(f.blockY.value_or(0)) + "," + std::to_string(f.blockZ.value_or(0)) + ")";
    if (f.threadX)
        w += std::string(w.empty() ? "" : " ") + "thread (" + std::to_string(*f.threadX) + "," + std::to_string(f.threadY.value_or(0)) + "," +
             std::to_string(f.threadZ.value_or(0)) + ")";
    if (f.lane) w += " lane " + std::to_string(*f.lane);
    return w;
}
} // namespace

void drawReportsPanel(AppContext& app) {
    const Snapshot& s = *app.snap;
    bool init = s.initcheck, race = s.racecheck;
    bool changed = ImGui::Checkbox("initcheck", &init);
    if (ImGui::IsItemHovered()) tooltip("Report loads of global or shared memory that nothing has written");
    ImGui::SameLine();
    changed |= ImGui::Checkbox("racecheck", &race);
    if (ImGui::IsItemHovered()) tooltip("Report shared-memory hazards between warps with no barrier between them");
    if (changed) app.session.setCheckers(init, race);
    const char* always = "memcheck and synccheck are always on (they stop the launch)";
    sameLineIfFits(ImGui::CalcTextSize(always).x);   // else its own line, wrapped: never cut at the right
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", always);
    ImGui::PopStyleColor();
    if (changed) ImGui::TextDisabled("The lesson restarts with the new checkers.");

    if (s.error) {
        const ErrorInfo& e = *s.error;
        ImGui::PushStyleColor(ImGuiCol_ChildBg, colv(faultColor(), 0.15f));
        ImGui::BeginChild("fault", ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * 4.5f), true);
        ImGui::PushFont(app.fonts.bold);
        ImGui::TextColored(colv(faultColor()), "%s: the launch stopped", Error::kindName(e.kind));
        ImGui::PopFont();
        if (e.site.sourceLine) {
            ImGui::SameLine();
            if (ImGui::SmallButton("go to line##fault")) app.goToSite(e.site, s.grid, s.block);
        }
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(e.message.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndChild();
        ImGui::PopStyleColor();
    }

    if (s.reports.empty()) {
        if (!s.initcheck && !s.racecheck)
            ImGui::TextWrapped("No reports. Turn on initcheck or racecheck to look for uninitialized reads and shared-memory races.");
        else
            ImGui::TextWrapped("No reports so far%s.", s.state == RunState::Finished ? " (the lesson ran to the end)" : " (run the lesson to find more)");
        return;
    }
    ImGui::Text("%zu report%s", s.reports.size(), s.reports.size() == 1 ? "" : "s");
    // Narrow (the Presenter slot at 720p): one report after another, the message wrapped across
    // the whole width, instead of a table whose message column would be a few pixels wide.
    const float tableNeeds = ImGui::GetFontSize() * (5.5f + 8 + 6.5f + 9 + 14);
    if (ImGui::GetContentRegionAvail().x < tableNeeds) {
        ImGui::BeginChild("reports-stacked");
        ImGui::PushTextWrapPos(0);
        for (size_t i = 0; i < s.reports.size(); ++i) {
            const ReportView& r = s.reports[i];
            ImGui::PushID(static_cast<int>(i));
            if (i) ImGui::Separator();
            ImGui::TextColored(colv(r.tool == "racecheck" ? okabe_ito::Orange : okabe_ito::ReddishPurple), "%s", r.tool.c_str());
            ImGui::SameLine();
            ImGui::TextUnformatted(r.hazard.c_str());
            if (r.site.sourceLine) {
                std::string line = "line " + std::to_string(*r.site.sourceLine);
                sameLineIfFits(ImGui::CalcTextSize(line.c_str()).x);
                ImGui::TextUnformatted(line.c_str());
            }
            sameLineIfFits(ImGui::CalcTextSize("go to").x + ImGui::GetStyle().FramePadding.x * 2);
            if (ImGui::SmallButton("go to")) app.goToSite(r.site, r.grid, r.block);
            if (ImGui::IsItemHovered()) tooltip("Show the source line and select the warp; the lane is outlined");
            ImGui::TextUnformatted(r.message.c_str());
            std::string at = "launch " + std::to_string(r.launchIndex + 1) + " " + r.kernel + ", " + where(r.site);
            for (char& c : at)
                if (c == '\n') c = ' ';
            ImGui::TextDisabled("%s", at.c_str());
            ImGui::PopID();
        }
        ImGui::PopTextWrapPos();
        ImGui::EndChild();
        return;
    }
    ImGuiTableFlags tf = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp |
                         ImGuiTableFlags_Resizable;
    if (ImGui::BeginTable("reports", 5, tf)) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn("tool", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 5.5f);
        ImGui::TableSetupColumn("hazard", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 8);
        ImGui::TableSetupColumn("line", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 6.5f);
        ImGui::TableSetupColumn("where", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 9);
        ImGui::TableSetupColumn("message", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableHeadersRow();
        for (size_t i = 0; i < s.reports.size(); ++i) {
            const ReportView& r = s.reports[i];
            ImGui::TableNextRow();
            ImGui::PushID(static_cast<int>(i));
            ImGui::TableNextColumn();
            ImGui::TextColored(colv(r.tool == "racecheck" ? okabe_ito::Orange : okabe_ito::ReddishPurple), "%s", r.tool.c_str());
            ImGui::TableNextColumn();
            ImGui::TextWrapped("%s", r.hazard.c_str());
            ImGui::TableNextColumn();
            if (r.site.sourceLine) {
                ImGui::Text("%u", *r.site.sourceLine);
                ImGui::SameLine();
            }
            if (ImGui::SmallButton("go to")) app.goToSite(r.site, r.grid, r.block);
            if (ImGui::IsItemHovered()) tooltip("Show the source line and select the warp; the lane is outlined");
            ImGui::TableNextColumn();
            ImGui::TextWrapped("launch %d %s\n%s", r.launchIndex + 1, r.kernel.c_str(), where(r.site).c_str());
            ImGui::TableNextColumn();
            ImGui::TextWrapped("%s", r.message.c_str());
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
}

} // namespace warpscope::gui
