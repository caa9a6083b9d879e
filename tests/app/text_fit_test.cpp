// Fitting text into a width (gui/model/text_fit): wrapping loses no character and keeps every row
// within the width, for every line of every lesson's kernel; metric names break at '_' and '.';
// a status message is cut with "…".
#include "gui/model/text_fit.hpp"
#include "gui/model/grid_layout.hpp"

#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace warpscope::gui;
namespace fs = std::filesystem;

namespace {

// What the row shows, with the indent the panel draws before it.
std::string rowText(const std::string& t, const WrapRow& r) { return t.substr(r.begin, r.end - r.begin); }

void checkWrap(const std::string& line, size_t cols, const std::string& breaks) {
    std::vector<WrapRow> rows = wrapColumns(line, cols, breaks);
    REQUIRE(!rows.empty());
    std::string joined;
    size_t at = 0;
    for (auto& r : rows) {
        INFO("line '" << line << "' at " << cols << " columns");
        CHECK(r.begin == at);   // in order, nothing skipped
        at = r.end;
        joined += rowText(line, r);
    }
    CHECK(joined == line);
    CHECK(widestRow(line, rows) <= std::max<size_t>(cols, 8));
}

} // namespace

TEST_CASE("wrapColumns: every line of every lesson's kernel fits the width, nothing lost", "[text]") {
    int lessons = 0;
    size_t longest = 0;
    for (auto& dir : fs::directory_iterator(fs::path(WARPSCOPE_SOURCE_DIR) / "lessons")) {
        fs::path spec = dir.path() / "lesson.json";
        if (!fs::exists(spec)) continue;
        nlohmann::json j = nlohmann::json::parse(std::ifstream(spec));
        std::ifstream src(dir.path() / j.at("source").get<std::string>());
        REQUIRE(src);
        ++lessons;
        std::string line;
        while (std::getline(src, line)) {
            longest = std::max(longest, line.size());
            for (size_t cols : {20, 40, 57, 80, 200}) checkWrap(line, cols, " ");
        }
    }
    CHECK(lessons >= 9);
    CHECK(longest > 80);   // the lessons do have lines wider than a narrow panel
}

TEST_CASE("wrapColumns: breaks after a space, indents continuations, cuts a long word", "[text]") {
    std::string t = "    int i = blockIdx.x * blockDim.x + threadIdx.x;";
    auto rows = wrapColumns(t, 32);
    REQUIRE(rows.size() == 2);
    CHECK(rowText(t, rows[0]) == "    int i = blockIdx.x * ");   // ends after a space
    CHECK(rows[1].indent == 6);                                   // the line's 4 + 2
    CHECK(rowText(t, rows[1]) == "blockDim.x + threadIdx.x;");
    CHECK(widestRow(t, rows) == 6 + 25);                          // the first row's trailing space is not drawn
    checkWrap(t, 32, " ");
    // The indentation of the first row is never a break point.
    CHECK(rowText(t, wrapColumns(t, 10)[0]).rfind("    int", 0) == 0);
}

TEST_CASE("wrapColumns: metric names break at '_' and '.'; short text is one row", "[text]") {
    std::string m = "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio";
    auto rows = wrapColumns(m, 24, "_.");
    REQUIRE(rows.size() >= 3);
    for (auto& r : rows) {
        std::string s = rowText(m, r);
        CHECK(r.indent + s.size() <= 24);
        if (&r != &rows.back()) CHECK((s.back() == '_' || s.back() == '.'));
    }
    CHECK(wrapColumns("dram__bytes_read.sum", 40, "_.").size() == 1);
    auto one = wrapColumns("", 40);
    REQUIRE(one.size() == 1);
    CHECK(one[0].begin == 0);
    CHECK(one[0].end == 0);
    // No break character at all: cut at the width.
    std::string word(50, 'x');
    auto cut = wrapColumns(word, 20);
    REQUIRE(cut.size() == 3);
    CHECK(cut[0].end == 20);
    checkWrap(word, 20, " ");
}

TEST_CASE("ellipsize: keeps what fits and appends an ellipsis; never splits a UTF-8 character", "[text]") {
    auto chars = [](const std::string& s) { return static_cast<float>(s.size()); };   // one unit per byte
    CHECK(ellipsize("short", 10, chars) == "short");
    std::string e = ellipsize("Paused in launch 1 of 4 (matmul_naive).", 12, chars);
    CHECK(e == "Paused in\xE2\x80\xA6");   // 9 bytes + the 3-byte ellipsis
    std::string u = ellipsize("ab\xC3\x97" "cdef", 6, chars);   // "ab×cdef": 2 + 2 + 4 bytes
    CHECK(u == "ab\xE2\x80\xA6");                          // not "ab\xC3" + ellipsis
}

TEST_CASE("Grid & warps: a 2D grid is drawn gridDim.x wide, so block (x, y) is at column x, row y", "[text]") {
    // grid (4,3,1) of 8-warp blocks in a panel that fits 3 large tiles side by side: the tiles
    // shrink until 4 fit, never 3 wide by 4 tall.
    for (float W : {1800.0f, 900.0f, 600.0f, 400.0f, 200.0f}) {
        INFO("panel " << W << " px wide");
        TileLayout L = gridTileLayout(W, 500, 8, 12, 1.0f, 17, 4, true);
        CHECK(L.cols == 4);
        if (W >= 200) CHECK(L.cols * L.tileW <= W);   // fits without scrolling when the smallest tiles fit
    }
    TileLayout tall = gridTileLayout(300, 2000, 1, 12, 1.0f, 17, 3, true);   // (3,4,1)
    CHECK(tall.cols == 3);
    // A 1D grid fills the width.
    TileLayout one = gridTileLayout(900, 500, 8, 12, 1.0f, 17, 12, false);
    CHECK(one.cols == std::max(1, static_cast<int>(900 / one.tileW)));
}
