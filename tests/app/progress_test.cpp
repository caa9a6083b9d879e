// Exercise progress: attempts and solved survive a save and load, the write is atomic (no
// temporary left, the old file replaced whole), and a damaged file reads as no progress.
#include "gui/model/exercise_progress.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace warpscope::gui;

TEST_CASE("exercise progress round-trips and stays solved", "[progress]") {
    fs::path dir = fs::temp_directory_path() / "warpscope-progress-test";
    fs::remove_all(dir);
    fs::path file = dir / "sub" / "progress.json";

    ExerciseProgress p = ExerciseProgress::load(file);   // no file yet
    CHECK(p.get("vector-add", "bounds-check").attempts == 0);
    p.recordAttempt("vector-add", "bounds-check", false);
    p.recordAttempt("vector-add", "bounds-check", true);
    p.recordAttempt("vector-add", "bounds-check", false);   // a later failure does not unsolve it
    p.recordHints("vector-add", "grid-stride", 2);
    p.recordHints("vector-add", "grid-stride", 1);          // hints never hide again
    p.recordSolutionShown("reduction", "shuffle");
    REQUIRE(p.save(file));

    ExerciseProgress q = ExerciseProgress::load(file);
    ExerciseRecord r = q.get("vector-add", "bounds-check");
    CHECK(r.attempts == 3);
    CHECK(r.solved);
    CHECK(q.get("vector-add", "grid-stride").hintsShown == 2);
    CHECK_FALSE(q.get("vector-add", "grid-stride").solved);
    CHECK(q.get("reduction", "shuffle").solutionShown);
    CHECK(q.solvedIn("vector-add") == 1);
    CHECK(q.solvedIn("vector") == 0);   // a lesson id, not a prefix of one

    int files = 0;
    for (auto& e : fs::directory_iterator(file.parent_path())) files += e.is_regular_file();
    CHECK(files == 1);   // the temporary was renamed, not left behind

    { std::ofstream(file) << "{ \"exercises\": { \"a/b\": { \"attempts\": 2, "; }   // cut short
    CHECK(ExerciseProgress::load(file).get("a", "b").attempts == 0);
    CHECK_FALSE(ExerciseProgress().save(""));
    fs::remove_all(dir);
}

#include "gui/model/exercise_model.hpp"

TEST_CASE("the exercise model grades on its worker, counts the attempt once, offers the solution after it", "[progress]") {
    fs::path dir = fs::temp_directory_path() / "warpscope-exmodel-test";
    fs::remove_all(dir);
    fs::path lessons = fs::path(WARPSCOPE_SOURCE_DIR) / "lessons";
    ExerciseModel m(lessons, dir / "progress.json");
    REQUIRE(m.exercises().size() >= 12);
    std::vector<int> va = m.exercisesOf("vector-add");
    REQUIRE(!va.empty());
    int bounds = -1;
    for (int i : va)
        if (m.exercises()[size_t(i)].id == "bounds-check") bounds = i;
    REQUIRE(bounds >= 0);
    m.select(bounds);
    CHECK(m.hintsShown() == 0);
    m.showNextHint();
    CHECK(m.hintsShown() == 1);
    CHECK_FALSE(m.solutionAvailable());
    CHECK(m.solutionText().empty());

    m.grade(m.current()->starter);
    REQUIRE(m.waitIdle(60));
    auto o = m.outcome();
    REQUIRE(o);
    REQUIRE(o->ok);
    CHECK_FALSE(o->result.passed);
    m.outcome();   // asking again does not count the attempt twice
    CHECK(m.progress().get("vector-add", "bounds-check").attempts == 1);
    CHECK(m.solutionAvailable());

    m.grade(m.current()->solution);
    REQUIRE(m.waitIdle(60));
    o = m.outcome();
    REQUIRE(o);
    CHECK(o->result.passed);
    CHECK(m.progress().get("vector-add", "bounds-check").solved);
    CHECK(m.solutionText().find("__global__") != std::string::npos);

    // Saved: a new model (the next start of the app) sees the progress.
    ExerciseModel again(lessons, dir / "progress.json");
    CHECK(again.progress().get("vector-add", "bounds-check").attempts == 2);
    CHECK(again.progress().solvedIn("vector-add") == 1);
    again.select(bounds);
    CHECK(again.hintsShown() == 1);

    m.grade(dir / "absent.cu");
    REQUIRE(m.waitIdle(60));
    o = m.outcome();
    REQUIRE(o);
    CHECK_FALSE(o->ok);
    CHECK(o->error.find("absent.cu") != std::string::npos);
    fs::remove_all(dir);
}
