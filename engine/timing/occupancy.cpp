// Occupancy: the per-SM limits of warps, registers, shared memory and blocks (Programming Guide,
// "Occupancy Calculator"; Best Practices Guide, "Calculating Occupancy").
#include "timing/occupancy.hpp"

#include <algorithm>
#include <climits>

namespace warpscope::timing {

std::string_view limiterName(Limiter l) {
    switch (l) {
    case Limiter::Warps: return "warps";
    case Limiter::Registers: return "registers";
    case Limiter::SharedMemory: return "shared memory";
    case Limiter::Blocks: return "blocks per SM";
    case Limiter::None: return "none";
    }
    return "none";
}

namespace {
uint32_t roundUp(uint32_t v, uint32_t unit) { return unit ? (v + unit - 1) / unit * unit : v; }
} // namespace

Occupancy computeOccupancy(const GpuSpec& spec, const OccupancyInput& in) {
    Occupancy o;
    if (in.threadsPerBlock == 0) {
        o.problem = "a block needs at least one thread";
        return o;
    }
    o.warpsPerBlock = (in.threadsPerBlock + 31) / 32;
    if (in.threadsPerBlock > spec.maxThreadsPerBlock) {
        o.problem = "the block has " + std::to_string(in.threadsPerBlock) + " threads; this GPU allows " +
                    std::to_string(spec.maxThreadsPerBlock);
        return o;
    }
    // Warps (and threads) per SM.
    o.blocksByWarps = std::min(spec.maxWarpsPerSM / o.warpsPerBlock, spec.maxThreadsPerSM / (o.warpsPerBlock * 32));
    // Registers: allocated per warp in units of registerAllocUnit.
    if (in.registersPerThread > spec.maxRegistersPerThread) {
        o.problem = std::to_string(in.registersPerThread) + " registers per thread exceed this GPU's limit of " +
                    std::to_string(spec.maxRegistersPerThread);
        return o;
    }
    if (in.registersPerThread == 0) {
        o.blocksByRegisters = UINT32_MAX;
    } else {
        o.registersPerWarp = roundUp(in.registersPerThread * 32, spec.registerAllocUnit);
        uint32_t warpsByRegs = spec.registersPerSM / o.registersPerWarp;
        if (o.registersPerWarp * o.warpsPerBlock > spec.maxRegistersPerBlock) {
            o.problem = "the block needs " + std::to_string(o.registersPerWarp * o.warpsPerBlock) +
                        " registers; a block may use " + std::to_string(spec.maxRegistersPerBlock);
            return o;
        }
        o.blocksByRegisters = warpsByRegs / o.warpsPerBlock;
    }
    // Shared memory: the per-block reservation counts too, rounded to the allocation unit.
    if (in.sharedBytesPerBlock > spec.maxSharedPerBlock) {
        o.problem = "the block needs " + std::to_string(in.sharedBytesPerBlock) + " bytes of shared memory; a block may use " +
                    std::to_string(spec.maxSharedPerBlock);
        return o;
    }
    o.sharedPerBlockAllocated = roundUp(in.sharedBytesPerBlock + spec.reservedSharedPerBlock, spec.sharedAllocUnit);
    o.blocksBySharedMemory = o.sharedPerBlockAllocated ? spec.sharedPerSM / o.sharedPerBlockAllocated : UINT32_MAX;
    o.blocksByBlockLimit = spec.maxBlocksPerSM;

    o.activeBlocksPerSM = o.blocksByWarps;
    o.limiter = Limiter::Warps;
    auto consider = [&](uint32_t n, Limiter l) {
        if (n < o.activeBlocksPerSM) {
            o.activeBlocksPerSM = n;
            o.limiter = l;
        }
    };
    consider(o.blocksByRegisters, Limiter::Registers);
    consider(o.blocksBySharedMemory, Limiter::SharedMemory);
    consider(o.blocksByBlockLimit, Limiter::Blocks);
    if (o.activeBlocksPerSM == 0) {
        o.problem = std::string("not even one block fits on an SM (limited by ") + std::string(limiterName(o.limiter)) + ")";
    }
    o.activeWarpsPerSM = o.activeBlocksPerSM * o.warpsPerBlock;
    o.occupancy = double(o.activeWarpsPerSM) / double(spec.maxWarpsPerSM);
    return o;
}

} // namespace warpscope::timing
