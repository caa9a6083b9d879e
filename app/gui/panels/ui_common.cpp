// Helpers shared by panels, and AppContext's lesson loading.
#include "gui/panels/app.hpp"
#include "gui/model/text_fit.hpp"

#include <imgui_internal.h>   // GetContentRegionMaxAbs: a table column's edge

#include <algorithm>
#include <bit>
#include <cstdarg>
#include <cstdio>

namespace warpscope::gui {

void AppContext::loadLesson(int index) {
    if (index < 0 || index >= static_cast<int>(ui.lessons.size())) return;
    // Another lesson starts in functional mode: Timed mode (often turned on by a step of the last
    // lesson) does not carry over. The first lesson keeps a --timed from the command line.
    if (ui.current >= 0 && ui.current != index && ui.timed) {
        ui.timed = false;
        applyTiming();
    }
    ui.current = index;
    ui.stepSection = 0;
    ui.clickedLine = 0;
    ui.lastScrolledLine = -1;
    const runtime::Lesson& L = ui.lessons[static_cast<size_t>(index)];
    ui.params.clear();
    for (auto& p : L.params) ui.params[p.name] = p.defaultValue;
    settings.lastLesson = L.id;
    session.load(L, ui.params);
}

void AppContext::applyParams() { session.setParams(ui.params); }

void AppContext::startCompare() {
    if (ui.current < 0 || ui.current >= static_cast<int>(ui.lessons.size())) return;
    const runtime::Lesson& L = ui.lessons[static_cast<size_t>(ui.current)];
    compare->start(L, ui.params, ui.runOnGpu && gpuToggle().enabled);
    ui.compareRequestedFor = L.id;
}

void AppContext::goToSite(const FaultSite& site, const uint32_t grid[3], const uint32_t block[3]) {
    SiteTarget t = siteTarget(site, grid, block);
    if (t.line) {
        ui.clickedLine = t.line;
        ui.scrollToLine = t.line;
    }
    if (t.hasThread) {
        settings.followIssuing = false;
        session.select(t.block, t.warp, false);
        ui.highlight = {true, t.block, t.warp, 1u << (t.lane & 31)};
    }
}

bool AppContext::importNcu(const std::string& path) {
    try {
        ui.ncu = loadNcuCsv(path);
        ui.ncuError.clear();
        return true;
    } catch (const std::exception& e) {
        ui.ncuError = e.what();
        return false;
    }
}

void drawLaneStrip(ImDrawList* dl, ImVec2 pos, float laneW, float h, const std::array<LaneState, 32>& lanes, uint32_t highlight) {
    const float gap = laneW >= 6 ? 1.0f : 0.0f;
    if (gap == 0 && !highlight) {   // narrow lanes: one rectangle per run of equal states
        for (int l = 0; l < 32;) {
            int e = l + 1;
            while (e < 32 && lanes[static_cast<size_t>(e)] == lanes[static_cast<size_t>(l)]) ++e;
            dl->AddRectFilled(ImVec2(pos.x + l * laneW, pos.y), ImVec2(pos.x + e * laneW, pos.y + h), col(laneColor(lanes[static_cast<size_t>(l)])));
            l = e;
        }
        return;
    }
    for (int l = 0; l < 32; ++l) {
        ImVec2 a(pos.x + l * laneW, pos.y), b(pos.x + (l + 1) * laneW - gap, pos.y + h);
        dl->AddRectFilled(a, b, col(laneColor(lanes[static_cast<size_t>(l)])));
        if (highlight & (1u << l)) dl->AddRect(a, b, col(faultColor()), 0, 0, 2.0f);
    }
}

void drawLegend(bool compact) {
    const LaneState states[] = {LaneState::Active, LaneState::Masked, LaneState::Predicated,
                                LaneState::AtBarrier, LaneState::Exited, LaneState::None};
    float sz = ImGui::GetTextLineHeight() * 0.8f;
    bool first = true;
    for (LaneState s : states) {
        if (!first && compact)   // same line while it fits, else the next line
            sameLineIfFits(sz + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(laneStateName(s)).x, ImGui::GetStyle().ItemSpacing.x * 2);
        first = false;
        ImVec2 p = ImGui::GetCursorScreenPos();
        float yoff = (ImGui::GetTextLineHeight() - sz) * 0.5f;
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + yoff), ImVec2(p.x + sz, p.y + yoff + sz), col(laneColor(s)));
        ImGui::Dummy(ImVec2(sz, sz));
        ImGui::SameLine();
        ImGui::TextWrapped("%s", laneStateName(s));   // a label wider than a narrow panel wraps
    }
}

void legendSwatch(Rgb c, const char* label, float size) {
    // An entry that no longer fits on the line starts the next one (the legends were cut at the right).
    const ImGuiStyle& st = ImGui::GetStyle();
    float w = size + st.ItemSpacing.x + ImGui::CalcTextSize(label).x;
    if (ImGui::GetContentRegionAvail().x < w && ImGui::GetCursorPosX() > st.WindowPadding.x + st.ItemSpacing.x) ImGui::NewLine();
    ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + 2), ImVec2(p.x + size, p.y + 2 + size), col(c));
    ImGui::Dummy(ImVec2(size, size));
    ImGui::SameLine();
    ImGui::TextUnformatted(label);
    ImGui::SameLine(0, ImGui::GetStyle().ItemSpacing.x * 2);
}

