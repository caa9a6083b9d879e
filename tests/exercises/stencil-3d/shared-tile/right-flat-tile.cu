// expect-pass: the tile as a flat shared array indexed by hand, and the threads on the tile's
// outer layer or the grid's last plane leave after the barrier (an early return after it is safe).
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
    __shared__ float t[IN_TILE * IN_TILE * IN_TILE];   // flat: (z * 8 + y) * 8 + x
    int lx = threadIdx.x, ly = threadIdx.y, lz = threadIdx.z;
    int gx = blockIdx.x * OUT_TILE + lx;                // the tile starts one point before its first output
    int gy = blockIdx.y * OUT_TILE + ly;
    int gz = blockIdx.z * OUT_TILE + lz;
    int me = (lz * IN_TILE + ly) * IN_TILE + lx;
    bool inGrid = gx < n && gy < n && gz < n;
    if (inGrid)
        t[me] = in[(gz * n + gy) * n + gx];
    __syncthreads();
    bool edgeOfTile = lx == 0 || ly == 0 || lz == 0 || lx == IN_TILE - 1 || ly == IN_TILE - 1 || lz == IN_TILE - 1;
    bool edgeOfGrid = gx >= n - 1 || gy >= n - 1 || gz >= n - 1;
    if (edgeOfTile || edgeOfGrid)
        return;
    const int dy = IN_TILE, dz = IN_TILE * IN_TILE;
    float around = t[me - 1] + t[me + 1] + t[me - dy] + t[me + dy] + t[me - dz] + t[me + dz];
    out[(gz * n + gy) * n + gx] = C0 * t[me] + C1 * around;
}
