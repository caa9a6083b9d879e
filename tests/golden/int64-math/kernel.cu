// Golden: 64-bit integer math. add/sub/mul, __umul64hi/__mul64hi, signed and unsigned 64-bit
// division and remainder with negative operands (never by 0 or -1), 64-bit shifts by 0..63,
// min/max, conversions between 32- and 64-bit, and a 128-bit add through the carry chain.
#include <cstdint>

#define K 24

extern "C" __global__ void int64_math(const uint64_t* a, const uint64_t* b, uint64_t* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint64_t x = a[i], y = b[i];
    int64_t sx = int64_t(x), sy = int64_t(y);
    int64_t sd = (sy >> 40) | 1;          // divisor of either sign, never 0
    if (sd == -1) sd = -7;
    uint64_t ud = (y >> (x & 31)) | 1;    // divisors of many sizes
    uint64_t* o = out + size_t(i) * K;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = __umul64hi(x, y);
    o[4] = uint64_t(__mul64hi(sx, sy));
    o[5] = uint64_t(sx / sd);
    o[6] = uint64_t(sx % sd);
    o[7] = x / ud;
    o[8] = x % ud;
    o[9] = uint64_t(sx >> (y & 63));
    o[10] = x >> (y & 63);
    o[11] = x << ((y >> 6) & 63);
    o[12] = uint64_t(min(sx, sy)) ^ max(x, y);
    o[13] = uint64_t(llabs(sx));
    o[14] = uint64_t(int64_t(int32_t(x)));            // sign extension
    o[15] = uint64_t(uint32_t(x)) * uint32_t(y >> 32); // mul.wide.u32
    o[16] = uint64_t(sx / 1000) ^ (x % 1000000007ull); // division by constants
    o[17] = uint64_t(sx * -3) + uint64_t(sx / -10);
    // 128-bit sum of (x, y) and (y, x) via add.cc / addc.cc on 32-bit limbs.
    uint32_t r0, r1, r2, r3;
    asm("add.cc.u32 %0, %4, %8;\n\t"
        "addc.cc.u32 %1, %5, %9;\n\t"
        "addc.cc.u32 %2, %6, %10;\n\t"
        "addc.u32 %3, %7, %11;"
        : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
        : "r"(uint32_t(x)), "r"(uint32_t(x >> 32)), "r"(uint32_t(y)), "r"(uint32_t(y >> 32)),
          "r"(uint32_t(y)), "r"(uint32_t(y >> 32)), "r"(uint32_t(x)), "r"(uint32_t(x >> 32)));
    o[18] = (uint64_t(r1) << 32) | r0;
    o[19] = (uint64_t(r3) << 32) | r2;
    uint64_t s, c;
    asm("sub.cc.u64 %0, %2, %3;\n\t"
        "subc.u64 %1, 0, 0;"
        : "=l"(s), "=l"(c) : "l"(x), "l"(y));
    o[20] = s ^ c;                                      // borrow as all-ones
    o[21] = uint64_t(__popcll(x) + __clzll(int64_t(y)) + __ffsll(int64_t(x & y)));
    o[22] = (x >> 32) * (y & 0xffffffffull) + (sx < sy ? 1 : 0);
    uint64_t m;
    asm("mad.lo.u64 %0, %1, %2, %3;" : "=l"(m) : "l"(x), "l"(y), "l"(ud));
    o[23] = m;
}
