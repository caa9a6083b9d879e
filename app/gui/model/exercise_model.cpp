#include "gui/model/exercise_model.hpp"
#include "base/files.hpp"
#include "base/error.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace warpscope::gui {

namespace {
GradeOutcome runGrade(const GradeRequest& req) {
    GradeOutcome o;
    o.lesson = req.exercise.lesson;
    o.id = req.exercise.id;
    o.file = req.file;
    try {
        o.result = grade::gradeFile(req.exercise, req.file);
        o.ok = true;
    } catch (const Error& e) {
        o.error = e.what();
    } catch (const std::exception& e) {
        o.error = e.what();
    }
    return o;
}
} // namespace

WhyPlan planShowWhy(const grade::Exercise& ex, const grade::Criterion& c) {
    WhyPlan p;
    p.panel = c.panel;
    p.params = c.params;
    p.line = c.line > 0 ? uint32_t(c.line) : 0;
    if (ex.program) {
        // A whole program is not stepped in a lesson: its build errors are marked in the editor,
        // and for the rest the criterion's detail has the program's output and reports.
        p.runLearner = false;
        p.panel = c.kind == "compile" ? "editor" : "";
        return p;
    }
    if (c.kind == "compile" || c.kind == "kernels") {
        // Nothing runs: the editor shows the compiler's messages at their lines.
        p.runLearner = false;
        p.panel = ex.hostProgram ? "" : "editor";
        return p;
    }
    for (auto& ch : ex.checkers) {
        // A checker criterion reruns with that checker; a correctness run keeps the ones grading used.
        bool want = c.kind == "correctness" || ch == c.measure;
        if (ch == "racecheck") p.racecheck = p.racecheck || want;
        if (ch == "initcheck") p.initcheck = p.initcheck || want;
    }
    if (c.kind == "checker" || c.kind == "correctness") {
        p.move = WhyPlan::Move::Program;
        p.goToReport = c.panel == "reports";
        // A run that finished with wrong values (not a fault or a checker report): which elements, and who wrote them.
        p.explainWrong = c.kind == "correctness" && c.panel == "heatmap";
    } else if (c.panel == "shared" || c.panel == "global") {
        p.move = p.line ? WhyPlan::Move::ToLine : WhyPlan::Move::Program;
        p.pin = p.line ? (c.panel == "shared" ? 2 : 1) : 0;
    } else {
        // Divergence, occupancy, stalls, timeline: counts over the whole run.
        p.move = WhyPlan::Move::Program;
        p.timed = c.panel == "stalls" || c.panel == "occupancy";
    }
    return p;
}

WhyLesson buildWhyLesson(const WhyRequest& req) {
    WhyLesson w;
    try {
        w.lesson = grade::learnerLesson(req.exercise, req.file);
        w.lesson.title = req.exercise.title + ": " + req.file.filename().string();
        // The lesson's steps and "variables" are about its own kernel's lines and registers: without
        // the folder the session shows neither (unless a buffer reads a file from it).
        bool readsFiles = std::any_of(w.lesson.buffers.begin(), w.lesson.buffers.end(),
                                      [](const runtime::BufferSpec& b) { return b.initJson.find("\"file\"") != std::string::npos; });
        if (!readsFiles) w.lesson.dir.clear();
        w.params = runtime::resolveParams(w.lesson, req.params);
        if (req.explainWrong) {
            sim::LaunchOptions opt;
            opt.racecheck = req.racecheck;
            opt.initcheck = req.initcheck;
            opt.instructionBudget = 50'000'000;   // as the grader's correctness runs
            w.wrong = grade::explainWrongResult(w.lesson, w.params, opt);
        }
        w.ok = true;
    } catch (const std::exception& e) {
        w.error = e.what();
    }
    return w;
}

ExerciseModel::ExerciseModel(const std::filesystem::path& lessonsDir, std::filesystem::path progressPath)
    : progressPath_(std::move(progressPath)), progress_(ExerciseProgress::load(progressPath_)),
      runner_([](const GradeRequest& r, uint64_t, const std::atomic<bool>&) { return runGrade(r); }, false),
      whyRunner_(
          [](const WhyRequest& r, uint64_t id, const std::atomic<bool>&) {
              WhyLesson w = buildWhyLesson(r);
              w.request = id;
              return w;
          },
          true) {
    if (!lessonsDir.empty()) list_ = grade::listExercises(lessonsDir, &errors_);
    if (!list_.empty()) selected_ = 0;
}

std::vector<int> ExerciseModel::exercisesOf(const std::string& lesson) const {
    std::vector<int> v;
    for (size_t i = 0; i < list_.size(); ++i)
        if (list_[i].lesson == lesson) v.push_back(int(i));
    return v;
}

void ExerciseModel::select(int index) {
    if (index >= 0 && size_t(index) < list_.size()) selected_ = index;
}

bool ExerciseModel::select(const std::string& lesson, const std::string& id) {
    for (size_t i = 0; i < list_.size(); ++i)
        if (list_[i].lesson == lesson && list_[i].id == id) {
            selected_ = int(i);
            return true;
        }
    return false;
}

const grade::Exercise* ExerciseModel::current() const {
    return selected_ >= 0 && size_t(selected_) < list_.size() ? &list_[size_t(selected_)] : nullptr;
}

int ExerciseModel::hintsShown() const {
    const grade::Exercise* e = current();
    if (!e) return 0;
    return std::min(int(e->hints.size()), progress_.get(e->lesson, e->id).hintsShown);
}

void ExerciseModel::showNextHint() {
    const grade::Exercise* e = current();
    if (!e || hintsShown() >= int(e->hints.size())) return;
    progress_.recordHints(e->lesson, e->id, hintsShown() + 1);
    progress_.save(progressPath_);
}

bool ExerciseModel::solutionAvailable() const {
    const grade::Exercise* e = current();
    return e && progress_.get(e->lesson, e->id).attempts > 0;
}

std::string ExerciseModel::solutionText() {
    const grade::Exercise* e = current();
    if (!e || !solutionAvailable()) return "";
    progress_.recordSolutionShown(e->lesson, e->id);
    progress_.save(progressPath_);
    return base::readFile(e->solution).value_or("");
}

void ExerciseModel::grade(const std::filesystem::path& file) {
    const grade::Exercise* e = current();
    if (!e) return;
    runner_.request(GradeRequest{*e, file});
}

std::shared_ptr<const GradeOutcome> ExerciseModel::outcome() {
    std::shared_ptr<const GradeOutcome> r = runner_.result();
    if (r && r.get() != recorded_) {
        recorded_ = r.get();
        last_ = r;   // keeps the pointer alive, so recorded_ is never a reused address
        if (r->ok) {
            progress_.recordAttempt(r->lesson, r->id, r->result.passed);
            progress_.save(progressPath_);
        }
    }
    return r;
}

} // namespace warpscope::gui
