// expect-fail: memcheck
// Rows and columns are mapped right, but the bounds check still compares them the old way: with
// more columns than rows, a thread past the last row reads beyond the end of A.
extern "C" __global__ void matmul_rows(const float* A, const float* B, float* C, int M, int N, int K)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < N && col < M) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
            acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = acc;
    }
}
