// expect-fail: correct
// Pads the pieces that stick out of M and N, but walks K only in whole steps of 16 ("k + 16 <= K"
// so the last piece fits): when K is not a multiple of 16, the last K % 16 columns of A and rows
// of B are never multiplied in.
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

// One warp (32 threads) per 16 x 16 tile of C = A x B (A is M x K, B is K x N, all row-major),
// for any M, N, K: the pieces go through shared tiles padded with zeros.
extern "C" __global__ void gemm_wmma(const half* A, const half* B, float* C, int M, int N, int K) {
    __shared__ __align__(32) half As[16][16];
    __shared__ __align__(32) half Bs[16][16];
    __shared__ __align__(32) float Cs[16][16];
    int tileRow = blockIdx.y * 16;
    int tileCol = blockIdx.x * 16;
    int lane = threadIdx.x;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k + 16 <= K; k += 16) {
        for (int e = lane; e < 256; e += 32) {
            int r = e / 16, c = e % 16;
            As[r][c] = tileRow + r < M && k + c < K ? A[(tileRow + r) * K + k + c] : __float2half(0.0f);
            Bs[r][c] = k + r < K && tileCol + c < N ? B[(k + r) * N + tileCol + c] : __float2half(0.0f);
        }
        __syncwarp();
        wmma::load_matrix_sync(a, &As[0][0], 16);
        wmma::load_matrix_sync(b, &Bs[0][0], 16);
        wmma::mma_sync(acc, a, b, acc);
        __syncwarp();
    }
    wmma::store_matrix_sync(&Cs[0][0], acc, 16, wmma::mem_row_major);
    __syncwarp();
    for (int e = lane; e < 256; e += 32) {
        int row = tileRow + e / 16, col = tileCol + e % 16;
        if (row < M && col < N) C[row * N + col] = Cs[e / 16][e % 16];
    }
}
