// Occupancy: the CUDA occupancy calculator for the current launch on the chosen GPU preset —
// blocks and warps per SM, which resource limits them, and how resident warps change with the
// block size, the registers per thread and the shared memory per block.
#include "gui/model/occupancy_view.hpp"
#include "gui/panels/panels.hpp"
#include "gui/panels/timing_ui.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace warpscope::gui {

namespace {
using timing::Limiter;

std::string blocksText(uint32_t b) { return b == UINT32_MAX ? "no limit" : std::to_string(b); }

std::string bytesText(uint64_t b) {
    char buf[32];
    if (b >= 1024 && b % 1024 == 0) std::snprintf(buf, sizeof buf, "%llu KiB", static_cast<unsigned long long>(b / 1024));
    else if (b >= 1024) std::snprintf(buf, sizeof buf, "%.1f KiB", double(b) / 1024);
    else std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(b));
    return buf;
}

// A step plot of resident warps per SM against one input, with the current point marked.
void occupancyPlot(const char* id, const char* title, const std::vector<float>& xs, const std::vector<float>& ys, float maxY,
                   float curX, float curY, const char* (*xLabel)(float, char*, size_t), float width, float height) {
    ImGui::PushID(id);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImGui::TextUnformatted(title);
    ImVec2 p0 = ImGui::GetCursorScreenPos();
    float lh = ImGui::GetTextLineHeight();
    float left = ImGui::CalcTextSize("64").x + 6, bottom = lh + 4;
    ImVec2 a(p0.x + left, p0.y + 2), b(p0.x + width - 6, p0.y + height - bottom);
    ImGui::InvisibleButton("plot", ImVec2(width, height));
    bool hovered = ImGui::IsItemHovered();
    dl->AddRectFilled(a, b, ImGui::GetColorU32(ImGuiCol_FrameBg));
    if (xs.size() < 2 || maxY <= 0) {
        ImGui::PopID();
        return;
    }
    float x0 = xs.front(), x1 = xs.back();
    auto px = [&](float x) { return a.x + (x - x0) / std::max(1e-6f, x1 - x0) * (b.x - a.x); };
    auto py = [&](float y) { return b.y - y / maxY * (b.y - a.y); };
    // grid at 25 % steps of the maximum
    for (int k = 1; k <= 4; ++k) {
        float y = py(maxY * k / 4);
        dl->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), IM_COL32(128, 128, 128, 50));
    }
    ImU32 lineCol = col(okabe_ito::SkyBlue);
    for (size_t i = 0; i + 1 < xs.size(); ++i) {
        float xa = px(xs[i]), xb = px(xs[i + 1]), ya = py(ys[i]), yb = py(ys[i + 1]);
        dl->AddLine(ImVec2(xa, ya), ImVec2(xb, ya), lineCol, 2.0f);
        if (ya != yb) dl->AddLine(ImVec2(xb, ya), ImVec2(xb, yb), lineCol, 2.0f);
    }
    // axes labels
    char buf[48];
    ImU32 textCol = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    std::snprintf(buf, sizeof buf, "%.0f", maxY);
    dl->AddText(ImVec2(p0.x, a.y - 2), textCol, buf);
    dl->AddText(ImVec2(p0.x + left - ImGui::CalcTextSize("0").x - 4, b.y - lh), textCol, "0");
    const char* lx0 = xLabel(x0, buf, sizeof buf);
    dl->AddText(ImVec2(a.x, b.y + 2), textCol, lx0);
    char buf2[48];
    const char* lx1 = xLabel(x1, buf2, sizeof buf2);
    dl->AddText(ImVec2(b.x - ImGui::CalcTextSize(lx1).x, b.y + 2), textCol, lx1);
    // the current launch
    if (curX >= x0 && curX <= x1) {
        ImVec2 c(px(curX), py(curY));
        dl->AddLine(ImVec2(c.x, a.y), ImVec2(c.x, b.y), col(okabe_ito::Orange, 120), 1.0f);
        dl->AddCircleFilled(c, 5.0f, col(okabe_ito::Orange));
        dl->AddCircle(c, 5.0f, IM_COL32(0, 0, 0, 255), 0, 1.5f);
        char xl[48];
        const char* cur = xLabel(curX, xl, sizeof xl);
        float tw = ImGui::CalcTextSize(cur).x;
        float tx = c.x + 4 + tw > b.x ? c.x - 4 - tw : c.x + 4;   // beside the line, inside the plot
        float ty = c.y < a.y + lh * 1.5f ? b.y - lh - 2 : a.y + 2;
        dl->AddRectFilled(ImVec2(tx - 1, ty), ImVec2(tx + tw + 1, ty + lh), ImGui::GetColorU32(ImGuiCol_FrameBg));
        dl->AddText(ImVec2(tx, ty), col(okabe_ito::Orange), cur);
    }
    if (hovered) {
        float mx = ImGui::GetIO().MousePos.x;
        float x = x0 + (mx - a.x) / std::max(1.0f, b.x - a.x) * (x1 - x0);
        size_t i = 0;
        while (i + 1 < xs.size() && xs[i + 1] <= x) ++i;
        char xl[48];
        tooltip("%s %s -> %.0f resident warps per SM", xLabel(xs[i], xl, sizeof xl), title, ys[i]);
    }
    ImGui::PopID();
}

