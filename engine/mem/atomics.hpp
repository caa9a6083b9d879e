// How one warp-wide global atomic (atom/red) becomes work at the L2, as measured on the H100
// (tests/validation/timing/probes/h100-atomics*.{csv,txt}, docs/timing-validation.md):
//  - the request is split into passes, one per repetition of an address: pass j holds the
//    addresses that at least j active lanes share (passes = the most lanes on one address);
//  - each pass works on its distinct 32-byte sectors; Nsight Compute's
//    l1tex__t_sectors_pipe_lsu_mem_global_op_{atom,red} counts sectors per pass ("sector-ops"):
//    one line, k lanes per address gives 4, 4, 4, 8, 16, 32 sectors for k = 1, 2, 4, 8, 16, 32;
//  - the L2 applies the sector-ops of one hot region one after the other, so a request's cost
//    there grows with its sector-ops (see the cycle model's l2AtomicOpCycles).
// A request that ptxas aggregated (sim::Instr::aggregated) has one lane: the caller passes a
// mask with only the leader lane.
#pragma once
#include <cstdint>

namespace warpscope::mem {

struct AtomicWork {
    uint32_t passes = 0;           // the most active lanes that share one address
    uint32_t sectorOps = 0;        // distinct sectors summed over the passes
    // Sector-ops per region of `regionBytes` (the unit whose atomics one L2 queue applies),
    // first `regions` entries.
    uint32_t regions = 0;
    uint64_t region[32];
    uint32_t regionOps[32];
};

// addresses: 32 entries, valid for lanes in mask (an aligned atomic of 4 or 8 bytes lies in one
// sector); regionBytes a power of two >= 32.
AtomicWork atomicWork(const uint64_t* addresses, uint32_t mask, uint32_t regionBytes);

} // namespace warpscope::mem
