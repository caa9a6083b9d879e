// Host conversions for the half and bfloat16 types of a whole program's host code
// (compile/prelude/warpscope_tensor.h declares them when __CUDA_ARCH__ is not defined). They round
// with the simulator's own conversions (sim/arith), so a value converted on the host and the same
// value converted by a kernel's cvt are the same bits.
#include "sim/arith.hpp"

namespace {
warpscope::ptx::Round roundOf(int mode) {
    using warpscope::ptx::Round;
    switch (mode) {
    case 1: return Round::RZ;
    case 2: return Round::RM;
    case 3: return Round::RP;
    default: return Round::RN;
    }
}
} // namespace

extern "C" unsigned short __warpscope_f32_to_f16(float f, int mode) { return warpscope::sim::arith::f32ToF16(f, roundOf(mode)); }
extern "C" float __warpscope_f16_to_f32(unsigned short h) { return warpscope::sim::arith::f16ToF32(h); }
extern "C" unsigned short __warpscope_f32_to_bf16(float f, int mode) { return warpscope::sim::arith::f32ToBF16(f, roundOf(mode)); }
