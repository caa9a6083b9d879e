// The exercise view's model (window-free, so the tests drive it): the exercises of the bundled
// lessons, the one chosen, hints revealed one at a time, grading a file on a worker thread (a
// grade takes seconds), and the learner's progress (exercise_progress.hpp), saved after each
// grade. The model solution is offered only after an attempt.
#pragma once
#include "grade/grader.hpp"
#include "gui/model/background.hpp"
#include "gui/model/exercise_progress.hpp"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace warpscope::gui {

struct GradeRequest {
    grade::Exercise exercise;
    std::filesystem::path file;
};
struct GradeOutcome {
    std::string lesson, id;
    std::filesystem::path file;
    bool ok = false;               // graded (else `error` says why: no file, ...)
    std::string error;
    grade::GradeResult result;
};

class ExerciseModel {
public:
    // progressPath empty: progress is kept in memory only.
    ExerciseModel(const std::filesystem::path& lessonsDir, std::filesystem::path progressPath);

    const std::vector<grade::Exercise>& exercises() const { return list_; }
    const std::vector<std::string>& loadErrors() const { return errors_; }
    std::vector<int> exercisesOf(const std::string& lesson) const;   // indices into exercises()
    int selected() const { return selected_; }
    void select(int index);
    const grade::Exercise* current() const;

    int hintsShown() const;                  // of the current exercise
    void showNextHint();
    bool solutionAvailable() const;          // after at least one attempt
    std::string solutionText();              // records that it was shown

    // Grades `file` against the current exercise on the worker thread.
    void grade(const std::filesystem::path& file);
    bool grading() const { return runner_.running(); }
    // The latest finished grade; the first call after it arrives records the attempt.
    std::shared_ptr<const GradeOutcome> outcome();
    bool waitIdle(double seconds) { return runner_.waitIdle(seconds); }

    const ExerciseProgress& progress() const { return progress_; }

private:
    std::vector<grade::Exercise> list_;
    std::vector<std::string> errors_;
    int selected_ = -1;
    std::filesystem::path progressPath_;
    ExerciseProgress progress_;
    BackgroundRunner<GradeRequest, GradeOutcome> runner_;
    const GradeOutcome* recorded_ = nullptr;   // the outcome whose attempt is already counted
    std::shared_ptr<const GradeOutcome> last_;
};

} // namespace warpscope::gui
