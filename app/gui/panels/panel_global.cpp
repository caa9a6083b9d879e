// Global access panel: one warp-wide global memory instruction of the selected warp, drawn as
// lanes -> 32-byte sectors grouped in 128-byte lines. Each sector shows which of its 32 bytes a
// lane asked for; the rest was moved for nothing (wasted). Counts use Nsight Compute's names.
#include "gui/model/memory_model.hpp"
#include "gui/panels/panels.hpp"
#include "gui/model/text_fit.hpp"

#include <bit>
#include <cmath>

namespace warpscope::gui {

namespace {
const Rgb kUsed = okabe_ito::SkyBlue;
const Rgb kWasted = okabe_ito::Vermillion;
const Rgb kNotMoved = {70, 70, 78};

std::string accessLabel(const Snapshot& s, const MemAccess& a) {
    std::string t = "step " + std::to_string(a.stepIndex + 1) + ", line " + std::to_string(a.line);
    if (s.program && a.pc >= 0 && static_cast<size_t>(a.pc) < s.program->code.size()) t += ":  " + s.program->code[static_cast<size_t>(a.pc)].text;
    return t;
}

void metricRow(ImFont* mono, const char* what, const std::string& metric, const std::string& value, const char* tip = nullptr) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(what);
    if (tip && ImGui::IsItemHovered()) tooltip("%s", tip);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(value.c_str());
    ImGui::TableNextColumn();
    // One row per count keeps the sector diagram below in view: a name too long for the column
    // ends in "…" and is whole in its tooltip.
    ImGui::PushFont(mono);
    std::string shown = ellipsize(metric, ImGui::GetContentRegionAvail().x, [](const std::string& t) { return ImGui::CalcTextSize(t.c_str()).x; });
    ImGui::TextDisabled("%s", shown.c_str());
    ImGui::PopFont();
    if (shown != metric && ImGui::IsItemHovered()) tooltip("%s", metric.c_str());
}
} // namespace

// Shared by both memory panels: pick the instruction from the selected warp's history. A lesson
// step may have pinned the panel to the access on one line (the one its text discusses); choosing
// an entry by hand unpins it.
const MemAccess* memoryPicker(AppContext& app, bool shared, uint64_t& pick) {
    const Snapshot& s = *app.snap;
    if (emptyPanel(!s.program, "No launch yet.")) return nullptr;
    ImGui::Text("Block %u, warp %u", s.selBlock, s.selWarp);
    ImGui::SameLine();
    ImGui::TextDisabled("(select a warp in Grid & warps)");
    MemPin& pin = shared ? app.ui.sharedPin : app.ui.globalPin;
    const MemAccess* pinned = pin.line ? pinnedAccess(s.memHistory, shared, pin) : nullptr;
    const MemAccess* a = pinned ? pinned : pickAccess(s.memHistory, shared, pick);
    if (!a) {
        ImGui::TextWrapped("This warp has not executed a %s load or store in this launch yet. Step it (Shift+F10) until it does.",
                           shared ? "shared-memory" : "global");
        return nullptr;
    }
    std::string preview = pinned ? (pin.showWhy ? "pinned by Show why: " : "pinned by the lesson: ") : pick == 0 ? "most recent: " : "";
    preview += accessLabel(s, *a);
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##pick", preview.c_str())) {
        if (ImGui::Selectable("follow the most recent", pick == 0 && !pinned)) {
            pick = 0;
            pin = {};
        }
        for (auto it = s.memHistory.rbegin(); it != s.memHistory.rend(); ++it) {
            if (it->shared != shared) continue;
            if (ImGui::Selectable(accessLabel(s, *it).c_str(), pinned ? &*it == pinned : pick == it->stepIndex + 1)) {
                pick = it->stepIndex + 1;
                pin = {};
            }
        }
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered()) tooltip("The selected warp's recent %s memory instructions (newest first)", shared ? "shared" : "global");
    if (pin.line && !pinned)
        ImGui::TextDisabled("(the %s on line %u %s points at has not run yet: showing the most recent)",
                            pin.access == 1 ? "load" : pin.access == 2 ? "store" : "access", pin.line, pin.showWhy ? "Show why" : "the lesson");
    return a;
}

namespace {
void drawGlobalDiagram(AppContext& app, const MemAccess& acc, const GlobalDiagram& d, bool compact);
}

