// expect-fail: global loads per element
// Loads the tile, then reads the six neighbours from global memory anyway: right answers, but the
// tile saves nothing (more loads than the naive kernel, whose threads all compute).
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
#define IN_TILE 8
#define OUT_TILE (IN_TILE - 2)
extern "C" __global__ void stencil_shared(const float* in, float* out, int n)
{
    __shared__ float tile[IN_TILE][IN_TILE][IN_TILE];
    int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    int x = blockIdx.x * OUT_TILE + tx;
    int y = blockIdx.y * OUT_TILE + ty;
    int z = blockIdx.z * OUT_TILE + tz;
    if (x < n && y < n && z < n)
        tile[tz][ty][tx] = in[(z * n + y) * n + x];
    __syncthreads();
    bool inner = tx >= 1 && tx < IN_TILE - 1 && ty >= 1 && ty < IN_TILE - 1 && tz >= 1 && tz < IN_TILE - 1;
    if (inner && x < n - 1 && y < n - 1 && z < n - 1) {
        int i = (z * n + y) * n + x;
        float sides = in[i - 1] + in[i + 1] + in[i - n] + in[i + n] + in[i - n * n] + in[i + n * n];
        out[i] = C0 * tile[tz][ty][tx] + C1 * sides;
    }
}
