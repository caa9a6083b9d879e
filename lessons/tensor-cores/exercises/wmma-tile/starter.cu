#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

// One warp (32 threads) per 16 x 16 tile of C = A x B (A is M x K, B is K x N, all row-major).
extern "C" __global__ void gemm_wmma(const half* A, const half* B, float* C, int M, int N, int K) {
    int tileRow = blockIdx.y * 16;
    int tileCol = blockIdx.x * 16;
    // TODO(student): compute the tile with wmma fragments on the tensor core instead of this
    // loop, where each lane works out 8 of the 256 elements one multiply-add at a time.
    for (int e = threadIdx.x; e < 256; e += 32) {
        int row = tileRow + e / 16, col = tileCol + e % 16;
        float sum = 0.0f;
        for (int k = 0; k < K; ++k)
            sum += __half2float(A[row * K + k]) * __half2float(B[k * N + col]);
        C[row * N + col] = sum;
    }
}
