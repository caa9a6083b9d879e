// What the Occupancy panel shows for one launch on one preset: the occupancy calculator's answer
// and three curves (resident warps per SM as threads per block, registers per thread or shared
// memory per block change and the other inputs stay). Window-free; the panel only draws it.
#pragma once
#include "timing/gpu_spec.hpp"
#include "timing/occupancy.hpp"

#include <vector>

namespace warpscope::gui {

struct OccupancyCurve {
    std::vector<float> xs, ys;   // input value -> resident warps per SM (0 where the block cannot run)
};

struct OccupancyView {
    timing::OccupancyInput in;
    timing::Occupancy occupancy;
    OccupancyCurve byThreads;     // 32 .. maxThreadsPerBlock, step 32
    OccupancyCurve byRegisters;   // 1 .. maxRegistersPerThread
    OccupancyCurve byShared;      // 0 .. maxSharedPerBlock, step max(allocation unit, 256)
};

OccupancyView occupancyView(const timing::GpuSpec& spec, uint32_t threadsPerBlock, uint32_t registersPerThread, uint32_t sharedBytesPerBlock);

} // namespace warpscope::gui
