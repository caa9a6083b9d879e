// Compare panel: the simulator next to the real GPU. Outputs buffer by buffer (identical, or how
// far apart), kernel times (hardware measured next to the cycle model's prediction on the H100
// preset), and counters: the simulator's next to hardware counters imported from `ncu --csv`.
// Also the "Run on GPU" toggle (disabled with the reason where no GPU can be opened) and the
// Nsight Compute CSV import dialog.
#include "gui/panels/panels.hpp"

#include <cmath>

namespace warpscope::gui {

namespace {
std::string num(double v) {
    char buf[48];
    if (std::abs(v - std::round(v)) < 1e-9 && std::abs(v) < 1e15) std::snprintf(buf, sizeof buf, "%.0f", v);
    else std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}
} // namespace

void drawGpuToggle(AppContext& app, const char* label) {
    GpuToggle t = gpuToggle();
    bool on = app.ui.runOnGpu && t.enabled;
    ImGui::BeginDisabled(!t.enabled);
    if (ImGui::Checkbox((std::string(label) + "###rungpu").c_str(), &on)) {
        app.ui.runOnGpu = on;
        app.startCompare();
    }
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        tooltip("%s", t.enabled ? "Run the lesson's host program on the real GPU with the same PTX, and compare (Compare panel)"
                                          : ("Unavailable: " + t.reason).c_str());
}

void drawNcuImportDialog(AppContext& app) {
    if (app.ui.showNcuDialog) {
        ImGui::OpenPopup("Import Nsight Compute CSV");
        app.ui.showNcuDialog = false;
    }
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 36, 0), ImGuiCond_Appearing);
    if (ImGui::BeginPopupModal("Import Nsight Compute CSV", nullptr)) {
        ImGui::TextWrapped("A CSV written by  ncu --csv --page raw --metrics <names> <program>  (one row per kernel launch; rows are "
                           "matched to the lesson's launches in order).");
        ImGui::SetNextItemWidth(-1);
        bool enter = ImGui::InputText("##path", app.ui.ncuPathInput, sizeof app.ui.ncuPathInput, ImGuiInputTextFlags_EnterReturnsTrue);
        if (!app.ui.ncuError.empty()) ImGui::TextColored(colv(faultColor()), "%s", app.ui.ncuError.c_str());
        if (ImGui::Button("Import") || enter) {
            if (app.importNcu(app.ui.ncuPathInput)) ImGui::CloseCurrentPopup();
        }
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }
}

