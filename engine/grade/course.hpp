// The course: the lessons in teaching order (lessons/course.json) with their exercises, for
// `warpscope exercises` and the app's Lessons panel. course.json lists lesson ids, one a line, so
// a lesson being written is added with one line; an id whose folder does not exist (yet) is
// skipped without an error, and a lesson folder the file does not list comes after the listed
// ones, by its lesson.json "order" (then id). No course.json: every lesson by "order".
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace warpscope::grade {

struct CourseFile {
    std::string title;
    std::vector<std::string> lessons;   // as listed (ids that may not exist yet included)
};
// Reads lessonsDir/course.json; a missing file is an empty course. Error(Input) naming the file
// and the mistake when it is malformed (not JSON, "lessons" not a list of ids, an id twice).
CourseFile loadCourseFile(const std::filesystem::path& lessonsDir);

// `present` (lesson ids with their lesson.json "order", as runtime::listLessons gives them) in
// course order: those course.json lists, in its order, then the rest by order then id.
struct LessonKey {
    std::string id;
    int order = 0;
};
std::vector<std::string> courseOrder(const CourseFile& course, std::vector<LessonKey> present);

} // namespace warpscope::grade
