// Golden: per-thread arrays indexed with run-time values, which nvcc must place in .local memory:
// an insertion sort of 24 values, a 16-bin local histogram, a permutation walk and a float
// array with a data-dependent prefix.
#include <cstdint>

#define LEN 24

__device__ __forceinline__ uint32_t mix(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

extern "C" __global__ void local_array(const uint32_t* in, uint32_t* sorted, uint32_t* hist, float* fout, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t seed = in[i];
    uint32_t a[LEN];
    for (int k = 0; k < LEN; ++k) a[k] = mix(seed + k) % 1000u;
    // Insertion sort: data-dependent indices and trip counts.
    for (int k = 1; k < LEN; ++k) {
        uint32_t key = a[k];
        int j = k - 1;
        while (j >= 0 && a[j] > key) {
            a[j + 1] = a[j];
            --j;
        }
        a[j + 1] = key;
    }
    for (int k = 0; k < LEN; ++k) sorted[size_t(i) * LEN + k] = a[k];

    uint32_t h[16];
    for (int k = 0; k < 16; ++k) h[k] = 0;
    for (int k = 0; k < 40; ++k) h[mix(seed ^ (k * 77u)) & 15u] += 1u;
    // Permutation walk through the histogram.
    uint32_t p = seed & 15u, walk = 0;
    for (int k = 0; k < 10; ++k) {
        walk = walk * 31u + h[p];
        p = (p + h[p] + 1u) & 15u;
    }
    for (int k = 0; k < 16; ++k) hist[size_t(i) * 17 + k] = h[k];
    hist[size_t(i) * 17 + 16] = walk;

    float f[12];
    for (int k = 0; k < 12; ++k) f[k] = float(mix(seed * 3u + k) & 0xffffu) * (1.0f / 65536.0f);
    int stop = int(seed % 12u);
    float s = 0.0f;
    for (int k = 0; k <= stop; ++k) s = s * 0.5f + f[(k * 5 + stop) % 12];
    fout[i] = s;
}
