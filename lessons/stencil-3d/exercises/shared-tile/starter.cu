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
    int x = blockIdx.x * OUT_TILE + tx;  // the tile starts one point before its first output
    int y = blockIdx.y * OUT_TILE + ty;
    int z = blockIdx.z * OUT_TILE + tz;
    // TODO(student): every thread whose (x, y, z) lies in the grid loads in[(z * n + y) * n + x] into
    // tile[tz][ty][tx]. Then the threads that are not on the tile's outer layer, and whose point is
    // an interior point of the grid (x, y, z < n - 1), compute out from the tile.
}
