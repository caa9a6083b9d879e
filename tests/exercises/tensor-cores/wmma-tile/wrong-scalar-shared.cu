// expect-fail: speedup vs starter
// Right numbers without the tensor core: the warp copies the pieces of A and B into shared
// memory and multiplies them there with ordinary multiply-adds. No faster than the starter.
#include <cuda_fp16.h>

extern "C" __global__ void gemm_wmma(const half* A, const half* B, float* C, int M, int N, int K) {
    __shared__ float As[16][16], Bs[16][16];
    int tileRow = blockIdx.y * 16;
    int tileCol = blockIdx.x * 16;
    float sum[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int k = 0; k < K; k += 16) {
        for (int e = threadIdx.x; e < 256; e += 32) {
            As[e / 16][e % 16] = __half2float(A[(tileRow + e / 16) * K + k + e % 16]);
            Bs[e / 16][e % 16] = __half2float(B[(k + e / 16) * N + tileCol + e % 16]);
        }
        __syncwarp();
        for (int i = 0; i < 8; ++i) {
            int e = threadIdx.x + 32 * i;
            for (int kk = 0; kk < 16; ++kk) sum[i] += As[e / 16][kk] * Bs[kk][e % 16];
        }
        __syncwarp();
    }
    for (int i = 0; i < 8; ++i) {
        int e = threadIdx.x + 32 * i;
        C[(tileRow + e / 16) * N + tileCol + e % 16] = sum[i];
    }
}
