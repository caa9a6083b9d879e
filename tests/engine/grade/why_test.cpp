// "Show why" for a wrong result (grade/why.hpp): the first wrong elements of a learner's kernel,
// compiled for real, and for each the store that wrote it, or that no kernel wrote it.
#include "grade/grader.hpp"
#include "grade/why.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace warpscope;

namespace {
fs::path root() { return fs::path(WARPSCOPE_SOURCE_DIR); }

runtime::ParamValues paramsOf(const runtime::Lesson& L, std::map<std::string, std::string> set) { return runtime::resolveParams(L, set); }
} // namespace

TEST_CASE("a wrong result names its first wrong elements: elements no kernel wrote", "[grade]") {
    // The grid-stride starter covers only the 4 blocks' threads: with N=5000 and 64 threads per
    // block, element 256 is the first one nothing writes.
    grade::Exercise ex = grade::findExercise(root() / "lessons", "vector-add", "grid-stride");
    runtime::Lesson L = grade::learnerLesson(ex, ex.starter);
    grade::WrongResult r = grade::explainWrongResult(L, paramsOf(L, {{"N", "5000"}, {"BLOCK", "64"}}), {});
    INFO(r.error);
    REQUIRE(r.error.empty());
    REQUIRE(r.checks.size() == 1);
    CHECK(r.checks[0].find("4744 of 5000 elements differ") != std::string::npos);
    REQUIRE(r.elements.size() == 8);
    for (size_t k = 0; k < r.elements.size(); ++k) {
        const grade::WrongElement& e = r.elements[k];
        CHECK(e.buffer == "c");
        CHECK(e.index == 256 + k);
        CHECK_FALSE(e.written);
        CHECK(e.got == 0);
        CHECK(e.expected != 0);
    }
    CHECK(r.elements[0].text().find("c[256]: got 0, expected ") == 0);
    CHECK(r.elements[0].text().find("no kernel stored to it") != std::string::npos);
}

TEST_CASE("a wrong result names the store that wrote each wrong element", "[grade]") {
    grade::Exercise ex = grade::findExercise(root() / "lessons", "vector-add", "grid-stride");
    fs::path dir = fs::temp_directory_path() / "warpscope-why-test";
    fs::create_directories(dir);
    fs::path file = dir / "typo.cu";
    {
        std::ofstream f(file);
        f << "// a grid-stride loop with a typo in the sum from element 37 on\n"
             "extern \"C\" __global__ void vadd(const float* a, const float* b, float* c, int n)\n"
             "{\n"
             "    int stride = blockDim.x * gridDim.x;\n"
             "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)\n"
             "        c[i] = a[i] + (i < 37 ? b[i] : a[i]);\n"
             "}\n";
    }
    runtime::Lesson L = grade::learnerLesson(ex, file);
    // 3 blocks of 32 threads for N=70: the first wrong element, 37, is block 1's thread 5.
    grade::WrongResult r = grade::explainWrongResult(L, paramsOf(L, {{"N", "70"}, {"BLOCK", "32"}}), {});
    INFO(r.error);
    REQUIRE(r.error.empty());
    REQUIRE(r.elements.size() == 8);   // the first 8 of 33
    for (const grade::WrongElement& e : r.elements) {
        INFO(e.text());
        REQUIRE(e.written);
        CHECK(e.site.kernel == "vadd");
        REQUIRE(e.site.sourceLine);
        CHECK(*e.site.sourceLine == 6);
        CHECK(e.instruction.find("st.global") != std::string::npos);
        CHECK_FALSE(e.atomic);
        CHECK(e.grid.x == 3);
        CHECK(e.block.x == 32);
    }
    CHECK(r.elements.back().index == 44);
    const grade::WrongElement* e37 = &r.elements.front();
    REQUIRE(e37->index == 37);
    CHECK(*e37->site.blockX == 1);
    CHECK(*e37->site.threadX == 5);
    CHECK(*e37->site.lane == 5);
    CHECK(e37->text().find("last written by vadd block (1,0,0) thread (5,0,0), line 6") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("a correct result has nothing to explain; a fault says where the run stopped", "[grade]") {
    grade::Exercise ex = grade::findExercise(root() / "lessons", "vector-add", "grid-stride");
    runtime::Lesson L = grade::learnerLesson(ex, ex.solution);
    grade::WrongResult ok = grade::explainWrongResult(L, paramsOf(L, {{"N", "5000"}, {"BLOCK", "64"}}), {});
    CHECK(ok.error.empty());
    CHECK(ok.checks.empty());
    CHECK(ok.elements.empty());

    grade::Exercise bc = grade::findExercise(root() / "lessons", "vector-add", "bounds-check");
    runtime::Lesson W = grade::learnerLesson(bc, root() / "tests/exercises/vector-add/bounds-check/wrong-off-by-one.cu");
    grade::WrongResult f = grade::explainWrongResult(W, paramsOf(W, {{"N", "1000"}}), {});
    INFO(f.error);
    CHECK(f.error.find("Out-of-bounds") != std::string::npos);
    CHECK(f.elements.empty());
}
