// warpscope-gui PATH (open_path.hpp).
#include "gui/model/open_path.hpp"

#include "base/error.hpp"

namespace warpscope::gui {

namespace fs = std::filesystem;

OpenTarget openTargetFor(const fs::path& path) {
    std::error_code ec;
    const std::string shown = path.string();
    if (!fs::exists(path, ec)) throw Error(Error::Kind::Input, "Cannot open '" + shown + "': no such file or folder.");
    if (fs::is_directory(path, ec)) {
        if (fs::exists(path / "lesson.json", ec)) return {OpenTarget::Kind::Lesson, path};
        throw Error(Error::Kind::Input, "Cannot open '" + shown + "': a lesson folder holds a lesson.json (docs/lesson-format.md).");
    }
    const std::string ext = path.extension().string();
    if (ext == ".json") return {OpenTarget::Kind::Lesson, path};
    if (ext == ".cu" || ext == ".cuh" || ext == ".ptx") return {OpenTarget::Kind::Kernel, path};
    throw Error(Error::Kind::Input, "Cannot open '" + shown + "': warpscope-gui opens a lesson folder (with lesson.json), a launch spec .json, "
                                    "or a kernel (.cu, .ptx) in its editor.");
}

runtime::Lesson openLesson(const OpenTarget& target) {
    if (target.kind != OpenTarget::Kind::Lesson) throw Error(Error::Kind::Input, target.path.string() + " is a kernel file, not a lesson.");
    return runtime::loadLesson(target.path);
}

} // namespace warpscope::gui
