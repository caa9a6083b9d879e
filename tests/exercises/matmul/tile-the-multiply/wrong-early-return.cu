// expect-fail: synccheck
// Threads outside C return at the start, as in the naive kernel: in the edge blocks they are
// missing at the barriers, and the tile elements they should have loaded are never written.
#define TILE 16

extern "C" __global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    if (row >= M || col >= N)
        return;                            // nothing to compute here
    float acc = 0.0f;
    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        int ak = t * TILE + tx, bk = t * TILE + ty;
        As[ty][tx] = row < M && ak < K ? A[row * K + ak] : 0.0f;   // 0 past the edges
        Bs[ty][tx] = bk < K && col < N ? B[bk * N + col] : 0.0f;
        __syncthreads();                   // both tiles complete
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();                   // everyone done before the next tile overwrites them
    }
    C[row * N + col] = acc;
}
