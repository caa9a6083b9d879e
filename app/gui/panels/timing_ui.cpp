// Timed mode in the app: the preset picker and toggle, stall-reason colours and legend, and the
// AppContext side of switching (the Session restarts the lesson on the cycle model).
#include "gui/panels/timing_ui.hpp"

#include "gui/panels/panels.hpp"

#include <algorithm>
#include <cstdio>

namespace warpscope::gui {

using timing::StallReason;

Rgb stallColor(StallReason r) {
    switch (r) {
    case StallReason::Selected: return okabe_ito::BluishGreen;
    case StallReason::NotSelected: return okabe_ito::SkyBlue;
    case StallReason::Wait: return okabe_ito::Yellow;
    case StallReason::ShortScoreboard: return okabe_ito::Orange;
    case StallReason::LongScoreboard: return okabe_ito::Vermillion;
    case StallReason::Barrier: return okabe_ito::ReddishPurple;
    case StallReason::MathPipeThrottle: return okabe_ito::Blue;
    case StallReason::MioThrottle: return Rgb{255, 170, 230};
    case StallReason::LgThrottle: return Rgb{160, 110, 60};
    case StallReason::Membar: return Rgb{215, 215, 215};
    case StallReason::Count_: break;
    }
    return Rgb{128, 128, 128};
}

Rgb idleCycleColor() { return Rgb{58, 58, 66}; }

const char* stallExplanation(StallReason r) {
    switch (r) {
    case StallReason::Selected: return "issued an instruction this cycle";
    case StallReason::NotSelected: return "eligible, but the scheduler picked another warp";
    case StallReason::Wait: return "waiting on a fixed-latency dependency (an ALU/FMA result not ready yet)";
    case StallReason::ShortScoreboard: return "waiting for a shared-memory, SFU or shuffle result (MIO)";
    case StallReason::LongScoreboard: return "waiting for a global or local memory result (L1TEX)";
    case StallReason::Barrier: return "waiting at __syncthreads for the rest of its block";
    case StallReason::MathPipeThrottle: return "the math pipe the instruction needs is busy";
    case StallReason::MioThrottle: return "the shared-memory (MIO) queue is full";
    case StallReason::LgThrottle: return "the local/global memory (LSU) queue is full";
    case StallReason::Membar: return "waiting for a memory fence";
    case StallReason::Count_: break;
    }
    return "";
}

ImU32 textOn(Rgb bg) {
    float lum = 0.299f * bg.r + 0.587f * bg.g + 0.114f * bg.b;
    return lum > 140 ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255);
}

void drawStallLegend(bool withIdle) {
    float sz = ImGui::GetTextLineHeight() * 0.8f;
    bool first = true;
    auto entry = [&](Rgb c, const std::string& name, const std::string& tip) {
        if (!first) {
            float need = sz + ImGui::GetStyle().ItemSpacing.x * 3 + ImGui::CalcTextSize(name.c_str()).x;
            ImGui::SameLine();
            if (ImGui::GetContentRegionAvail().x < need) ImGui::NewLine();
        }
        first = false;
        ImVec2 p = ImGui::GetCursorScreenPos();
        float y = p.y + (ImGui::GetTextLineHeight() - sz) * 0.5f;
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + sz, y + sz), col(c), 2.0f);
        ImGui::Dummy(ImVec2(sz, ImGui::GetTextLineHeight()));
        ImGui::SameLine(0, 4);
        ImGui::TextUnformatted(name.c_str());
        if (ImGui::IsItemHovered()) tooltip("%s", tip.c_str());
    };
    for (int r = 0; r < timing::kStallReasonCount; ++r) {
        auto reason = static_cast<StallReason>(r);
        std::string shortName(timing::stallShortName(reason));
        entry(stallColor(reason), reason == StallReason::Selected ? "issued (selected)" : shortName,
              timing::stallMetricName(reason) + "\n" + stallExplanation(reason));
    }
    if (withIdle) entry(idleCycleColor(), "no warp", "the scheduler has no resident warp this cycle");
}

uint32_t registersForKernel(const AppContext& app, const std::string& kernel, const char** source) {
    if (app.ui.registersOverride) {
        if (source) *source = "override";
        return static_cast<uint32_t>(std::clamp(app.ui.registers, 1, 255));
    }
    const Snapshot& s = *app.snap;
    if (s.lesson)
        if (auto r = s.lesson->lesson.registersFor(kernel)) {
            if (source) *source = "lesson.json";
            return *r;
        }
    if (source) *source = "estimated";
    return 32;
}

const timing::GpuSpec* AppContext::presetSpec() const {
    if (ui.presets.empty()) return nullptr;
    return &ui.presets[static_cast<size_t>(std::clamp(ui.preset, 0, static_cast<int>(ui.presets.size()) - 1))];
}

void AppContext::applyTiming() {
    TimingConfig c;
    c.timed = ui.timed;
    if (const timing::GpuSpec* p = presetSpec()) c.spec = *p;
    else c.timed = false;
    if (ui.registersOverride) c.registers = static_cast<uint32_t>(std::clamp(ui.registers, 1, 255));
    session.setTiming(c);
}

void drawTimingToggle(AppContext& app) {
    if (ImGui::Checkbox("Timed", &app.ui.timed)) app.applyTiming();
    if (ImGui::IsItemHovered())
        tooltip("Run launches on the cycle model of the chosen GPU: warp schedulers, latencies, stall reasons.\n"
                          "Each step is then one cycle. Results stay those of the functional run.");
    sameLineIfFits(ImGui::GetFontSize() * 7);   // the preset picker's width (drawPresetCombo)
    const timing::GpuSpec* cur = app.presetSpec();
    drawPresetCombo(app, "##gpupreset", "(no presets)", true, [](const timing::GpuSpec& p) {
        tooltip("%s\n%u SMs, %u warps and %u blocks per SM, %.0f MHz, compute capability %s", p.description.c_str(), p.smCount,
                          p.maxWarpsPerSM, p.maxBlocksPerSM, p.clockMHz, p.computeCapability.c_str());
    });
    if (ImGui::IsItemHovered() && cur) tooltip("GPU preset: %s", cur->description.c_str());
}

void drawPresetCombo(AppContext& app, const char* id, const char* fallback, bool focusSelected, void (*tooltip)(const timing::GpuSpec&)) {
    const timing::GpuSpec* cur = app.presetSpec();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
    if (ImGui::BeginCombo(id, cur ? cur->name.c_str() : fallback)) {
        for (size_t i = 0; i < app.ui.presets.size(); ++i) {
            const timing::GpuSpec& p = app.ui.presets[i];
            bool sel = static_cast<int>(i) == app.ui.preset;
            if (ImGui::Selectable(p.name.c_str(), sel) && !sel) {
                app.ui.preset = static_cast<int>(i);
                if (app.ui.timed) app.applyTiming();
            }
            if (ImGui::IsItemHovered()) tooltip(p);
            if (sel && focusSelected) ImGui::SetItemDefaultFocus();
        }
        ImGui::EndCombo();
    }
}

} // namespace warpscope::gui
