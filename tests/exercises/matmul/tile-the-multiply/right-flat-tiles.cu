// expect-pass: the tiles as flat arrays, the tile count written as a loop over k0 in steps of 16,
// and the edge zeros written with if/else.
extern "C" __global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K)
{
    __shared__ float a[16 * 16];
    __shared__ float b[16 * 16];
    int r = blockIdx.y * 16 + threadIdx.y;
    int c = blockIdx.x * 16 + threadIdx.x;
    int me = threadIdx.y * 16 + threadIdx.x;
    float sum = 0;
    for (int k0 = 0; k0 < K; k0 += 16) {
        if (r < M && k0 + threadIdx.x < K) a[me] = A[r * K + k0 + threadIdx.x];
        else a[me] = 0;
        if (c < N && k0 + threadIdx.y < K) b[me] = B[(k0 + threadIdx.y) * N + c];
        else b[me] = 0;
        __syncthreads();
        for (int k = 0; k < 16; k++)
            sum += a[threadIdx.y * 16 + k] * b[k * 16 + threadIdx.x];
        __syncthreads();
    }
    if (r < M && c < N)
        C[r * N + c] = sum;
}
