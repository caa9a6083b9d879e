// Limits: the sandbox for students' code (device memory, blocks per launch, instruction budget),
// shown and raised here (persisted in the settings), and the "raise the limit and re-run" offer
// that the error box and this panel make when a run hit one.
#include "gui/panels/panels.hpp"

#include <cinttypes>
#include <cstdio>

namespace warpscope::gui {

namespace {
const char* limitName(LimitKind k) {
    switch (k) {
    case LimitKind::DeviceMemory: return "the device-memory limit";
    case LimitKind::Blocks: return "the limit on blocks per launch";
    case LimitKind::InstructionBudget: return "the instruction budget";
    case LimitKind::None: break;
    }
    return "a limit";
}

std::string mib(uint64_t bytes) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.0f MiB", double(bytes) / double(1u << 20));
    return buf;
}

void applyLimits(AppContext& app, const SandboxLimits& l) {
    app.settings.limits = l;   // saved with the settings on exit
    app.session.setLimits(l);
}
} // namespace

bool drawRaiseLimit(AppContext& app) {
    const Snapshot& s = *app.snap;
    if (!s.error || s.error->limit == LimitKind::None) return false;
    LimitKind k = s.error->limit;
    SandboxLimits up = raisedLimits(app.settings.limits, k);
    std::string to = k == LimitKind::DeviceMemory ? mib(up.deviceMemoryBytes)
                   : k == LimitKind::Blocks       ? std::to_string(up.maxBlocks) + " blocks"
                                                  : std::to_string(up.instructionBudget) + " warp-instructions";
    ImGui::TextWrapped("The run hit %s.", limitName(k));
    bool clicked = ImGui::Button(("Raise it to " + to + " and re-run###raise-limit").c_str());
    if (ImGui::IsItemHovered()) tooltip("Sets the new limit (View > Limits shows all of them) and restarts the lesson");
    if (clicked) applyLimits(app, up);
    return true;
}

void drawLimitsPanel(AppContext& app) {
    SandboxLimits l = app.settings.limits;
    ImGui::TextWrapped("The simulator stops a student's kernel at these limits with a clear error, so a huge "
                       "allocation, grid or endless loop cannot freeze the app. Raise them for bigger problems.");
    ImGui::Spacing();
    const float w = ImGui::GetFontSize() * 10;
    uint64_t memMiB = l.deviceMemoryBytes >> 20;
    ImGui::SetNextItemWidth(w);
    bool changed = ImGui::InputScalar("device memory (MiB)", ImGuiDataType_U64, &memMiB, nullptr, nullptr, "%" PRIu64);
    ImGui::SameLine();
    helpMarker("Total bytes of cudaMalloc allocations alive at once. 0 = the default: half of this computer's RAM.");
    if (l.deviceMemoryBytes == 0) ImGui::TextDisabled("in effect: %s (the default)", mib(effectiveDeviceMemory(l)).c_str());
    ImGui::SetNextItemWidth(w);
    uint64_t blocks = l.maxBlocks;
    changed |= ImGui::InputScalar("blocks per launch", ImGuiDataType_U64, &blocks, nullptr, nullptr, "%" PRIu64);
    ImGui::SameLine();
    helpMarker("The largest grid (in blocks) one launch may have.");
    ImGui::SetNextItemWidth(w);
    uint64_t budget = l.instructionBudget;
    changed |= ImGui::InputScalar("instruction budget", ImGuiDataType_U64, &budget, nullptr, nullptr, "%" PRIu64);
    ImGui::SameLine();
    helpMarker("Warp-instructions one launch may issue before it is stopped as a runaway loop.");
    if (changed) {
        app.settings.limits.deviceMemoryBytes = memMiB << 20;
        app.settings.limits.maxBlocks = std::max<uint64_t>(blocks, 1);
        app.settings.limits.instructionBudget = std::max<uint64_t>(budget, 1);
    }
    ImGui::Spacing();
    if (ImGui::Button("Apply and restart")) applyLimits(app, app.settings.limits);
    ImGui::SameLine();
    if (ImGui::Button("Defaults")) applyLimits(app, SandboxLimits{});
    ImGui::Separator();
    if (!drawRaiseLimit(app)) ImGui::TextDisabled("The current run is within every limit.");
}

} // namespace warpscope::gui
