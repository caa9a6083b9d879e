// The panel registry: every panel is one file with one draw function, listed once in panels.cpp.
#pragma once
#include "gui/app.hpp"

#include <vector>

namespace warpscope::gui {

struct PanelDef {
    const char* id;            // stable name: settings, sidecar, tests
    const char* title;         // window title
    void (*draw)(AppContext&); // draws the contents (inside its window)
    // Default place in the work area, as fractions of it: x, y, w, h.
    float fx, fy, fw, fh;
    bool fixed;                // toolbar-like: not movable, no title bar
};

const std::vector<PanelDef>& panels();

void drawLessonsPanel(AppContext& app);
void drawSourcePanel(AppContext& app);
void drawGridPanel(AppContext& app);
void drawWarpPanel(AppContext& app);
void drawDivergencePanel(AppContext& app);
void drawControlsPanel(AppContext& app);   // toolbar (fixed, drawn by main)
void drawStatusBar(AppContext& app);        // status bar (fixed, drawn by main)
void handleShortcuts(AppContext& app);
void drawShortcutsHelp(AppContext& app);

} // namespace warpscope::gui
