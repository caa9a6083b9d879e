// Exercises of kind "program" (engine/grade/program_exercise.cpp): the grader survives whatever a
// learner's whole program does (a crash, exit(1), an endless loop, a fork bomb, a 100 GB malloc,
// a build error), each a failed criterion whose message names what happened; the per-launch
// counters file the runtime writes ($WARPSCOPE_LAUNCH_COUNTERS) carries the measures; the
// loader's errors. (The bundled program exercises' solutions, starters, wrong answers and
// alternatives are graded with every other exercise in grader_test.cpp.)
#include "base/error.hpp"
#include "grade/grader.hpp"
#include "grade/program_exercise.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
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

std::string summary(const grade::GradeResult& r) {
    std::string s;
    for (auto& c : r.criteria)
        s += std::string(c.passed ? "  PASS " : "  FAIL ") + c.name + ": " + c.measured + " (target " + c.target + ") " + c.detail + "\n";
    return s;
}

const grade::Criterion* firstFailed(const grade::GradeResult& r) {
    for (auto& c : r.criteria)
        if (!c.passed) return &c;
    return nullptr;
}

// The solution of vector-add/first-program with `old` replaced by `now`.
std::string solutionWith(const std::string& old, const std::string& now) {
    const grade::Exercise ex = grade::findExercise(root() / "lessons", "vector-add", "first-program");
    std::string text = slurp(ex.solution);
    const size_t at = text.find(old);
    REQUIRE(at != std::string::npos);
    return text.replace(at, old.size(), now);
}

} // namespace

TEST_CASE("a program exercise's grader survives what a learner's program does", "[grade-program]") {
    const grade::Exercise ex = grade::findExercise(root() / "lessons", "vector-add", "first-program");
    REQUIRE(ex.program);
    grade::GradeOptions o;
    o.seed = 11;
    const std::string mainStart = "    int n = argc > 1 ? atoi(argv[1]) : 1000;\n";
    struct Case {
        const char* what;
        std::string text;
        std::string criterion;   // the first failing criterion's name starts so
        std::string measured;    // ... and its measured text contains this
        double seconds = 0;      // the wall-clock limit of each run (0: the grader's 60 s)
    };
    const std::vector<Case> cases = {
        {"a crash", solutionWith(mainStart, "    { int* volatile p = nullptr; *p = 1; }\n" + mainStart), "correct", "crashed: signal 11"},
        {"exit(1)", solutionWith(mainStart, "    exit(1);\n" + mainStart), "correct", "exit code 1"},
        {"an endless loop", solutionWith(mainStart, "    for (volatile int spin = 0;; ++spin) {}\n" + mainStart), "correct", "wall-clock limit", 4},
        // Bounded, as tests/programs/sandbox/fork_bomb.cu: even outside a sandbox it cannot take a machine down.
        {"a fork bomb",
         solutionWith(mainStart, "    for (int k = 0; k < 300; ++k) if (fork() == 0) { sleep(20); _exit(0); }\n" + mainStart).insert(0, "#include <unistd.h>\n"),
         "correct", "process limit"},
        {"a 100 GB malloc", solutionWith(mainStart, "    { volatile char* p = (char*)malloc(100ull << 30); if (p) p[0] = 1; }\n" + mainStart),
         "correct", "address-space (memory) limit"},
        {"a build error", solutionWith("    if (i < n) c[i] = a[i] + b[i];", "    if (i < n) c[i] = a[i] + b[i]"), "builds", "build error"},
        {"a kernel that never ends", solutionWith("    if (i < n) c[i] = a[i] + b[i];", "    while (c[0] == c[0]) c[i % n] += 1.0f;"), "correct",
         "a kernel faulted"},   // the instruction budget, as in the kernel exercises
    };
    for (const Case& k : cases) {
        DYNAMIC_SECTION(k.what) {
            o.programSeconds = k.seconds;
            const auto t0 = std::chrono::steady_clock::now();
            grade::GradeResult r = grade::gradeText(ex, k.text, "student.cu", o);
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            INFO(k.what << " (" << seconds << " s):\n" << summary(r));
            CHECK_FALSE(r.passed);
            const grade::Criterion* c = firstFailed(r);
            REQUIRE(c);
            CHECK(c->name.rfind(k.criterion, 0) == 0);
            CHECK(c->measured.find(k.measured) != std::string::npos);
            CHECK(!c->panel.empty());
            if (k.criterion == "builds") {
                CHECK(c->line > 0);
                CHECK(c->detail.find("student.cu:") != std::string::npos);
            }
            // A run stopped at a time limit is not repeated for every parameter set.
            CHECK(seconds < 60);
        }
    }
}

