// Golden: 32-bit integer arithmetic. Every thread takes two random words and writes 32 results:
// wide and high multiplies, 24-bit multiplies, signed/unsigned division and remainder with
// negative operands (never by 0 or INT_MIN / -1), shifts, funnel shifts, averages, |a-b| sums
// and saturating add/sub.
#include <cstdint>

#define K 32

__device__ __forceinline__ int addSat(int a, int b) {
    int r;
    asm("add.sat.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
__device__ __forceinline__ int subSat(int a, int b) {
    int r;
    asm("sub.sat.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
__device__ __forceinline__ unsigned madHi(unsigned a, unsigned b, unsigned c) {
    unsigned r;
    asm("mad.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}
__device__ __forceinline__ int mul24Hi(int a, int b) {
    int r;
    asm("mul24.hi.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}

extern "C" __global__ void int32_arith(const uint32_t* a, const uint32_t* b, uint32_t* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t x = a[i], y = b[i];
    int sx = int(x), sy = int(y);
    // Small divisors of either sign, never 0 or -1.
    int sd = (sy >> 20) | 1;
    if (sd == -1) sd = -3;
    uint32_t ud = (y >> 16) | 1u;
    uint32_t* o = out + size_t(i) * K;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = __umulhi(x, y);
    o[4] = uint32_t(__mulhi(sx, sy));
    o[5] = uint32_t(__mul24(sx, sy));
    o[6] = __umul24(x, y);
    long long wide = (long long)sx * sy;              // mul.wide.s32
    o[7] = uint32_t(wide >> 32) ^ uint32_t(wide);
    unsigned long long uwide = (unsigned long long)x * y;   // mul.wide.u32
    o[8] = uint32_t(uwide >> 35);
    o[9] = uint32_t(sx / sd);
    o[10] = uint32_t(sx % sd);
    o[11] = x / ud;
    o[12] = x % ud;
    o[13] = uint32_t(sx >> (y & 31));
    o[14] = x >> (y & 31);
    o[15] = x << ((y >> 5) & 31);
    o[16] = __funnelshift_l(x, y, x >> 27);
    o[17] = __funnelshift_r(x, y, y);
    o[18] = __funnelshift_lc(y, x, y >> 3);           // clamped shift amount
    o[19] = uint32_t(abs(sx));
    o[20] = uint32_t(min(sx, sy));
    o[21] = max(x, y);
    o[22] = __sad(sx, sy, x & 0xffff);
    o[23] = uint32_t(__hadd(sx, sy));
    o[24] = uint32_t(__rhadd(sx, sy));
    o[25] = __uhadd(x, y) ^ __urhadd(x, y);
    o[26] = uint32_t(addSat(sx, sy));
    o[27] = uint32_t(subSat(sx, sy));
    o[28] = madHi(x, y, 0x9e3779b9u);
    o[29] = uint32_t(mul24Hi(sx, sy));
    o[30] = uint32_t(sx / 7) ^ (x % 10u);             // division by constants: mul.hi sequences
    o[31] = uint32_t(sx / -3 + sx % -5) ^ uint32_t(sx * -9);
}
