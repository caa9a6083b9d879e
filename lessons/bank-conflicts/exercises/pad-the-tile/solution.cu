// Transpose an n x n matrix through a padded 32 x 33 shared-memory tile: row k starts in bank
// k % 32, so the 32 words of a column fall in 32 different banks.
#define TILE 32

extern "C" __global__ void transpose(const float* in, float* out, int n)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < n && y < n)
        tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < n && y < n)
        out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}
