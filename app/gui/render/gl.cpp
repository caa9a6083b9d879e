// The GL entry-point loader the host installed (render/gl.hpp).
#include "gui/render/gl.hpp"

namespace warpscope::gui {

namespace {
GlProcLoader g_loader = nullptr;
}

void setGlProcLoader(GlProcLoader loader) { g_loader = loader; }

GlProc glProc(const char* name) { return g_loader ? g_loader(name) : nullptr; }

} // namespace warpscope::gui
