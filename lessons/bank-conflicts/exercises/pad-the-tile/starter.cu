// Transpose an n x n matrix through a 32 x 32 shared-memory tile (32 x 32 thread blocks).
#define TILE 32

extern "C" __global__ void transpose(const float* in, float* out, int n)
{
    // TODO(student): read by column, this tile puts all 32 words of a column in one bank.
    // Change its shape so that a column spreads over the 32 banks.
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < n && y < n)
        tile[threadIdx.y][threadIdx.x] = in[y * n + x];   // a warp writes one row of the tile
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < n && y < n)
        out[y * n + x] = tile[threadIdx.x][threadIdx.y];  // a warp reads one column
}
