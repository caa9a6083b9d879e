// expect-fail: memcheck
// Pads the inputs with zeros but stores the accumulator straight into C: the last tiles of a
// row (and the last rows) write past the matrix.
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

extern "C" __global__ void gemm_wmma(const half* A, const half* B, float* C, int M, int N, int K) {
    __shared__ __align__(32) half As[16][16];
    __shared__ __align__(32) half Bs[16][16];
    int tileRow = blockIdx.y * 16;
    int tileCol = blockIdx.x * 16;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        for (int e = threadIdx.x; e < 256; e += 32) {
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
    wmma::store_matrix_sync(C + tileRow * N + tileCol, acc, N, wmma::mem_row_major);
}
