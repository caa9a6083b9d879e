// Golden: global-memory atomics under heavy contention, used only in ways whose final values do
// not depend on the order the hardware serves them: add/sub/min/max/and/or/xor, inc/dec with
// wrap-around, a CAS loop implementing a commutative multiply, exchange of one common value,
// a CAS "first one wins" flag, 64-bit atomics, and float/double adds of small integers (exact).
// The ticket counter's returned values are each unique, so `seen[ticket] = 1` is deterministic.
#include <cstdint>

__device__ __forceinline__ uint32_t mix(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

extern "C" __global__ void atomics_init(uint32_t* c, unsigned long long* w) {
    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    c[6] = 0x80000000u;   // signed max starts at INT_MIN
    c[7] = 0x7fffffffu;   // signed min starts at INT_MAX
    c[9] = 0xffffffffu;   // unsigned min
    c[12] = 0xffffffffu;  // and
    c[15] = 1;            // product
    w[1] = 1;             // 64-bit product
    w[3] = ~0ull;         // 64-bit and
    w[6] = 0x7fffffffffffffffull;   // signed 64-bit min
}

extern "C" __global__ void atomics_global(uint32_t* c, unsigned long long* w, float* fsum, double* dsum,
                                          uint32_t* seen, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t h = mix(uint32_t(i));
    uint32_t ticket = atomicAdd(&c[0], 1u);
    seen[ticket] = 1;
    atomicAdd(&c[1 + (i & 3)], h & 0xffffu);
    atomicSub(&c[5], 3u);
    atomicMax(reinterpret_cast<int*>(&c[6]), int(h));
    atomicMin(reinterpret_cast<int*>(&c[7]), int(h));
    atomicMax(&c[8], h);
    atomicMin(&c[9], h);
    atomicInc(&c[10], 100u);          // wraps to 0 after 100
    atomicDec(&c[11], 50u);           // wraps from 0 to 50
    if (i % 97 == 0) atomicAnd(&c[12], ~(1u << (h & 31)));
    if (i % 50 == 0) atomicOr(&c[13], 1u << (h % 29));
    atomicXor(&c[14], h);
    // Commutative multiply via compare-and-swap.
    uint32_t factor = 2u * (h & 0xffu) + 1u;
    uint32_t old = c[15], assumed;
    do {
        assumed = old;
        old = atomicCAS(&c[15], assumed, assumed * factor);
    } while (old != assumed);
    atomicExch(&c[16], 0xc0ffeeu);
    if (h & 1) atomicAdd(&c[17], 1u);               // divergent atomics
    if (atomicCAS(&c[18], 0u, 1u) == 0u) atomicAdd(&c[19], 1u);   // exactly one winner

    atomicAdd(&w[0], (unsigned long long)h << 20);
    unsigned long long f64 = (unsigned long long)h | 1ull, o64 = w[1], a64;
    do {
        a64 = o64;
        o64 = atomicCAS(&w[1], a64, a64 * f64);
    } while (o64 != a64);
    atomicMax(&w[2], (unsigned long long)h * h);
    if (i % 101 == 0) atomicAnd(&w[3], ~(1ull << (h & 63)));
    if (i % 64 == 0) atomicOr(&w[4], 1ull << (h & 63));
    atomicXor(&w[5], (unsigned long long)h << (i & 31));
    atomicMin(reinterpret_cast<long long*>(&w[6]), (long long)((unsigned long long)h << 32) - i);

    atomicAdd(&fsum[i & 7], float(h & 63u));        // integers: exact in any order
    atomicAdd(&dsum[i & 3], double(h & 0xfffu));
}
