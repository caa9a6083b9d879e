// threadIdx.x picks the column: a warp's 32 lanes share one row, so each A[row * K + k] is one
// value for the whole warp (a broadcast), B[k * N + col] is 32 neighbouring floats, and so is
// the store to C. The grid's x covers the columns (N), its y the rows (M).
extern "C" __global__ void matmul_rows(const float* A, const float* B, float* C, int M, int N, int K)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
            acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = acc;
    }
}
