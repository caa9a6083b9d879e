// Which global atomics ptxas aggregates per warp, on nvcc's PTX (sim/aggregation.hpp). The H100's
// counters show the aggregation: compact_above's atomicAdd(count, 1u) and the divergence lesson's
// counters make one sector per request; a histogram's data-dependent bins do not aggregate.
#include "support.hpp"

#include "ptx/parser.hpp"
#include "sim/program.hpp"

#include <catch2/catch.hpp>

using namespace warpscope;

namespace {
// The aggregated flags of the kernel's global atomics, in program order.
std::vector<bool> aggregatedAtomics(const std::string& ptxPath, const std::string& kernel) {
    ptx::Module m = ptx::parse(wst::readFile(wst::sourcePath(ptxPath)), ptxPath);
    sim::Program p = sim::compile(m, kernel, {});
    std::vector<bool> out;
    for (auto& I : p.code)
        if ((I.op == sim::Op::Atom || I.op == sim::Op::Red) && I.space != ptx::StateSpace::Shared) out.push_back(I.aggregated);
    return out;
}
} // namespace

TEST_CASE("ptxas's warp aggregation of atomics with a uniform address", "[sim]") {
    const std::string realistic = "tests/validation/realistic.ptx";
    // atomicAdd(count, 1u): count is a parameter; the old value is used (an ATOM of a uniform value).
    CHECK(aggregatedAtomics(realistic, "compact_above") == std::vector<bool>{true});
    // atomicAdd(&counters[0], i < n): a RED of a per-lane value on a parameter's address.
    CHECK(aggregatedAtomics("lessons/divergence/kernel.ptx", "diverge") == std::vector<bool>{true, true});
    // The bin depends on the thread's key.
    CHECK(aggregatedAtomics(realistic, "histogram_global") == std::vector<bool>{false});
    // The shared histogram's flush: bins[threadIdx.x] (one lane per address anyway).
    CHECK(aggregatedAtomics(realistic, "histogram_shared") == std::vector<bool>{false});
    // Float adds are not aggregated (REDUX adds integers only).
    CHECK(aggregatedAtomics(realistic, "reduce_warp_atomic") == std::vector<bool>{false});
}
