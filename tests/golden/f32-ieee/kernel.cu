// Golden: IEEE single precision with explicit rounding. Operands come from random bit patterns
// shaped four ways (raw bits incl. NaN/Inf/denormals, moderate magnitudes, near-cancellation,
// special values) and each thread writes 32 results: add/sub/mul/fma/div/sqrt/rcp in all four
// rounding modes, min/max, copysign, saturate. No -ftz: denormals must be preserved.
#include <cstdint>

#define K 32

__device__ float shape(uint32_t bits, uint32_t sel, uint32_t other) {
    switch (sel & 3) {
    case 0: return __uint_as_float(bits);                                    // anything
    case 1: return __uint_as_float((bits & 0x807fffffu) | ((100u + (other % 55u)) << 23));  // 2^-27..2^27
    case 2: return __uint_as_float(other ^ (bits & 0xffu));                  // near another value
    default: {
        const uint32_t specials[16] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,
                                       0x7fc00000u, 0x00000001u, 0x807fffffu, 0x7f7fffffu,
                                       0x3f800000u, 0xbf800000u, 0x00800000u, 0x34000000u,
                                       0x4b000000u, 0x3effffffu, 0x7fa00000u, 0x33800000u};
        return __uint_as_float(specials[bits & 15]);
    }
    }
}

extern "C" __global__ void f32_ieee(const uint32_t* ra, const uint32_t* rb, const uint32_t* rc,
                                    float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t sel = rc[i] >> 28;
    float a = shape(ra[i], sel, rb[i]);
    float b = shape(rb[i], sel >> 2, ra[i]);
    float c = shape(rc[i], sel + 1, ra[i] ^ rb[i]);
    float* o = out + size_t(i) * K;
    o[0] = a + b;
    o[1] = __fadd_rz(a, b);
    o[2] = __fadd_rd(a, b);
    o[3] = __fadd_ru(a, b);
    o[4] = a - b;
    o[5] = __fsub_rz(a, b);
    o[6] = __fsub_rd(a, b);
    o[7] = __fsub_ru(a, b);
    o[8] = a * b;
    o[9] = __fmul_rz(a, b);
    o[10] = __fmul_rd(a, b);
    o[11] = __fmul_ru(a, b);
    o[12] = fmaf(a, b, c);
    o[13] = __fmaf_rz(a, b, c);
    o[14] = __fmaf_rd(a, b, c);
    o[15] = __fmaf_ru(a, b, c);
    o[16] = a / b;                 // IEEE division (div.rn.f32 with -prec-div=true)
    o[17] = __fdiv_rz(a, b);
    o[18] = __fdiv_rd(a, b);
    o[19] = __fdiv_ru(a, b);
    o[20] = sqrtf(a);              // sqrt.rn.f32
    o[21] = __fsqrt_rz(a);
    o[22] = __fsqrt_rd(a);
    o[23] = __fsqrt_ru(a);
    o[24] = __frcp_rn(b);
    o[25] = __frcp_rz(b);
    o[26] = __frcp_rd(b);
    o[27] = __frcp_ru(b);
    o[28] = fminf(a, b);
    o[29] = fmaxf(a, c);
    o[30] = copysignf(a, c);
    o[31] = __saturatef(a * c);
}
