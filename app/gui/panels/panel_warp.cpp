// Warp detail panel: the selected warp's position, lane states, reconvergence (SIMT) stack and
// per-lane registers.
#include "gui/panels/panels.hpp"

#include <bit>
#include <cfloat>
#include <cstring>

namespace warpscope::gui {

namespace {

void miniMask(uint32_t mask, float w, float h) {
    ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    float lw = w / 32;
    for (int l = 0; l < 32; ++l)
        dl->AddRectFilled(ImVec2(p.x + l * lw, p.y), ImVec2(p.x + (l + 1) * lw - (lw > 3 ? 1 : 0), p.y + h),
                          col((mask >> l) & 1 ? laneColor(LaneState::Active) : laneColor(LaneState::None)));
    ImGui::Dummy(ImVec2(w, h));
}

std::string pcText(const ProgramInfo* prog, int32_t pc) {
    if (pc == sim::kExitPc) return "exit";
    if (pc < 0) return "-";
    std::string t = std::to_string(pc);
    if (prog && static_cast<size_t>(pc) < prog->code.size() && prog->code[static_cast<size_t>(pc)].line)
        t += " (line " + std::to_string(prog->code[static_cast<size_t>(pc)].line) + ")";
    return t;
}

// Why there is no selected warp to show: the block or warp index is outside this launch, or
// the block is not on an SM now.
std::string missingWarpText(const Snapshot& s) {
    uint32_t threads = s.block[0] * s.block[1] * s.block[2];
    if (s.selBlock >= s.blockCount)
        return "Block " + std::to_string(s.selBlock) + " does not exist in this launch: the grid has " + std::to_string(s.blockCount) +
               (s.blockCount == 1 ? " block." : " blocks.");
    if (s.selWarp >= s.warpsPerBlock)
        return "Warp " + std::to_string(s.selWarp) + " does not exist in this launch: a block of " + std::to_string(threads) +
               " threads has " + std::to_string(s.warpsPerBlock) + (s.warpsPerBlock == 1 ? " warp (warp 0)." : " warps (0 to " + std::to_string(s.warpsPerBlock - 1) + ").");
    Snapshot::BlockStatus st = s.blockStatus(s.selBlock);
    return "Block " + std::to_string(s.selBlock) + " is not on an SM right now: " +
           (st == Snapshot::BlockStatus::Done ? "it has finished." : "it has not started yet (it waits for a free SM).");
}

// The lesson's source variables, by name, per lane (lesson.json "variables"), above the PTX detail.
void variablesTable(AppContext& app, const Snapshot& s) {
    if (s.lesson && !s.lesson->variablesError.empty()) ImGui::TextColored(colv(faultColor()), "%s", s.lesson->variablesError.c_str());
    std::vector<VariableRow> rows = variableRows(s);
    if (rows.empty()) return;
    ImGui::PushFont(app.fonts.mono);
    float cellW = ImGui::CalcTextSize("-0000").x;
    for (auto& r : rows)
        for (uint32_t l = 0; l < r.lanes; ++l) cellW = std::max(cellW, ImGui::CalcTextSize(r.values[l].c_str()).x);
    ImGuiTableFlags tf = ImGuiTableFlags_ScrollX | ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
    float h = (ImGui::GetTextLineHeight() + ImGui::GetStyle().CellPadding.y * 2 + 1) * (static_cast<float>(rows.size()) + 1) +
              ImGui::GetStyle().ScrollbarSize + 2;
    if (ImGui::BeginTable("vars", 33, tf, ImVec2(0, h))) {
        ImGui::TableSetupScrollFreeze(1, 1);
        ImGui::TableSetupColumn("variable \\ lane");
        for (int l = 0; l < 32; ++l) ImGui::TableSetupColumn(std::to_string(l).c_str(), ImGuiTableColumnFlags_WidthFixed, cellW);
        ImGui::TableHeadersRow();
        for (auto& r : rows) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(r.name.c_str());
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("%s: set on line %u, held in PTX register %s", r.name.c_str(), r.line, r.reg.c_str());
            for (uint32_t l = 0; l < 32; ++l) {
                ImGui::TableNextColumn();
                if (l >= r.lanes) continue;
                if (!r.set) ImGui::TextDisabled("-");
                else if ((s.selected->warp.masks.active >> l) & 1) ImGui::TextUnformatted(r.values[l].c_str());
                else ImGui::TextDisabled("%s", r.values[l].c_str());
            }
        }
        ImGui::EndTable();
    }
    ImGui::PopFont();
    bool anyUnset = false;
    for (auto& r : rows) anyUnset = anyUnset || !r.set;
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", anyUnset ? "'-': the warp has not reached the line that sets it yet" : "dim = lane not active now");
    ImGui::PopStyleColor();
}

} // namespace

