// The course map the Lessons panel draws: the lessons in course order (lessons/course.json, see
// engine/grade/course.hpp), each with its exercises and the learner's progress on them (solved,
// tried, not started, from progress.json). Window-free, so tests build and check it.
#pragma once
#include "grade/course.hpp"
#include "gui/model/exercise_progress.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace warpscope::gui {

struct CourseExercise {
    std::string id, title;
    ExerciseRecord record;   // attempts, solved, hints
};
struct CourseLesson {
    std::string id;
    int lessonIndex = -1;    // index into the app's lesson list (its order of loading)
    int position = 0;        // 1-based place in the course
    std::vector<CourseExercise> exercises;
    int solved = 0;
};
struct CourseView {
    std::string title;
    std::vector<CourseLesson> lessons;
    int exercises = 0, solved = 0;
    std::vector<std::string> errors;   // a broken course.json or exercise.json (shown, not fatal)
};

// The course of the lessons the app loaded (`loaded`: id and lesson.json "order", in the app's
// index order) from `lessonsDir`'s course.json and exercise folders, with `progress`. Reads only
// course.json and the exercise.json files (no lesson is loaded again).
CourseView buildCourse(const std::filesystem::path& lessonsDir, const std::vector<grade::LessonKey>& loaded,
                       const ExerciseProgress& progress);

// Keeps a CourseView current for the panel: the exercise list is read once per lessons folder
// and lesson list; progress.json is re-read when its modification time changes (a grade in the
// Exercise panel saves it), checked at most every `recheckSeconds`.
class CourseModel {
public:
    const CourseView& view(const std::filesystem::path& lessonsDir, const std::vector<grade::LessonKey>& loaded,
                           const std::filesystem::path& progressPath, double nowSeconds, double recheckSeconds = 1.0);

private:
    std::filesystem::path dir_, progressPath_;
    std::vector<std::string> ids_;
    std::vector<int> orders_;
    std::filesystem::file_time_type progressTime_{};
    bool built_ = false;
    double checkedAt_ = -1e9;
    CourseView view_;
};

} // namespace warpscope::gui
