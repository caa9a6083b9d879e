// Lessons and launch specs (docs/lesson-format.md): loading, validating, and running the host
// script on any Device. Errors name the JSON path of the mistake.
#pragma once
#include "runtime/device.hpp"
#include "runtime/references.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::runtime {

struct ParamSpec {
    std::string name;
    double defaultValue = 0;
    bool isFloat = false;
    std::optional<double> min, max;
    std::vector<double> choices;
    std::string help;
};

struct BufferSpec {
    std::string name;
    std::string type;        // "f32", "s32", ...
    std::string countExpr;
    std::string initJson;    // the "init" value as JSON text ("\"zeros\"" when absent)
    std::string pinnedExpr;  // host memory page-locked when this evaluates to non-zero ("" = pageable)
    bool manual = false;     // "transfer": "manual": no automatic copies; the host script copies
    std::string widthExpr;   // "width": elements per row when the buffer is shown as a 2D image ("" = 1D)
    // "host": "mapped": page-locked host memory mapped into the device's address space
    // (cudaHostAlloc(..., cudaHostAllocMapped)): kernels read and write it over PCIe, nothing is
    // copied. "write-combined": page-locked, write-combined host memory (cudaHostAllocWriteCombined)
    // for the copies. "" = as "pinned" says.
    std::string hostKind;
};

struct Tolerance {
    std::optional<double> ulp, abs, rel;
    bool exact() const { return !ulp && !abs && !rel; }
};

struct CheckSpec {
    std::string buffer;
    std::string reference;            // built-in CPU reference name, or empty
    std::vector<std::string> inputs;  // reference inputs
    std::string equals;               // other buffer, or empty
    std::vector<double> expect;       // literal values, or empty
    Tolerance tolerance;
    std::string ifExpr;               // the check applies only when this is non-zero ("" = always)
};

struct Lesson {
    std::filesystem::path dir;        // folder the paths are relative to
    std::string id, title, summary;
    std::filesystem::path sourcePath; // kernel.cu (may be empty for specs)
    std::filesystem::path ptxPath;    // the PTX run (the compile cache's file when compiled from a .cu source)
    std::string ptxText;
    std::vector<ParamSpec> params;
    std::vector<BufferSpec> buffers;
    std::string hostJson;             // the "host" array as JSON text, interpreted at run time
    std::vector<CheckSpec> checks;
    std::optional<Tolerance> golden;  // tests/golden specs: how sim must match hardware
    int order = 1000;                 // position in the course (lesson.json "order")
    // "streams": {"count": expr, "non_blocking": bool}: streams 1..count, created before the host
    // script runs (as a program creates its streams up front); non-blocking ones skip the
    // legacy default stream's implicit synchronisation.
    std::string streamCountExpr;
    bool nonBlockingStreams = false;
    // Registers per thread (lesson.json "registers", from `ptxas -v`) for the occupancy
    // calculator and the cycle model: one number for every kernel, or one per kernel name.
    std::optional<uint32_t> registers;
    std::map<std::string, uint32_t> registersByKernel;
    // The count for `kernel` (its own entry, else the lesson-wide number), if the lesson gives one.
    std::optional<uint32_t> registersFor(const std::string& kernel) const;
};

// Loads a lesson folder (containing lesson.json) or a spec .json file.
Lesson loadLesson(const std::filesystem::path& folderOrJson);
// Parses and validates lesson JSON text; `dir` resolves relative paths, `name` names the text in
// messages. With readPtx false the PTX file is not opened (for tools that only check the format).
Lesson loadLessonText(const std::string& jsonText, const std::filesystem::path& dir, const std::string& name, bool readPtx = true);

// The bundled lessons folder: $WARPSCOPE_LESSONS, else lessons/ in the data folder
// (base/data_dir.hpp: an install's share/warpscope, or the source tree). Empty if none.
std::filesystem::path findLessonsDir(const std::filesystem::path& exePath);
// Every lesson folder under dir, in course order. Lessons that fail to load are reported in
// `errors` ("<folder>: <message>") and skipped, so one broken file never hides the others.
std::vector<Lesson> listLessons(const std::filesystem::path& dir, std::vector<std::string>* errors = nullptr);

// "N=1024" style overrides; validated against min/max/choices.
using ParamValues = std::map<std::string, double>;
ParamValues resolveParams(const Lesson& lesson, const std::map<std::string, std::string>& overrides);

// The buffer's "width" (elements per row of its 2D view, e.g. a matrix's column count) under
// `params`; 0 when the lesson gives none or it does not evaluate to a positive integer.
uint64_t bufferWidth(const Lesson& lesson, const std::string& buffer, const ParamValues& params);

// One element a check found wrong.
struct ElementDiff {
    size_t index = 0;
    double got = 0, expected = 0;
};

struct CheckResult {
    std::string buffer;
    bool passed = false;
    std::string detail;   // "1024 elements equal" or "element 17: got 1.5, expected 2.5 (3 ulp)"
    size_t mismatches = 0;              // elements outside the tolerance
    std::vector<ElementDiff> firstDiffs;   // the first of them (at most Comparison::kKept), in index order
};

struct RunResult {
    std::map<std::string, std::vector<uint8_t>> buffers;   // final contents, by buffer name
    std::vector<CheckResult> checks;
    std::vector<LaunchResult> launches;
    Timeline timeline;                         // of the host script (empty if the device keeps none)
    std::map<std::string, double> timers;      // "elapsed" operations: name -> milliseconds
    std::map<std::string, DevPtr> addresses;   // each buffer's device allocation, by name
    bool allChecksPassed() const;
};

// Runs the lesson's host script on `device`: allocates and initialises the buffers, runs the
// operations, reads the buffers back and evaluates the checks. Throws Error on bad input or a
// kernel fault.
RunResult runLesson(const Lesson& lesson, const ParamValues& params, Device& device);

// Element-wise comparison of two buffers of the same type under a tolerance (bit-exact when the
// tolerance is empty; NaN matches NaN under any tolerance).
struct Comparison {
    static constexpr size_t kKept = 8;   // mismatching elements kept in `first`
    size_t compared = 0, mismatches = 0, firstIndex = 0;
    std::vector<ElementDiff> first;      // the first kKept mismatches, in index order
    double firstGot = 0, firstExpected = 0, worstUlp = 0;
    size_t differing = 0;     // elements that are not bit-identical (within tolerance or not)
    double maxAbs = 0;        // largest absolute difference among them (floats; NaN pairs excluded)
};
Comparison compareBuffers(const HostBuffer& got, const HostBuffer& expect, size_t n, const Tolerance& tol);

} // namespace warpscope::runtime
