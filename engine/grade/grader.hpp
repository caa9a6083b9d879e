// Exercises (docs/authoring.md, "Exercises"): loading lessons/<id>/exercises/<ex>/exercise.json and
// grading a learner's file against it. The learner's kernel file is compiled in place of the
// lesson's kernel.cu and run by the lesson's host program (patched by the exercise's "lesson"
// object); a host-program exercise takes a JSON file whose keys patch lesson.json instead.
// Each criterion carries its measured value, its target, and the panel and source line that show
// why it failed, so a front end can take the learner there.
//
// Sections: Exercise (the format), Criterion / GradeResult, loading, grading.
#pragma once
#include "runtime/lesson.hpp"
#include "timing/gpu_spec.hpp"

#include <nlohmann/json_fwd.hpp>

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::grade {

// One performance goal in the simulator's own measures.
struct PerfGoal {
    std::string measure;                          // see kMeasures in grader.cpp / docs/authoring.md
    std::vector<std::string> kernels;             // launches counted (default: the exercise's kernels)
    std::optional<double> min, max;               // target: measured >= min and/or <= max
    std::string per;                              // global_loads_per_element: the element count expression
    // Time goals (speedup_vs_starter, timeline_speedup_vs_starter) must say how far the model's
    // predicted speed-up can be from the H100's on this kind of program ("model_error": 0.3 is
    // 30 %, from the validation suites) and why the target leaves room for it ("why"); the model
    // solution must clear min x (1 + model_error) (engine.grade checks it).
    std::optional<double> modelError;
    std::string why;
};
// True for the measures that compare predicted times (they need "model_error" and "why").
bool isTimeGoal(const std::string& measure);
// How an exercise kind reads its "performance" list: the measures it knows (`measuresOf` follows
// "unknown measure 'x'" in the error: "" or " for a program"), whether a goal may give "per" and
// "model_error" (kernel exercises), and the kind's own rules for each goal read (`where`:
// "performance[i]"; they throw through Error(Input)).
struct PerfGoalRules {
    std::vector<std::string> measures;
    std::string measuresOf;
    bool perAndModelError = false;
    std::function<void(const PerfGoal&, const std::string& where)> check;
};
// Reads an exercise.json's "performance" list; a goal that names no "kernel" counts `kernels`.
// Error(Input) naming `file`, the goal and the mistake.
std::vector<PerfGoal> loadPerfGoals(const nlohmann::json& list, const std::filesystem::path& file, const PerfGoalRules& rules,
                                    const std::vector<std::string>& kernels);

// Parameter sets the learner does not see: drawn per attempt from a seed (GradeOptions::seed), so
// an answer tuned to the visible sets still meets others, and a grade is reproducible given its
// seed. Each varied parameter gets a range: from exercise.json "hidden"."vary", else the values
// the visible sets give it (a parameter with "choices" in the lesson takes one of those).
struct HiddenRange {
    std::optional<double> lo, hi;        // integer range, inclusive
    std::vector<double> choices;         // or one of these
    double step = 1;                     // values are multiples of this (derived ranges only)
};
struct HiddenSpec {
    int sets = 2;                                  // 0: none (exercise.json "hidden": {"sets": 0})
    std::map<std::string, HiddenRange> vary;       // explicit ranges; others derived from "params"
    std::map<std::string, std::string> fixed;      // always these values in hidden sets
    std::map<std::string, std::string> same;       // NAME -> OTHER: NAME takes OTHER's drawn value (a square matrix)
};

struct ProgramSpec;   // program_exercise.hpp

struct Exercise {
    std::string lesson, id, title, goal;
    std::filesystem::path dir, lessonDir;
    std::filesystem::path starter, solution;     // absolute paths
    bool hostProgram = false;                     // the learner writes the host program (JSON), not a kernel
    std::shared_ptr<const ProgramSpec> program;   // kind "program": the learner writes a whole CUDA program (program_exercise.hpp)
    std::vector<std::string> kernels;             // kernels the learner's .cu must define
    std::vector<std::string> hints;               // revealed one at a time
    std::string lessonPatch;                      // JSON merge patch applied to lesson.json ("" = none)
    std::vector<std::map<std::string, std::string>> paramSets;   // correctness runs
    std::vector<std::string> checkers;            // memcheck, racecheck, initcheck, synccheck
    std::map<std::string, std::string> perfParams;   // the run the performance goals measure
    std::string gpu = timing::kDefaultPreset;                     // preset for occupancy and predicted times
    std::string arch;                             // "arch": the target the learner's file compiles for ("" = the compiler's default)
    std::vector<PerfGoal> performance;
    HiddenSpec hidden;
    // "runs in parallel": the work must be spread over at least this many threads' worth
    // (thread instructions / the busiest thread's); exercise.json "parallel": {"min": N} or false.
    std::optional<double> parallelMin = 32.0;
    std::vector<std::string> parallelKernels;   // the launches "runs in parallel" measures (empty: all)
    // Parameters the visible sets may keep at one value, with the reason (exercise.json "fixed").
    std::map<std::string, std::string> fixedParams;
};

struct Criterion {
    std::string name;        // "correct (N=20)", "racecheck", "sectors per request", ...
    std::string kind;        // "compile", "kernels", "correctness", "checker", "performance"
    bool passed = false;
    std::string measured;    // "3.00", "2 hazards", "element 17: got 1.5, expected 2.5"
    std::string target;      // "<= 4", "no reports", "all checks pass"
    std::optional<double> value;   // the measured number, when there is one
    std::string panel;       // app panel that shows why (step_actions knownPanels ids); "" = none
    int line = 0;            // source line of the learner's file it points at (0 = none)
    std::string detail;      // compiler message, checker report, ...
    std::string measure;     // performance: the goal's measure (kMeasures); checker: the checker's name
    // The run that shows the failure (its parameter set: a correctness set, the set of a checker's
    // first report, or perf_params), so a front end can replay it ("Show why").
    std::map<std::string, std::string> params;
};

// A checker's criterion before its runs are counted: named after the checker, kind "checker",
// target "no reports", shown in the Checker reports panel.
Criterion checkerCriterion(const std::string& checker);

// The "runs in parallel" criterion: the most threads' worth of work a run spread (`spread`: all its
// thread-instructions over the busiest thread's) against the exercise's `minimum`; the detail is
// the caller's.
Criterion parallelCriterion(double minimum, double spread);

struct GradeResult {
    bool passed = false;
    std::vector<Criterion> criteria;
    uint64_t seed = 0;                                         // the hidden sets' seed
    std::vector<std::map<std::string, std::string>> hiddenSets;   // the sets it drew
};

// Loads one exercise folder (exercise.json); lessonDir is the lesson folder it belongs to.
// Throws Error(Input) naming the file and the mistake.
Exercise loadExercise(const std::filesystem::path& exerciseDir, const std::filesystem::path& lessonDir);
// Every exercise of every lesson under lessonsDir, in course order then folder name. Broken ones
// are reported in `errors` and skipped.
std::vector<Exercise> listExercises(const std::filesystem::path& lessonsDir, std::vector<std::string>* errors = nullptr);
// One exercise by lesson id and exercise id; Error(Input) when it does not exist.
Exercise findExercise(const std::filesystem::path& lessonsDir, const std::string& lesson, const std::string& id);

struct GradeOptions {
    std::string compiler;   // "" = auto (compile::parseCompiler names)
    // Seed of the hidden parameter sets; none: a fresh random one (one per attempt).
    std::optional<uint64_t> seed;
    // The starter's measure per performance goal index (starterBaselines()), so many processes
    // grading one class need not each re-run the starter. Missing entries are computed.
    std::map<size_t, double> starterBaselines;
    // Kind "program": the wall-clock limit of each run of the learner's program (0: 60 s; its
    // CPU-time limit is the same, at most 30 s).
    double programSeconds = 0;
};

// The hidden parameter sets `seed` draws for `ex` (deterministic: same seed, same sets). The
// first set keeps the ranged parameters below a warp (32) where their range allows; the second
// makes them odd (not a multiple of any block size). Error(Input) when the lesson cannot be read.
std::vector<std::map<std::string, std::string>> hiddenParamSets(const Exercise& ex, uint64_t seed);
// One attempt's parameter sets in the order they run: the visible ones, then the hidden ones
// `seed` draws (also kept in result.hiddenSets). Error(Input) naming the exercise when they cannot
// be drawn.
struct AttemptSet {
    std::map<std::string, std::string> params;
    bool hidden = false;
};
std::vector<AttemptSet> attemptSets(const Exercise& ex, uint64_t seed, GradeResult& result);
// Parameters of the exercise's lesson (after its patch) that keep one value over every visible
// parameter set and are not in "fixed" with a reason: an answer that gets them wrong would pass.
std::vector<std::string> unvariedParams(const Exercise& ex);
// A fresh seed for one attempt (random_device mixed with the clock).
uint64_t freshSeed();

// The starter's value of each speed-up goal (by index in ex.performance): its predicted kernel
// time or host-program time, in microseconds. Goals that are not speed-ups have no entry.
std::map<size_t, double> starterBaselines(const Exercise& ex, const GradeOptions& options = {});
// Grades the learner's file (a .cu, or a .json host program for a host-program exercise).
// A compile error is a failed "compile" criterion with the compiler's message, never a throw;
// Error(Input) only for a file that cannot be read.
GradeResult gradeFile(const Exercise& ex, const std::filesystem::path& file, const GradeOptions& options = {});
GradeResult gradeText(const Exercise& ex, const std::string& text, const std::string& fileName, const GradeOptions& options = {});

// The lesson the grader runs the learner's file in (lesson.json patched by the exercise, the
// file's kernels in place of the lesson's, or its host program), so a front end can step it where
// a criterion points. Error(Input) when the file cannot be read, does not compile or is invalid.
runtime::Lesson learnerLesson(const Exercise& ex, const std::filesystem::path& file, const GradeOptions& options = {});

} // namespace warpscope::grade
