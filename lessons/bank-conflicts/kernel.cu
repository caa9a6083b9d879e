// Bank conflicts: a matrix transpose staged through a 32 x 32 tile in shared memory. Rows of the
// tile are PITCH floats apart: 32 (no padding) or 33 (one float of padding per row).
#define TILE 32

extern "C" __global__ void transpose(const float* in, float* out, int n, int pitch)
{
    extern __shared__ float tile[];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    // Each warp writes one row of the tile: 32 consecutive words, 32 different banks.
    tile[threadIdx.y * pitch + threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    // Each warp reads one column of the tile: 32 words `pitch` floats apart.
    out[y * n + x] = tile[threadIdx.x * pitch + threadIdx.y];
}
