// expect-fail: correct
// The blocks placed 8 points apart, the size of the block, instead of 6, the size of its output:
// the tiles no longer overlap, so the points on each tile's outer layer, which no block's inner
// threads cover, are never computed.
// A 7-point stencil on an n x n x n grid, stored x fastest: element (x, y, z) is in[(z * n + y) * n + x].
// Every interior point becomes a weighted sum of itself and its six neighbours; the boundary stays as it is.
#define C0 0.5f          // the weight of the point itself
#define C1 (1.0f / 12)   // the weight of each neighbour

// 1. Naive: a thread per point, seven global loads for each output.
extern "C" __global__ void stencil_naive(const float* in, float* out, int n)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= 1 && x < n - 1 && y >= 1 && y < n - 1 && z >= 1 && z < n - 1) {
        int i = (z * n + y) * n + x;
        out[i] = C0 * in[i] + C1 * (in[i - 1] + in[i + 1] + in[i - n] + in[i + n] + in[i - n * n] + in[i + n * n]);
    }
}
// 2. Yours: shared-memory tiling. An 8 x 8 x 8 block loads an 8 x 8 x 8 input tile, one element per
//    thread; the 6 x 6 x 6 inner threads compute, reading their neighbours from the tile.
#define IN_TILE 8
#define OUT_TILE (IN_TILE - 2)
extern "C" __global__ void stencil_shared(const float* in, float* out, int n)
{
    __shared__ float tile[IN_TILE][IN_TILE][IN_TILE];
    int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    int x = blockIdx.x * IN_TILE + tx;  // the tile starts one point before its first output
    int y = blockIdx.y * IN_TILE + ty;
    int z = blockIdx.z * IN_TILE + tz;
    if (x < n && y < n && z < n)
        tile[tz][ty][tx] = in[(z * n + y) * n + x];
    __syncthreads();
    bool inner = tx >= 1 && tx < IN_TILE - 1 && ty >= 1 && ty < IN_TILE - 1 && tz >= 1 && tz < IN_TILE - 1;
    if (inner && x < n - 1 && y < n - 1 && z < n - 1) {
        float sides = tile[tz][ty][tx - 1] + tile[tz][ty][tx + 1] + tile[tz][ty - 1][tx] + tile[tz][ty + 1][tx] +
                      tile[tz - 1][ty][tx] + tile[tz + 1][ty][tx];
        out[(z * n + y) * n + x] = C0 * tile[tz][ty][tx] + C1 * sides;
    }
}
