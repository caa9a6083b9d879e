// expect-fail: racecheck
// Drops the barrier at the end of the step: a fast warp loads the next tiles over values a slow
// warp is still multiplying.
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
        As[ty][tx] = row < M && ak < K ? A[row * K + ak] : 0.0f;
        Bs[0][ty][tx] = bk < K && col0 < N ? B[bk * N + col0] : 0.0f;
        Bs[1][ty][tx] = bk < K && col0 + TILE < N ? B[bk * N + col0 + TILE] : 0.0f;
        __syncthreads();                        // the three tiles are complete
        for (int k = 0; k < TILE; ++k) {
            float a = As[ty][k];                // read once, used twice
            acc0 += a * Bs[0][k][tx];
            acc1 += a * Bs[1][k][tx];
        }
    }
    if (row < M && col0 < N)
        C[row * N + col0] = acc0;
    if (row < M && col0 + TILE < N)
        C[row * N + col0 + TILE] = acc1;
}
