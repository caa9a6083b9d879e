// Which shared loads ptxas merges into one wider load (LDS.64 / LDS.128), found in the PTX.
//
// The SASS of nvcc's tiled kernels (cuobjdump -sass after ptxas -arch=sm_90) replaces runs of
// 32-bit ld.shared from one base register at offsets o, o+4, o+8, o+12 (o a multiple of 16) with
// one LDS.128, and pairs at o, o+4 (o a multiple of 8) with one LDS.64, when nothing between them
// writes the base register and the run is straight-line code (no branch, branch target, barrier,
// call or store in between). The hardware's wide load also needs every lane's address aligned to
// its width, which only the run can tell (mergedAccessAligned).
//
// Both the counters (shared wavefronts at SASS level, trace/counters.hpp) and the cycle model
// (one wide access charged per group) read this, so the two always agree on what was merged.
#pragma once
#include "sim/program.hpp"

#include <cstdint>
#include <vector>

namespace warpscope::trace {

struct SharedLoadMerges {
    // Per pc: the pc of its group's first load (the leader, which issues the wide load), or -1
    // when the instruction is not part of a merged group.
    std::vector<int32_t> leader;
    // Per leader pc: the merged width in bytes (8 or 16); 0 elsewhere.
    std::vector<uint8_t> bytes;
    // Per leader pc: how many PTX loads the group holds (2 or 4).
    uint8_t members(int32_t pc) const { return pc >= 0 && size_t(pc) < bytes.size() ? uint8_t(bytes[size_t(pc)] / 4) : 0; }
};

SharedLoadMerges findSharedLoadMerges(const std::vector<sim::Instr>& code);

// Whether the lanes in `mask` all have addresses aligned to `bytes` (8 or 16): the merged load
// runs as the wide SASS instruction only then.
bool mergedAccessAligned(const uint64_t* addresses, uint32_t mask, uint32_t bytes);

} // namespace warpscope::trace
