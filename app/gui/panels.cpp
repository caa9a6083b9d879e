// The one list of panels. The toolbar and the status bar are fixed; the others are ordinary
// windows the user can move, resize and close (View menu), remembered in the ImGui ini.
#include "gui/panels.hpp"

namespace warpscope::gui {

const std::vector<PanelDef>& panels() {
    static const std::vector<PanelDef> list = {
        {"lessons", "Lessons", drawLessonsPanel, 0.00f, 0.00f, 0.23f, 1.00f, false},
        {"source", "Source", drawSourcePanel, 0.23f, 0.00f, 0.42f, 0.64f, false},
        {"divergence", "Divergence summary", drawDivergencePanel, 0.23f, 0.64f, 0.42f, 0.36f, false},
        {"grid", "Grid & warps", drawGridPanel, 0.65f, 0.00f, 0.35f, 0.48f, false},
        {"warp", "Warp detail", drawWarpPanel, 0.65f, 0.48f, 0.35f, 0.52f, false},
    };
    return list;
}

} // namespace warpscope::gui
