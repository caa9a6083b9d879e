// The occupancy calculator, as the CUDA Programming Guide and Best Practices Guide describe it:
// how many blocks of a kernel fit on one SM at once, and which resource runs out first.
#pragma once
#include "timing/gpu_spec.hpp"

#include <cstdint>
#include <string>

namespace warpscope::timing {

enum class Limiter : uint8_t { Warps, Registers, SharedMemory, Blocks, None };
std::string_view limiterName(Limiter l);   // "warps", "registers", "shared memory", "blocks per SM"

struct OccupancyInput {
    uint32_t threadsPerBlock = 0;
    uint32_t registersPerThread = 32;
    uint32_t sharedBytesPerBlock = 0;   // static + dynamic
};

struct Occupancy {
    uint32_t warpsPerBlock = 0;
    // Blocks per SM each resource allows (UINT32_MAX: no limit from it).
    uint32_t blocksByWarps = 0, blocksByRegisters = 0, blocksBySharedMemory = 0, blocksByBlockLimit = 0;
    uint32_t activeBlocksPerSM = 0;
    uint32_t activeWarpsPerSM = 0;
    double occupancy = 0;                  // activeWarps / maxWarps
    Limiter limiter = Limiter::None;       // the first resource (in the order above) that sets the limit
    uint32_t registersPerWarp = 0;         // after rounding up to the allocation unit
    uint32_t sharedPerBlockAllocated = 0;  // with the reserved bytes, rounded up to the allocation unit
    std::string problem;                   // non-empty when the block cannot run at all
};

Occupancy computeOccupancy(const GpuSpec& spec, const OccupancyInput& in);

} // namespace warpscope::timing
