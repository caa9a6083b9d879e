// The exercise view's model (window-free, so the tests drive it): the exercises of the bundled
// lessons, the one chosen, hints revealed one at a time, grading a file on a worker thread (a
// grade takes seconds), and the learner's progress (exercise_progress.hpp), saved after each
// grade. The model solution is offered only after an attempt.
#pragma once
#include "grade/grader.hpp"
#include "grade/why.hpp"
#include "gui/model/background.hpp"
#include "gui/model/exercise_progress.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
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

// What "Show why" does for a failed criterion (panel_exercise.cpp applies it): the run of the
// learner's file that shows the failure, where the machine stops, and the panel that explains it.
struct WhyPlan {
    std::string panel;                           // panel to open (step_actions knownPanels id, or "editor")
    bool runLearner = true;                      // run the learner's file in the session (else open it in the editor)
    std::map<std::string, std::string> params;   // the parameter set of that run
    bool racecheck = false, initcheck = false;   // the checkers the run needs
    bool timed = false;                          // time and occupancy goals: Timed mode on the exercise's preset
    uint32_t line = 0;                           // the line of the learner's file it points at (0 = none)
    // ToLine: block 0 warp 0 runs to `line` and executes it (the access is the newest on that
    // line); Program: the whole host program runs.
    enum class Move { None, ToLine, Program } move = Move::None;
    int pin = 0;                                 // 1 Global access, 2 Shared banks: pinned to `line`
    bool goToReport = false;                     // once the run is done: the first checker report's lanes and line
    bool explainWrong = false;                   // a wrong result: find the wrong elements and the stores that wrote them
};
WhyPlan planShowWhy(const grade::Exercise& ex, const grade::Criterion& c);

// Show why's run of the learner's file needs the lesson it runs in: the exercise's lesson with the
// learner's kernel compiled in (seconds, up to the compile limit), built on the model's worker.
struct WhyRequest {
    grade::Exercise exercise;
    std::filesystem::path file;
    std::map<std::string, std::string> params;   // WhyPlan::params
    bool explainWrong = false;                   // WhyPlan::explainWrong
    bool racecheck = false, initcheck = false;   // WhyPlan's checkers
};
struct WhyLesson {
    uint64_t request = 0;          // ExerciseModel::prepareWhy's id
    bool ok = false;               // else `error` says why (the file does not compile, ...)
    std::string error;
    runtime::Lesson lesson;
    runtime::ParamValues params;
    std::optional<grade::WrongResult> wrong;     // when the request asked to explain a wrong result
};
WhyLesson buildWhyLesson(const WhyRequest& req);

class ExerciseModel {
public:
    // progressPath empty: progress is kept in memory only.
    ExerciseModel(const std::filesystem::path& lessonsDir, std::filesystem::path progressPath);

    const std::vector<grade::Exercise>& exercises() const { return list_; }
    const std::vector<std::string>& loadErrors() const { return errors_; }
    std::vector<int> exercisesOf(const std::string& lesson) const;   // indices into exercises()
    int selected() const { return selected_; }
    void select(int index);
    bool select(const std::string& lesson, const std::string& id);   // false: no such exercise
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

    // Builds Show why's lesson on a worker thread (the window never waits for the compiler);
    // returns the request's id. whyLesson() is the latest built one (compare its `request`).
    uint64_t prepareWhy(WhyRequest req) { return whyRunner_.request(std::move(req)); }
    std::shared_ptr<const WhyLesson> whyLesson() const { return whyRunner_.result(); }
    bool waitWhy(double seconds) { return whyRunner_.waitIdle(seconds); }

private:
    std::vector<grade::Exercise> list_;
    std::vector<std::string> errors_;
    int selected_ = -1;
    std::filesystem::path progressPath_;
    ExerciseProgress progress_;
    BackgroundRunner<GradeRequest, GradeOutcome> runner_;
    const GradeOutcome* recorded_ = nullptr;   // the outcome whose attempt is already counted
    std::shared_ptr<const GradeOutcome> last_;
    BackgroundRunner<WhyRequest, WhyLesson> whyRunner_;
};

} // namespace warpscope::gui
