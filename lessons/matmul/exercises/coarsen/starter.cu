// C = A x B with 16 x 16 tiles. The launch gives each block 16 rows and 32 columns of C (half as
// many blocks as one element per thread would need): each thread must compute two elements of C,
// in columns col0 and col0 + 16.
#define TILE 16

extern "C" __global__ void matmul_coarse(const float* A, const float* B, float* C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col0 = blockIdx.x * 2 * TILE + tx;      // my first column; the second is col0 + TILE
    float acc0 = 0.0f;
    // TODO(student): also compute the element in column col0 + TILE. Load a second tile of B
    // for it, and use each value of the A tile for both sums.
    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        int ak = t * TILE + tx, bk = t * TILE + ty;
        As[ty][tx] = row < M && ak < K ? A[row * K + ak] : 0.0f;
        Bs[ty][tx] = bk < K && col0 < N ? B[bk * N + col0] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc0 += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col0 < N)
        C[row * N + col0] = acc0;
}
