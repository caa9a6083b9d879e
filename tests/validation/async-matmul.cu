// warpscope-ptx-arch: sm_90
// Timing: C = A B (n x n, 16 x 16 tiles in shared memory) three ways, to see what overlapping
// the copies of the next tiles with the multiply of the current ones saves (docs/async-copy.md):
//   matmul_sync: each tile loaded with ordinary loads and stores (the copy holds the warp);
//   matmul_async_single: one buffer filled by cp.async, waited for at once (no overlap);
//   matmul_async_double: two buffers; the next tiles' cp.async is in flight during the multiply.
#include <cuda_pipeline.h>

constexpr int T = 16;

extern "C" __global__ void matmul_sync(const float* A, const float* B, float* C, int n) {
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float acc = 0.0f;
    for (int k = 0; k < n / T; ++k) {
        As[ty][tx] = A[row * n + k * T + tx];
        Bs[ty][tx] = B[(k * T + ty) * n + col];
        __syncthreads();
        for (int j = 0; j < T; ++j) acc += As[ty][j] * Bs[j][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

extern "C" __global__ void matmul_async_single(const float* A, const float* B, float* C, int n) {
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float acc = 0.0f;
    for (int k = 0; k < n / T; ++k) {
        __pipeline_memcpy_async(&As[ty][tx], &A[row * n + k * T + tx], sizeof(float));
        __pipeline_memcpy_async(&Bs[ty][tx], &B[(k * T + ty) * n + col], sizeof(float));
        __pipeline_commit();
        __pipeline_wait_prior(0);
        __syncthreads();
        for (int j = 0; j < T; ++j) acc += As[ty][j] * Bs[j][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

extern "C" __global__ void matmul_async_double(const float* A, const float* B, float* C, int n) {
    __shared__ float As[2][T][T];
    __shared__ float Bs[2][T][T];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    const int tiles = n / T;
    __pipeline_memcpy_async(&As[0][ty][tx], &A[row * n + tx], sizeof(float));
    __pipeline_memcpy_async(&Bs[0][ty][tx], &B[ty * n + col], sizeof(float));
    __pipeline_commit();
    float acc = 0.0f;
    for (int k = 0; k < tiles; ++k) {
        const int cur = k & 1, nxt = cur ^ 1;
        if (k + 1 < tiles) {
            __pipeline_memcpy_async(&As[nxt][ty][tx], &A[row * n + (k + 1) * T + tx], sizeof(float));
            __pipeline_memcpy_async(&Bs[nxt][ty][tx], &B[((k + 1) * T + ty) * n + col], sizeof(float));
        }
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        for (int j = 0; j < T; ++j) acc += As[cur][ty][j] * Bs[cur][j][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}
