// Golden: bit manipulation. __byte_perm (prmt), __brev, __popc, __clz, __ffs and their 64-bit
// forms, bfe/bfi with random positions and lengths (including len 0 and pos >= 32), __fns,
// and logic nvcc folds into lop3-style expressions.
#include <cstdint>

#define K 24

__device__ __forceinline__ uint32_t bfeU(uint32_t x, uint32_t pos, uint32_t len) {
    uint32_t r;
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len));
    return r;
}
__device__ __forceinline__ int bfeS(int x, uint32_t pos, uint32_t len) {
    int r;
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len));
    return r;
}
__device__ __forceinline__ uint32_t bfi(uint32_t f, uint32_t base, uint32_t pos, uint32_t len) {
    uint32_t r;
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(f), "r"(base), "r"(pos), "r"(len));
    return r;
}

extern "C" __global__ void bit_ops(const uint32_t* a, const uint32_t* b, uint32_t* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t x = a[i], y = b[i];
    unsigned long long xy = ((unsigned long long)x << 32) | y;
    // Small operands too, so clz/ffs/popc see zeros and single bits.
    uint32_t small = (i & 3) == 0 ? 0u : (i & 3) == 1 ? (1u << (y & 31)) : x >> (y & 31);
    uint32_t* o = out + size_t(i) * K;
    o[0] = __byte_perm(x, y, y >> 16);                 // all selector modes, incl. sign replicate
    o[1] = __byte_perm(x, y, 0x7531);
    o[2] = __brev(x);
    o[3] = uint32_t(__brevll(xy) >> 7);
    o[4] = uint32_t(__popc(x)) | (uint32_t(__popc(small)) << 8) | (uint32_t(__popcll(xy)) << 16);
    o[5] = uint32_t(__clz(int(x))) | (uint32_t(__clz(int(small))) << 8) | (uint32_t(__clzll((long long)(xy >> (x & 63)))) << 16);
    o[6] = uint32_t(__ffs(int(x))) | (uint32_t(__ffs(int(small))) << 8) | (uint32_t(__ffsll((long long)(xy << (y & 63)))) << 16);
    o[7] = bfeU(x, y & 63, (y >> 8) & 63);             // pos and len may exceed 32
    o[8] = uint32_t(bfeS(int(x), y & 31, (y >> 8) & 31));
    o[9] = uint32_t(bfeS(int(x), (y >> 16) & 63, (y >> 24) & 63));
    o[10] = bfi(x, y, (x >> 8) & 63, (x >> 16) & 63);
    o[11] = (x >> 7) & 0x3ffu;                          // C field extract
    o[12] = uint32_t(int(x) << 3 >> 20);                // signed field extract
    o[13] = (x & y) | (~x & (y >> 3));                  // select-like logic (lop3 on hardware)
    o[14] = ~(x ^ y) & (x | small);
    o[15] = __fns(x, y & 31, int(y >> 27) - 8);         // n-th set bit, forwards and backwards
    o[16] = __fns(small, 0, 1);
    o[17] = (x << 13) | (x >> 19);                      // rotate
    o[18] = uint32_t((xy << 17) | (xy >> 47));
    o[19] = uint32_t(__popc(x & -x));                   // isolate lowest set bit
    o[20] = (x * 0x01010101u) >> 24;
    o[21] = __byte_perm(x, 0, 0x0123);                  // byte swap
    o[22] = uint32_t(__clz(int(~small)));
    o[23] = x ^ (y >> (x & 31)) ^ (y << ((x >> 5) & 31));
}