const char* numberLabel(float x, char* buf, size_t n) {
    std::snprintf(buf, n, "%.0f", x);
    return buf;
}
const char* sharedLabel(float x, char* buf, size_t n) {
    if (x >= 1024) std::snprintf(buf, n, "%.0fK", x / 1024);
    else std::snprintf(buf, n, "%.0f", x);
    return buf;
}
} // namespace

void drawOccupancyPanel(AppContext& app) {
    const Snapshot& s = *app.snap;
    drawTimingToggle(app);
    const timing::GpuSpec* specp = app.presetSpec();
    if (!specp) {
        ImGui::TextDisabled("No GPU presets.");
        return;
    }
    // While a timed launch runs, its own preset is the one shown.
    const timing::GpuSpec& spec = s.timing ? s.timing->spec : *specp;
    // Every line of this panel wraps in a narrow one (1280 px at scale 2) rather than being cut.
    ImGui::PushTextWrapPos(0);
    sameLineIfFits(std::min(ImGui::CalcTextSize(spec.description.c_str()).x, ImGui::GetContentRegionAvail().x * 0.5f));
    ImGui::TextDisabled("%s", spec.description.c_str());
    if (!s.program) {
        ImGui::TextWrapped("No launch yet: load a lesson and step into its first launch.");
        ImGui::PopTextWrapPos();
        return;
    }
    const char* regSource = "estimated";
    uint32_t regs = registersForKernel(app, s.program->kernelName, &regSource);
    if (s.timing && s.timing->launch) {   // the timed run's own figure (it may predate a slider move)
        if (!app.ui.registersOverride) regs = s.timing->launch->result.registersPerThread;
    }
    const OccupancyView view = occupancyView(spec, s.block[0] * s.block[1] * s.block[2], regs, s.sharedBytesPerBlock);
    const timing::OccupancyInput& in = view.in;
    const timing::Occupancy& o = view.occupancy;

    ImGui::Text("%s: block %ux%ux%u = %u threads (%u warps), %s shared memory", s.program->kernelName.c_str(), s.block[0], s.block[1],
                s.block[2], in.threadsPerBlock, o.warpsPerBlock, bytesText(in.sharedBytesPerBlock).c_str());
    // Registers: lesson.json, estimated, or the user's override.
    ImGui::AlignTextToFramePadding();
    ImGui::Text("Registers per thread: %u (%s)", regs,
                std::string(regSource) == "lesson.json" ? "lesson.json" : std::string(regSource) == "override" ? "your value" : "estimated: ptxas decides");
    if (ImGui::IsItemHovered())
        tooltip("The real count comes from `nvcc -Xptxas -v`; a lesson gives it in lesson.json \"registers\".\nOverride it to see how occupancy reacts.");
    sameLineIfFits(ImGui::GetFrameHeight() + ImGui::CalcTextSize("override").x + ImGui::GetStyle().ItemInnerSpacing.x);
    bool changed = ImGui::Checkbox("override", &app.ui.registersOverride);
    if (app.ui.registersOverride) {
        ImGui::SameLine();
        ImGui::SetNextItemWidth(std::max(80.0f, ImGui::GetContentRegionAvail().x));
        ImGui::SliderInt("##regs", &app.ui.registers, 1, static_cast<int>(spec.maxRegistersPerThread), "%d regs/thread");
        changed = changed || ImGui::IsItemDeactivatedAfterEdit();
    } else if (changed) {
        app.ui.registers = static_cast<int>(regs);
    }
    if (changed && app.ui.timed) app.applyTiming();   // the timed run restarts with the new count

    if (!o.problem.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, colv(faultColor()));
        ImGui::TextWrapped("This block cannot run on the %s preset: %s.", spec.name.c_str(), o.problem.c_str());
        ImGui::PopStyleColor();
        ImGui::PopTextWrapPos();
        return;
    }
    // The headline, as the occupancy calculator states it.
    ImGui::PushFont(app.fonts.bold);
    ImGui::Text("%u block%s x %u warps = %u of %u warps per SM: %.0f%% occupancy", o.activeBlocksPerSM, o.activeBlocksPerSM == 1 ? "" : "s",
                o.warpsPerBlock, o.activeWarpsPerSM, spec.maxWarpsPerSM, o.occupancy * 100.0);
    ImGui::PopFont();
    ImGui::Text("Limited by %s.", std::string(timing::limiterName(o.limiter)).c_str());
    if (s.timing && s.timing->launch) {
        const timing::Occupancy& ro = s.timing->launch->result.occupancy;
        if (ro.activeBlocksPerSM != o.activeBlocksPerSM) {
            ImGui::TextColored(colv(okabe_ito::Orange), "(the timed run uses %u blocks per SM; restart to apply)", ro.activeBlocksPerSM);
        }
    }

    // Per-resource limits; the limiting row is highlighted.
    ImGuiTableFlags tf = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp;
    if (ImGui::BeginTable("limits", 4, tf)) {
        ImGui::TableSetupColumn("resource");
        ImGui::TableSetupColumn("per SM");
        ImGui::TableSetupColumn("this block uses");
        ImGui::TableSetupColumn("blocks per SM");
        ImGui::TableHeadersRow();
        auto row = [&](Limiter l, const char* name, const std::string& perSm, const std::string& use, uint32_t blocks) {
            ImGui::TableNextRow();
            if (l == o.limiter) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, col(okabe_ito::Orange, 70));
            ImGui::TableNextColumn();
            if (l == o.limiter) ImGui::PushFont(app.fonts.bold);
            ImGui::TextWrapped("%s", name);
            if (l == o.limiter) ImGui::PopFont();
            ImGui::TableNextColumn();
            ImGui::TextWrapped("%s", perSm.c_str());
            ImGui::TableNextColumn();
            ImGui::TextWrapped("%s", use.c_str());
            ImGui::TableNextColumn();
            ImGui::TextWrapped("%s", blocksText(blocks).c_str());
        };
        row(Limiter::Warps, "warps", std::to_string(spec.maxWarpsPerSM) + " warps", std::to_string(o.warpsPerBlock) + " warps", o.blocksByWarps);
        row(Limiter::Registers, "registers", std::to_string(spec.registersPerSM),
            std::to_string(o.registersPerWarp * o.warpsPerBlock) + " (" + std::to_string(o.registersPerWarp) + "/warp)", o.blocksByRegisters);
        row(Limiter::SharedMemory, "shared memory", bytesText(spec.sharedPerSM),
            bytesText(o.sharedPerBlockAllocated) + (in.sharedBytesPerBlock || spec.reservedSharedPerBlock ? " incl. reserved" : ""),
            o.blocksBySharedMemory);
        row(Limiter::Blocks, "block limit", std::to_string(spec.maxBlocksPerSM) + " blocks", "1 block", o.blocksByBlockLimit);
        ImGui::EndTable();
    }

    // Three curves: what changes if one input changes and the others stay.
    float avail = ImGui::GetContentRegionAvail().x;
    float spacing = ImGui::GetStyle().ItemSpacing.x;
    bool wide = avail > ImGui::GetFontSize() * 26;
    float w = wide ? (avail - 2 * spacing) / 3 : avail;
    float hLeft = ImGui::GetContentRegionAvail().y;
    float h = wide ? std::max(ImGui::GetFontSize() * 6, hLeft - ImGui::GetTextLineHeightWithSpacing() - 4)
                   : std::max(ImGui::GetFontSize() * 6, (hLeft - 3 * ImGui::GetTextLineHeightWithSpacing()) / 3 - spacing);
    float maxY = static_cast<float>(spec.maxWarpsPerSM);
    auto group = [&](int k) {
        if (wide) {
            if (k > 0) ImGui::SameLine();
            ImGui::BeginGroup();
        }
    };
    auto endGroup = [&] {
        if (wide) ImGui::EndGroup();
    };
    ImGui::TextDisabled("Resident warps per SM as one input changes (orange: this launch):");
    ImGui::PopTextWrapPos();
    hLeft = ImGui::GetContentRegionAvail().y;
    h = wide ? std::max(ImGui::GetFontSize() * 6, hLeft - ImGui::GetTextLineHeightWithSpacing() - 4)
             : std::max(ImGui::GetFontSize() * 6, (hLeft - 3 * ImGui::GetTextLineHeightWithSpacing()) / 3 - spacing);
    group(0);
    occupancyPlot("bs", "threads per block", view.byThreads.xs, view.byThreads.ys, maxY, static_cast<float>(in.threadsPerBlock),
                  static_cast<float>(o.activeWarpsPerSM), numberLabel, w, h);
    endGroup();
    group(1);
    occupancyPlot("rg", "registers per thread", view.byRegisters.xs, view.byRegisters.ys, maxY, static_cast<float>(regs), static_cast<float>(o.activeWarpsPerSM),
                  numberLabel, w, h);
    endGroup();
    group(2);
    occupancyPlot("sh", "shared bytes per block", view.byShared.xs, view.byShared.ys, maxY, static_cast<float>(in.sharedBytesPerBlock),
                  static_cast<float>(o.activeWarpsPerSM), sharedLabel, w, h);
    endGroup();
}

} // namespace warpscope::gui
