// Which global atomics ptxas aggregates per warp (sim::Instr::aggregated). Measured on the H100
// (tests/validation/timing/probes, docs/timing-validation.md): an atomicAdd on a 32-bit integer
// whose address is the same for every thread of the warp at compile time becomes one atomic by a
// leader lane (SASS: VOTEU.ANY, FLO, POPC or REDUX, one ATOMG/REDG, SHFL for the old values);
// Nsight Compute then counts one sector per request (compact_above, the divergence lesson's
// counters). An address that is uniform only at run time is not aggregated (the atomics probe,
// 32 lanes on one word: 32 passes).
#pragma once
#include "sim/program.hpp"

#include <vector>

namespace warpscope::sim {

// Marks the aggregated atomics of the function code[begin, end). Needs Instr::reduction set.
// A register counts as warp-uniform when it is written exactly once, unguarded, by arithmetic,
// mov, cvt, cvta or ld.param (in a kernel, not a .func) whose operands are immediates, %ntid, %ctaid, %nctaid, %gridid or
// such registers (a conservative form of ptxas's uniform-datapath analysis). Aggregated: add on
// u32/s32 (global or generic) with a uniform address; an ATOM (result used) also needs a uniform
// value, a RED does not (REDUX.SUM adds the lanes' values).
void markAggregatedAtomics(std::vector<Instr>& code, int32_t begin, int32_t end, bool kernel);

} // namespace warpscope::sim
