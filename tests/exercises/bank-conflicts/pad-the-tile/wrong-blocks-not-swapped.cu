// expect-fail: correct
// Padded, with the barrier, but the output tile keeps the input's block position (blockIdx.x and
// blockIdx.y not swapped): each tile is transposed in place, not moved across the diagonal.
#define TILE 32

extern "C" __global__ void transpose(const float* in, float* out, int n)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < n && y < n)
        tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    if (x < n && y < n)
        out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}
