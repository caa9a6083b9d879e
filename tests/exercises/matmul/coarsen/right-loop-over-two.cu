// expect-pass: the two columns kept in a small array and handled by loops over j = 0, 1 (the
// compiler unrolls them): one A tile read once per k, serving two B tiles.
extern "C" __global__ void matmul_coarse(const float* A, const float* B, float* C, int M, int N, int K)
{
    __shared__ float As[16][16];
    __shared__ float Bs[2][16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * 16 + ty;
    float acc[2] = {0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += 16) {
        As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
        for (int j = 0; j < 2; ++j) {
            int col = blockIdx.x * 32 + j * 16 + tx;
            Bs[j][ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < 16; ++k) {
            float a = As[ty][k];
            for (int j = 0; j < 2; ++j)
                acc[j] += a * Bs[j][k][tx];
        }
        __syncthreads();
    }
    for (int j = 0; j < 2; ++j) {
        int col = blockIdx.x * 32 + j * 16 + tx;
        if (row < M && col < N)
            C[row * N + col] = acc[j];
    }
}
