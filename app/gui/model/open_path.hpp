// What `warpscope-gui PATH` opens: the file manager and the desktop entry hand the app a path.
#pragma once
#include "runtime/lesson.hpp"

#include <filesystem>

namespace warpscope::gui {

struct OpenTarget {
    enum class Kind { Lesson, Kernel };
    Kind kind = Kind::Lesson;
    std::filesystem::path path;
};

// What to do with a path given on the command line: a lesson folder (with lesson.json) or a
// launch spec .json is opened as a lesson; a .cu/.cuh or .ptx file in the kernel editor. Anything
// else throws Error(Input) saying what the app can open (a missing path is named).
OpenTarget openTargetFor(const std::filesystem::path& path);

// The lesson an OpenTarget of kind Lesson names, loaded (every schema error names the file and
// the key). Throws Error(Input).
runtime::Lesson openLesson(const OpenTarget& target);

} // namespace warpscope::gui
