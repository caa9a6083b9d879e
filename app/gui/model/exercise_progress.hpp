// A learner's progress on the exercises (attempts, solved, hints revealed), per user, in
// progress.json in the settings folder (configDir()). Written atomically (a temporary file
// renamed over the old one), so a crash mid-write never loses the record; a damaged file reads as
// no progress. Window-free: the Lessons panel and the exercise view read it, tests exercise it.
#pragma once
#include <filesystem>
#include <map>
#include <string>

namespace warpscope::gui {

struct ExerciseRecord {
    int attempts = 0;         // grades run
    bool solved = false;      // passed at least once (stays solved)
    int hintsShown = 0;       // hints revealed so far
    bool solutionShown = false;
};

class ExerciseProgress {
public:
    // Reads `file` (missing or damaged: empty progress).
    static ExerciseProgress load(const std::filesystem::path& file);
    // Writes atomically; false when the folder or file cannot be written.
    bool save(const std::filesystem::path& file) const;

    ExerciseRecord get(const std::string& lesson, const std::string& id) const;
    void recordAttempt(const std::string& lesson, const std::string& id, bool passed);
    void recordHints(const std::string& lesson, const std::string& id, int shown);
    void recordSolutionShown(const std::string& lesson, const std::string& id);
    // Exercises of `lesson` solved (for the Lessons panel's "2/2 solved").
    int solvedIn(const std::string& lesson) const;

private:
    std::map<std::string, ExerciseRecord> records_;   // "lesson/id" -> record
};

// configDir()/progress.json; empty when persistence is off.
std::filesystem::path progressFile();

} // namespace warpscope::gui
