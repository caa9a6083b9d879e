// expect-pass: the same mapping (x picks the column, so B and C are read and written along
// rows), written with a pointer to A's row and a pointer walking down B's column.
extern "C" __global__ void matmul_rows(const float* A, const float* B, float* C, int M, int N, int K)
{
    int col = threadIdx.x + blockIdx.x * blockDim.x;
    int row = threadIdx.y + blockIdx.y * blockDim.y;
    if (col >= N || row >= M)
        return;
    const float* a = A + row * K;
    const float* b = B + col;
    float sum = 0.0f;
    for (int k = 0; k < K; ++k) {
        sum += a[k] * *b;
        b += N;
    }
    C[row * N + col] = sum;
}
