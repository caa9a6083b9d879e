// The course map: lessons in course.json's order, ids it lists that do not exist skipped without
// an error, lessons it does not list after the others by their "order", each lesson's exercises
// with the learner's progress, and a progress file written later picked up by CourseModel.
#include "gui/model/course_model.hpp"
#include "grade/course.hpp"
#include "base/error.hpp"
#include "runtime/lesson.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace warpscope;
using namespace warpscope::gui;

namespace {
fs::path lessons() { return fs::path(WARPSCOPE_SOURCE_DIR) / "lessons"; }
std::vector<grade::LessonKey> bundledIds() {
    std::vector<grade::LessonKey> ids;
    for (auto& e : fs::directory_iterator(lessons()))
        if (fs::exists(e.path() / "lesson.json"))
            ids.push_back({e.path().filename().string(), runtime::loadLesson(e.path()).order});
    // The app's index order need not be the course's.
    std::sort(ids.begin(), ids.end(), [](auto& a, auto& b) { return a.id < b.id; });
    return ids;
}
} // namespace

TEST_CASE("the bundled course lists every lesson in course.json's order", "[progress]") {
    grade::CourseFile cf = grade::loadCourseFile(lessons());
    REQUIRE(cf.lessons.size() >= 12);
    std::vector<grade::LessonKey> ids = bundledIds();
    CourseView v = buildCourse(lessons(), ids, ExerciseProgress{});
    INFO(v.errors.size() << " errors");
    CHECK(v.errors.empty());
    REQUIRE(v.lessons.size() == ids.size());   // every loaded lesson once; listed-but-missing ones skipped
    // Listed lessons come in the file's order.
    size_t last = 0;
    for (auto& L : v.lessons) {
        auto it = std::find(cf.lessons.begin(), cf.lessons.end(), L.id);
        if (it == cf.lessons.end()) continue;
        size_t at = size_t(it - cf.lessons.begin());
        CHECK(at >= last);
        last = at;
    }
    CHECK(v.lessons.front().id == "vector-add");
    CHECK(v.lessons.front().position == 1);
    CHECK(v.lessons[1].id == cf.lessons[1]);
    for (auto& L : v.lessons) {
        INFO(L.id);
        REQUIRE(L.lessonIndex >= 0);
        REQUIRE(size_t(L.lessonIndex) < ids.size());
        CHECK(ids[size_t(L.lessonIndex)].id == L.id);
        CHECK(!L.exercises.empty());
    }
    CHECK(v.exercises >= 22);
}

TEST_CASE("course order: missing ids skipped, unlisted lessons after by order, bad files are errors", "[progress]") {
    grade::CourseFile cf;
    cf.lessons = {"b", "not-written-yet", "a"};
    auto order = grade::courseOrder(cf, {{"a", 5}, {"c", 9}, {"b", 7}, {"d", 1}});
    CHECK(order == std::vector<std::string>{"b", "a", "d", "c"});
    CHECK(grade::courseOrder(grade::CourseFile{}, {{"x", 2}, {"y", 1}}) == std::vector<std::string>{"y", "x"});

    fs::path dir = fs::temp_directory_path() / "warpscope-course-test";
    fs::remove_all(dir);
    fs::create_directories(dir);
    CHECK(grade::loadCourseFile(dir).lessons.empty());   // no course.json: no error
    std::ofstream(dir / "course.json") << R"({"lessons": ["a", "a"]})";
    CHECK_THROWS_WITH(grade::loadCourseFile(dir), Catch::Contains("listed twice"));
    std::ofstream(dir / "course.json") << R"({"lessons": "a"})";
    CHECK_THROWS_WITH(grade::loadCourseFile(dir), Catch::Contains("list of lesson ids"));
    std::ofstream(dir / "course.json") << R"({"lessons": [], "chapters": 1})";
    CHECK_THROWS_WITH(grade::loadCourseFile(dir), Catch::Contains("unknown key"));
    fs::remove_all(dir);
}

TEST_CASE("the course map shows the learner's progress and follows progress.json", "[progress]") {
    fs::path dir = fs::temp_directory_path() / "warpscope-course-progress";
    fs::remove_all(dir);
    fs::path file = dir / "progress.json";
    std::vector<grade::LessonKey> ids = bundledIds();

    CourseModel m;
    const CourseView& before = m.view(lessons(), ids, file, 0.0);
    CHECK(before.solved == 0);
    auto lessonOf = [](const CourseView& v, const std::string& id) -> const CourseLesson& {
        for (auto& L : v.lessons)
            if (L.id == id) return L;
        FAIL("no lesson " << id);
        return v.lessons.front();
    };
    CHECK(lessonOf(before, "vector-add").solved == 0);

    ExerciseProgress p;
    p.recordAttempt("vector-add", "bounds-check", true);
    p.recordAttempt("vector-add", "grid-stride", false);
    p.recordAttempt("reduction", "shuffle", true);
    REQUIRE(p.save(file));
    // Not re-read before the recheck interval; re-read after it.
    CHECK(m.view(lessons(), ids, file, 0.5).solved == 0);
    const CourseView& after = m.view(lessons(), ids, file, 2.0);
    CHECK(after.solved == 2);
    const CourseLesson& va = lessonOf(after, "vector-add");
    CHECK(va.solved == 1);
    for (auto& e : va.exercises) {
        if (e.id == "bounds-check") CHECK(e.record.solved);
        if (e.id == "grid-stride") {
            CHECK_FALSE(e.record.solved);
            CHECK(e.record.attempts == 1);
        }
    }
    CHECK(lessonOf(after, "reduction").solved == 1);
    fs::remove_all(dir);
}
