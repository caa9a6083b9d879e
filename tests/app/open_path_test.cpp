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

TEST_CASE("warpscope-gui PATH opens lessons, specs and kernels, and says why not otherwise", "[open]") {
    using K = gui::OpenTarget::Kind;
    const fs::path lesson = src("lessons/vector-add");
    CHECK(gui::openTargetFor(lesson).path == lesson);
    CHECK(gui::openTargetFor(lesson).kind == K::Lesson);
    const fs::path spec = src("tests/app/oob-spec.json");
    CHECK(gui::openTargetFor(spec).kind == K::Lesson);
    // A kernel opens in the editor.
    CHECK(gui::openTargetFor(src("lessons/vector-add/kernel.cu")).kind == K::Kernel);
    CHECK(gui::openTargetFor(src("lessons/vector-add/kernel.ptx")).kind == K::Kernel);
    CHECK_THROWS_WITH(gui::openTargetFor(src("lessons")), Catch::Contains("a lesson folder holds a lesson.json"));
    CHECK_THROWS_WITH(gui::openTargetFor(src("lessons/vector-add/steps.md")),
                      Catch::Contains("a kernel (.cu, .ptx) in its editor"));
    CHECK_THROWS_WITH(gui::openTargetFor("/no/such/place"), Catch::Contains("no such file or folder"));
}
