// expect-fail: bank conflicts
// Pads the wrong dimension: an extra row changes nothing, rows are still 32 floats apart.
#define TILE 32

extern "C" __global__ void transpose(const float* in, float* out, int n)
{
    __shared__ float tile[TILE + 1][TILE];
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
