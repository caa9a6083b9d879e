#include "gui/model/occupancy_view.hpp"

#include <algorithm>

namespace warpscope::gui {

namespace {

template <class Set>
OccupancyCurve curve(const timing::GpuSpec& spec, const timing::OccupancyInput& base, Set set, uint32_t from, uint32_t to, uint32_t step) {
    OccupancyCurve c;
    for (uint32_t v = from; v <= to; v += step) {
        timing::OccupancyInput x = base;
        set(x, v);
        timing::Occupancy r = timing::computeOccupancy(spec, x);
        c.xs.push_back(static_cast<float>(v));
        c.ys.push_back(r.problem.empty() ? static_cast<float>(r.activeWarpsPerSM) : 0.0f);
    }
    return c;
}

} // namespace

OccupancyView occupancyView(const timing::GpuSpec& spec, uint32_t threadsPerBlock, uint32_t registersPerThread, uint32_t sharedBytesPerBlock) {
    OccupancyView v;
    v.in.threadsPerBlock = threadsPerBlock;
    v.in.registersPerThread = registersPerThread;
    v.in.sharedBytesPerBlock = sharedBytesPerBlock;
    v.occupancy = timing::computeOccupancy(spec, v.in);
    v.byThreads = curve(spec, v.in, [](timing::OccupancyInput& x, uint32_t n) { x.threadsPerBlock = n; }, 32, spec.maxThreadsPerBlock, 32);
    v.byRegisters = curve(spec, v.in, [](timing::OccupancyInput& x, uint32_t n) { x.registersPerThread = n; }, 1, spec.maxRegistersPerThread, 1);
    const uint32_t shStep = std::max<uint32_t>(spec.sharedAllocUnit, 256);
    v.byShared = curve(spec, v.in, [](timing::OccupancyInput& x, uint32_t n) { x.sharedBytesPerBlock = n; }, 0, spec.maxSharedPerBlock, shStep);
    return v;
}

} // namespace warpscope::gui
