// Matrix multiply C = A x B (row-major, M x K times K x N), two ways.
#define TILE 16

// Naive: each thread reads a whole row of A and a whole column of B from global memory.
extern "C" __global__ void matmul_naive(const float* A, const float* B, float* C, int M, int N, int K)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
            acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = acc;
    }
}

// Tiled: a block stages TILE x TILE pieces of A and B in shared memory, so every value read
// from global memory is used TILE times.
extern "C" __global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        int ak = t * TILE + tx;
        int bk = t * TILE + ty;
        As[ty][tx] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
        Bs[ty][tx] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

// The same tiled kernel for other tile sizes: the lesson's TILE parameter picks matmul_tiled8,
// matmul_tiled (16, written out above so it reads plainly) or matmul_tiled32.
template <int T>
__device__ void tiled_t(const float* A, const float* B, float* C, int M, int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty;
    int col = blockIdx.x * T + tx;
    float acc = 0.0f;
    for (int t = 0; t < (K + T - 1) / T; ++t) {
        As[ty][tx] = (row < M && t * T + tx < K) ? A[row * K + t * T + tx] : 0.0f;
        Bs[ty][tx] = (t * T + ty < K && col < N) ? B[(t * T + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

extern "C" __global__ void matmul_tiled8(const float* A, const float* B, float* C, int M, int N, int K)
{
    tiled_t<8>(A, B, C, M, N, K);
}

extern "C" __global__ void matmul_tiled32(const float* A, const float* B, float* C, int M, int N, int K)
{
    tiled_t<32>(A, B, C, M, N, K);
}
