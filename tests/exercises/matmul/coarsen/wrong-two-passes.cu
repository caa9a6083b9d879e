// expect-fail: global loads per element
// Right numbers the long way: one full pass over K for each of the two columns, loading the A
// tiles twice. Each thread does two elements, but no load is shared.
#define TILE 16

extern "C" __global__ void matmul_coarse(const float* A, const float* B, float* C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col0 = blockIdx.x * 2 * TILE + tx;      // my first column; the second is col0 + TILE
    float acc0 = 0.0f, acc1 = 0.0f;
    for (int half = 0; half < 2; ++half) {
        int col = col0 + half * TILE;
        float acc = 0.0f;
        for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
            int ak = t * TILE + tx, bk = t * TILE + ty;
            As[ty][tx] = row < M && ak < K ? A[row * K + ak] : 0.0f;
            Bs[0][ty][tx] = bk < K && col < N ? B[bk * N + col] : 0.0f;
            __syncthreads();
            for (int k = 0; k < TILE; ++k)
                acc += As[ty][k] * Bs[0][k][tx];
            __syncthreads();
        }
        if (half == 0)
            acc0 = acc;
        else
            acc1 = acc;
    }
    if (row < M && col0 < N)
        C[row * N + col0] = acc0;
    if (row < M && col0 + TILE < N)
        C[row * N + col0 + TILE] = acc1;
}
