// Where warpscope's data lives (lessons/, assets/, shaders/): one lookup for the CLI, the app,
// the engine's GPU presets and the tests.
#pragma once
#include <filesystem>

namespace warpscope::base {

// The folder holding lessons/, assets/ and shaders/, found in this order:
//   1. the one given to useDataDir() (tests point it at the source tree);
//   2. <bin>/../share/warpscope beside the running executable (/proc/self/exe, else exePath):
//      an installed copy, wherever its prefix was moved;
//   3. the source tree the executable was built from: the nearest ancestor of the executable's
//      folder holding lessons/ and assets/ (a build folder inside the checkout), or the one the
//      build folder's warpscope-source-dir.txt names (a build folder elsewhere).
// Empty when none is found. $WARPSCOPE_LESSONS is not consulted here: it overrides only the
// lessons folder (findLessonsDir in lesson.hpp).
std::filesystem::path findDataDir(const std::filesystem::path& exePath = {});

// Fixes the data folder for this process (an empty path restores the search above).
void useDataDir(const std::filesystem::path& dir);

} // namespace warpscope::base
