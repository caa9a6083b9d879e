// "Show why" without a window: real grades of wrong answers turned into plans (planShowWhy), and
// the plan for a bank conflict replayed on a bare Session lands where the app's Shared banks panel
// looks: warp 0 of block 0 has just executed the conflicting access, a 32-way conflict.
#include "grade/grader.hpp"
#include "gui/model/exercise_model.hpp"
#include "gui/model/memory_model.hpp"
#include "gui/model/session.hpp"
#include "gui/model/step_actions.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace warpscope;
using namespace warpscope::gui;

namespace {
fs::path root() { return fs::path(WARPSCOPE_SOURCE_DIR); }

const grade::Criterion& failed(const grade::GradeResult& r, const std::string& prefix) {
    auto it = std::find_if(r.criteria.begin(), r.criteria.end(),
                           [&](const grade::Criterion& c) { return !c.passed && c.name.rfind(prefix, 0) == 0; });
    REQUIRE(it != r.criteria.end());
    return *it;
}
} // namespace

TEST_CASE("Show why plans the run that shows each kind of failure", "[exercise]") {
    fs::path lessons = root() / "lessons";
    SECTION("bank conflicts: the perf run, warp 0 to the conflicting line, Shared banks pinned there") {
        grade::Exercise ex = grade::findExercise(lessons, "bank-conflicts", "pad-the-tile");
        grade::GradeResult r = grade::gradeFile(ex, ex.starter);
        const grade::Criterion& c = failed(r, "bank conflicts");
        WhyPlan p = planShowWhy(ex, c);
        CHECK(p.panel == "shared");
        CHECK(p.runLearner);
        CHECK(p.params == ex.perfParams);
        CHECK(p.move == WhyPlan::Move::ToLine);
        CHECK(p.pin == 2);
        REQUIRE(p.line > 0);

        // Replayed as the app does: the newest shared access on that line is the 32-way conflict.
        runtime::Lesson L = grade::learnerLesson(ex, ex.starter);
        Session s;
        s.load(L, runtime::resolveParams(L, p.params));
        s.select(0, 0, false);
        s.runToLine(p.line);
        s.stepLine();
        REQUIRE(s.waitIdle(120));
        auto snap = s.snapshot();
        const MemAccess* a = pinnedAccess(snap->memHistory, true, MemPin{p.line, 0});
        REQUIRE(a != nullptr);
        CHECK(a->line == p.line);
        uint32_t ways = 0;
        for (auto& ph : buildSharedDiagram(*a).phases) ways = std::max(ways, ph.ways);
        CHECK(ways == 32);
    }
    SECTION("a race: racecheck on, the whole program, then the report") {
        grade::Exercise ex = grade::findExercise(lessons, "reduction", "shuffle");
        grade::GradeResult r = grade::gradeFile(ex, root() / "tests/exercises/reduction/shuffle/wrong-no-barrier.cu");
        const grade::Criterion& c = failed(r, "racecheck");
        WhyPlan p = planShowWhy(ex, c);
        CHECK(p.panel == "reports");
        CHECK(p.racecheck);
        CHECK_FALSE(p.initcheck);
        CHECK(p.goToReport);
        CHECK(p.move == WhyPlan::Move::Program);
        CHECK(p.line == uint32_t(c.line));
        CHECK(!p.params.empty());   // the parameter set of the first report
    }
    SECTION("a fault in a correctness run: that parameter set, the grading checkers") {
        grade::Exercise ex = grade::findExercise(lessons, "vector-add", "bounds-check");
        grade::GradeResult r = grade::gradeFile(ex, ex.starter);
        const grade::Criterion& c = failed(r, "correct");
        WhyPlan p = planShowWhy(ex, c);
        CHECK(p.panel == "reports");
        CHECK(p.params == c.params);
        CHECK(std::find(ex.paramSets.begin(), ex.paramSets.end(), p.params) != ex.paramSets.end());
        CHECK(p.goToReport);
    }
    SECTION("a compile error: nothing runs, the editor shows the message at its line") {
        grade::Exercise ex = grade::findExercise(lessons, "vector-add", "bounds-check");
        grade::GradeResult r = grade::gradeText(ex, "extern \"C\" __global__ void vadd(const float* a, const float* b, float* c, int n)\n{\n  c[0] = nope;\n}\n", "broken.cu");
        const grade::Criterion& c = failed(r, "compiles");
        WhyPlan p = planShowWhy(ex, c);
        CHECK_FALSE(p.runLearner);
        CHECK(p.panel == "editor");
        CHECK(p.line == 3);
    }
    SECTION("occupancy: Timed mode on the exercise's preset") {
        grade::Exercise ex = grade::findExercise(lessons, "occupancy-and-latency", "raise-occupancy");
        grade::GradeResult r = grade::gradeFile(ex, root() / "tests/exercises/occupancy-and-latency/raise-occupancy/wrong-smaller-buffer.cu");
        WhyPlan p = planShowWhy(ex, failed(r, "occupancy"));
        CHECK(p.panel == "occupancy");
        CHECK(p.timed);
        CHECK(p.move == WhyPlan::Move::Program);
    }
}

