// The exercises of the bundled lessons, graded for real (clang or NVRTC compiles each file): the
// model solution passes, the starter fails, each wrong answer under tests/exercises/<lesson>/<id>/
// fails on the criterion its first line names ("expect-fail: NAME"), with a panel the app knows.
// Plus the grader's own edge cases: a compile error, a missing kernel, a malformed exercise.json.
#include "base/error.hpp"
#include "compile/compile.hpp"
#include "grade/grader.hpp"
#include "run/run.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace warpscope;

namespace {

fs::path root() { return fs::path(WARPSCOPE_SOURCE_DIR); }

std::string slurp(const fs::path& p) {
    std::ifstream f(p);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// The panels the app's `open PANEL` action knows (app/gui/model/step_actions.cpp knownPanels).
const std::set<std::string> kPanels = {"lessons", "source", "divergence", "grid",   "warp",      "global", "shared", "heatmap",
                                       "metrics", "compare", "reports",  "occupancy", "scheduler", "stalls", "timeline"};

std::string summary(const grade::GradeResult& r) {
    std::string s;
    for (auto& c : r.criteria)
        s += std::string(c.passed ? "  PASS " : "  FAIL ") + c.name + ": " + c.measured + " (target " + c.target + ") " + c.detail + "\n";
    return s;
}

const std::vector<grade::Exercise>& exercises() {
    static const std::vector<grade::Exercise> list = [] {
        std::vector<std::string> errors;
        auto l = grade::listExercises(root() / "lessons", &errors);
        INFO(errors.size() << " broken exercise(s)");
        REQUIRE(errors.empty());
        return l;
    }();
    return list;
}

} // namespace

TEST_CASE("every lesson has an exercise, at least 12 in all", "[grade]") {
    const auto& list = exercises();
    CHECK(list.size() >= 12);
    std::set<std::string> lessons;
    for (auto& e : list) lessons.insert(e.lesson);
    for (auto& entry : fs::directory_iterator(root() / "lessons"))
        if (fs::exists(entry.path() / "lesson.json")) {
            INFO(entry.path().filename().string());
            CHECK(lessons.count(entry.path().filename().string()) == 1);
        }
    for (auto& e : list) {
        INFO(e.lesson << "/" << e.id);
        CHECK(!e.goal.empty());
        CHECK(!e.hints.empty());
        CHECK(e.paramSets.size() >= 2);
        CHECK(slurp(e.starter).find("TODO(student)") != std::string::npos);
    }
}

TEST_CASE("each exercise: solution passes, starter fails, wrong answers fail where they should", "[grade]") {
    for (const grade::Exercise& ex : exercises()) {
        DYNAMIC_SECTION(ex.lesson << "/" << ex.id) {
            grade::GradeOptions seeded;
            seeded.seed = 20261127;   // the hidden sets of one fixed attempt (others: the next test)
            grade::GradeResult sol = grade::gradeFile(ex, ex.solution, seeded);
            INFO("solution:\n" << summary(sol));
            CHECK(sol.passed);

            // Without a CUDA toolkit the clang path grades the same (where clang is installed).
            static const bool haveClang = [] {
                for (auto& c : compile::available())
                    if (c.compiler == compile::Compiler::Clang) return true;
                return false;
            }();
            if (haveClang && !ex.hostProgram) {
                grade::GradeOptions clang = seeded;
                clang.compiler = "clang";
                grade::GradeResult viaClang = grade::gradeFile(ex, ex.solution, clang);
                INFO("solution, clang:\n" << summary(viaClang));
                CHECK(viaClang.passed);
            }

            grade::GradeResult st = grade::gradeFile(ex, ex.starter, seeded);
            INFO("starter:\n" << summary(st));
            CHECK_FALSE(st.passed);

            fs::path wrongDir = root() / "tests" / "exercises" / ex.lesson / ex.id;
            REQUIRE(fs::is_directory(wrongDir));
            int wrongs = 0;
            for (auto& w : fs::directory_iterator(wrongDir)) {
                if (w.path().filename().string().rfind("wrong-", 0) != 0) continue;
                ++wrongs;
                std::smatch m;
                std::string text = slurp(w.path());
                static const std::regex expect(R"(expect-fail: ([a-z ]+[a-z]))");
                REQUIRE(std::regex_search(text, m, expect));
                std::string want = m[1].str();
                grade::GradeResult r = grade::gradeFile(ex, w.path(), seeded);
                INFO(w.path().filename().string() << " must fail on '" << want << "':\n" << summary(r));
                CHECK_FALSE(r.passed);
                bool failedThere = std::any_of(r.criteria.begin(), r.criteria.end(), [&](const grade::Criterion& c) {
                    return !c.passed && c.name.rfind(want, 0) == 0;
                });
                CHECK(failedThere);
                for (auto& c : r.criteria)
                    if (!c.passed) {
                        INFO(c.name);
                        CHECK(kPanels.count(c.panel) == 1);
                    }
            }
            CHECK(wrongs >= 1);
        }
    }
}

TEST_CASE("failing criteria point at the panel and the line that show why", "[grade]") {
    grade::Exercise bank = grade::findExercise(root() / "lessons", "bank-conflicts", "pad-the-tile");
    grade::GradeResult r = grade::gradeFile(bank, bank.starter);
    auto it = std::find_if(r.criteria.begin(), r.criteria.end(), [](auto& c) { return c.name.rfind("bank conflicts", 0) == 0; });
    REQUIRE(it != r.criteria.end());
    CHECK_FALSE(it->passed);
    CHECK(it->panel == "shared");
    CHECK(it->value.value_or(0) > 0);
    // The column read of the tile is the starter's conflicting access.
    std::vector<std::string> lines;
    std::stringstream s(slurp(bank.starter));
    for (std::string l; std::getline(s, l);) lines.push_back(l);
    REQUIRE(it->line >= 1);
    REQUIRE(size_t(it->line) <= lines.size());
    CHECK(lines[size_t(it->line) - 1].find("tile[threadIdx.x][threadIdx.y]") != std::string::npos);

    grade::Exercise st = grade::findExercise(root() / "lessons", "stencil-1d", "halo-and-barrier");
    grade::GradeResult racy = grade::gradeFile(st, root() / "tests/exercises/stencil-1d/halo-and-barrier/wrong-no-barrier.cu");
    auto rc = std::find_if(racy.criteria.begin(), racy.criteria.end(), [](auto& c) { return c.name == "racecheck"; });
    REQUIRE(rc != racy.criteria.end());
    CHECK_FALSE(rc->passed);
    CHECK(rc->panel == "reports");
    CHECK(rc->line > 0);
    CHECK(rc->detail.find("hazard") != std::string::npos);
    // The first report's advice is the block's barrier, the fix a tile with a halo needs
    // (lanes of one warp reading each other's slots are only part of it).
    INFO(rc->detail);
    CHECK(rc->detail.find("__syncthreads()") != std::string::npos);
    CHECK(rc->detail.find("Add __syncwarp()") == std::string::npos);
    // The starter's first report is a lane reading a slot another lane of its warp wrote: the
    // advice is still the block's barrier, since other warps read the tile too.
    grade::GradeResult starter = grade::gradeFile(st, st.starter);
    auto sc = std::find_if(starter.criteria.begin(), starter.criteria.end(), [](auto& c) { return c.name == "racecheck"; });
    REQUIRE(sc != starter.criteria.end());
    INFO(sc->detail);
    CHECK(sc->detail.find("lockstep") != std::string::npos);
    CHECK(sc->detail.find("Add __syncthreads()") != std::string::npos);
    // Reports over several parameter sets: the count says how many of them are in the run Show
    // why replays, which is what the Checker reports panel lists (it once said 36 where the panel
    // showed 8).
    INFO(sc->measured);
    std::smatch m;
    REQUIRE(std::regex_match(sc->measured, m, std::regex("([0-9]+) reports in ([0-9]+) runs; ([0-9]+) with (.*)")));
    const int total = std::stoi(m[1]), inReplay = std::stoi(m[3]);
    CHECK(std::stoi(m[2]) > 1);
    CHECK(inReplay < total);
    runtime::Lesson L = grade::learnerLesson(st, st.starter);
    run::RunSpec rs;
    rs.sim.racecheck = true;
    rs.sim.initcheck = true;   // as the exercise's checkers
    rs.sim.instructionBudget = 50'000'000;
    run::RunReport replay = run::run(L, runtime::resolveParams(L, sc->params), rs);
    int racecheckReports = 0;
    for (auto& r : replay.reports) racecheckReports += r.tool == "racecheck";
    CHECK(racecheckReports == inReplay);
}

TEST_CASE("a compile error is a failed criterion with the compiler's message", "[grade]") {
    grade::Exercise ex = grade::findExercise(root() / "lessons", "vector-add", "bounds-check");
    std::string bad = "extern \"C\" __global__ void vadd(const float* a, const float* b, float* c, int n)\n{\n    int i = ;\n}\n";
    grade::GradeResult r = grade::gradeText(ex, bad, "mine.cu");
    CHECK_FALSE(r.passed);
    REQUIRE(r.criteria.size() == 1);
    CHECK(r.criteria[0].kind == "compile");
    CHECK(r.criteria[0].line == 3);
    CHECK(r.criteria[0].detail.find("mine.cu:3") != std::string::npos);

    grade::GradeResult wrongName = grade::gradeText(ex, "extern \"C\" __global__ void add(float* c) { c[0] = 1; }\n", "mine.cu");
    CHECK_FALSE(wrongName.passed);
    REQUIRE(wrongName.criteria.size() == 2);
    CHECK(wrongName.criteria[1].measured == "missing vadd");
}

TEST_CASE("malformed exercises and unknown names are input errors", "[grade]") {
    fs::path tmp = fs::temp_directory_path() / "warpscope-grade-test";
    fs::remove_all(tmp);
    fs::create_directories(tmp / "ex");
    std::ofstream(tmp / "ex" / "starter.cu") << "// nothing\n";
    std::ofstream(tmp / "ex" / "solution.cu") << "// nothing\n";
    auto write = [&](const std::string& j) { std::ofstream(tmp / "ex" / "exercise.json") << j; };
    write(R"({"title": "t", "goal": "g", "kernels": ["k"], "starter": "starter.cu", "solution": "solution.cu", "performance": [{"measure": "speed"}]})");
    CHECK_THROWS_WITH(grade::loadExercise(tmp / "ex", root() / "lessons/vector-add"), Catch::Contains("unknown measure 'speed'"));
    write(R"({"title": "t", "goal": "g", "starter": "starter.cu", "solution": "solution.cu"})");
    CHECK_THROWS_WITH(grade::loadExercise(tmp / "ex", root() / "lessons/vector-add"), Catch::Contains("kernels"));
    write(R"({"title": "t", "goal": "g", "kernels": ["k"], "starter": "missing.cu", "solution": "solution.cu"})");
    CHECK_THROWS_WITH(grade::loadExercise(tmp / "ex", root() / "lessons/vector-add"), Catch::Contains("does not exist"));
    write(R"({"title": "t", "goal": "g", "kernels": ["k"], "starter": "starter.cu", "solution": "solution.cu", "checkers": ["leakcheck"]})");
    CHECK_THROWS_WITH(grade::loadExercise(tmp / "ex", root() / "lessons/vector-add"), Catch::Contains("unknown checker"));
    CHECK_THROWS_AS(grade::findExercise(root() / "lessons", "vector-add", "no-such"), Error);
    CHECK_THROWS_AS(grade::findExercise(root() / "lessons", "no-such-lesson", "x"), Error);
    grade::Exercise ex = grade::findExercise(root() / "lessons", "vector-add", "bounds-check");
    CHECK_THROWS_AS(grade::gradeFile(ex, tmp / "absent.cu"), Error);
    fs::remove_all(tmp);
}

TEST_CASE("hidden parameter sets: reproducible from the seed, below a warp, odd, and the model solutions pass them", "[grade]") {
    grade::Exercise va = grade::findExercise(root() / "lessons", "vector-add", "bounds-check");
    auto a = grade::hiddenParamSets(va, 42), b = grade::hiddenParamSets(va, 42), c = grade::hiddenParamSets(va, 43);
    REQUIRE(a.size() == 2);
    CHECK(a == b);
    CHECK(a != c);
    // N varies over the visible sets (1 .. 100003): the first set is below a warp, the second odd.
    for (uint64_t seed : {1ull, 7ull, 99ull, 123456789ull}) {
        auto sets = grade::hiddenParamSets(va, seed);
        INFO("seed " << seed);
        int n0 = std::stoi(sets[0].at("N")), n1 = std::stoi(sets[1].at("N"));
        CHECK(n0 >= 1);
        CHECK(n0 < 32);
        CHECK(n1 % 2 == 1);
        CHECK(n1 <= 100003);
        std::set<std::string> blocks = {"32", "64", "128", "256", "512", "1024"};
        if (sets[0].count("BLOCK")) CHECK(blocks.count(sets[0].at("BLOCK")) == 1);
    }
    // A grade names its seed and the sets; the same seed grades the same.
    grade::GradeOptions o;
    o.seed = 5;
    grade::GradeResult r1 = grade::gradeFile(va, va.solution, o), r2 = grade::gradeFile(va, va.solution, o);
    CHECK(r1.seed == 5);
    CHECK(r1.hiddenSets == grade::hiddenParamSets(va, 5));
    REQUIRE(r1.criteria.size() == r2.criteria.size());
    for (size_t i = 0; i < r1.criteria.size(); ++i) CHECK(r1.criteria[i].name == r2.criteria[i].name);
    CHECK(std::count_if(r1.criteria.begin(), r1.criteria.end(), [](auto& c) { return c.name.rfind("correct (hidden: ", 0) == 0; }) == 2);

    // Every model solution passes other attempts' hidden sets too.
    for (const grade::Exercise& ex : exercises())
        for (uint64_t seed : {2ull, 3ull}) {
            grade::GradeOptions s;
            s.seed = seed;
            grade::GradeResult g = grade::gradeFile(ex, ex.solution, s);
            INFO(ex.lesson << "/" << ex.id << " seed " << seed << ":\n" << summary(g));
            CHECK(g.passed);
        }
}

TEST_CASE("every parameter a learner's kernel can get wrong varies over the visible sets", "[grade]") {
    for (const grade::Exercise& ex : exercises()) {
        INFO(ex.lesson << "/" << ex.id << ": give these two values in \"params\", or say in \"fixed\" why they stay");
        CHECK(grade::unvariedParams(ex) == std::vector<std::string>{});
    }
}

TEST_CASE("one thread doing all the work fails 'runs in parallel' with a clear message", "[grade]") {
    grade::Exercise va = grade::findExercise(root() / "lessons", "vector-add", "bounds-check");
    grade::GradeOptions o;
    o.seed = 1;
    grade::GradeResult r = grade::gradeFile(va, root() / "tests/exercises/vector-add/bounds-check/wrong-one-thread.cu", o);
    auto it = std::find_if(r.criteria.begin(), r.criteria.end(), [](auto& c) { return c.name == "runs in parallel"; });
    REQUIRE(it != r.criteria.end());
    CHECK_FALSE(it->passed);
    CHECK(it->value.value_or(99) < 8.0);   // the other threads still check their index and leave
    CHECK(it->detail.find("one thread") != std::string::npos);
    // Its results are right: only the parallel criterion catches it.
    for (auto& c : r.criteria)
        if (c.kind == "correctness") CHECK(c.passed);
    grade::GradeResult good = grade::gradeFile(va, va.solution, o);
    auto g = std::find_if(good.criteria.begin(), good.criteria.end(), [](auto& c) { return c.name == "runs in parallel"; });
    REQUIRE(g != good.criteria.end());
    CHECK(g->passed);
}

TEST_CASE("a shuffle whose member mask names lanes that do not run it is a synccheck failure", "[grade]") {
    grade::Exercise sh = grade::findExercise(root() / "lessons", "reduction", "shuffle");
    grade::GradeOptions o;
    o.seed = 1;
    grade::GradeResult r = grade::gradeFile(sh, root() / "tests/exercises/reduction/shuffle/wrong-mask-in-branch.cu", o);
    auto find = [&](const std::string& n) {
        return std::find_if(r.criteria.begin(), r.criteria.end(), [&](auto& c) { return c.name == n; });
    };
    REQUIRE(find("synccheck") != r.criteria.end());
    REQUIRE(find("memcheck") != r.criteria.end());
    CHECK_FALSE(find("synccheck")->passed);
    INFO(find("synccheck")->detail);
    CHECK(find("synccheck")->detail.find("member mask") != std::string::npos);
    CHECK(find("memcheck")->passed);
}

TEST_CASE("divergence is measured line by line at every size, not only at the performance size", "[grade]") {
    grade::Exercise wu = grade::findExercise(root() / "lessons", "divergence", "warp-uniform");
    grade::GradeOptions o;
    o.seed = 1;
    grade::GradeResult r = grade::gradeFile(wu, root() / "tests/exercises/divergence/warp-uniform/wrong-half-blocks.cu", o);
    auto it = std::find_if(r.criteria.begin(), r.criteria.end(), [](auto& c) { return c.name.rfind("divergent branches", 0) == 0; });
    REQUIRE(it != r.criteria.end());
    CHECK_FALSE(it->passed);
    CHECK(it->value.value_or(-1) == 0);   // the performance size alone shows no split
    CHECK(it->params.count("BLOCK") == 1);
    CHECK(it->params.at("BLOCK") == "32");
    std::vector<std::string> lines;
    std::stringstream s(slurp(root() / "tests/exercises/divergence/warp-uniform/wrong-half-blocks.cu"));
    for (std::string l; std::getline(s, l);) lines.push_back(l);
    REQUIRE(it->line >= 1);
    REQUIRE(size_t(it->line) <= lines.size());
    INFO(lines[size_t(it->line) - 1]);
    CHECK(lines[size_t(it->line) - 1].find("first") != std::string::npos);
}
