// Warp schedulers (Timed mode): one SM of the cycle model. Per scheduler, its warps and what
// each does this cycle (issued, or its stall reason as Nsight Compute names it), the instruction
// issued and its source line; below, the recent cycles as strips of issue slots per scheduler.
#include "gui/panels/panels.hpp"
#include "gui/panels/timing_ui.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace warpscope::gui {

namespace {
using timing::StallReason;
using timing::WarpPhase;

std::string instrText(const Snapshot& s, int32_t pc) {
    if (!s.program || pc < 0 || static_cast<size_t>(pc) >= s.program->code.size()) return {};
    return s.program->code[static_cast<size_t>(pc)].text;
}
uint32_t instrLine(const Snapshot& s, int32_t pc) {
    if (!s.program || pc < 0 || static_cast<size_t>(pc) >= s.program->code.size()) return 0;
    return s.program->code[static_cast<size_t>(pc)].line;
}

// The SM chooser: a number, and jumps to the previous / next SM that holds blocks.
void smPicker(AppContext& app, const TimingView& tv) {
    int n = static_cast<int>(tv.blocksPerSm.size());
    int sm = static_cast<int>(tv.sm);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("SM");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    int pick = sm;
    if (ImGui::InputInt("##sm", &pick)) pick = std::clamp(pick, 0, std::max(0, n - 1));
    ImGui::SameLine();
    ImGui::Text("of %d", n);
    auto busy = [&](int k) { return k >= 0 && k < n && tv.blocksPerSm[static_cast<size_t>(k)] > 0; };
    ImGui::SameLine();
    int prev = sm - 1;
    while (prev >= 0 && !busy(prev)) --prev;
    ImGui::BeginDisabled(prev < 0);
    if (ImGui::ArrowButton("##prevbusy", ImGuiDir_Left)) pick = prev;
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) tooltip("Previous SM with resident blocks");
    ImGui::SameLine();
    int next = sm + 1;
    while (next < n && !busy(next)) ++next;
    ImGui::BeginDisabled(next >= n);
    if (ImGui::ArrowButton("##nextbusy", ImGuiDir_Right)) pick = next;
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) tooltip("Next SM with resident blocks");
    if (pick != sm) {
        app.ui.schedSm = pick;
        app.session.showSm(static_cast<uint32_t>(pick));
    }
    int busyCount = 0;
    for (int k = 0; k < n; ++k) busyCount += busy(k) ? 1 : 0;
    ImGui::SameLine(0, ImGui::GetFontSize());
    std::string blocks;
    for (size_t i = 0; i < tv.smBlocks.size() && i < 8; ++i) blocks += (i ? ", #" : "#") + std::to_string(tv.smBlocks[i]);
    if (tv.smBlocks.size() > 8) blocks += ", ...";
    ImGui::Text("cycle %llu  |  %d of %d SMs hold blocks  |  on this SM: %s", static_cast<unsigned long long>(tv.cycle), busyCount, n,
                blocks.empty() ? "none" : blocks.c_str());
}

// One warp as a chip coloured by what it does this cycle.
void warpChip(AppContext& app, const Snapshot& s, const SchedWarp& w, bool issued) {
    char label[32];
    std::snprintf(label, sizeof label, "b%u.w%u", w.block, w.warpInBlock);
    ImVec2 ts = ImGui::CalcTextSize(label);
    float padX = 5, h = ImGui::GetTextLineHeight() + 4;
    ImVec2 size(ts.x + padX * 2, h);
    if (ImGui::GetContentRegionAvail().x < size.x) {
        ImGui::NewLine();
        ImGui::SetCursorPosX(ImGui::CalcTextSize("scheduler 00").x + ImGui::GetStyle().ItemSpacing.x);
    }
    ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    Rgb c = w.phase == WarpPhase::Done ? Rgb{90, 90, 96} : stallColor(issued ? StallReason::Selected : w.reason);
    dl->AddRectFilled(p, ImVec2(p.x + size.x, p.y + size.y), col(c), 3.0f);
    if (issued) dl->AddRect(ImVec2(p.x - 1, p.y - 1), ImVec2(p.x + size.x + 1, p.y + size.y + 1), ImGui::GetColorU32(ImGuiCol_Text), 3.0f, 0, 2.0f);
    dl->AddText(ImVec2(p.x + padX, p.y + 2), textOn(c), label);
    ImGui::PushID(static_cast<int>(w.slot));
    if (ImGui::InvisibleButton("chip", size)) {
        app.settings.followIssuing = false;
        app.session.select(w.block, w.warpInBlock, false);
    }
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::Text("block %u, warp %u (slot %u)", w.block, w.warpInBlock, w.slot);
        if (w.phase == WarpPhase::Done) {
            ImGui::TextUnformatted("finished");
        } else {
            StallReason r = issued ? StallReason::Selected : w.reason;
            ImGui::TextColored(colv(c), "%s", std::string(timing::stallShortName(r)).c_str());
            ImGui::TextDisabled("%s", timing::stallMetricName(r).c_str());
            ImGui::TextUnformatted(stallExplanation(r));
            std::string t = instrText(s, w.pc);
            if (!t.empty()) ImGui::Text("%s %s   (line %u)", issued ? "issued:" : "next:", t.c_str(), w.line);
        }
        ImGui::TextDisabled("click: select this warp");
        ImGui::EndTooltip();
    }
    ImGui::PopID();
    ImGui::SameLine(0, 4);
}
} // namespace

