// expect-fail: correct
// x picks the column now, but both block offsets assume 32 x 32 blocks: the blocks are 32 x 8, so
// each block row jumps 32 rows of C and three quarters of the rows are never computed.
extern "C" __global__ void matmul_rows(const float* A, const float* B, float* C, int M, int N, int K)
{
    int col = blockIdx.x * 32 + threadIdx.x;
    int row = blockIdx.y * 32 + threadIdx.y;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
            acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = acc;
    }
}
