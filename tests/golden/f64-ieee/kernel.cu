// Golden: IEEE double precision with explicit rounding: add/sub/mul/fma/div/sqrt/rcp in all four
// rounding modes on random, near-cancelling and special operands; min/max/copysign/fabs.
#include <cstdint>

#define K 32

__device__ double shape(uint64_t bits, uint32_t sel, uint64_t other) {
    switch (sel & 3) {
    case 0: return __longlong_as_double((long long)bits);
    case 1: return __longlong_as_double((long long)((bits & 0x800fffffffffffffull) |
                                                     (uint64_t(900 + other % 250) << 52)));
    case 2: return __longlong_as_double((long long)(other ^ (bits & 0xfffull)));
    default: {
        const uint64_t specials[16] = {
            0x0000000000000000ull, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
            0x7ff8000000000000ull, 0x0000000000000001ull, 0x800fffffffffffffull, 0x7fefffffffffffffull,
            0x3ff0000000000000ull, 0xbff0000000000000ull, 0x0010000000000000ull, 0x3cb0000000000000ull,
            0x4330000000000000ull, 0x3fdfffffffffffffull, 0x7ff4000000000000ull, 0x3ca0000000000000ull};
        return __longlong_as_double((long long)specials[bits & 15]);
    }
    }
}

extern "C" __global__ void f64_ieee(const uint64_t* ra, const uint64_t* rb, const uint64_t* rc,
                                    double* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t sel = uint32_t(rc[i] >> 60);
    double a = shape(ra[i], sel, rb[i]);
    double b = shape(rb[i], sel >> 2, ra[i]);
    double c = shape(rc[i], sel + 1, ra[i] ^ rb[i]);
    double* o = out + size_t(i) * K;
    o[0] = a + b;
    o[1] = __dadd_rz(a, b);
    o[2] = __dadd_rd(a, b);
    o[3] = __dadd_ru(a, b);
    o[4] = a - b;
    o[5] = __dsub_rz(a, b);
    o[6] = __dsub_rd(a, b);
    o[7] = __dsub_ru(a, b);
    o[8] = a * b;
    o[9] = __dmul_rz(a, b);
    o[10] = __dmul_rd(a, b);
    o[11] = __dmul_ru(a, b);
    o[12] = fma(a, b, c);
    o[13] = __fma_rz(a, b, c);
    o[14] = __fma_rd(a, b, c);
    o[15] = __fma_ru(a, b, c);
    o[16] = a / b;
    o[17] = __ddiv_rz(a, b);
    o[18] = __ddiv_rd(a, b);
    o[19] = __ddiv_ru(a, b);
    o[20] = sqrt(a);
    o[21] = __dsqrt_rz(a);
    o[22] = __dsqrt_rd(a);
    o[23] = __dsqrt_ru(a);
    o[24] = __drcp_rn(b);
    o[25] = __drcp_rz(b);
    o[26] = __drcp_rd(b);
    o[27] = __drcp_ru(b);
    o[28] = fmin(a, b);
    o[29] = fmax(a, c);
    o[30] = copysign(a, c);
    o[31] = fabs(c) - a;
}
