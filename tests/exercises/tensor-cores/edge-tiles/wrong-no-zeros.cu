// expect-fail: correct
// Copies only the elements inside the matrices and leaves the rest of the shared tiles as they
// were: in the last step along K the columns past K still hold the previous step's values,
// and they are multiplied in.
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

extern "C" __global__ void gemm_wmma(const half* A, const half* B, float* C, int M, int N, int K) {
    __shared__ __align__(32) half As[16][16];
    __shared__ __align__(32) half Bs[16][16];
    __shared__ __align__(32) float Cs[16][16];
    int tileRow = blockIdx.y * 16;
    int tileCol = blockIdx.x * 16;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        for (int e = threadIdx.x; e < 256; e += 32) {
            int r = e / 16, c = e % 16;
            if (tileRow + r < M && k + c < K) As[r][c] = A[(tileRow + r) * K + k + c];
            if (k + r < K && tileCol + c < N) Bs[r][c] = B[(k + r) * N + tileCol + c];
        }
        __syncwarp();
        wmma::load_matrix_sync(a, &As[0][0], 16);
        wmma::load_matrix_sync(b, &Bs[0][0], 16);
        wmma::mma_sync(acc, a, b, acc);
        __syncwarp();
    }
    wmma::store_matrix_sync(&Cs[0][0], acc, 16, wmma::mem_row_major);
    __syncwarp();
    for (int e = threadIdx.x; e < 256; e += 32) {
        int row = tileRow + e / 16, col = tileCol + e % 16;
        if (row < M && col < N) C[row * N + col] = Cs[e / 16][e % 16];
    }
}
