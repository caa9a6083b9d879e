// How one warp-wide memory instruction becomes hardware work, as measured on an H100
// (shared/HARDWARE-FACTS.md):
//  - global: always one request; the sectors are the distinct aligned 32-byte sectors the active
//    lanes touch; tag-stage wavefronts about ceil(distinct 128-byte lines / 4), at least 1.
//  - shared: 32 banks of 4 bytes; 32-bit accesses are one phase, 64-bit two (lanes 0-15, 16-31),
//    128-bit four (lanes 0-7, ...); each phase costs the largest number of distinct words any one
//    bank must deliver (same word = broadcast). For loads, when every active lane n shares its
//    address with lane n^1 (or with n^2), the phases halve. Stores never merge.
#pragma once
#include <cstdint>

namespace warpscope::mem {

struct GlobalAccess {
    uint32_t requests = 0;
    uint32_t sectors = 0;          // distinct 32-byte sectors
    uint32_t lines = 0;            // distinct 128-byte lines
    uint32_t wavefronts = 0;       // tag-stage wavefronts
    uint32_t bytesRequested = 0;   // active lanes x bytes per lane
    uint32_t bytesUsed = 0;        // distinct bytes the lanes touch (a broadcast counts once)
    uint64_t sectorAddr[128];      // the distinct sectors (first `sectors` entries), ascending
};

// addresses: 32 entries, valid for lanes in mask; bytesPerLane: 1, 2, 4, 8 or 16.
// Only the first `sectors` entries of out.sectorAddr are written.
void coalesce(const uint64_t* addresses, uint32_t mask, uint32_t bytesPerLane, GlobalAccess& out);
// The same by sorting every touched sector (the definition; coalesce must agree with it).
void coalesceGeneral(const uint64_t* addresses, uint32_t mask, uint32_t bytesPerLane, GlobalAccess& out);

struct SharedAccess {
    uint32_t wavefronts = 0;
    uint32_t ideal = 0;            // wavefronts with no bank conflict
    uint32_t conflicts() const { return wavefronts > ideal ? wavefronts - ideal : 0; }
    uint32_t phases = 0;
    uint32_t worstBank = 0;        // a bank that needed the most words (for the UI)
};

// addresses: shared-space byte offsets; isLoad enables the pairing rule.
// worstBank: of the last phase with active lanes, the bank that first reaches the largest count
// in ascending word order.
SharedAccess sharedWavefronts(const uint64_t* addresses, uint32_t mask, uint32_t bytesPerLane, bool isLoad);
// Only the wavefronts of sharedWavefronts (what the cycle model charges): the same number, found
// faster because the worst bank need not be named.
uint32_t sharedWavefrontCount(const uint64_t* addresses, uint32_t mask, uint32_t bytesPerLane, bool isLoad);
// The same by sorting every touched word (the definition; sharedWavefronts must agree with it).
SharedAccess sharedWavefrontsGeneral(const uint64_t* addresses, uint32_t mask, uint32_t bytesPerLane, bool isLoad);

} // namespace warpscope::mem
