// "Show why" for a wrong result: the first elements a check found wrong, and for each the store
// that wrote it last (kernel, block, thread, line), or that no kernel wrote it at all.
//
// The lesson runs twice: once to find the wrong elements and their device addresses, once more
// with a trace::WriteWatch on those addresses (a run on the simulator is deterministic, so the
// allocations land at the same addresses).
#pragma once
#include "base/error.hpp"
#include "base/launch.hpp"
#include "runtime/lesson.hpp"
#include "sim/gpu.hpp"

#include <optional>
#include <string>
#include <vector>

namespace warpscope::grade {

struct WrongElement {
    std::string buffer;
    size_t index = 0;
    double got = 0, expected = 0;
    bool written = false;     // some kernel stored to it (else it kept what the host put there)
    FaultSite site;           // the last store: kernel, block, thread, lane, source and PTX line
    base::Dim3 grid, block;   // that launch's configuration
    std::string instruction;  // that store's PTX
    bool atomic = false;
    std::string text() const; // "out[1000]: got 0, expected 2000; no kernel stored to it"
};

struct WrongResult {
    std::string error;                  // the run did not finish (a fault, a deadlock, ...): why
    std::vector<std::string> checks;    // the failing checks' details ("out: 3 of 1024 elements differ; ...")
    std::vector<WrongElement> elements; // the first wrong elements of the failing checks
};

// Runs `lesson` with `params` on the simulator (checkers as `options` say) and explains its
// failing checks. No failing check: an empty result.
WrongResult explainWrongResult(const runtime::Lesson& lesson, const runtime::ParamValues& params,
                               const sim::LaunchOptions& options, size_t maxElements = 8);

} // namespace warpscope::grade