TEST_CASE("learnerLesson runs the learner's file, and says why it cannot", "[exercise]") {
    grade::Exercise ex = grade::findExercise(root() / "lessons", "vector-add", "bounds-check");
    runtime::Lesson L = grade::learnerLesson(ex, ex.solution);
    CHECK(L.sourcePath == ex.solution);
    CHECK(L.ptxText.find(".entry vadd") != std::string::npos);
    fs::path bad = fs::temp_directory_path() / "warpscope-exercise-test-broken.cu";
    {
        std::ofstream f(bad);
        f << "extern \"C\" __global__ void vadd() { undefined_thing; }\n";
    }
    CHECK_THROWS_WITH(grade::learnerLesson(ex, bad), Catch::Contains("does not compile"));
    CHECK_THROWS_WITH(grade::learnerLesson(ex, "/no/such/file.cu"), Catch::Contains("No file"));
    fs::remove(bad);
}

TEST_CASE("a program exercise is graded on the model's worker, the learner's text kept, Show why runs no lesson", "[exercise]") {
    fs::path lessons = root() / "lessons";
    fs::path dir = fs::temp_directory_path() / "warpscope-program-exmodel-test";
    fs::remove_all(dir);
    fs::create_directories(dir);
    ExerciseModel m(lessons, dir / "progress.json");
    REQUIRE(m.select("vector-add", "first-program"));
    REQUIRE(m.current()->program);
    // The learner's file: a wrong answer (one thread), as the editor saved it.
    const fs::path mine = dir / "first-program.cu";
    fs::copy_file(root() / "tests/exercises/vector-add/first-program/wrong-one-thread.cu", mine);
    std::ifstream before(mine);
    const std::string text((std::istreambuf_iterator<char>(before)), std::istreambuf_iterator<char>());
    m.grade(mine);
    CHECK(m.grading());   // in the background: the window keeps drawing
    REQUIRE(m.waitIdle(300));
    auto o = m.outcome();
    REQUIRE(o);
    REQUIRE(o->ok);
    CHECK_FALSE(o->result.passed);
    const grade::Criterion& c = failed(o->result, "runs in parallel");
    CHECK(c.measured == "1.0 threads' worth");
    CHECK(m.progress().get("vector-add", "first-program").attempts == 1);
    // Grading never touches the learner's text.
    std::ifstream after(mine);
    CHECK(std::string((std::istreambuf_iterator<char>(after)), std::istreambuf_iterator<char>()) == text);
    // Show why: nothing to step in a lesson; a build error goes to the editor.
    WhyPlan p = planShowWhy(*m.current(), c);
    CHECK_FALSE(p.runLearner);
    CHECK(p.panel.empty());
    grade::Criterion build;
    build.kind = "compile";
    build.line = 20;
    WhyPlan pb = planShowWhy(*m.current(), build);
    CHECK_FALSE(pb.runLearner);
    CHECK(pb.panel == "editor");
    fs::remove_all(dir);
}