TEST_CASE("a program exercise's measures come from the runtime's per-launch counters", "[grade-program]") {
    const grade::Exercise ex = grade::findExercise(root() / "lessons", "vector-add", "first-program");
    grade::GradeOptions o;
    o.seed = 12;
    grade::GradeResult r = grade::gradeFile(ex, ex.solution, o);
    INFO(summary(r));
    REQUIRE(r.passed);
    auto find = [&](const std::string& prefix) -> const grade::Criterion& {
        auto it = std::find_if(r.criteria.begin(), r.criteria.end(), [&](const grade::Criterion& c) { return c.name.rfind(prefix, 0) == 0; });
        REQUIRE(it != r.criteria.end());
        return *it;
    };
    // N=1024 and N=4096, 256 threads a block: the largest run (4096) is spread over all 4096 threads.
    CHECK(find("runs in parallel").value.value_or(0) == Approx(4096));
    CHECK(find("copies between host and device").value.value_or(0) == 3);
    CHECK(find("launches of vecAdd").value.value_or(0) == 1);
    // The hidden sets: one below a warp, one not a multiple of any block.
    REQUIRE(r.hiddenSets.size() == 3);
    CHECK(std::stoi(r.hiddenSets[0].at("N")) < 32);
    CHECK(std::stoi(r.hiddenSets[1].at("N")) % 2 == 1);

    // A kernel_time_us goal runs the cycle model (WARPSCOPE_TIMED=1): a limit far below the
    // kernel's predicted time fails with the time measured.
    grade::Exercise timed = ex;
    grade::PerfGoal g;
    g.measure = "kernel_time_us";
    g.kernels = {"vecAdd"};
    g.max = 0.001;
    g.why = "a test";
    timed.performance = {g};
    grade::GradeResult t = grade::gradeFile(timed, ex.solution, o);
    INFO(summary(t));
    const grade::Criterion& k = t.criteria.back();
    CHECK(k.name.rfind("predicted time of vecAdd", 0) == 0);
    CHECK_FALSE(k.passed);
    CHECK(k.value.value_or(0) > 0.1);   // 50000 elements: a few microseconds on the H100 preset
}

TEST_CASE("a program exercise's mistakes in exercise.json are input errors", "[grade-program]") {
    const fs::path dir = fs::temp_directory_path() / "warpscope-program-exercise-test";
    fs::remove_all(dir);
    fs::create_directories(dir / "lesson" / "exercises" / "x");
    fs::copy_file(root() / "lessons/vector-add/lesson.json", dir / "lesson/lesson.json");
    std::ofstream(dir / "lesson/exercises/x/a.cu") << "int main() { return 0; }\n";
    auto load = [&](const std::string& json) {
        std::ofstream(dir / "lesson/exercises/x/exercise.json") << json;
        return grade::loadExercise(dir / "lesson/exercises/x", dir / "lesson");
    };
    const std::string head = R"({"title": "t", "goal": "g", "kind": "program", "starter": "a.cu", "solution": "a.cu", )";
    CHECK_THROWS_WITH(load(head + R"("params": [{"N": 1}]})"), Catch::Contains("\"args\""));
    CHECK_THROWS_WITH(load(head + R"("args": ["N"], "params": [{"M": 1}]})"), Catch::Contains("no \"N\""));
    CHECK_THROWS_WITH(load(head + R"("args": ["N"], "params": [{"N": 1}], "performance": [{"measure": "bank_conflicts", "max": 1}]})"),
                      Catch::Contains("unknown measure 'bank_conflicts' for a program"));
    CHECK_THROWS_WITH(load(head + R"("args": ["N"], "params": [{"N": 1}], "compare": "fuzzy"})"), Catch::Contains("\"compare\""));
    CHECK_THROWS_WITH(load(head + R"("args": ["N"], "params": [{"N": 1}], "performance": [{"measure": "kernel_time_us", "max": 1}]})"),
                      Catch::Contains("needs \"why\""));
    CHECK_THROWS_WITH(load(R"({"title": "t", "goal": "g", "kernels": ["k"], "starter": "a.cu", "solution": "a.cu", "args": ["N"]})"),
                      Catch::Contains("belong to exercises of kind \"program\""));
    grade::Exercise ok = load(head + R"("args": ["N"], "params": [{"N": 1}, {"N": 2}], "compare": {"numbers": 0.001}})");
    REQUIRE(ok.program);
    CHECK(ok.program->compare == "numbers");
    CHECK(ok.program->tolerance == Approx(0.001));
    CHECK_THROWS_WITH(grade::learnerLesson(ok, dir / "lesson/exercises/x/a.cu"), Catch::Contains("whole program"));
    fs::remove_all(dir);
}
