#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

// expect-pass: flat staging tiles, each lane one column and every other row of them.
// One warp (32 threads) per 16 x 16 tile of C = A x B (A is M x K, B is K x N, all row-major),
// for any M, N, K: the pieces go through shared tiles padded with zeros.
extern "C" __global__ void gemm_wmma(const half* A, const half* B, float* C, int M, int N, int K) {
    __shared__ __align__(32) half sa[256];
    __shared__ __align__(32) half sb[256];
    __shared__ __align__(32) float sc[256];
    int r0 = blockIdx.y * 16, c0 = blockIdx.x * 16;
    int lane = threadIdx.x;
    int col = lane % 16;                 // each lane owns one column of the staged tiles ...
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k0 = 0; k0 < K; k0 += 16) {
        for (int row = lane / 16; row < 16; row += 2) {   // ... and every other row
            half av = __float2half(0.0f), bv = __float2half(0.0f);
            if (r0 + row < M && k0 + col < K) av = A[(r0 + row) * K + k0 + col];
            if (k0 + row < K && c0 + col < N) bv = B[(k0 + row) * N + c0 + col];
            sa[row * 16 + col] = av;
            sb[row * 16 + col] = bv;
        }
        __syncwarp();
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
        wmma::load_matrix_sync(a, sa, 16);
        wmma::load_matrix_sync(b, sb, 16);
        wmma::mma_sync(acc, a, b, acc);
        __syncwarp();
    }
    wmma::store_matrix_sync(sc, acc, 16, wmma::mem_row_major);
    __syncwarp();
    for (int row = lane / 16; row < 16; row += 2)
        if (r0 + row < M && c0 + col < N)
            C[(r0 + row) * N + c0 + col] = sc[row * 16 + col];
}
