// What `warpscope-gui PATH` opens: the file manager and the desktop entry hand the app a path.
#pragma once
#include <filesystem>

namespace warpscope::gui {

// The lesson to open for a path given on the command line: a lesson folder (with lesson.json)
// or a launch spec .json is opened as a lesson. Anything else throws Error(Input) saying what
// the app can open (a .cu file needs the kernel editor; a missing path is named).
std::filesystem::path lessonForOpenedPath(const std::filesystem::path& path);

} // namespace warpscope::gui
