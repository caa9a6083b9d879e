// Golden: shared-memory atomics inside each block (a 64-bin histogram plus min/max/and/or/xor,
// inc with wrap, a CAS multiply and float adds of integers), then one global atomicAdd per bin
// to merge the blocks. All final values are independent of the order atomics are served.
#include <cstdint>

__device__ __forceinline__ uint32_t mix(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

#define BINS 64

extern "C" __global__ void atomics_shared(uint32_t* blockStats, uint32_t* histogram, float* fbins, int n) {
    __shared__ uint32_t bins[BINS];
    __shared__ uint32_t stats[8];
    __shared__ float fb[8];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (t < BINS) bins[t] = 0;
    if (t < 8) {
        stats[t] = t == 1 ? 0xffffffffu : t == 5 ? 1u : 0u;
        fb[t] = 0.0f;
    }
    __syncthreads();
    if (i < n) {
        uint32_t h = mix(uint32_t(i) * 3u + 1u);
        atomicAdd(&bins[h % BINS], 1u);
        atomicMax(&stats[0], h);
        atomicMin(&stats[1], h);
        atomicOr(&stats[2], 1u << (h & 31));
        atomicXor(&stats[3], h);
        atomicInc(&stats[4], 63u);
        uint32_t old = stats[5], assumed;
        do {
            assumed = old;
            old = atomicCAS(&stats[5], assumed, assumed * ((h >> 8) | 1u));
        } while (old != assumed);
        if ((h & 3) == 0) atomicAnd(&stats[6], h);   // and of nothing stays 0
        atomicAdd(&stats[7], t & 1);
        atomicAdd(&fb[h & 7], float(h >> 28));
    }
    __syncthreads();
    if (t < BINS) atomicAdd(&histogram[t], bins[t]);
    if (t < 8) {
        blockStats[blockIdx.x * 8 + t] = stats[t];
        atomicAdd(&fbins[t], fb[t]);
    }
}
