// expect-fail: correct
// The tile of B is indexed like the tile of A (its row taken from threadIdx.x): each thread loads
// B[t * 16 + tx][col], so Bs holds the wrong rows of B.
#define TILE 16

extern "C" __global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        int k = t * TILE + tx;
        As[ty][tx] = row < M && k < K ? A[row * K + k] : 0.0f;
        Bs[ty][tx] = k < K && col < N ? B[k * N + col] : 0.0f;
        __syncthreads();
        for (int j = 0; j < TILE; ++j)
            acc += As[ty][j] * Bs[j][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