std::string hex(uint64_t v, int digits) {
    char buf[32];
    if (digits > 0) std::snprintf(buf, sizeof buf, "0x%0*llx", digits, static_cast<unsigned long long>(v));
    else std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

std::string maskText(uint32_t mask) {
    int n = std::popcount(mask);
    return hex(mask, 8) + " (" + std::to_string(n) + (n == 1 ? " lane)" : " lanes)");
}

void drawMetricName(ImFont* mono, const std::string& name, bool dim) {
    ImGui::PushFont(mono);
    if (dim) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    float charW = ImGui::GetFont()->GetCharAdvance('0');
    size_t cols = static_cast<size_t>(std::max(8.0f, ImGui::GetContentRegionAvail().x / charW));
    for (const WrapRow& r : wrapColumns(name, cols, "_.", 2))
        ImGui::TextUnformatted((std::string(r.indent, ' ') + name.substr(r.begin, r.end - r.begin)).c_str());
    if (dim) ImGui::PopStyleColor();
    ImGui::PopFont();
}

void sameLineIfFits(float width, float gap) {
    // Decided before SameLine: a NewLine after it would count the gap as content past the edge.
    // GetContentRegionMaxAbs is the table column's edge inside a table, else the window's.
    if (gap < 0) gap = ImGui::GetStyle().ItemSpacing.x;
    float x = ImGui::GetItemRectMax().x + gap;
    if (x + width <= ImGui::GetContentRegionMaxAbs().x) ImGui::SameLine(0, gap);
}

bool emptyPanel(bool empty, const char* why) {
    if (empty) ImGui::TextDisabled("%s", why);
    return empty;
}

void helpMarker(const char* text) {
    ImGui::SameLine();
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
        ImGui::TextUnformatted(text);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

} // namespace warpscope::gui

namespace warpscope::gui {

// A kernel fault, shown where the student looks: what happened, and where (lane, line, address).
void drawErrorBox(AppContext& app) {
    const Snapshot& s = *app.snap;
    if (!s.error) return;
    const ErrorInfo& e = *s.error;
    const FaultSite& f = e.site;
    ImGui::PushStyleColor(ImGuiCol_ChildBg, colv(faultColor(), 0.18f));
    ImGui::PushStyleColor(ImGuiCol_Border, colv(faultColor()));
    float wrapW = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().WindowPadding.x * 2;
    std::string where;
    auto add = [&](const std::string& k, const std::string& v) { where += (where.empty() ? "" : "   ") + k + " " + v; };
    auto triple = [](uint32_t x, uint32_t y, uint32_t z) {
        char buf[48];
        std::snprintf(buf, sizeof buf, "(%u,%u,%u)", x, y, z);
        return std::string(buf);
    };
    if (f.blockX) add("block", triple(*f.blockX, f.blockY.value_or(0), f.blockZ.value_or(0)));
    if (f.threadX) add("thread", triple(*f.threadX, f.threadY.value_or(0), f.threadZ.value_or(0)));
    if (f.lane) add("lane", std::to_string(*f.lane));
    if (f.sourceLine) add("line", std::to_string(*f.sourceLine));
    if (f.ptxLine) add("PTX line", std::to_string(*f.ptxLine));
    if (f.address) add("address", hex(*f.address));
    if (!f.allocation.empty()) add("allocation", f.allocation + (f.offset ? " + " + std::to_string(*f.offset) : std::string()));
    float textH = ImGui::CalcTextSize(e.message.c_str(), nullptr, false, wrapW).y + ImGui::CalcTextSize(where.c_str(), nullptr, false, wrapW).y;
    float h = textH + ImGui::GetTextLineHeightWithSpacing() * 2 + ImGui::GetStyle().WindowPadding.y * 2;
    if (e.limit != LimitKind::None) h += ImGui::GetTextLineHeightWithSpacing() + ImGui::GetFrameHeightWithSpacing();
    ImGui::BeginChild("error", ImVec2(0, h), true);
    ImGui::PushFont(app.fonts.bold);
    ImGui::TextColored(colv(faultColor()), "%s: the kernel stopped", Error::kindName(e.kind));
    ImGui::PopFont();
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(e.message.c_str());
    if (!where.empty()) ImGui::TextUnformatted(where.c_str());
    ImGui::PopTextWrapPos();
    drawRaiseLimit(app);
    ImGui::EndChild();
    ImGui::PopStyleColor(2);
}

void tooltip(const char* fmt, ...) {
    ImGui::BeginTooltip();
    float wrap = std::min(ImGui::GetFontSize() * 36, ImGui::GetIO().DisplaySize.x * 0.5f);
    ImGui::PushTextWrapPos(wrap);
    va_list args;
    va_start(args, fmt);
    ImGui::TextWrappedV(fmt, args);
    va_end(args);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

} // namespace warpscope::gui
