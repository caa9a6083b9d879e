// What a kernel launch is made of: grid and block shape, dynamic shared memory and the raw
// parameter bytes. Shared by the simulator (sim::Gpu) and every runtime::Device backend.
#pragma once
#include <cstdint>
#include <vector>

namespace warpscope::base {

using DevPtr = uint64_t;

struct Dim3 {
    uint32_t x = 1, y = 1, z = 1;
    uint64_t count() const { return uint64_t(x) * y * z; }
    // The (x, y, z) index of the `linear`-th element in x-fastest order (a linear block index in a
    // grid of this size, or a linear thread index in a block), as CUDA numbers them.
    Dim3 at(uint64_t linear) const {
        return Dim3{uint32_t(linear % x), uint32_t(linear / x % y), uint32_t(linear / (uint64_t(x) * y))};
    }
};

struct LaunchConfig {
    Dim3 grid;
    Dim3 block;
    uint32_t dynamicSharedBytes = 0;
    // A cooperative launch (cudaLaunchCooperativeKernel; lesson.json "cooperative": true): every
    // block is resident at once, so grid.sync() can work; a grid that cannot be co-resident on
    // the device fails to launch (cudaErrorCooperativeLaunchTooLarge).
    bool cooperative = false;
};

// One kernel parameter as the raw bytes of its .param (scalars little-endian; a struct is its
// packed bytes). The kernel's signature decides how many and how big.
using ParamBytes = std::vector<uint8_t>;

} // namespace warpscope::base
