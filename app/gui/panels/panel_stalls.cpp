// Stall reasons (Timed mode): where the warps' cycles went, per kernel launch (a bar per reason,
// in warp-cycles and percent, named as Nsight Compute names them) and per CUDA source line.
#include "gui/panels/panels.hpp"
#include "gui/panels/timing_ui.hpp"

#include <imgui_internal.h>

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace warpscope::gui {

namespace {
using timing::StallReason;

std::string sourceText(const Snapshot& s, uint32_t line) {
    if (!s.lesson || line == 0 || line > s.lesson->sourceLines.size()) return {};
    std::string t = s.lesson->sourceLines[line - 1];
    size_t a = t.find_first_not_of(" \t");
    return a == std::string::npos ? std::string() : t.substr(a);
}
void sectionTitle(AppContext& app, const char* t) {
    ImGui::Spacing();
    ImGui::PushFont(app.fonts.bold);
    ImGui::TextWrapped("%s", t);   // wraps in a narrow panel
    ImGui::PopFont();
    ImGui::Separator();
}
} // namespace

void drawStallsPanel(AppContext& app) {
    const Snapshot& s = *app.snap;
    if (!s.timed) {
        ImGui::TextWrapped("Stall reasons come from the cycle model: turn Timed mode on (toolbar) and step or run a launch.");
        if (ImGui::Button("Turn Timed mode on")) {
            app.ui.timed = true;
            app.applyTiming();
        }
        return;
    }
    // The launches to choose from: finished ones, and the running one.
    std::vector<std::shared_ptr<const TimedLaunchView>> launches = s.launchTimings;
    if (s.timing && s.timing->launch &&
        (launches.empty() || launches.back()->launchIndex != s.timing->launch->launchIndex))
        launches.push_back(s.timing->launch);
    if (launches.empty()) {
        ImGui::TextWrapped("No timed launch yet: step (F10) to start one.");
        return;
    }
    int pick = app.ui.stallsLaunch;
    if (pick < 0 || pick >= static_cast<int>(launches.size())) pick = static_cast<int>(launches.size()) - 1;
    if (launches.size() > 1) {
        ImGui::SetNextItemWidth(std::min(ImGui::GetFontSize() * 14, ImGui::GetContentRegionAvail().x));
        char cur[96];
        std::snprintf(cur, sizeof cur, "launch %d: %s", launches[static_cast<size_t>(pick)]->launchIndex + 1,
                      launches[static_cast<size_t>(pick)]->kernel.c_str());
        if (ImGui::BeginCombo("##launch", cur)) {
            for (size_t i = 0; i < launches.size(); ++i) {
                char l[96];
                std::snprintf(l, sizeof l, "launch %d: %s%s", launches[i]->launchIndex + 1, launches[i]->kernel.c_str(),
                              launches[i]->complete ? "" : " (running)");
                if (ImGui::Selectable(l, static_cast<int>(i) == pick)) app.ui.stallsLaunch = i + 1 == launches.size() ? -1 : static_cast<int>(i);
            }
            ImGui::EndCombo();
        }
    }
    const TimedLaunchView& L = *launches[static_cast<size_t>(pick)];
    const timing::TimingResult& r = L.result;
    std::string preset = s.timing ? s.timing->spec.name : s.gpuPreset;

    // Header: the prediction.
    ImGui::PushFont(app.fonts.bold);
    ImGui::TextWrapped("%s on %s: %s%llu cycles = %.2f us", L.kernel.c_str(), preset.c_str(), L.complete ? "" : "so far ",
                static_cast<unsigned long long>(r.cycles), r.microseconds);
    ImGui::PopFont();
    char info[256];
    // Nsight Compute's duration (and events around queued launches) also count the GPU's launch
    // and drain: the preset's gap between queued kernels.
    const double gapUs = s.timing ? s.timing->spec.kernelGapUs : 0.0;
    std::snprintf(info, sizeof info, "%.2f us with the launch and drain (+%.1f us); %llu warp-instructions, occupancy %.0f%% (%u blocks/SM), %u registers/thread%s",
                  r.microseconds + gapUs, gapUs, static_cast<unsigned long long>(r.warpInstructions), r.occupancy.occupancy * 100.0,
                  r.occupancy.activeBlocksPerSM, r.registersPerThread, r.registersEstimated ? " (estimated)" : "");
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", info);
    ImGui::PopStyleColor();

    // Per reason: bars.
    uint64_t total = std::accumulate(r.stalls.begin(), r.stalls.end(), uint64_t(0));
    sectionTitle(app, "Warp-cycles by reason");
    if (total == 0) {
        ImGui::TextDisabled("Nothing yet: step a few cycles.");
    } else if (ImGui::BeginTable("reasons", 3, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) {
        // Proportional columns: the table never grows past a narrow panel (names wrap).
        ImGui::TableSetupColumn("reason", ImGuiTableColumnFlags_WidthStretch, 1.3f);
        ImGui::TableSetupColumn("bar", ImGuiTableColumnFlags_WidthStretch, 1.0f);
        ImGui::TableSetupColumn("warp-cycles", ImGuiTableColumnFlags_WidthStretch, 1.3f);
        std::vector<int> order(timing::kStallReasonCount);
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return r.stalls[size_t(a)] > r.stalls[size_t(b)]; });
        for (int k : order) {
            uint64_t v = r.stalls[size_t(k)];
            auto reason = static_cast<StallReason>(k);
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextWrapped("%s", std::string(timing::stallShortName(reason)).c_str());
            if (ImGui::IsItemHovered()) tooltip("%s\n%s", timing::stallMetricName(reason).c_str(), stallExplanation(reason));
            ImGui::TableNextColumn();
            double frac = double(v) / double(total);
            ImGui::PushStyleColor(ImGuiCol_PlotHistogram, colv(stallColor(reason)));
            char pct[16];
            std::snprintf(pct, sizeof pct, "%.1f%%", frac * 100);
            ImGui::ProgressBar(static_cast<float>(frac), ImVec2(-1, ImGui::GetTextLineHeight()), pct);
            ImGui::PopStyleColor();
            ImGui::TableNextColumn();
            ImGui::Text("%llu", static_cast<unsigned long long>(v));
        }
        ImGui::EndTable();
    }

    // Per source line: where the stalls happen.
    sectionTitle(app, "By source line (click: show it in the source)");
    struct LineRow {
        uint32_t line;
        uint64_t total;
        const timing::StallCounts* c;
    };
    std::vector<LineRow> rows;
    for (auto& [line, c] : r.stallsByLine) {
        uint64_t t = std::accumulate(c.begin(), c.end(), uint64_t(0));
        if (t) rows.push_back({line, t, &c});
    }
    std::sort(rows.begin(), rows.end(), [](const LineRow& a, const LineRow& b) { return a.total > b.total; });
    if (rows.empty()) {
        ImGui::TextDisabled("No line has stalled yet.");
        return;
    }
    ImGuiTableFlags tf = ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
    if (ImGui::BeginTable("lines", 3, tf, ImVec2(0, std::max(ImGui::GetContentRegionAvail().y, ImGui::GetTextLineHeightWithSpacing() * 4)))) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn("line");
        ImGui::TableSetupColumn("warp-cycles");
        ImGui::TableSetupColumn("top reasons", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableHeadersRow();
        for (const LineRow& row : rows) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            char id[24];
            std::snprintf(id, sizeof id, "%u##l%u", row.line, row.line);
            if (ImGui::Selectable(id, app.ui.clickedLine == row.line, ImGuiSelectableFlags_SpanAllColumns)) {
                app.ui.clickedLine = row.line;
                app.ui.scrollToLine = row.line;
            }
            std::string src = sourceText(s, row.line);
            if (ImGui::IsItemHovered() && !src.empty()) tooltip("%s", src.c_str());
            ImGui::TableNextColumn();
            ImGui::Text("%llu (%.0f%%)", static_cast<unsigned long long>(row.total), total ? 100.0 * double(row.total) / double(total) : 0.0);
            ImGui::TableNextColumn();
            // The three largest reasons, each in its colour.
            std::vector<int> order(timing::kStallReasonCount);
            std::iota(order.begin(), order.end(), 0);
            std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return (*row.c)[size_t(a)] > (*row.c)[size_t(b)]; });
            // Each piece goes on the line while it fits in the column, else on the next one; the source text wraps.
            for (int k = 0; k < 3; ++k) {
                uint64_t v = (*row.c)[size_t(order[size_t(k)])];
                if (!v) break;
                auto reason = static_cast<StallReason>(order[size_t(k)]);
                char part[64];
                std::snprintf(part, sizeof part, "%s %.0f%%", std::string(timing::stallShortName(reason)).c_str(), 100.0 * double(v) / double(row.total));
                if (k) sameLineIfFits(ImGui::CalcTextSize(part).x);
                ImGui::TextColored(colv(stallColor(reason)), "%s", part);
            }
            if (!src.empty()) {
                sameLineIfFits(std::min(ImGui::CalcTextSize(src.c_str()).x, (ImGui::GetContentRegionMaxAbs().x - ImGui::GetCursorScreenPos().x) * 0.5f));
                ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
                ImGui::TextWrapped("%s", src.c_str());
                ImGui::PopStyleColor();
            }
        }
        ImGui::EndTable();
    }
}

} // namespace warpscope::gui
