// Golden: __constant__ memory. An initialised coefficient table (read uniformly: one broadcast),
// a table filled by the host through a `symbol` operation (read at per-lane indices: divergent
// constant accesses), and an initialised constant struct.
#include <cstdint>

struct Config {
    int offset;
    float scale;
    double bias;
};

__constant__ float coeffs[8] = {0.5f, -1.25f, 2.0f, 0.0625f, -0.75f, 3.5f, -0.03125f, 1.0f};
__constant__ uint32_t table[64];                    // filled by the host ("symbol")
__constant__ Config config = {42, 0.5f, -1.0e-3};
__constant__ int64_t big[2] = {-1234567890123ll, 0x0102030405060708ll};

extern "C" __global__ void constant_memory(const float* x, float* y, uint32_t* lookups, double* dout, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    float acc = coeffs[7];
    for (int k = 6; k >= 0; --k) acc = acc * v + coeffs[k];    // Horner: uniform constant reads
    y[i] = acc * config.scale;
    uint32_t idx = (uint32_t(i) * 37u + uint32_t(v * 1000.0f)) & 63u;
    lookups[i] = table[idx] + table[(idx + 1) & 63] * 3u + uint32_t(config.offset);   // divergent reads
    dout[i] = double(big[i & 1]) * config.bias + double(coeffs[i & 7]);
}
