// expect-fail: correct
// Counts the tiles as K / TILE: when K is not a multiple of 16 the last, partial tile of K is
// never loaded, and its products are missing from every sum.
#define TILE 16

extern "C" __global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < K / TILE; ++t) {
        int ak = t * TILE + tx, bk = t * TILE + ty;
        As[ty][tx] = row < M && ak < K ? A[row * K + ak] : 0.0f;   // 0 past the edges
        Bs[ty][tx] = bk < K && col < N ? B[bk * N + col] : 0.0f;
        __syncthreads();                   // both tiles complete
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();                   // everyone done before the next tile overwrites them
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
