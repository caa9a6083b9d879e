// warpscope-gui PATH: what a path from the file manager or the desktop entry opens.
#include "gui/model/open_path.hpp"
#include "base/error.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace warpscope;
namespace fs = std::filesystem;

namespace {
fs::path src(const std::string& rel) { return fs::path(WARPSCOPE_SOURCE_DIR) / rel; }
} // namespace

TEST_CASE("warpscope-gui PATH opens lesson folders and specs, and says why not otherwise", "[open]") {
    const fs::path lesson = src("lessons/vector-add");
    CHECK(gui::lessonForOpenedPath(lesson) == lesson);
    const fs::path spec = src("tests/app/oob-spec.json");
    CHECK(gui::lessonForOpenedPath(spec) == spec);
    CHECK_THROWS_WITH(gui::lessonForOpenedPath(src("lessons/vector-add/kernel.cu")),
                      Catch::Contains("a .cu file needs the kernel editor"));
    CHECK_THROWS_WITH(gui::lessonForOpenedPath(src("lessons")), Catch::Contains("a lesson folder holds a lesson.json"));
    CHECK_THROWS_WITH(gui::lessonForOpenedPath(src("lessons/vector-add/steps.md")),
                      Catch::Contains("opens a lesson folder (with lesson.json) or a launch spec .json"));
    CHECK_THROWS_WITH(gui::lessonForOpenedPath("/no/such/place"), Catch::Contains("no such file or folder"));
}