void drawWarpPanel(AppContext& app) {
    const Snapshot& s = *app.snap;
    if (!s.selected) {
        if (!s.program) ImGui::TextDisabled("No launch yet.");
        else ImGui::TextWrapped("%s Click a warp in the Grid & warps panel to select it.", missingWarpText(s).c_str());
        return;
    }
    const WarpDetail& d = *s.selected;
    const WarpView& w = d.warp;
    const ProgramInfo* prog = s.program.get();
    uint32_t threads = s.block[0] * s.block[1] * s.block[2];
    uint32_t t0 = d.warpInBlock * 32, t1 = std::min(threads, t0 + 32) - 1;
    ImGui::PushFont(app.fonts.bold);
    ImGui::Text("Block (%u,%u,%u), warp %u", d.blockIdx[0], d.blockIdx[1], d.blockIdx[2], d.warpInBlock);
    ImGui::PopFont();
    char who[96];
    std::snprintf(who, sizeof who, "threads %u-%u of the block, %llu instruction%s issued", t0, t1, static_cast<unsigned long long>(w.issued),
                  w.issued == 1 ? "" : "s");
    sameLineIfFits(std::min(ImGui::CalcTextSize(who).x, ImGui::GetContentRegionAvail().x * 0.5f));
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", who);
    ImGui::PopStyleColor();
    // Follow mode moves this panel to whichever warp issued: say so, with the way out.
    if (app.settings.followIssuing) {
        ImGui::PushStyleColor(ImGuiCol_Text, colv(okabe_ito::Orange));
        ImGui::TextWrapped("Following the issuing warp: each Step (F10) shows the warp that just issued, so this panel moves "
                           "from warp to warp. Shift+F10 and F11 step only the selected warp.");
        ImGui::PopStyleColor();
        if (ImGui::SmallButton("Stay on this warp")) {
            app.settings.followIssuing = false;
            app.session.select(d.block, d.warpInBlock, false);
        }
    }
    variablesTable(app, s);
    const char* state = w.masks.done ? "finished" : w.masks.atBarrier ? "waiting at a barrier" : "ready";
    ImGui::TextWrapped("PC %s   state: %s", pcText(prog, w.pc).c_str(), state);
    if (prog && w.pc >= 0) {
        ImGui::PushFont(app.fonts.mono);
        ImGui::TextWrapped("%s", ("\xE2\x96\xB6 " + prog->code[static_cast<size_t>(w.pc)].text).c_str());
        ImGui::PopFont();
    }
    // lanes
    float avail = ImGui::GetContentRegionAvail().x;
    float laneW = std::clamp(avail / 32.0f, 6.0f, 28.0f);
    ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    float stripH = ImGui::GetTextLineHeight() * 1.3f;
    uint32_t faultLane = 0;
    if (s.error && s.error->site.lane && s.error->site.threadX) faultLane = 1u << *s.error->site.lane;
    if (app.ui.highlight.on && app.ui.highlight.block == d.block && app.ui.highlight.warp == d.warpInBlock) faultLane |= app.ui.highlight.lanes;
    drawLaneStrip(dl, p, laneW, stripH, w.lanes, faultLane);
    for (int l = 0; l < 32; l += (laneW >= 14 ? 1 : laneW >= 8 ? 4 : 8)) {
        char n[8];
        std::snprintf(n, sizeof n, "%d", l);
        dl->AddText(app.fonts.mono, app.fonts.mono->FontSize * 0.8f, ImVec2(p.x + l * laneW + 1, p.y + stripH + 1), ImGui::GetColorU32(ImGuiCol_TextDisabled), n);
    }
    ImGui::Dummy(ImVec2(32 * laneW, stripH + app.fonts.mono->FontSize * 0.8f + 4));
    if (ImGui::IsItemHovered()) {
        int lane = std::clamp(static_cast<int>((ImGui::GetIO().MousePos.x - p.x) / laneW), 0, 31);
        ImGui::SetTooltip("lane %d (thread %u): %s", lane, t0 + lane, laneStateName(w.lanes[static_cast<size_t>(lane)]));
    }
    // Narrow panels (scale 2) wrap these lines rather than cut them.
    ImGui::TextWrapped("active %s   exited %s", maskText(w.masks.active).c_str(), maskText(w.masks.exited).c_str());
    if (w.masks.hasLast) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("last instruction: %d lanes active, %d executed", std::popcount(w.masks.lastActive), std::popcount(w.masks.lastExec));
        ImGui::PopStyleColor();
    }

    // SIMT stack
    // The explanation is the header's tooltip: a "(?)" after a full-width header would sit past the panel's edge.
    // A narrow panel gets the short title (ImGui counts a header's label as content).
    const char* stackTitle = ImGui::CalcTextSize("Reconvergence stack (?)").x + ImGui::GetFontSize() * 2 < ImGui::GetContentRegionAvail().x
                                 ? "Reconvergence stack (?)###stack" : "SIMT stack (?)###stack";
    bool stackOpen = ImGui::CollapsingHeader(stackTitle, ImGuiTreeNodeFlags_DefaultOpen);
    if (ImGui::IsItemHovered())
        tooltip("%s", "When lanes of a warp disagree about a branch, the warp runs one path at a time. Each entry is a path "
                   "still to run: its PC, the PC where it rejoins the entry below (reconvergence point), and its lanes. "
                   "The top entry runs now.");
    if (stackOpen) {
        for (size_t fi = d.frames.size(); fi-- > 0;) {
            const FrameView& f = d.frames[fi];
            if (d.frames.size() > 1)
                ImGui::TextDisabled("frame %zu: %s", fi, prog && f.func < prog->functions.size() ? prog->functions[f.func].name.c_str() : "?");
            // Proportional columns whose cells wrap: the table never grows past a narrow panel.
            if (ImGui::BeginTable(("simt" + std::to_string(fi)).c_str(), 4, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
                ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthStretch, 0.6f);
                ImGui::TableSetupColumn("PC", ImGuiTableColumnFlags_WidthStretch, 1.2f);
                ImGui::TableSetupColumn("rejoins at", ImGuiTableColumnFlags_WidthStretch, 1.2f);
                ImGui::TableSetupColumn("lanes", ImGuiTableColumnFlags_WidthStretch, 1.6f);
                ImGui::TableHeadersRow();
                for (size_t e = f.stack.size(); e-- > 0;) {
                    const SimtEntryView& en = f.stack[e];
                    ImGui::TableNextRow();
                    ImGui::TableNextColumn();
                    ImGui::TextWrapped("%s", e + 1 == f.stack.size() ? "top" : "");
                    ImGui::TableNextColumn();
                    ImGui::TextWrapped("%s", pcText(prog, en.pc).c_str());
                    ImGui::TableNextColumn();
                    ImGui::TextWrapped("%s", pcText(prog, en.rpc).c_str());
                    ImGui::TableNextColumn();
                    // The lane count keeps its room beside the mask in a narrow column.
                    float countW = ImGui::CalcTextSize("32").x + ImGui::GetStyle().ItemSpacing.x;
                    float mw = std::clamp(ImGui::GetContentRegionAvail().x - countW, 0.0f, 32 * 5.0f);
                    miniMask(en.mask, mw, ImGui::GetTextLineHeight() * 0.8f);
                    ImGui::SameLine();
                    ImGui::Text("%d", std::popcount(en.mask));
                    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", maskText(en.mask).c_str());
                }
                ImGui::EndTable();
            }
        }
    }

    // Registers
    if (ImGui::CollapsingHeader("Registers", ImGuiTreeNodeFlags_DefaultOpen)) {
        // Integers in decimal, floats as numbers, unless the student asks for the bits in hex.
        bool hexOn = app.settings.registerFormat == kRegHex;
        if (ImGui::Checkbox("hex", &hexOn)) app.settings.registerFormat = hexOn ? kRegHex : kRegByType;
        const char* note = hexOn ? "dim = lane not active" : "integers in decimal; dim = lane not active";
        sameLineIfFits(ImGui::CalcTextSize(note).x);
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("%s", note);
        ImGui::PopStyleColor();
        if (!prog || d.func >= prog->functions.size()) return;
        const FunctionInfo& fn = prog->functions[d.func];
        size_t nregs = std::min(fn.regNames.size(), d.regs.size() / 32);
        size_t npreds = std::min(fn.predNames.size(), d.preds.size());
        ImGui::PushFont(app.fonts.mono);
        ImGuiTableFlags tf = ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY | ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                             ImGuiTableFlags_SizingFixedFit;
        if (ImGui::BeginTable("regs", 34, tf, ImVec2(0, std::max(ImGui::GetContentRegionAvail().y, ImGui::GetTextLineHeight() * 6)))) {
            ImGui::TableSetupScrollFreeze(2, 1);
            ImGui::TableSetupColumn("reg");
            ImGui::TableSetupColumn("type");
            for (int l = 0; l < 32; ++l) ImGui::TableSetupColumn(("lane " + std::to_string(l)).c_str());
            ImGui::TableHeadersRow();
            uint32_t live = w.masks.active;
            ImGuiListClipper clip;
            clip.Begin(static_cast<int>(nregs + npreds));
            while (clip.Step()) {
                for (int r = clip.DisplayStart; r < clip.DisplayEnd; ++r) {
                    ImGui::TableNextRow();
                    ImGui::TableNextColumn();
                    bool isPred = static_cast<size_t>(r) >= nregs;
                    size_t idx = isPred ? r - nregs : static_cast<size_t>(r);
                    ImGui::TextUnformatted(isPred ? fn.predNames[idx].c_str() : fn.regNames[idx].c_str());
                    ImGui::TableNextColumn();
                    ImGui::TextDisabled("%s", isPred ? "pred" : fn.regTypes[idx].c_str());
                    for (int l = 0; l < 32; ++l) {
                        ImGui::TableNextColumn();
                        bool on = (live >> l) & 1;
                        std::string v = isPred ? std::string((d.preds[idx] >> l) & 1 ? "1" : "0")
                                               : formatRegister(d.regs[idx * 32 + static_cast<size_t>(l)], fn.regTypes[idx], app.settings.registerFormat);
                        if (on) ImGui::TextUnformatted(v.c_str());
                        else ImGui::TextDisabled("%s", v.c_str());
                    }
                }
            }
            ImGui::EndTable();
        }
        ImGui::PopFont();
    }
}

} // namespace warpscope::gui
