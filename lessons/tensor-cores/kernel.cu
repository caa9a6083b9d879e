// Tensor cores: C = A x B with A (M x K) and B (K x N) in half precision, C in float, all row-major.
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

// One thread per element of C: K multiply-adds on the ordinary FMA pipe.
extern "C" __global__ void gemm_naive(const half* A, const half* B, float* C, int M, int N, int K) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float sum = 0.0f;
        for (int k = 0; k < K; ++k)
            sum += __half2float(A[row * K + k]) * __half2float(B[k * N + col]);
        C[row * N + col] = sum;
    }
}

// One warp per 16 x 16 tile of C: the 32 lanes load a 16 x 16 piece of A and of B together
// (each lane holds some of the elements: a fragment) and multiply them on the tensor core.
extern "C" __global__ void gemm_wmma(const half* A, const half* B, float* C, int M, int N, int K) {
    int tileRow = blockIdx.y * 16;
    int tileCol = blockIdx.x * 16;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(a, A + tileRow * K + k, K);
        wmma::load_matrix_sync(b, B + k * N + tileCol, N);
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(C + tileRow * N + tileCol, acc, N, wmma::mem_row_major);
}

// Four warps per 32 x 32 tile of C. The block copies a 32 x 16 piece of A and a 16 x 32 piece
// of B into shared memory (each thread one 16-byte load of 8 halves: warps 0 and 1 copy A, warps
// 2 and 3 copy B), and each warp takes its fragments from there: every value read from global
// memory feeds two warps.
extern "C" __global__ void gemm_wmma_shared(const half* A, const half* B, float* C, int M, int N, int K) {
    __shared__ __align__(32) half As[32][16];
    __shared__ __align__(32) half Bs[16][32];
    int t = threadIdx.x, warp = t / 32;
    int wr = warp / 2, wc = warp % 2;
    int rowBase = blockIdx.y * 32, colBase = blockIdx.x * 32;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        if (t < 64) {
            int r = t / 2, c = t % 2 * 8;
            *(int4*)&As[r][c] = *(const int4*)&A[(rowBase + r) * K + k + c];
        } else {
            int r = (t - 64) / 4, c = (t - 64) % 4 * 8;
            *(int4*)&Bs[r][c] = *(const int4*)&B[(k + r) * N + colBase + c];
        }
        __syncthreads();
        wmma::load_matrix_sync(a, &As[wr * 16][0], 16);
        wmma::load_matrix_sync(b, &Bs[0][wc * 16], 32);
        wmma::mma_sync(acc, a, b, acc);
        __syncthreads();
    }
    wmma::store_matrix_sync(C + (rowBase + wr * 16) * N + colBase + wc * 16, acc, N, wmma::mem_row_major);
}
