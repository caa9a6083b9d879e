// Metrics panel: the launch's counters under their Nsight Compute names (estimated ones from the
// cache model marked), and the per-source-line table; clicking a row shows that line in the
// Source panel. In Timed mode, above them, the cycle model's memory figures for the launch: its
// L2 hit rate with the stream's access policy window and the persisting set-aside, and the
// sectors that crossed PCIe to mapped host memory (the figures `warpscope run --timed` predicts
// with).
#include "gui/panels/panels.hpp"

#include <algorithm>

namespace warpscope::gui {

namespace {
std::string num(double v) {
    char buf[48];
    if (v == static_cast<double>(static_cast<long long>(v)) && std::abs(v) < 1e15) std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
    else std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

// The cycle model's view of launch `index` (finished, or the one running), or null.
const TimedLaunchView* timedLaunchOf(const Snapshot& s, int index) {
    for (const auto& t : s.launchTimings)
        if (t && t->launchIndex == index) return t.get();
    if (s.timing && s.timing->launch && s.timing->launch->launchIndex == index) return s.timing->launch.get();
    return nullptr;
}

// One row of the cycle-model table: the Nsight name with what it means under it, and the value.
void cycleRow(AppContext& app, const char* name, const std::string& value, const std::string& note) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    drawMetricName(app.fonts.mono, name, false);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", note.c_str());
    ImGui::PopStyleColor();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(value.c_str());
}

void drawCycleModel(AppContext& app, const TimedLaunchView& t) {
    const timing::TimingResult& r = t.result;
    ImGui::PushStyleColor(ImGuiCol_Text, colv(okabe_ito::SkyBlue));
    ImGui::TextWrapped("Cycle model (Timed mode, %s)%s", app.snap->gpuPreset.c_str(), t.complete ? "" : ", so far");
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered())
        tooltip("What the cycle model predicted this launch with, as `warpscope run --timed` does: its own L2 with the launch's\n"
                "access policy window and persisting set-aside, and mapped host memory over PCIe. The counters below come\n"
                "from the counters' cache model, which knows neither.");
    // Mapped memory where the kernel used it (a lesson may keep a one-element mapped buffer it never touches).
    const bool pcie = r.mappedSectors > 0;
    ImGuiTableFlags tf = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
    if (ImGui::BeginTable("cycle", 2, tf)) {
        ImGui::TableSetupColumn("cycle model", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableSetupColumn("value");
        char buf[96];
        std::snprintf(buf, sizeof buf, "%.2f", r.l2Lookups ? 100.0 * double(r.l2Hits) / double(r.l2Lookups) : 0.0);
        cycleRow(app, "lts__t_sector_hit_rate.pct", buf,
                 num(double(r.l2Hits)) + " of " + num(double(r.l2Lookups)) + " sectors hit" + (t.windowBytes ? ", with the window" : ""));
        if (pcie) {
            const uint64_t reads = r.mappedSectors - r.mappedWriteSectors;
            cycleRow(app, "lts__t_sectors_aperture_sysmem_op_read.sum", num(double(reads)), formatBytes(reads * 32) + " read over PCIe");
            cycleRow(app, "lts__t_sectors_aperture_sysmem_op_write.sum", num(double(r.mappedWriteSectors)),
                     formatBytes(r.mappedWriteSectors * 32) + " written over PCIe");
        }
        cycleRow(app, "dram__sectors.sum", num(double(r.dramSectors)), formatBytes(r.dramSectors * 32) + " to and from DRAM");
        cycleRow(app, "gpc__cycles_elapsed.max", num(double(r.cycles)), "cycles predicted");
        ImGui::EndTable();
    }
    if (t.windowBytes) {
        ImGui::TextWrapped("Access policy window on the launch's stream: %s at 0x%llx, hitRatio %.2f, hits %s, misses %s; "
                           "set-aside %s.",
                           formatBytes(t.windowBytes).c_str(), static_cast<unsigned long long>(t.windowBase), t.windowHitRatio,
                           t.windowHitProp.c_str(), t.windowMissProp.c_str(), formatBytes(t.persistingBytes).c_str());
    }
    if (pcie) ImGui::TextWrapped("Mapped (zero-copy) host memory: %s, reached over PCIe.", formatBytes(t.mappedBytes).c_str());
}
} // namespace

void drawMetricsPanel(AppContext& app) {
    const Snapshot& s = *app.snap;
    if (emptyPanel(s.launchCounters.empty(), "No launch yet.")) return;
    int n = static_cast<int>(s.launchCounters.size());
    int pick = app.ui.metricsLaunch >= 0 && app.ui.metricsLaunch < n ? app.ui.metricsLaunch : n - 1;
    const CounterView& cv = *s.launchCounters[static_cast<size_t>(pick)];
    auto label = [&](int i) {
        const CounterView& c = *s.launchCounters[static_cast<size_t>(i)];
        return "launch " + std::to_string(c.launchIndex + 1) + ": " + c.kernel + (c.complete ? "" : " (so far)");
    };
    ImGui::SetNextItemWidth(std::min(ImGui::GetFontSize() * 16, ImGui::GetContentRegionAvail().x));
    if (ImGui::BeginCombo("##launch", label(pick).c_str())) {
        if (ImGui::Selectable("follow the current launch", app.ui.metricsLaunch < 0)) app.ui.metricsLaunch = -1;
        for (int i = 0; i < n; ++i)
            if (ImGui::Selectable(label(i).c_str(), i == pick && app.ui.metricsLaunch >= 0)) app.ui.metricsLaunch = i;
        ImGui::EndCombo();
    }
    const char* state = cv.complete ? "complete launch" : "counting while the launch runs";
    sameLineIfFits(ImGui::CalcTextSize(state).x);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", state);
    ImGui::PopStyleColor();
    if (const TimedLaunchView* t = s.timed ? timedLaunchOf(s, cv.launchIndex) : nullptr) drawCycleModel(app, *t);

    if (ImGui::BeginTabBar("mtabs")) {
        if (ImGui::BeginTabItem("Kernel totals")) {
            ImGuiTableFlags tf = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit;
            if (ImGui::BeginTable("totals", 3, tf)) {
                ImGui::TableSetupScrollFreeze(0, 1);
                // The name takes what the value and the note leave; a long Nsight name wraps at its
                // '_' and '.' onto indented rows instead of being cut.
                ImGui::TableSetupColumn("metric (Nsight Compute name)", ImGuiTableColumnFlags_WidthStretch);
                ImGui::TableSetupColumn("value");
                ImGui::TableSetupColumn("");
                ImGui::TableHeadersRow();
                for (auto& [name, v] : cv.metrics) {
                    ImGui::TableNextRow();
                    ImGui::TableNextColumn();
                    drawMetricName(app.fonts.mono, name, false);
                    ImGui::TableNextColumn();
                    ImGui::TextUnformatted(num(v).c_str());
                    ImGui::TableNextColumn();
                    if (cv.estimated.count(name)) {
                        ImGui::TextColored(colv(okabe_ito::Orange), "estimated");
                        if (ImGui::IsItemHovered())
                            tooltip("From the simulator's L1/L2 sector-cache model, not counted exactly: compare its trend, not its digits.");
                    } else if (hw::isSassVsPtx(name)) {
                        ImGui::TextDisabled("PTX");
                        if (ImGui::IsItemHovered())
                            tooltip("Counted over PTX instructions; Nsight Compute counts SASS, which differs.");
                    }
                }
                ImGui::EndTable();
            }
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("By source line")) {
            ImGuiTableFlags tf = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX |
                                 ImGuiTableFlags_SizingFixedFit;
            const char* heads[] = {"line", "warp inst", "lanes/inst", "gld req", "gld sectors", "sect/req", "gst req", "gst sectors",
                                   "shared wavefronts", "bank conflicts", "source"};
            const char* tips[] = {"CUDA source line (click a row to show it in Source)",
                                  "smsp__inst_executed.sum",
                                  "smsp__thread_inst_executed_per_inst_executed.ratio",
                                  "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                                  "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                  "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio",
                                  "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
                                  "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                                  "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum + _op_st.sum",
                                  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum + _op_st.sum",
                                  ""};
            if (ImGui::BeginTable("lines", 11, tf)) {
                ImGui::TableSetupScrollFreeze(1, 1);
                for (auto* h : heads) ImGui::TableSetupColumn(h);
                ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
                for (int c = 0; c < 11; ++c) {
                    ImGui::TableSetColumnIndex(c);
                    ImGui::TableHeader(heads[c]);
                    if (ImGui::IsItemHovered() && tips[c][0]) tooltip("%s", tips[c]);
                }
                const std::vector<std::string>* src = s.lesson ? &s.lesson->sourceLines : nullptr;
                for (auto& [line, m] : cv.byLine) {
                    ImGui::TableNextRow();
                    ImGui::TableNextColumn();
                    char lab[32];
                    std::snprintf(lab, sizeof lab, "%u##l%u", line, line);
                    if (ImGui::Selectable(lab, app.ui.clickedLine == line && line != 0, ImGuiSelectableFlags_SpanAllColumns) && line) {
                        app.ui.clickedLine = line;
                        app.ui.scrollToLine = line;
                    }
                    auto cell = [](uint64_t v) {
                        ImGui::TableNextColumn();
                        if (v) ImGui::Text("%llu", static_cast<unsigned long long>(v));
                        else ImGui::TextDisabled("-");
                    };
                    cell(m.inst);
                    ImGui::TableNextColumn();
                    ImGui::Text("%.1f", m.inst ? double(m.threadInst) / double(m.inst) : 0.0);
                    cell(m.globalLdRequests);
                    cell(m.globalLdSectors);
                    ImGui::TableNextColumn();
                    if (m.globalLdRequests) {
                        double r = double(m.globalLdSectors) / double(m.globalLdRequests);
                        if (r > 4.5) ImGui::TextColored(colv(okabe_ito::Vermillion), "%.1f", r);
                        else ImGui::Text("%.1f", r);
                    } else ImGui::TextDisabled("-");
                    cell(m.globalStRequests);
                    cell(m.globalStSectors);
                    cell(m.sharedLdWavefronts + m.sharedStWavefronts);
                    ImGui::TableNextColumn();
                    uint64_t conf = m.sharedLdConflicts + m.sharedStConflicts;
                    if (conf) ImGui::TextColored(colv(okabe_ito::Vermillion), "%llu", static_cast<unsigned long long>(conf));
                    else ImGui::TextDisabled("-");
                    ImGui::TableNextColumn();
                    if (src && line >= 1 && line <= src->size()) {
                        ImGui::PushFont(app.fonts.mono);
                        std::string t = (*src)[line - 1];
                        size_t b = t.find_first_not_of(" \t");
                        ImGui::TextUnformatted(b == std::string::npos ? "" : t.c_str() + b);
                        ImGui::PopFont();
                    }
                }
                ImGui::EndTable();
            }
            ImGui::EndTabItem();
        }
        ImGui::EndTabBar();
    }
}

} // namespace warpscope::gui
