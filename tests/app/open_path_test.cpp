// warpscope-gui PATH: what a path from the file manager or the desktop entry opens.
#include "gui/model/open_path.hpp"
#include "gui/model/file_browser.hpp"
#include "base/error.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <unistd.h>

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

using namespace warpscope::gui;

TEST_CASE("file browser: folders first, then the files the dialog takes; recent files", "[open]") {
    namespace fs = std::filesystem;
    fs::path dir = fs::temp_directory_path() / ("warpscope-browser-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "b-folder");
    fs::create_directories(dir / "A-folder");
    fs::create_directories(dir / ".hidden");
    for (const char* f : {"z.cu", "Kernel.PTX", "notes.txt", "a.cu", ".secret.cu"}) std::ofstream(dir / f) << "x";
    std::string err;
    std::vector<BrowserEntry> e = listFolder(dir, {".cu", ".ptx"}, &err);
    CHECK(err.empty());
    std::vector<std::string> names;
    for (auto& x : e) names.push_back(x.name);
    CHECK(names == std::vector<std::string>{"..", "A-folder", "b-folder", "a.cu", "Kernel.PTX", "z.cu"});
    CHECK(e[1].folder);
    CHECK_FALSE(e[3].folder);
    CHECK(e[3].size == 1);
    CHECK(listFolder(dir, {}).size() == 7);   // every file, the hidden ones left out
    CHECK(listFolder(dir / "missing", {}, &err).empty());
    CHECK_THAT(err, Catch::Contains("Cannot read the folder"));
    // The folder a typed path browses.
    CHECK(browseFolderOf((dir / "a.cu").string()) == dir);
    CHECK(browseFolderOf(dir.string()) == dir);
    CHECK(browseFolderOf((dir / "new-name.cu").string()) == dir);
    // Recent files: most recent first, each once, at most ten.
    std::vector<std::string> recent;
    for (int i = 0; i < 12; ++i) addRecent(recent, dir / ("f" + std::to_string(i) + ".cu"));
    addRecent(recent, dir / "f5.cu");
    CHECK(recent.size() == kMaxRecent);
    CHECK(recent[0] == (dir / "f5.cu").string());
    CHECK(std::count(recent.begin(), recent.end(), (dir / "f5.cu").string()) == 1);
    fs::remove_all(dir);
}
