// warpscope-gui PATH (open_path.hpp).
#include "gui/model/open_path.hpp"

#include "base/error.hpp"

namespace warpscope::gui {

namespace fs = std::filesystem;

fs::path lessonForOpenedPath(const fs::path& path) {
    std::error_code ec;
    const std::string shown = path.string();
    if (!fs::exists(path, ec)) throw Error(Error::Kind::Input, "Cannot open '" + shown + "': no such file or folder.");
    if (fs::is_directory(path, ec)) {
        if (fs::exists(path / "lesson.json", ec)) return path;
        throw Error(Error::Kind::Input, "Cannot open '" + shown + "': a lesson folder holds a lesson.json (docs/lesson-format.md).");
    }
    const std::string ext = path.extension().string();
    if (ext == ".json") return path;
    if (ext == ".cu" || ext == ".cuh")
        throw Error(Error::Kind::Input, "Cannot open '" + shown + "': this version of warpscope-gui opens lessons only, and a .cu file needs "
                                        "the kernel editor. Compile it to PTX and open a launch spec .json that names it (docs/lesson-format.md), "
                                        "or open a lesson folder.");
    throw Error(Error::Kind::Input, "Cannot open '" + shown + "': warpscope-gui opens a lesson folder (with lesson.json) or a launch spec .json.");
}

} // namespace warpscope::gui
