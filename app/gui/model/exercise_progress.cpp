#include "gui/model/exercise_progress.hpp"
#include "gui/model/settings.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <unistd.h>

namespace warpscope::gui {

namespace {
std::string key(const std::string& lesson, const std::string& id) { return lesson + "/" + id; }
}

ExerciseProgress ExerciseProgress::load(const std::filesystem::path& file) {
    ExerciseProgress p;
    const std::optional<nlohmann::json> read = readUserJson(file);
    if (!read) return p;
    const nlohmann::json& j = *read;
    try {
        if (!j.contains("exercises") || !j["exercises"].is_object()) return p;
        for (auto& [k, v] : j["exercises"].items()) {
            if (!v.is_object()) continue;
            ExerciseRecord r;
            r.attempts = std::max(0, v.value("attempts", 0));
            r.solved = v.value("solved", false);
            r.hintsShown = std::max(0, v.value("hints_shown", 0));
            r.solutionShown = v.value("solution_shown", false);
            p.records_[k] = r;
        }
    } catch (const std::exception&) {
        p.records_.clear();   // a damaged file is no progress; the next save rewrites it
    }
    return p;
}

bool ExerciseProgress::save(const std::filesystem::path& file) const {
    if (file.empty()) return false;
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
    nlohmann::json j;
    j["exercises"] = nlohmann::json::object();
    for (auto& [k, r] : records_)
        j["exercises"][k] = {{"attempts", r.attempts}, {"solved", r.solved}, {"hints_shown", r.hintsShown},
                             {"solution_shown", r.solutionShown}};
    // Unique per process, in the same folder so the rename is atomic.
    std::filesystem::path tmp = file;
    tmp += ".tmp." + std::to_string(::getpid());
    {
        std::ofstream f(tmp, std::ios::trunc);
        if (!f) return false;
        f << j.dump(2) << "\n";
        f.flush();
        if (!f) {
            std::filesystem::remove(tmp, ec);
            return false;
        }
    }
    std::filesystem::rename(tmp, file, ec);
    if (ec) {
        std::filesystem::remove(tmp, ec);
        return false;
    }
    return true;
}

ExerciseRecord ExerciseProgress::get(const std::string& lesson, const std::string& id) const {
    auto it = records_.find(key(lesson, id));
    return it == records_.end() ? ExerciseRecord{} : it->second;
}

void ExerciseProgress::recordAttempt(const std::string& lesson, const std::string& id, bool passed) {
    ExerciseRecord& r = records_[key(lesson, id)];
    ++r.attempts;
    r.solved = r.solved || passed;
}

void ExerciseProgress::recordHints(const std::string& lesson, const std::string& id, int shown) {
    ExerciseRecord& r = records_[key(lesson, id)];
    r.hintsShown = std::max(r.hintsShown, shown);
}

void ExerciseProgress::recordSolutionShown(const std::string& lesson, const std::string& id) {
    records_[key(lesson, id)].solutionShown = true;
}

int ExerciseProgress::solvedIn(const std::string& lesson) const {
    std::string prefix = lesson + "/";
    return int(std::count_if(records_.begin(), records_.end(),
                             [&](auto& kv) { return kv.first.rfind(prefix, 0) == 0 && kv.second.solved; }));
}

std::filesystem::path progressFile() {
    std::filesystem::path d = configDir();
    return d.empty() ? d : d / "progress.json";
}

} // namespace warpscope::gui
