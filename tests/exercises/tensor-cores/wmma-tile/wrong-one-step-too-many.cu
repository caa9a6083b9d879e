// expect-fail: memcheck
// The walk along K written with <=, "up to and including K": one step too many, whose pieces start
// at column K of A (the next rows) and at row K of B, past the end of the matrix.
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

// One warp (32 threads) per 16 x 16 tile of C = A x B (A is M x K, B is K x N, all row-major).
extern "C" __global__ void gemm_wmma(const half* A, const half* B, float* C, int M, int N, int K) {
    int tileRow = blockIdx.y * 16;
    int tileCol = blockIdx.x * 16;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k <= K; k += 16) {
        wmma::load_matrix_sync(a, A + tileRow * K + k, K);
        wmma::load_matrix_sync(b, B + k * N + tileCol, N);
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(C + tileRow * N + tileCol, acc, N, wmma::mem_row_major);
}
