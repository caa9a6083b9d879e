// The course order (course.hpp).
#include "grade/course.hpp"
#include "base/files.hpp"
#include "base/error.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace warpscope::grade {

CourseFile loadCourseFile(const fs::path& lessonsDir) {
    CourseFile c;
    fs::path file = lessonsDir / "course.json";
    std::error_code ec;
    if (lessonsDir.empty() || !fs::exists(file, ec)) return c;
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(base::readFile(file).value_or(""));
    } catch (const nlohmann::json::exception& e) {
        throw Error(Error::Kind::Input, file.string() + ": not valid JSON: " + e.what());
    }
    if (!j.is_object() || !j.contains("lessons") || !j["lessons"].is_array())
        throw Error(Error::Kind::Input, file.string() + ": needs \"lessons\": a list of lesson ids in teaching order");
    for (auto& [k, v] : j.items())
        if (k != "title" && k != "lessons" && k != "help") throw Error(Error::Kind::Input, file.string() + ": unknown key \"" + k + "\" (title, lessons, help)");
    if (j.contains("title")) {
        if (!j["title"].is_string()) throw Error(Error::Kind::Input, file.string() + ": \"title\" must be a string");
        c.title = j["title"].get<std::string>();
    }
    std::set<std::string> seen;
    for (size_t i = 0; i < j["lessons"].size(); ++i) {
        const auto& e = j["lessons"][i];
        if (!e.is_string() || e.get<std::string>().empty())
            throw Error(Error::Kind::Input, file.string() + ": lessons[" + std::to_string(i) + "] must be a lesson id (a folder name)");
        std::string id = e.get<std::string>();
        if (!seen.insert(id).second) throw Error(Error::Kind::Input, file.string() + ": lesson '" + id + "' is listed twice");
        c.lessons.push_back(id);
    }
    return c;
}

std::vector<std::string> courseOrder(const CourseFile& course, std::vector<LessonKey> present) {
    std::vector<std::string> out;
    std::set<std::string> have, placed;
    for (auto& p : present) have.insert(p.id);
    for (auto& id : course.lessons)
        if (have.count(id) && placed.insert(id).second) out.push_back(id);
    std::stable_sort(present.begin(), present.end(), [](const LessonKey& a, const LessonKey& b) {
        return a.order != b.order ? a.order < b.order : a.id < b.id;
    });
    for (auto& p : present)
        if (placed.insert(p.id).second) out.push_back(p.id);
    return out;
}

} // namespace warpscope::grade