void drawComparePanel(AppContext& app) {
    const Snapshot& s = *app.snap;
    if (emptyPanel(!s.lesson, "Choose a lesson.")) return;
    // Keep the comparison about the lesson on screen.
    auto res = app.compare->result();
    bool running = app.compare->running();
    if (!running && app.ui.compareRequestedFor != s.lesson->lesson.id) app.startCompare();

    drawGpuToggle(app);
    auto btnW = [](const char* t) { return ImGui::CalcTextSize(t).x + ImGui::GetStyle().FramePadding.x * 2; };
    sameLineIfFits(btnW("Run comparison"));
    ImGui::BeginDisabled(running);
    if (ImGui::Button(running ? "Running..." : "Run comparison")) app.startCompare();
    ImGui::EndDisabled();
    sameLineIfFits(btnW("Import Nsight Compute CSV..."));
    if (ImGui::Button("Import Nsight Compute CSV...")) app.ui.showNcuDialog = true;
    GpuToggle gt = gpuToggle();

    // Where the hardware numbers come from.
    const NcuImport* ncu = app.ui.ncu.get();
    ImGui::PushTextWrapPos(0);
    if (!gt.enabled) ImGui::TextColored(colv(okabe_ito::Orange), "No GPU here (%s)", gt.reason.c_str());
    if (ncu) {
        ImGui::Text("Hardware counters: imported from %s%s", ncu->path.c_str(),
                    gt.enabled && res && res->hwRan ? "" : " - a recorded run, not measured on this machine");
    } else {
        ImGui::TextDisabled("Hardware counters: none imported (File > Import Nsight Compute CSV..., or --ncu file.csv)");
    }
    ImGui::PopTextWrapPos();
    if (!res) {
        ImGui::TextDisabled(running ? "Running the lesson..." : "No comparison yet.");
        return;
    }
    // Every line below wraps in a narrow panel (scale 2) rather than running past its edge.
    ImGui::PushTextWrapPos(0);
    if (res->lessonId != s.lesson->lesson.id) ImGui::TextDisabled("(showing %s; running the new lesson...)", res->lessonId.c_str());
    if (!res->simOk) ImGui::TextColored(colv(faultColor()), "Simulator: %s", res->simError.c_str());
    if (ncu) {
        std::string note = ncuMatchNote(*ncu, *res);
        if (!note.empty()) ImGui::TextColored(colv(okabe_ito::Orange), "%s", note.c_str());
    }

    // Outputs.
    if (ImGui::CollapsingHeader("Outputs", ImGuiTreeNodeFlags_DefaultOpen)) {
        if (res->hwRan) {
            ImGui::Text("Simulator vs %s: checks %s on the simulator, %s on the GPU", res->hwDevice.c_str(), res->simChecksPassed ? "pass" : "FAIL",
                        res->hwChecksPassed ? "pass" : "FAIL");
            if (ImGui::BeginTable("outs", 6, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit)) {
                for (const char* h : {"buffer", "elements", "result", "max |diff|", "max ulp", "first differing"}) ImGui::TableSetupColumn(h);
                ImGui::TableHeadersRow();
                for (auto& b : res->buffers) {
                    ImGui::TableNextRow();
                    ImGui::TableNextColumn();
                    ImGui::TextUnformatted(b.name.c_str());
                    ImGui::TableNextColumn();
                    ImGui::Text("%zu", b.elements);
                    ImGui::TableNextColumn();
                    if (b.differing == 0) ImGui::TextColored(colv(okabe_ito::BluishGreen), "bit-identical");
                    else ImGui::TextColored(colv(okabe_ito::Orange), "%zu differ", b.differing);
                    ImGui::TableNextColumn();
                    ImGui::Text("%.3g", b.maxAbs);
                    ImGui::TableNextColumn();
                    ImGui::Text("%.3g", b.maxUlp);
                    ImGui::TableNextColumn();
                    if (b.firstDiffering) ImGui::Text("[%zu]: sim %s, GPU %s", *b.firstDiffering, b.firstSim.c_str(), b.firstHw.c_str());
                    else ImGui::TextDisabled("-");
                }
                ImGui::EndTable();
            }
        } else {
            ImGui::TextWrapped("Outputs are compared when the lesson also runs on a GPU. Hardware run: %s", res->hwError.c_str());
            std::string names;
            for (auto& n : res->bufferNames) names += (names.empty() ? "" : ", ") + n;
            ImGui::TextDisabled("Simulator: checks %s (%zu buffers: %s)", res->simChecksPassed ? "pass" : "FAIL", res->bufferNames.size(), names.c_str());
        }
    }

    if (!ncu && !res->liveCounters.empty()) ImGui::TextWrapped("%s", res->liveCounters.c_str());
    // Launches: times and counters.
    for (size_t i = 0; i < res->launches.size(); ++i) {
        const LaunchSide& L = res->launches[i];
        const hw::NcuRow* row = ncu && i < ncu->report.rows.size() ? &ncu->report.rows[i]
                                : i < res->liveRows.size()           ? &res->liveRows[i]
                                                                     : nullptr;
        std::string head = "Launch " + std::to_string(i + 1) + ": " + L.kernel;
        ImGui::PushID(static_cast<int>(i));
        if (ImGui::CollapsingHeader(head.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) {
            if (L.hwMs) {
                ImGui::Text("Hardware time: %.4f ms (%s)", *L.hwMs,
                            L.hwFirstMs ? "steady state: median of back-to-back launches after a warm-up" : "one launch, CUDA events");
                if (L.hwFirstMs)
                    ImGui::TextDisabled("First launch: %.4f ms (cold: module loading, empty caches)", *L.hwFirstMs);
            }
            else if (row && row->metrics.count("gpu__time_duration.sum")) {
                double v = row->metrics.at("gpu__time_duration.sum");
                std::string unit = ncu->report.units.count("gpu__time_duration.sum") ? ncu->report.units.at("gpu__time_duration.sum") : "ns";
                double ms = unit == "usecond" || unit == "us" ? v / 1e3 : unit == "msecond" || unit == "ms" ? v : v / 1e6;
                ImGui::Text("Hardware time: %.4f ms (gpu__time_duration.sum, recorded)", ms);
            } else ImGui::TextDisabled("Hardware time: not measured");
            if (L.predictedMs > 0) {
                ImGui::Text("Predicted: %.4f ms (cycle model, %s preset, with the gap between queued kernels)", L.predictedMs,
                            L.predictedPreset.c_str());
                if (L.hwMs && *L.hwMs > 0) ImGui::TextDisabled("predicted / measured %.2f", L.predictedMs / *L.hwMs);
            } else {
                ImGui::TextDisabled("Predicted: the launch does not fit the preset");
            }
            ImGui::Text("Simulator: %llu warp-instructions", static_cast<unsigned long long>(L.simWarpInstructions));
            auto rows = counterRows(L.simMetrics, res->estimated, row, ncu ? &ncu->report.units : nullptr);
            // The numbers keep their width; the Nsight name takes the rest and wraps at its '_' and '.'.
            ImGuiTableFlags tf = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
            ImGui::PushTextWrapPos(-1.0f);   // the number columns fit their text: no wrapping there
            if (ImGui::BeginTable("ctr", 4, tf)) {
                ImGui::TableSetupColumn("counter", ImGuiTableColumnFlags_WidthStretch, 3.0f);
                ImGui::TableSetupColumn("hardware");
                ImGui::TableSetupColumn("simulator");
                ImGui::TableSetupColumn("note", ImGuiTableColumnFlags_WidthStretch, 1.0f);
                ImGui::TableHeadersRow();
                for (auto& r : rows) {
                    ImGui::TableNextRow();
                    ImGui::TableNextColumn();
                    drawMetricName(app.fonts.mono, r.metric, false);
                    ImGui::TableNextColumn();
                    if (r.hw) ImGui::TextUnformatted(num(*r.hw).c_str());
                    else ImGui::TextDisabled("-");
                    ImGui::TableNextColumn();
                    bool same = r.hw && std::abs(*r.hw - r.sim) <= 1e-6 * std::max(1.0, std::abs(*r.hw));
                    if (same) ImGui::TextColored(colv(okabe_ito::BluishGreen), "%s", num(r.sim).c_str());
                    else ImGui::TextUnformatted(num(r.sim).c_str());
                    ImGui::TableNextColumn();
                    ImGui::PushTextWrapPos(0);   // the note wraps at its words in a narrow column
                    if (r.sassVsPtx) {
                        ImGui::TextDisabled("SASS vs PTX");
                        if (ImGui::IsItemHovered())
                            tooltip("The GPU counts SASS (machine) instructions; the simulator counts the PTX it executes.");
                    } else if (r.estimated) {
                        ImGui::TextColored(colv(okabe_ito::Orange), "estimated");
                        if (ImGui::IsItemHovered()) tooltip("The simulator's value comes from its cache model.");
                    } else if (same) {
                        ImGui::TextColored(colv(okabe_ito::BluishGreen), "equal");
                    } else if (r.hw && *r.hw != 0) {
                        ImGui::TextDisabled("x%.2f", r.sim / *r.hw);
                    }
                    ImGui::PopTextWrapPos();
                }
                ImGui::EndTable();
            }
            ImGui::PopTextWrapPos();
        }
        ImGui::PopID();
    }
    ImGui::PopTextWrapPos();
}

} // namespace warpscope::gui
