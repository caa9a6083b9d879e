// Render code that includes a panel (tests/app-layers.cmake must reject it).
#include "gui/panels/app.hpp"
