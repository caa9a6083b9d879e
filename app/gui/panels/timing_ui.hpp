// What the timing panels (occupancy, schedulers, stall reasons) share: one colour and one
// explanation per stall reason, the legend, and the registers a launch is assumed to use.
#pragma once
#include "gui/panels/app.hpp"

#include <optional>
#include <string>

namespace warpscope::gui {

Rgb stallColor(timing::StallReason r);
Rgb idleCycleColor();                          // a scheduler with no warp at all
const char* stallExplanation(timing::StallReason r);
// Black or white, whichever reads better on `bg`.
ImU32 textOn(Rgb bg);
// Swatch + Nsight short name per reason (hover: the full metric name and what it means).
void drawStallLegend(bool withIdle);

// The GPU preset picker (shared by the toolbar and the Timeline panel): picking one re-times the
// session when Timed mode is on; `tooltip` describes a preset under the mouse.
void drawPresetCombo(AppContext& app, const char* id, const char* fallback, bool focusSelected, void (*tooltip)(const timing::GpuSpec&));

// Registers per thread the occupancy calculator uses for `kernel`: the panel's override, else
// lesson.json "registers", else 32. `source` says which ("override", "lesson.json", "estimated").
uint32_t registersForKernel(const AppContext& app, const std::string& kernel, const char** source = nullptr);

} // namespace warpscope::gui
