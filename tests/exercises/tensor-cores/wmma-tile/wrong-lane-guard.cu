// expect-fail: correct
// Lets only the first 16 lanes do the work, "one lane per row": a wmma call is warp-wide, and
// the simulator stops the launch where not all 32 lanes execute it.
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

extern "C" __global__ void gemm_wmma(const half* A, const half* B, float* C, int M, int N, int K) {
    int tileRow = blockIdx.y * 16;
    int tileCol = blockIdx.x * 16;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    if (threadIdx.x < 16) {
        wmma::fill_fragment(acc, 0.0f);
        for (int k = 0; k < K; k += 16) {
            wmma::load_matrix_sync(a, A + tileRow * K + k, K);
            wmma::load_matrix_sync(b, B + k * N + tileCol, N);
            wmma::mma_sync(acc, a, b, acc);
        }
        wmma::store_matrix_sync(C + tileRow * N + tileCol, acc, N, wmma::mem_row_major);
    }
}
