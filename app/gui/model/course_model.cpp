// The course map (course_model.hpp).
#include "gui/model/course_model.hpp"
#include "base/error.hpp"
#include "grade/grader.hpp"

#include <algorithm>
#include <map>

namespace fs = std::filesystem;

namespace warpscope::gui {

CourseView buildCourse(const fs::path& lessonsDir, const std::vector<grade::LessonKey>& loaded, const ExerciseProgress& progress) {
    CourseView v;
    grade::CourseFile course;
    try {
        course = grade::loadCourseFile(lessonsDir);
    } catch (const Error& e) {
        v.errors.push_back(e.what());
    }
    v.title = course.title;
    int pos = 0;
    for (auto& id : grade::courseOrder(course, loaded)) {
        CourseLesson L;
        L.id = id;
        L.position = ++pos;
        L.lessonIndex = int(std::find_if(loaded.begin(), loaded.end(), [&](const grade::LessonKey& k) { return k.id == id; }) - loaded.begin());
        // The lesson's exercises by folder name, as `warpscope exercises` lists them.
        std::error_code ec;
        fs::path exDir = lessonsDir / id / "exercises";
        std::vector<fs::path> dirs;
        if (fs::is_directory(exDir, ec))
            for (auto& e : fs::directory_iterator(exDir, ec))
                if (e.is_directory() && fs::exists(e.path() / "exercise.json")) dirs.push_back(e.path());
        std::sort(dirs.begin(), dirs.end());
        for (auto& d : dirs) {
            try {
                grade::Exercise ex = grade::loadExercise(d, lessonsDir / id);
                CourseExercise ce;
                ce.id = ex.id;
                ce.title = ex.title;
                ce.record = progress.get(id, ex.id);
                L.solved += ce.record.solved;
                L.exercises.push_back(ce);
            } catch (const Error& e) {
                v.errors.push_back(e.what());
            }
        }
        v.exercises += int(L.exercises.size());
        v.solved += L.solved;
        v.lessons.push_back(std::move(L));
    }
    return v;
}

const CourseView& CourseModel::view(const fs::path& lessonsDir, const std::vector<grade::LessonKey>& loaded, const fs::path& progressPath,
                                    double nowSeconds, double recheckSeconds) {
    std::vector<std::string> ids;
    std::vector<int> orders;
    for (auto& k : loaded) {
        ids.push_back(k.id);
        orders.push_back(k.order);
    }
    bool rebuild = !built_ || lessonsDir != dir_ || ids != ids_ || orders != orders_ || progressPath != progressPath_;
    if (!rebuild && nowSeconds - checkedAt_ >= recheckSeconds) {
        checkedAt_ = nowSeconds;
        std::error_code ec;
        auto t = progressPath.empty() ? fs::file_time_type{} : fs::last_write_time(progressPath, ec);
        if (ec) t = fs::file_time_type{};
        rebuild = t != progressTime_;
    }
    if (rebuild) {
        dir_ = lessonsDir;
        ids_ = ids;
        orders_ = orders;
        progressPath_ = progressPath;
        std::error_code ec;
        progressTime_ = progressPath.empty() ? fs::file_time_type{} : fs::last_write_time(progressPath, ec);
        if (ec) progressTime_ = fs::file_time_type{};
        checkedAt_ = nowSeconds;
        view_ = buildCourse(lessonsDir, loaded, ExerciseProgress::load(progressPath));
        built_ = true;
    }
    return view_;
}

} // namespace warpscope::gui
