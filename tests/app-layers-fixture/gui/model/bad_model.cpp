// A model file that needs a window (tests/app-layers.cmake must reject it).
#include <imgui.h>
