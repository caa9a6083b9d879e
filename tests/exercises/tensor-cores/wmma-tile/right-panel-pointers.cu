#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

// expect-pass: panels of A and B walked by pointer, the fragments declared inside the loop.
// One warp (32 threads) per 16 x 16 tile of C = A x B (A is M x K, B is K x N, all row-major).
extern "C" __global__ void gemm_wmma(const half* A, const half* B, float* C, int M, int N, int K) {
    // my warp's 16 rows of A and 16 columns of B, walked 16 at a time
    const half* aPanel = A + blockIdx.y * 16 * K;
    const half* bPanel = B + blockIdx.x * 16;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> sum;
    wmma::fill_fragment(sum, 0.0f);
    for (int step = 0; step < K / 16; ++step) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
        wmma::load_matrix_sync(fa, aPanel + step * 16, K);
        wmma::load_matrix_sync(fb, bPanel + step * 16 * N, N);
        wmma::mma_sync(sum, fa, fb, sum);
    }
    float* cTile = C + blockIdx.y * 16 * N + blockIdx.x * 16;
    wmma::store_matrix_sync(cTile, sum, N, wmma::mem_row_major);
}
