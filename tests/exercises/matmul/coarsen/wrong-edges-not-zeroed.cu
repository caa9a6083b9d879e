// expect-fail: initcheck
// Skips the loads that fall outside the matrices instead of writing 0 there: the tile keeps
// whatever was in that shared word (nothing at all on the first step), and the sums add it in.
#define TILE 16

extern "C" __global__ void matmul_coarse(const float* A, const float* B, float* C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col0 = blockIdx.x * 2 * TILE + tx;      // my first column; the second is col0 + TILE
    float acc0 = 0.0f, acc1 = 0.0f;
    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        int ak = t * TILE + tx, bk = t * TILE + ty;
        if (row < M && ak < K)
            As[ty][tx] = A[row * K + ak];
        if (bk < K && col0 < N)
            Bs[0][ty][tx] = B[bk * N + col0];
        if (bk < K && col0 + TILE < N)
            Bs[1][ty][tx] = B[bk * N + col0 + TILE];
        __syncthreads();                        // the three tiles are complete
        for (int k = 0; k < TILE; ++k) {
            float a = As[ty][k];                // read once, used twice
            acc0 += a * Bs[0][k][tx];
            acc1 += a * Bs[1][k][tx];
        }
        __syncthreads();                        // everyone is done before the next tiles
    }
    if (row < M && col0 < N)
        C[row * N + col0] = acc0;
    if (row < M && col0 + TILE < N)
        C[row * N + col0 + TILE] = acc1;
}
