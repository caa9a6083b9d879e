// A panel that breaks the app's layers twice (tests/app-layers.cmake must reject it): it includes
// an engine header and calls an engine function instead of asking the model.
#include "gui/panels/panels.hpp"
#include "timing/occupancy.hpp"

namespace warpscope::gui {
void drawBadPanel(AppContext& app) {
    timing::Occupancy o = timing::computeOccupancy(*app.presetSpec(), {});
    (void)o;
}
} // namespace warpscope::gui