void drawSchedulerPanel(AppContext& app) {
    const Snapshot& s = *app.snap;
    if (!s.timed) {
        ImGui::TextWrapped("The warp schedulers exist in Timed mode: the cycle model of a GPU preset decides, cycle by cycle, "
                           "which warp each scheduler issues and why the others wait.");
        if (ImGui::Button("Turn Timed mode on")) {
            app.ui.timed = true;
            app.applyTiming();
        }
        return;
    }
    if (!s.timing) {
        ImGui::TextWrapped("%s", s.program ? "This launch did not run on the cycle model." : "No launch is running yet: step (F10) to start one.");
        return;
    }
    const TimingView& tv = *s.timing;
    smPicker(app, tv);
    drawStallLegend(true);
    ImGui::Separator();

    // Per scheduler, one row: its warps as chips (coloured by this cycle's state), then what issued.
    float nameW = ImGui::CalcTextSize("scheduler 00").x + ImGui::GetStyle().ItemSpacing.x;
    size_t maxWarps = 1;
    for (auto& sc : tv.schedulers) maxWarps = std::max(maxWarps, sc.warps.size());
    float chipW = ImGui::CalcTextSize("b000.w00").x + 14;
    float rowW = std::max(chipW, ImGui::GetContentRegionAvail().x - nameW);
    float rowsPer = std::ceil((static_cast<float>(maxWarps) * chipW + ImGui::GetFontSize() * 22) / rowW);
    float needed = static_cast<float>(std::max<size_t>(tv.schedulers.size(), 1)) * rowsPer * ImGui::GetFrameHeightWithSpacing() + ImGui::GetStyle().ItemSpacing.y;
    float listH = std::min(needed, ImGui::GetContentRegionAvail().y * 0.55f);
    if (ImGui::BeginChild("scheds", ImVec2(0, std::max(listH, ImGui::GetTextLineHeightWithSpacing() * 2)), false)) {
        if (tv.schedulers.empty() || tv.smBlocks.empty()) ImGui::TextDisabled("No blocks are resident on SM %u this cycle.", tv.sm);
        for (size_t k = 0; k < tv.schedulers.size(); ++k) {
            const SchedState& sc = tv.schedulers[k];
            ImGui::PushID(static_cast<int>(k));
            ImGui::AlignTextToFramePadding();
            ImGui::PushFont(app.fonts.bold);
            ImGui::Text("scheduler %zu", k);
            ImGui::PopFont();
            ImGui::SameLine(nameW);
            for (const SchedWarp& w : sc.warps) warpChip(app, s, w, static_cast<int32_t>(w.slot) == sc.issuedSlot);
            // What it issued (its instruction and source line), or that it did not.
            std::string what, src;
            uint32_t line = 0;
            if (sc.issuedSlot >= 0) {
                const SchedWarp* iw = nullptr;
                for (auto& w : sc.warps)
                    if (static_cast<int32_t>(w.slot) == sc.issuedSlot) iw = &w;
                char head[48];
                std::snprintf(head, sizeof head, "issued b%u.w%u: ", iw ? iw->block : 0, iw ? iw->warpInBlock : 0);
                what = head + instrText(s, sc.issuedPc);
                line = instrLine(s, sc.issuedPc);
                if (line && s.lesson && line <= s.lesson->sourceLines.size()) {
                    src = s.lesson->sourceLines[line - 1];
                    size_t a = src.find_first_not_of(" \t");
                    src = a == std::string::npos ? std::string() : src.substr(a);
                }
            } else {
                what = sc.warps.empty() ? "no warps" : "no issue this cycle";
            }
            ImGui::SameLine(0, ImGui::GetFontSize() * 0.5f);
            ImGui::PushFont(app.fonts.mono);
            if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(what.c_str()).x) {
                ImGui::NewLine();
                ImGui::SetCursorPosX(nameW);
            }
            if (sc.issuedSlot >= 0) ImGui::TextColored(colv(stallColor(StallReason::Selected)), "%s", what.c_str());
            else ImGui::TextDisabled("%s", what.c_str());
            ImGui::PopFont();
            if (line) {
                ImGui::SameLine();
                ImGui::TextDisabled("line %u: %s", line, src.c_str());
                if (ImGui::IsItemHovered()) tooltip("click: show line %u in the source", line);
                if (ImGui::IsItemClicked()) {
                    app.ui.clickedLine = line;
                    app.ui.scrollToLine = line;
                }
            }
            ImGui::PopID();
        }
    }
    ImGui::EndChild();
    ImGui::Separator();

    // Timeline: the last N cycles, one strip per scheduler.
    ImGui::AlignTextToFramePadding();
    ImGui::Text("Issue slots of SM %u, last", tv.sm);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    ImGui::SliderInt("cycles##n", &app.ui.timelineCycles, 20, 500);
    ImGui::SameLine();
    ImGui::TextDisabled("(cell: issued, else the oldest warp's stall reason)");
    size_t nsched = std::max<size_t>(tv.schedulers.size(), tv.timeline.empty() ? 0 : tv.timeline.back().count);
    if (nsched == 0) return;
    int N = std::max(1, app.ui.timelineCycles);
    ImVec2 avail = ImGui::GetContentRegionAvail();
    float labelW = ImGui::CalcTextSize("sched 0").x + 8;
    float axisH = ImGui::GetTextLineHeight() + 2;
    float rowH = std::clamp((avail.y - axisH - 4) / static_cast<float>(nsched), 6.0f, ImGui::GetTextLineHeight() * 2.2f);
    float cellW = std::max(1.0f, (avail.x - labelW - 4) / static_cast<float>(N));
    ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("timeline", ImVec2(avail.x, rowH * nsched + axisH));
    bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    uint64_t last = tv.timeline.empty() ? tv.cycle : tv.timeline.back().cycle;
    uint64_t first = last + 1 >= static_cast<uint64_t>(N) ? last + 1 - static_cast<uint64_t>(N) : 0;
    float x0 = p0.x + labelW;
    for (size_t k = 0; k < nsched; ++k) {
        char nm[32];
        std::snprintf(nm, sizeof nm, "sched %zu", k);
        float y = p0.y + k * rowH;
        dl->AddText(ImVec2(p0.x, y + (rowH - ImGui::GetTextLineHeight()) * 0.5f), ImGui::GetColorU32(ImGuiCol_Text), nm);
        dl->AddRectFilled(ImVec2(x0, y), ImVec2(x0 + cellW * N, y + rowH - 1), ImGui::GetColorU32(ImGuiCol_FrameBg));
    }
    float gap = cellW >= 4 ? 1.0f : 0.0f;
    for (const CycleCells& c : tv.timeline) {
        if (c.cycle < first) continue;
        float x = x0 + static_cast<float>(c.cycle - first) * cellW;
        for (size_t k = 0; k < c.count && k < nsched; ++k) {
            uint8_t v = c.cell[k];
            Rgb rc = v == kCellIdle ? idleCycleColor() : stallColor(static_cast<StallReason>(v));
            float y = p0.y + k * rowH;
            dl->AddRectFilled(ImVec2(x, y), ImVec2(x + cellW - gap, y + rowH - 1), col(rc));
        }
    }
    // cycle axis
    ImU32 tc = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    float yAxis = p0.y + rowH * nsched + 1;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(first));
    dl->AddText(ImVec2(x0, yAxis), tc, buf);
    std::snprintf(buf, sizeof buf, "cycle %llu", static_cast<unsigned long long>(last));
    dl->AddText(ImVec2(x0 + cellW * N - ImGui::CalcTextSize(buf).x, yAxis), tc, buf);
    if (tv.timeline.empty()) dl->AddText(ImVec2(x0 + 8, p0.y + 2), tc, "step (F10) or run (F5) to record cycles");
    if (hovered) {
        ImVec2 m = ImGui::GetIO().MousePos;
        if (m.x >= x0 && m.y >= p0.y && m.y < p0.y + rowH * nsched) {
            uint64_t cyc = first + static_cast<uint64_t>((m.x - x0) / cellW);
            size_t k = static_cast<size_t>((m.y - p0.y) / rowH);
            for (const CycleCells& c : tv.timeline)
                if (c.cycle == cyc && k < c.count) {
                    uint8_t v = c.cell[k];
                    if (v == kCellIdle) tooltip("cycle %llu, scheduler %zu: no warp", static_cast<unsigned long long>(cyc), k);
                    else
                        tooltip("cycle %llu, scheduler %zu: %s\n%s", static_cast<unsigned long long>(cyc), k,
                                          v == kCellIssued ? "issued" : std::string(timing::stallShortName(static_cast<StallReason>(v))).c_str(),
                                          stallExplanation(static_cast<StallReason>(v)));
                }
        }
    }
}

} // namespace warpscope::gui
