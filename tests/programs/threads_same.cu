// Kernels whose blocks the simulator spreads over threads (no atomics, fences or volatile
// accesses, so runToEnd runs them in parallel shares): a tiled matrix product with barriers, a
// block-wise scan in shared memory and per-block float sums (each block's partial sum, whose
// rounding depends on the order of its additions). Every float result is printed in hex, so any
// difference between a run on one thread and one on several shows: cli.program.threads-same.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                       \
    do {                                                                                  \
        cudaError_t e_ = (call);                                                          \
        if (e_ != cudaSuccess) {                                                          \
            std::printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorName(e_));          \
            std::exit(1);                                                                 \
        }                                                                                 \
    } while (0)

constexpr int TILE = 16;

__global__ void matmul(const float* a, const float* b, float* c, int n) {
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    const int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0;
    for (int t = 0; t < n; t += TILE) {
        as[threadIdx.y][threadIdx.x] = a[row * n + t + threadIdx.x];
        bs[threadIdx.y][threadIdx.x] = b[(t + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k) acc += as[threadIdx.y][k] * bs[k][threadIdx.x];
        __syncthreads();
    }
    c[row * n + col] = acc;
}

// Inclusive scan of each block's 256 values (Hillis-Steele, two barriers a step).
__global__ void blockScan(const float* in, float* out) {
    __shared__ float s[256];
    const int i = blockIdx.x * 256 + threadIdx.x;
    s[threadIdx.x] = in[i];
    __syncthreads();
    for (int d = 1; d < 256; d *= 2) {
        const float v = threadIdx.x >= d ? s[threadIdx.x - d] : 0.0f;
        __syncthreads();
        s[threadIdx.x] += v;
        __syncthreads();
    }
    out[i] = s[threadIdx.x];
}

__global__ void blockSums(const float* in, float* sums, int n) {
    __shared__ float s[128];
    float v = 0;
    for (int i = blockIdx.x * 128 + threadIdx.x; i < n; i += gridDim.x * 128) v += in[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int stride = 64; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) sums[blockIdx.x] = s[0];
}

int main() {
    const int n = 128, scanN = 256 * 96, sumBlocks = 61, sumN = 100003;
    std::vector<float> a(n * n), b(n * n), x(scanN), y(sumN);
    unsigned r = 12345;
    auto next = [&r] {
        r = r * 1664525u + 1013904223u;
        return float(r >> 8) / float(1u << 24) - 0.5f;
    };
    for (auto& v : a) v = next();
    for (auto& v : b) v = next();
    for (auto& v : x) v = next();
    for (auto& v : y) v = next() * 1000.0f;
    float *da, *db, *dc, *dx, *dxs, *dy, *dsums;
    CHECK(cudaMalloc(&da, a.size() * 4));
    CHECK(cudaMalloc(&db, b.size() * 4));
    CHECK(cudaMalloc(&dc, a.size() * 4));
    CHECK(cudaMalloc(&dx, x.size() * 4));
    CHECK(cudaMalloc(&dxs, x.size() * 4));
    CHECK(cudaMalloc(&dy, y.size() * 4));
    CHECK(cudaMalloc(&dsums, sumBlocks * 4));
    CHECK(cudaMemcpy(da, a.data(), a.size() * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b.data(), b.size() * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dx, x.data(), x.size() * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dy, y.data(), y.size() * 4, cudaMemcpyHostToDevice));
    matmul<<<dim3(n / TILE, n / TILE), dim3(TILE, TILE)>>>(da, db, dc, n);
    blockScan<<<scanN / 256, 256>>>(dx, dxs);
    blockSums<<<sumBlocks, 128>>>(dy, dsums, sumN);
    CHECK(cudaGetLastError());
    std::vector<float> c(n * n), xs(scanN), sums(sumBlocks);
    CHECK(cudaMemcpy(c.data(), dc, c.size() * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(xs.data(), dxs, xs.size() * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(sums.data(), dsums, sums.size() * 4, cudaMemcpyDeviceToHost));
    // Every result folded into a checksum of its bits, and samples of each printed exactly.
    unsigned long long h = 1469598103934665603ull;
    auto fold = [&h](const std::vector<float>& v) {
        for (float f : v) {
            unsigned bits;
            std::memcpy(&bits, &f, 4);
            h = (h ^ bits) * 1099511628211ull;
        }
    };
    fold(c);
    fold(xs);
    fold(sums);
    std::printf("c[0] %a c[%d] %a\n", c[0], n * n - 1, c[n * n - 1]);
    std::printf("scan[255] %a scan[%d] %a\n", xs[255], scanN - 1, xs[scanN - 1]);
    std::printf("sums[0] %a sums[%d] %a\n", sums[0], sumBlocks - 1, sums[sumBlocks - 1]);
    std::printf("checksum %016llx\n", h);
    return 0;
}
