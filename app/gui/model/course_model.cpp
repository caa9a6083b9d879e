// The course map (course_model.hpp).
#include "gui/model/course_model.hpp"
#include "base/error.hpp"
#include "grade/course.hpp"
#include "grade/grader.hpp"
#include "runtime/lesson.hpp"

#include <algorithm>
#include <map>

namespace fs = std::filesystem;

namespace warpscope::gui {

CourseView buildCourse(const fs::path& lessonsDir, const std::vector<std::string>& loadedIds, const ExerciseProgress& progress) {
    CourseView v;
    grade::CourseFile course;
    try {
        course = grade::loadCourseFile(lessonsDir);
    } catch (const Error& e) {
        v.errors.push_back(e.what());
    }
    v.title = course.title;
    // The app's lessons with their own "order", for the ones course.json does not list.
    std::vector<grade::LessonKey> keys;
    for (size_t i = 0; i < loadedIds.size(); ++i) {
        int order = 1000;
        try {
            order = runtime::loadLesson(lessonsDir / loadedIds[i]).order;
        } catch (const Error&) {
        }
        keys.push_back({loadedIds[i], order});
    }
    std::map<std::string, std::vector<CourseExercise>> byLesson;
    std::vector<std::string> errors;
    for (auto& ex : grade::listExercises(lessonsDir, &errors)) {
        CourseExercise ce;
        ce.id = ex.id;
        ce.title = ex.title;
        ce.record = progress.get(ex.lesson, ex.id);
        byLesson[ex.lesson].push_back(ce);
    }
    for (auto& e : errors)
        if (e.find("course.json") == std::string::npos) v.errors.push_back(e);   // course.json's own error is already there
    int pos = 0;
    for (auto& id : grade::courseOrder(course, keys)) {
        CourseLesson L;
        L.id = id;
        L.position = ++pos;
        L.lessonIndex = int(std::find(loadedIds.begin(), loadedIds.end(), id) - loadedIds.begin());
        L.exercises = byLesson[id];
        for (auto& e : L.exercises) L.solved += e.record.solved;
        v.exercises += int(L.exercises.size());
        v.solved += L.solved;
        v.lessons.push_back(std::move(L));
    }
    return v;
}

const CourseView& CourseModel::view(const fs::path& lessonsDir, const std::vector<std::string>& loadedIds, const fs::path& progressPath,
                                    double nowSeconds, double recheckSeconds) {
    bool rebuild = !built_ || lessonsDir != dir_ || loadedIds != ids_ || progressPath != progressPath_;
    if (!rebuild && nowSeconds - checkedAt_ >= recheckSeconds) {
        checkedAt_ = nowSeconds;
        std::error_code ec;
        auto t = progressPath.empty() ? fs::file_time_type{} : fs::last_write_time(progressPath, ec);
        if (ec) t = fs::file_time_type{};
        rebuild = t != progressTime_;
    }
    if (rebuild) {
        dir_ = lessonsDir;
        ids_ = loadedIds;
        progressPath_ = progressPath;
        std::error_code ec;
        progressTime_ = progressPath.empty() ? fs::file_time_type{} : fs::last_write_time(progressPath, ec);
        if (ec) progressTime_ = fs::file_time_type{};
        checkedAt_ = nowSeconds;
        view_ = buildCourse(lessonsDir, loadedIds, ExerciseProgress::load(progressPath));
        built_ = true;
    }
    return view_;
}

} // namespace warpscope::gui
