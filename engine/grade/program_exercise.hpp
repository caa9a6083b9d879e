// Exercises of kind "program" (docs/authoring.md, "An exercise of kind program"): the learner
// writes a whole CUDA program (main, cudaMalloc, copies, launches, checks, prints). It is built
// (cudart::buildProgram) and run in the sandbox (base/sandbox.hpp) with the model solution on the
// same parameter sets, visible and hidden, given as command-line arguments ("args"); the two
// programs' standard outputs must agree ("compare": exact lines, or numbers within a tolerance),
// the learner's must exit 0 with no kernel fault and no checker report, the work must be spread
// over threads, and the performance goals are read from the per-launch counters the runtime
// writes ($WARPSCOPE_LAUNCH_COUNTERS, engine/cudart/launch_counters.hpp) and the program's
// timeline ($WARPSCOPE_TIMELINE_OUT).
#pragma once
#include "grade/grader.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace warpscope::grade {

struct ProgramSpec {
    std::vector<std::string> args;   // parameter names, in argv order
    // How the outputs are compared: "exact" (every line equal, trailing blanks ignored) or
    // "numbers" (the same words, numbers within tolerance: |got - want| <= tolerance x max(1, |want|)).
    std::string compare = "exact";
    double tolerance = 0;
};

// The measures of a program's performance goals (kernel_time_us, sectors_per_request,
// divergent_branches, kernel_launches, memcpy_calls, overlap_fraction).
const std::vector<std::string>& programMeasures();

// Reads the keys of a kind "program" exercise.json ("args", "compare", "performance") into `ex`.
// Error(Input) naming `file` and the mistake.
void loadProgramKeys(const nlohmann::json& j, Exercise& ex, const std::filesystem::path& file);

// Grades a whole program's text (fileName: the name its diagnostics carry) against `ex`, on the
// visible sets and the hidden sets of `seed`. Never throws for anything the learner's program does.
GradeResult gradeProgramText(const Exercise& ex, const std::string& text, const std::string& fileName, const GradeOptions& options,
                             uint64_t seed);

} // namespace warpscope::grade