void drawGlobalAccessPanel(AppContext& app) {
    const MemAccess* a = memoryPicker(app, false, app.ui.globalPick);
    if (!a) return;
    GlobalDiagram d = buildGlobalDiagram(*a);
    if (!d.valid) return;
    const std::string op = d.opSuffix();
    const char* verb = d.isAtomic ? "atomic" : d.isStore ? "store" : "load";
    ImGui::Text("%s of %u bytes per lane by %u lanes", verb, d.bytesPerLane, d.activeLanes);
    if (!a->buffer.empty()) {
        ImGui::SameLine();
        ImGui::TextDisabled("into buffer '%s'", a->buffer.c_str());
    }

    // A short panel (Presenter on a 720p projector) puts the picture first, under a one-line
    // summary with the sector count, so the count and its picture are seen together; the table follows.
    const float lineH = ImGui::GetTextLineHeightWithSpacing();
    const bool compact = ImGui::GetContentRegionAvail().y < lineH * 16;
    if (compact) {
        ImGui::PushFont(app.fonts.bold);
        ImGui::TextWrapped("%u sectors (ideal %u), %u of %u bytes used (%.0f%%)", d.sectorCount, std::max<uint32_t>(1, (d.bytesRequested + 31) / 32),
                           d.bytesUsed, d.bytesMoved, d.efficiency());
        ImGui::PopFont();
        drawGlobalDiagram(app, *a, d, true);
    }
    // Counts.
    if (ImGui::BeginTable("gcounts", 3, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
        ImGui::TableSetupColumn("what");
        ImGui::TableSetupColumn("value");
        ImGui::TableSetupColumn("metric", ImGuiTableColumnFlags_WidthStretch);   // the Nsight name wraps in what is left
        char buf[64];
        metricRow(app.fonts.mono, "requests", "l1tex__t_requests_pipe_lsu_mem_global_op_" + op + ".sum", std::to_string(d.requests),
                  "A warp-wide global instruction is always one request.");
        metricRow(app.fonts.mono, "sectors (32 B)", "l1tex__t_sectors_pipe_lsu_mem_global_op_" + op + ".sum", std::to_string(d.sectorCount),
                  "Distinct aligned 32-byte sectors the lanes touch: what the memory system moves.");
        std::snprintf(buf, sizeof buf, "%.1f (ideal %u)", d.sectorsPerRequest(),
                      std::max<uint32_t>(1, (d.bytesRequested + 31) / 32));
        metricRow(app.fonts.mono, "sectors per request", "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_" + op + ".ratio", buf);
        metricRow(app.fonts.mono, "128-byte lines", "(cache lines touched)", std::to_string(d.lineCount));
        std::snprintf(buf, sizeof buf, "%u of %u bytes", d.bytesUsed, d.bytesMoved);
        metricRow(app.fonts.mono, "bytes used / moved", "", buf, "Bytes the lanes asked for (a byte several lanes read counts once) vs bytes in the moved sectors.");
        std::snprintf(buf, sizeof buf, "%.0f%%  (%u bytes wasted)", d.efficiency(), d.bytesMoved - d.bytesUsed);
        metricRow(app.fonts.mono, "efficiency", "smsp__sass_average_data_bytes_per_sector_mem_global_op_" + op + ".pct", buf);
        ImGui::EndTable();
    }
    if (!compact) drawGlobalDiagram(app, *a, d, false);
}

namespace {
// The lanes on top, the sectors grouped by 128-byte line below, a connector per lane; the legend.
void drawGlobalDiagram(AppContext& app, const MemAccess& acc, const GlobalDiagram& d, bool compact) {
    const MemAccess* a = &acc;
    // Diagram: lanes on top, sectors grouped by line below, a connector per lane.
    ImDrawList* dl = ImGui::GetWindowDrawList();
    float W = ImGui::GetContentRegionAvail().x;
    float fontH = ImGui::GetTextLineHeight();
    ImVec2 o = ImGui::GetCursorScreenPos();
    float laneW = W / 32.0f;
    float laneH = fontH * 1.2f;
    // Sector slots: 4 per fetched line, a small gap between lines.
    size_t nLines = d.lines.size();
    float gap = nLines > 16 ? 2.0f : 8.0f;
    float slotW = std::max(2.0f, (W - gap * (nLines ? nLines - 1 : 0)) / std::max<size_t>(1, nLines * 4));
    float secY = o.y + laneH + fontH * (compact ? 2.2f : 3.2f);
    float secH = std::max(fontH * 2.0f, std::min(60.0f, slotW * 0.9f));
    ImVec2 mouse = ImGui::GetIO().MousePos;
    std::string tip;
    auto slotX = [&](size_t line, uint32_t slot) { return o.x + line * (4 * slotW + gap) + slot * slotW; };
    // lines and sectors
    for (size_t li = 0; li < nLines; ++li) {
        float x0 = slotX(li, 0), x1 = slotX(li, 4) - 1;
        dl->AddRect(ImVec2(x0 - 1, secY - 2), ImVec2(x1 + 1, secY + secH + 2), ImGui::GetColorU32(ImGuiCol_Border), 2);
        if (4 * slotW > fontH * 4) {
            std::string lab = hex(d.lines[li].addr);
            dl->AddText(app.fonts.mono, app.fonts.mono->FontSize * 0.75f, ImVec2(x0, secY + secH + 4), ImGui::GetColorU32(ImGuiCol_TextDisabled), lab.c_str());
        }
        for (uint32_t sl = 0; sl < 4; ++sl)
            if (!((d.lines[li].sectorMask >> sl) & 1)) {
                float sx = slotX(li, sl);
                dl->AddRectFilled(ImVec2(sx + 1, secY), ImVec2(sx + slotW - 1, secY + secH), col(kNotMoved, 120));
                if (mouse.x >= sx && mouse.x < sx + slotW && mouse.y >= secY && mouse.y < secY + secH)
                    tip = "sector " + hex(d.lines[li].addr + sl * 32) + ": not moved (no lane needs it)";
            }
    }
    for (size_t si = 0; si < d.sectors.size(); ++si) {
        const SectorUse& sec = d.sectors[si];
        float sx = slotX(sec.line, static_cast<uint32_t>((sec.addr >> 5) & 3));
        float bw = (slotW - 2) / 32.0f;
        // 32 byte cells stacked left to right; used bytes blue, unused vermillion
        for (int b = 0; b < 32;) {
            bool used = (sec.usedMask >> b) & 1;
            int e = b + 1;
            while (e < 32 && (((sec.usedMask >> e) & 1) != 0) == used) ++e;
            dl->AddRectFilled(ImVec2(sx + 1 + b * bw, secY), ImVec2(sx + 1 + e * bw, secY + secH), col(used ? kUsed : kWasted, used ? 255 : 200));
            b = e;
        }
        if (slotW > fontH * 2.2f) {
            char n[16];
            std::snprintf(n, sizeof n, "%u/32", sec.usedBytes);
            dl->AddText(ImVec2(sx + 3, secY + secH * 0.5f - fontH * 0.5f), IM_COL32(0, 0, 0, 255), n);
        }
        if (mouse.x >= sx && mouse.x < sx + slotW && mouse.y >= secY && mouse.y < secY + secH) {
            tip = "sector " + hex(sec.addr) + " (line " + hex(d.lines[sec.line].addr) + ")\n" + std::to_string(sec.usedBytes) +
                  " of 32 bytes used, " + std::to_string(32 - sec.usedBytes) + " wasted\nlanes:";
            for (int l = 0; l < 32; ++l)
                if ((sec.lanes >> l) & 1) tip.append(" ").append(std::to_string(l));
        }
    }
    // lanes and connectors
    for (int l = 0; l < 32; ++l) {
        ImVec2 a0(o.x + l * laneW, o.y), a1(o.x + (l + 1) * laneW - 1, o.y + laneH);
        bool on = (a->mask >> l) & 1;
        dl->AddRectFilled(a0, a1, col(on ? laneColor(LaneState::Active) : laneColor(LaneState::None)));
        if (laneW >= fontH * 0.9f || l % 4 == 0) {
            char n[8];
            std::snprintf(n, sizeof n, "%d", l);
            dl->AddText(app.fonts.mono, app.fonts.mono->FontSize * 0.75f, ImVec2(a0.x + 1, a0.y + 1), IM_COL32(0, 0, 0, 255), n);
        }
        if (on) {
            int si = d.laneSector[static_cast<size_t>(l)];
            if (si >= 0) {
                const SectorUse& sec = d.sectors[static_cast<size_t>(si)];
                float sx = slotX(sec.line, static_cast<uint32_t>((sec.addr >> 5) & 3));
                uint32_t off = static_cast<uint32_t>(a->addr[static_cast<size_t>(l)] - sec.addr);
                float tx = sx + 1 + (off + d.bytesPerLane * 0.5f) * (slotW - 2) / 32.0f;
                tx = std::min(tx, sx + slotW - 1);
                dl->AddLine(ImVec2((a0.x + a1.x) * 0.5f, a1.y), ImVec2(tx, secY - 2), col(laneColor(LaneState::Active), 150), 1.0f);
            }
        }
        if (mouse.x >= a0.x && mouse.x < a1.x && mouse.y >= a0.y && mouse.y < a1.y) {
            char buf[160];
            if (!on) {
                std::snprintf(buf, sizeof buf, "lane %d: did not execute this instruction", l);
                tip = buf;
            } else {
                uint64_t ad = a->addr[static_cast<size_t>(l)];
                std::snprintf(buf, sizeof buf, "lane %d: address 0x%llx", l, static_cast<unsigned long long>(ad));
                tip = buf;
                if (!a->buffer.empty() && ad >= a->bufferBase) {
                    std::snprintf(buf, sizeof buf, " + %llu", static_cast<unsigned long long>(ad - a->bufferBase));
                    tip.append(" (").append(a->buffer).append(buf).append(")");
                }
                std::snprintf(buf, sizeof buf, ", %u bytes, sector 0x%llx", d.bytesPerLane, static_cast<unsigned long long>(ad & ~uint64_t(31)));
                tip += buf;
            }
        }
    }
    float totalH = secY + secH + fontH * 1.6f - o.y;
    ImGui::Dummy(ImVec2(W, totalH));
    if (!tip.empty()) tooltip("%s", tip.c_str());
    // legend
    legendSwatch(kUsed, "bytes a lane asked for", fontH * 0.8f);
    legendSwatch(kWasted, "moved but unused (wasted)", fontH * 0.8f);
    legendSwatch(kNotMoved, "sector not moved", fontH * 0.8f);
    ImGui::NewLine();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("Each box is a 128-byte line of four 32-byte sectors; only lines the warp touches are drawn.");
    ImGui::PopStyleColor();
}
} // namespace

} // namespace warpscope::gui
