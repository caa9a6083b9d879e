// C = A x B (row-major: A is M x K, B is K x N), one output per thread, launched with 32 x 8
// blocks over a grid of ceil_div(N, 32) x ceil_div(M, 8) blocks. As written, threadIdx.x picks
// the row: the 32 lanes of a warp work on 32 different rows.
extern "C" __global__ void matmul_rows(const float* A, const float* B, float* C, int M, int N, int K)
{
    // TODO(student): let threadIdx.x (with blockIdx.x) pick the column and threadIdx.y (with
    // blockIdx.y) the row, so that the lanes of a warp read neighbouring elements of B and write
    // neighbouring elements of C. Keep the bounds check on both.
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
            acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = acc;
    }
}
