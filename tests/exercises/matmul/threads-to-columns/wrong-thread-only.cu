// expect-fail: correct
// threadIdx.x and threadIdx.y were swapped, but the block indices kept their old roles: a block
// that should cover 32 columns of 8 rows covers columns blockIdx.y * 32 ... instead.
extern "C" __global__ void matmul_rows(const float* A, const float* B, float* C, int M, int N, int K)
{
    int col = blockIdx.y * blockDim.x + threadIdx.x;
    int row = blockIdx.x * blockDim.y + threadIdx.y;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
            acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = acc;
    }
}
