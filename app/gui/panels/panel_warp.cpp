// Warp detail panel: the selected warp's position, lane states, reconvergence (SIMT) stack and
// per-lane registers.
#include "gui/panels/panels.hpp"

#include <bit>
#include <cfloat>
#include <cstring>

namespace warpscope::gui {

namespace {

std::string formatReg(uint64_t v, const std::string& type, int fmt) {
    char buf[48];
    bool is64 = type.size() >= 2 && type.substr(type.size() - 2) == "64";
    bool is16 = type.size() >= 2 && type.substr(type.size() - 2) == "16";
    if (fmt == 0) {
        std::snprintf(buf, sizeof buf, is64 ? "%016llx" : is16 ? "%04llx" : "%08llx", static_cast<unsigned long long>(is64 ? v : v & 0xffffffffull));
    } else if (fmt == 1) {
        if (is64) std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
        else if (type[0] == 'u' || type[0] == 'b') std::snprintf(buf, sizeof buf, "%u", static_cast<uint32_t>(v));
        else std::snprintf(buf, sizeof buf, "%d", static_cast<int32_t>(v));
    } else {
        if (is64) {
            double d;
            std::memcpy(&d, &v, 8);
            std::snprintf(buf, sizeof buf, "%.6g", d);
        } else {
            float f;
            uint32_t u = static_cast<uint32_t>(v);
            std::memcpy(&f, &u, 4);
            std::snprintf(buf, sizeof buf, "%.6g", f);
        }
    }
    return buf;
}

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

} // namespace

void drawWarpPanel(AppContext& app) {
    const Snapshot& s = *app.snap;
    if (!s.selected) {
        if (!s.program) ImGui::TextDisabled("No launch yet.");
        else ImGui::TextWrapped("Block %u is not resident (pending or done). Click a warp in the Grid & warps panel to select it.", s.selBlock);
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
    ImGui::SameLine();
    ImGui::TextDisabled("threads %u-%u of the block, %llu instructions issued", t0, t1, static_cast<unsigned long long>(w.issued));
    const char* state = w.masks.done ? "finished" : w.masks.atBarrier ? "waiting at a barrier" : "ready";
    ImGui::Text("PC %s   state: %s", pcText(prog, w.pc).c_str(), state);
    if (prog && w.pc >= 0) {
        ImGui::PushFont(app.fonts.mono);
        ImGui::TextUnformatted(("\xE2\x96\xB6 " + prog->code[static_cast<size_t>(w.pc)].text).c_str());
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
    ImGui::Text("active %s   exited %s", maskText(w.masks.active).c_str(), maskText(w.masks.exited).c_str());
    if (w.masks.hasLast)
        ImGui::TextDisabled("last instruction: %d lanes active, %d executed", std::popcount(w.masks.lastActive), std::popcount(w.masks.lastExec));

    // SIMT stack
    if (ImGui::CollapsingHeader("Reconvergence stack", ImGuiTreeNodeFlags_DefaultOpen)) {
        helpMarker("When lanes of a warp disagree about a branch, the warp runs one path at a time. Each entry is a path "
                   "still to run: its PC, the PC where it rejoins the entry below (reconvergence point), and its lanes. "
                   "The top entry runs now.");
        for (size_t fi = d.frames.size(); fi-- > 0;) {
            const FrameView& f = d.frames[fi];
            if (d.frames.size() > 1)
                ImGui::TextDisabled("frame %zu: %s", fi, prog && f.func < prog->functions.size() ? prog->functions[f.func].name.c_str() : "?");
            if (ImGui::BeginTable(("simt" + std::to_string(fi)).c_str(), 4, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
                ImGui::TableSetupColumn("");
                ImGui::TableSetupColumn("PC");
                ImGui::TableSetupColumn("reconverges at");
                ImGui::TableSetupColumn("lanes", ImGuiTableColumnFlags_WidthStretch);
                ImGui::TableHeadersRow();
                for (size_t e = f.stack.size(); e-- > 0;) {
                    const SimtEntryView& en = f.stack[e];
                    ImGui::TableNextRow();
                    ImGui::TableNextColumn();
                    ImGui::TextUnformatted(e + 1 == f.stack.size() ? "top" : "");
                    ImGui::TableNextColumn();
                    ImGui::TextUnformatted(pcText(prog, en.pc).c_str());
                    ImGui::TableNextColumn();
                    ImGui::TextUnformatted(pcText(prog, en.rpc).c_str());
                    ImGui::TableNextColumn();
                    float mw = std::min(ImGui::GetContentRegionAvail().x * 0.5f, 32 * 5.0f);
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
        const char* fmts[] = {"hex", "decimal", "float"};
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
        ImGui::Combo("format", &app.settings.registerFormat, fmts, 3);
        ImGui::SameLine();
        ImGui::TextDisabled("dim = lane not active");
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
                                               : formatReg(d.regs[idx * 32 + static_cast<size_t>(l)], fn.regTypes[idx], app.settings.registerFormat);
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
