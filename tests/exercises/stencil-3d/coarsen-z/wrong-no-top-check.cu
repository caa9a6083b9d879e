// expect-fail: memcheck
// The store checks the x and y edges of the grid but not its top: "the loop is 16 planes, the launch
// has enough blocks". The top block's column runs past the last interior plane, and its threads
// write the boundary plane and planes above the grid.
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
// 3. Thread coarsening along z with register tiling: a 32 x 8 block walks up Z_STEPS planes. Each
//    thread keeps its column's planes below, current and above in registers; only the current plane
//    goes through shared memory, for the neighbours in x and y. One new load per thread and plane.
#define PX 32
#define PY 8
#define Z_STEPS 16
extern "C" __global__ void stencil_coarsened(const float* in, float* out, int n)
{
    __shared__ float plane[PY][PX];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * (PX - 2) + tx;
    int y = blockIdx.y * (PY - 2) + ty;
    int z0 = blockIdx.z * Z_STEPS + 1;  // the block's first output plane
    bool inPlane = x < n && y < n;
    float below = 0.0f, cur = 0.0f, above = 0.0f;
    if (inPlane) {
        below = in[((z0 - 1) * n + y) * n + x];
        cur = in[(z0 * n + y) * n + x];
    }
    for (int z = z0; z < z0 + Z_STEPS; ++z) {
        if (inPlane && z + 1 < n)
            above = in[((z + 1) * n + y) * n + x];
        __syncthreads();  // everyone has read the last plane
        plane[ty][tx] = cur;
        __syncthreads();  // the plane is complete
        bool inner = tx >= 1 && tx < PX - 1 && ty >= 1 && ty < PY - 1;
        if (inner && x < n - 1 && y < n - 1)
            out[(z * n + y) * n + x] = C0 * cur + C1 * (plane[ty][tx - 1] + plane[ty][tx + 1] + plane[ty - 1][tx] +
                                                         plane[ty + 1][tx] + below + above);
        below = cur;
        cur = above;
    }
}
