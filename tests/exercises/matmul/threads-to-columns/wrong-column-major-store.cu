// expect-fail: correct
// The store was "made coalesced" too, as C[col * M + row]: but C is row-major, so that writes
// the transpose of the product.
extern "C" __global__ void matmul_rows(const float* A, const float* B, float* C, int M, int N, int K)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
            acc += A[row * K + k] * B[k * N + col];
        C[col * M + row] = acc;
    }
}
