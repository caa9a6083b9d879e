// warpscope-ptx-arch: sm_80
// Asynchronous copies: C = A B (n x n floats, row-major) tiled in 16 x 16 blocks of shared memory,
// three ways. The multiply is the same in all three; only the way each tile reaches shared memory
// changes.
#include <cuda_pipeline.h>

constexpr int TILE = 16;

// 1. Ordinary loads: each thread loads one element of A and one of B into a register and stores
//    it into shared memory. The store has to wait for the load: the warp is held for the trip.
extern "C" __global__ void matmul_plain(const float* A, const float* B, float* C, int n) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < n / TILE; ++t) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col];
        __syncthreads();
        for (int j = 0; j < TILE; ++j) acc += As[ty][j] * Bs[j][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

// 2. cp.async, one buffer: the copy goes from global to shared memory without a register, but
//    the tile is needed at once, so the warp waits for it right away (nothing overlaps).
extern "C" __global__ void matmul_async(const float* A, const float* B, float* C, int n) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < n / TILE; ++t) {
        __pipeline_memcpy_async(&As[ty][tx], &A[row * n + t * TILE + tx], sizeof(float));
        __pipeline_memcpy_async(&Bs[ty][tx], &B[(t * TILE + ty) * n + col], sizeof(float));
        __pipeline_commit();
        __pipeline_wait_prior(0);
        __syncthreads();
        for (int j = 0; j < TILE; ++j) acc += As[ty][j] * Bs[j][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

// 3. cp.async, two buffers: the copies of tile t + 1 are issued (one commit group) before the
//    multiply of tile t, and waited for only after it: the copy flies while the warp computes.
extern "C" __global__ void matmul_double_buffered(const float* A, const float* B, float* C, int n) {
    __shared__ float As[2][TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    int tiles = n / TILE;
    __pipeline_memcpy_async(&As[0][ty][tx], &A[row * n + tx], sizeof(float));
    __pipeline_memcpy_async(&Bs[0][ty][tx], &B[ty * n + col], sizeof(float));
    __pipeline_commit();
    float acc = 0.0f;
    for (int t = 0; t < tiles; ++t) {
        int cur = t & 1, next = cur ^ 1;
        if (t + 1 < tiles) {
            __pipeline_memcpy_async(&As[next][ty][tx], &A[row * n + (t + 1) * TILE + tx], sizeof(float));
            __pipeline_memcpy_async(&Bs[next][ty][tx], &B[((t + 1) * TILE + ty) * n + col], sizeof(float));
        }
        __pipeline_commit();          // a group, empty on the last tile, so the wait below counts right
        __pipeline_wait_prior(1);     // every group but the newest: tile t is in shared memory
        __syncthreads();
        for (int j = 0; j < TILE; ++j) acc += As[cur][ty][j] * Bs[cur][j][tx];
        __syncthreads();              // nobody still reads buffer `cur` when it is refilled
    }
    C[row * n + col] = acc;
}
