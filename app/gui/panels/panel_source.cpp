// Source panel: the CUDA kernel with line numbers and colouring, markers showing where warps are,
// the PTX of the focused line beside it, and the statistics of a clicked line.
#include "gui/panels/panels.hpp"
#include "gui/model/text_fit.hpp"
#include "gui/style/syntax.hpp"

#include <cmath>
#include <memory>

#include <cfloat>

namespace warpscope::gui {

namespace {

// Held, not just pointed at: a lesson freed and another allocated at the same address (Show why's
// run of the learner's file after the lesson's own) would otherwise show the old lines.
struct SourceCache {
    std::shared_ptr<const LessonInfo> lesson;
    std::vector<std::string> lines;
    std::vector<std::vector<Token>> tokens;
};

const SourceCache& cacheFor(const std::shared_ptr<const LessonInfo>& info) {
    static SourceCache c;
    if (c.lesson == info) return c;
    c = SourceCache{};
    c.lesson = info;
    const LessonInfo& L = *info;
    bool inBlock = false;
    for (auto line : L.sourceLines) {
        std::string expanded;
        for (char ch : line) {
            if (ch == '\t') expanded.append(4 - expanded.size() % 4, ' ');
            else expanded += ch;
        }
        c.tokens.push_back(highlightLine(expanded, inBlock));
        c.lines.push_back(std::move(expanded));
    }
    return c;
}

struct LineMarks {
    int warps = 0;
    int atBarrier = 0;
    bool selected = false;
};

void lineStatsView(AppContext& app, uint32_t line) {
    const Snapshot& s = *app.snap;
    auto it = s.lineStats.find(line);
    ImGui::Text("Line %u", line);
    if (it == s.lineStats.end()) {
        ImGui::SameLine();
        ImGui::TextDisabled("has not issued yet");
        return;
    }
    const trace::LineStats& ls = it->second;
    if (ImGui::BeginTable("linestats", 2, ImGuiTableFlags_SizingFixedFit)) {
        auto row = [](const char* k, const std::string& v) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(k);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(v.c_str());
        };
        char buf[64];
        row("warp-instructions", std::to_string(ls.warpInstructions));
        row("thread-instructions", std::to_string(ls.threadInstructions));
        std::snprintf(buf, sizeof buf, "%.1f of 32", ls.efficiency());
        row("lanes per instruction", buf);
        std::snprintf(buf, sizeof buf, "%.1f", ls.warpInstructions ? double(ls.activeLanes) / double(ls.warpInstructions) : 0.0);
        row("SIMT-active lanes", buf);
        row("branches (divergent)", std::to_string(ls.branches) + " (" + std::to_string(ls.divergentBranches) + ")");
        ImGui::EndTable();
    }
}

void ptxView(AppContext& app, uint32_t line) {
    const Snapshot& s = *app.snap;
    if (emptyPanel(!s.program, "No launch yet.")) return;
    auto it = s.program->pcsByLine.find(line);
    int32_t curPc = s.selected ? s.selected->warp.pc : -1;
    ImGui::PushFont(app.fonts.mono);
    if (it == s.program->pcsByLine.end()) {
        ImGui::TextDisabled("no PTX for line %u", line);
    } else {
        for (int32_t pc : it->second) {
            const InstrInfo& in = s.program->code[static_cast<size_t>(pc)];
            bool cur = pc == curPc;
            if (cur) {
                ImVec2 p = ImGui::GetCursorScreenPos();
                ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + ImGui::GetContentRegionAvail().x, p.y + ImGui::GetTextLineHeight()),
                                                          col(okabe_ito::Blue, 150));
            }
            ImGui::TextDisabled("%4d", pc);
            ImGui::SameLine();
            if (cur) ImGui::TextUnformatted(("\xE2\x96\xB6 " + in.text).c_str());
            else ImGui::TextUnformatted(("  " + in.text).c_str());
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("PTX line %u, pc %d", in.ptxLine, pc);
        }
    }
    ImGui::PopFont();
}

} // namespace

