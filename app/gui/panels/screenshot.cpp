#include "gui/panels/screenshot.hpp"
#include "gui/model/async_view.hpp"
#include "gui/model/grid_layout.hpp"
#include "gui/model/fragment_view.hpp"
#include "gui/panels/panels.hpp"
#include "gui/render/screenshot.hpp"

#include <nlohmann/json.hpp>

#include <fstream>

namespace warpscope::gui {

std::string screenshotSidecar(int w, int h, const AppContext& app, uint64_t steps) {
    nlohmann::json j;
    j["width"] = w;
    j["height"] = h;
    const Snapshot& s = *app.snap;
    j["lesson"] = s.lesson ? s.lesson->lesson.id : "";
    j["requested_steps"] = steps;
    j["steps"] = s.timed ? s.totalCycleSteps : s.totalSteps;   // Timed mode steps cycles
    j["warp_instructions"] = s.totalSteps;
    if (s.timed) j["gpu_preset"] = s.gpuPreset;
    j["state"] = runStateName(s.state);
    if (s.error) j["error"] = s.error->message;
    j["panels"] = nlohmann::json::array();
    for (const PanelRect& r : app.drawn) j["panels"].push_back({{"id", r.id}, {"x", r.x}, {"y", r.y}, {"w", r.w}, {"h", r.h}});
    // Every toolbar item (buttons, slider, toggles, layout buttons): the layout check wants each in view.
    j["toolbar"] = nlohmann::json::array();
    for (const PanelRect& r : app.toolbarItems) {
        nlohmann::json t = {{"id", r.id}, {"x", r.x}, {"y", r.y}, {"w", r.w}, {"h", r.h}};
        if (!r.in.empty()) t["in"] = r.in;
        j["toolbar"].push_back(t);
    }
    // Widths: content a panel measured against its room, and content wider than its window (cut off).
    j["fits"] = nlohmann::json::array();
    for (const FitRecord& f : app.fits) j["fits"].push_back({{"panel", f.panel}, {"what", f.what}, {"need", f.need}, {"have", f.have}});
    j["layout"] = app.ui.layout;
    j["scale"] = app.settings.uiScale;
    if (nlohmann::json ex = exerciseSidecar(app); !ex.empty()) j["exercise"] = ex;   // the grade and Show why, for tests
    if (nlohmann::json pr = programSidecar(app); !pr.empty()) j["program"] = pr;      // a whole program's state and Console
    // The Fragments panel's instruction and, per tile, how many elements the chosen lane holds.
    if (FragmentView fv = buildFragmentView(s); fv.valid) {
        nlohmann::json fj = {{"instruction", fv.instruction}, {"line", fv.line}, {"executed", fv.executed}, {"lane", app.ui.fragmentLane}};
        fj["tiles"] = nlohmann::json::array();
        for (const FragmentTile& t : fv.tiles)
            fj["tiles"].push_back({{"name", t.name}, {"rows", t.rows}, {"cols", t.cols}, {"type", t.type},
                                   {"lane_elements", laneCells(t, app.ui.fragmentLane).size()}, {"first", fragmentCellText(t, 0, 0)}});
        j["fragments"] = fj;
    }
    // Grid & warps' tiles of the selected warp (its last warp-synchronous instruction's member masks).
    if (s.selected && s.selected->syncPc >= 0) {
        const std::vector<LaneGroup> g = laneGroups(s.selected->syncMask, s.selected->syncExec);
        const int lane = std::clamp(app.ui.tileLane, 0, 31);
        j["tiles"] = {{"warp", s.selWarp}, {"count", g.size()}, {"summary", laneGroupsSummary(g)}, {"lane", lane},
                      {"lane_tile", laneGroupText(g, laneGroupOf(g, lane))}};
    }
    // The Async copies panel's figures for the selected warp (copies in flight, groups, pending words).
    if (AsyncView av = buildAsyncView(s); av.valid) {
        nlohmann::json aj = {{"copies", av.copies}, {"bytes", av.bytes}, {"committed", av.committedGroups},
                             {"pending_words", av.pendingWords}, {"pending_words_warp", av.pendingWordsThisWarp}};
        aj["groups"] = nlohmann::json::array();
        for (const AsyncGroupRow& g : av.groups) aj["groups"].push_back(asyncGroupText(g));
        j["async"] = aj;
    }
    return j.dump(2);
}

bool writeScreenshot(const std::string& path, int w, int h, const AppContext& app, uint64_t steps, std::string* error) {
    if (!writeFramebufferPng(path, w, h, error)) return false;
    std::ofstream f(path + ".json");
    f << screenshotSidecar(w, h, app, steps) << "\n";
    if (!f) {
        if (error) *error = "cannot write '" + path + ".json'";
        return false;
    }
    return true;
}

} // namespace warpscope::gui
