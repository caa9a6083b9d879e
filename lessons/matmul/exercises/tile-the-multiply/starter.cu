// C = A x B (row-major; A is M x K, B is K x N), one thread per element of C, 16 x 16 blocks.
#define TILE 16

extern "C" __global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K)
{
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    // TODO(student): every product below reads A and B from global memory. Stage TILE x TILE
    // tiles of A and B in shared memory, one tile of K at a time, and multiply from there.
    float acc = 0.0f;
    if (row < M && col < N)
        for (int k = 0; k < K; ++k)
            acc += A[row * K + k] * B[k * N + col];
    if (row < M && col < N)
        C[row * N + col] = acc;
}