void drawSourcePanel(AppContext& app) {
    const Snapshot& s = *app.snap;
    if (emptyPanel(!s.lesson, "Choose a lesson.")) return;
    const SourceCache& src = cacheFor(s.lesson);
    // Where the warps are.
    std::map<uint32_t, LineMarks> marks;
    for (auto& b : s.resident)
        for (auto& w : b.warps) {
            if (w.pc < 0) continue;
            LineMarks& m = marks[w.line];
            ++m.warps;
            if (w.masks.atBarrier) ++m.atBarrier;
            if (b.linear == s.selBlock && w.indexInBlock == s.selWarp) m.selected = true;
        }
    uint32_t curLine = s.selected ? s.selected->warp.line : 0;
    uint32_t faultLine = s.error && s.error->site.sourceLine ? *s.error->site.sourceLine : 0;
    uint32_t focus = app.ui.clickedLine ? app.ui.clickedLine : curLine;

    drawErrorBox(app);
    // The file, the kernel and the PTX toggle on one line; the kernel's name gives way first
    // (Presenter never shows PTX, so it has no toggle).
    const ImGuiStyle& st = ImGui::GetStyle();
    std::string file = s.lesson->lesson.sourcePath.filename().string();
    const char* cbLabel = "PTX beside source";
    bool toggle = app.ui.layout != "presenter";
    float cbw = toggle ? ImGui::CalcTextSize(cbLabel).x + ImGui::GetFrameHeight() + st.ItemInnerSpacing.x : 0;
    float room = ImGui::GetContentRegionAvail().x - (toggle ? cbw + st.ItemSpacing.x : 0);
    ImGui::TextUnformatted(file.c_str());
    room -= ImGui::CalcTextSize(file.c_str()).x + st.ItemSpacing.x;
    if (s.program && room > ImGui::GetFontSize() * 3) {
        std::string k = ellipsize("kernel " + s.program->kernelName, room, [](const std::string& t) { return ImGui::CalcTextSize(t.c_str()).x; });
        ImGui::SameLine();
        ImGui::TextDisabled("%s", k.c_str());
        if (ImGui::IsItemHovered() && k.size() < s.program->kernelName.size() + 7) tooltip("kernel %s", s.program->kernelName.c_str());
    }
    if (toggle) {
        if (room >= 0) {
            ImGui::SameLine();
            ImGui::SetCursorPosX(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x - cbw));
        }
        ImGui::Checkbox(cbLabel, &app.settings.showPtx);
    }

    float avail = ImGui::GetContentRegionAvail().x;
    // PTX gets its column only when the panel is wide enough that the source keeps ~60 characters (never in Presenter).
    bool ptx = app.settings.showPtx && app.ui.layout != "presenter" && avail > ImGui::GetFontSize() * 62;
    float srcW = ptx ? avail * 0.58f : avail;
    bool wrap = app.settings.wrapSource;
    ImGui::BeginChild("src", ImVec2(srcW, 0), true, wrap ? 0 : ImGuiWindowFlags_HorizontalScrollbar);
    ImGui::PushFont(app.fonts.mono);
    // Rows touch (no item spacing between them), so a wrapped line's rows form one band and the
    // clipper's row height is the true pitch; the text sits mid-row.
    // Presenter packs the rows closer (half the gap): more of the kernel at a projector's scale.
    const float gap = ImGui::GetStyle().ItemSpacing.y * (app.ui.layout == "presenter" ? 0.5f : 1.0f);
    float lh = ImGui::GetTextLineHeight() + 2 * gap;
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, 0));
    float charW = ImGui::GetFont()->GetCharAdvance('0');   // CalcTextSize rounds up; glyphs advance exactly this
    float markW = charW * 5;
    float numW = charW * 4;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    int n = static_cast<int>(src.lines.size());

    // The rows drawn: a line wider than the panel wraps at a space onto indented rows (every
    // character stays in view); without wrapping each line is one row and the panel scrolls sideways.
    // The child's scrollbar is left room for, so the widths do not change when it appears.
    float textW = ImGui::GetContentRegionAvail().x - markW - numW - (ImGui::GetScrollMaxY() > 0 ? 0 : ImGui::GetStyle().ScrollbarSize);
    size_t cols = wrap ? static_cast<size_t>(std::max(8.0f, std::floor(textW / charW))) : std::string::npos;
    struct Row {
        int line;
        WrapRow part;
    };
    std::vector<Row> rows;
    std::vector<int> firstRow(static_cast<size_t>(n), 0);
    size_t widest = 0;
    for (int i = 0; i < n; ++i) {
        const std::string& t = src.lines[static_cast<size_t>(i)];
        firstRow[static_cast<size_t>(i)] = static_cast<int>(rows.size());
        std::vector<WrapRow> parts = wrap ? wrapColumns(t, cols) : std::vector<WrapRow>{{0, t.size(), 0}};
        widest = std::max(widest, widestRow(t, parts));
        for (auto& w : parts) rows.push_back({i, w});
    }
    // What the screenshot sidecar reports: the widest row needs this many columns of the ones shown.
    app.fits.push_back({"source", "longest source row", static_cast<float>(widest) * charW + markW + numW,
                        ImGui::GetContentRegionAvail().x});
    auto rowY = [&](uint32_t line) { return static_cast<float>(firstRow[std::min<size_t>(line - 1, firstRow.size() - 1)]) * lh; };

    // Keep the selected warp's line in view when it changes: for a few frames, since on a panel's
    // first frames its height and the rows' wrapping are not settled yet.
    static int settle = 0;
    if (curLine && static_cast<int32_t>(curLine) != app.ui.lastScrolledLine) {
        app.ui.lastScrolledLine = static_cast<int32_t>(curLine);
        settle = 3;
    }
    if (curLine && n > 0 && settle > 0) {
        --settle;
        float y = rowY(curLine);
        float top = ImGui::GetScrollY(), h = ImGui::GetWindowHeight();
        if (y < top + lh || y > top + h - 3 * lh) ImGui::SetScrollY(std::max(0.0f, y - h / 3));
    }
    if (app.ui.scrollToLine && n > 0) {   // "go to line" from the metrics or reports panel
        ImGui::SetScrollY(std::max(0.0f, rowY(app.ui.scrollToLine) - ImGui::GetWindowHeight() / 3));
        app.ui.scrollToLine = 0;
    }
    ImGuiListClipper clip;
    clip.Begin(static_cast<int>(rows.size()), lh);
    while (clip.Step()) {
        for (int ri = clip.DisplayStart; ri < clip.DisplayEnd; ++ri) {
            const Row& row = rows[static_cast<size_t>(ri)];
            const int i = row.line;
            const bool firstOfLine = firstRow[static_cast<size_t>(i)] == ri;
            uint32_t line = static_cast<uint32_t>(i + 1);
            ImVec2 p = ImGui::GetCursorScreenPos();
            const float ty = p.y + gap;
            const WrapRow& part = row.part;
            float rowW = std::max(ImGui::GetContentRegionAvail().x,
                                  markW + numW + charW * static_cast<float>(part.indent + part.end - part.begin + (wrap ? 0 : 2)));
            ImGui::PushID(ri);
            if (ImGui::InvisibleButton("##line", ImVec2(rowW, lh))) app.ui.clickedLine = app.ui.clickedLine == line ? 0 : line;
            bool hovered = ImGui::IsItemHovered();
            ImGui::PopID();
            if (line == faultLine) dl->AddRectFilled(p, ImVec2(p.x + rowW, p.y + lh), col(faultColor(), 110));
            else if (line == curLine) dl->AddRectFilled(p, ImVec2(p.x + rowW, p.y + lh), col(okabe_ito::Blue, currentLineAlpha(app.settings.darkTheme)));
            if (line == app.ui.clickedLine) dl->AddRect(p, ImVec2(p.x + rowW, p.y + lh), col(okabe_ito::Yellow), 0, 0, 1.5f);
            else if (hovered) dl->AddRectFilled(p, ImVec2(p.x + rowW, p.y + lh), IM_COL32(255, 255, 255, 18));
            // warp markers: one chip per warp (up to 3), then a count
            auto mit = marks.find(line);
            if (mit != marks.end() && firstOfLine) {
                const LineMarks& m = mit->second;
                float chip = (lh - gap) * 0.55f, y0 = p.y + (lh - chip) * 0.5f;   // the size the chips had before rows touched
                int chips = std::min(m.warps, 3);
                for (int c = 0; c < chips; ++c) {
                    Rgb cc = c < m.atBarrier ? laneColor(LaneState::AtBarrier) : laneColor(LaneState::Active);
                    dl->AddRectFilled(ImVec2(p.x + 2 + c * (chip + 2), y0), ImVec2(p.x + 2 + c * (chip + 2) + chip, y0 + chip), col(cc), 2);
                }
                if (m.selected) dl->AddText(ImVec2(p.x + 2 + 3 * (chip + 2), ty), col(selectedArrowColor(app.settings.darkTheme)), "\xE2\x96\xB6");
                else if (m.warps > 3) dl->AddText(ImVec2(p.x + 2 + 3 * (chip + 2), ty), ImGui::GetColorU32(ImGuiCol_Text), "+");
                if (hovered) ImGui::SetTooltip("%d warp(s) on this line now (%d waiting at a barrier)%s", m.warps, m.atBarrier,
                                               m.selected ? "; the selected warp is here" : "");
            }
            if (firstOfLine) {
                char num[16];
                std::snprintf(num, sizeof num, "%3u", line);
                dl->AddText(ImVec2(p.x + markW, ty), ImGui::GetColorU32(ImGuiCol_TextDisabled), num);
            }
            const std::string& text = src.lines[static_cast<size_t>(i)];
            const float x0 = p.x + markW + numW + charW * static_cast<float>(part.indent);
            for (const Token& t : src.tokens[static_cast<size_t>(i)]) {
                size_t b = std::max(t.begin, part.begin), e = std::min(t.end, part.end);
                if (b >= e) continue;
                dl->AddText(ImVec2(x0 + charW * static_cast<float>(b - part.begin), ty), col(tokenColor(t.kind, app.settings.darkTheme)),
                            text.c_str() + b, text.c_str() + e);
            }
        }
    }
    clip.End();
    ImGui::PopStyleVar();
    ImGui::PopFont();
    ImGui::EndChild();

    if (ptx) {
        ImGui::SameLine();
        ImGui::BeginChild("ptx", ImVec2(0, 0), true);
        if (focus) {
            lineStatsView(app, focus);
            if (app.ui.clickedLine) {
                ImGui::SameLine();
                if (ImGui::SmallButton("follow warp")) app.ui.clickedLine = 0;
            }
            ImGui::Separator();
            ImGui::TextDisabled("PTX of line %u", focus);
            ptxView(app, focus);
        } else {
            ImGui::TextWrapped("Click a source line to see its statistics and PTX. The highlighted line is where the selected warp is.");
        }
        ImGui::EndChild();
    }
}

} // namespace warpscope::gui
