// Golden: 2D and 3D launches. A 64x64 matrix transpose with 16x16 blocks on a 4x4 grid through a
// padded shared tile (tile[16][17]), a kernel recording every built-in index register
// (%tid, %ntid, %ctaid, %nctaid in x/y/z) for a 3D grid of 3D blocks, and a 2D stencil that
// reads neighbours with clamped borders.
#include <cstdint>

#define TILE 16

extern "C" __global__ void transpose(const float* in, float* out, int width, int height) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < width && y < height) tile[threadIdx.y][threadIdx.x] = in[y * width + x];
    __syncthreads();
    int tx = blockIdx.y * TILE + threadIdx.x;
    int ty = blockIdx.x * TILE + threadIdx.y;
    if (tx < height && ty < width) out[ty * height + tx] = tile[threadIdx.x][threadIdx.y];
}

extern "C" __global__ void indices3d(uint32_t* out) {
    uint32_t block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    uint32_t thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    uint32_t linear = block * (blockDim.x * blockDim.y * blockDim.z) + thread;
    out[linear * 2] = threadIdx.x | (threadIdx.y << 4) | (threadIdx.z << 8) | (blockIdx.x << 12) |
                      (blockIdx.y << 16) | (blockIdx.z << 20);
    out[linear * 2 + 1] = blockDim.x | (blockDim.y << 4) | (blockDim.z << 8) | (gridDim.x << 12) |
                          (gridDim.y << 16) | (gridDim.z << 20);
}

extern "C" __global__ void stencil(const float* in, float* out, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    int xm = max(x - 1, 0), xp = min(x + 1, width - 1);
    int ym = max(y - 1, 0), yp = min(y + 1, height - 1);
    float c = in[y * width + x];
    out[y * width + x] = 0.5f * c + 0.125f * (in[y * width + xm] + in[y * width + xp] +
                                             in[ym * width + x] + in[yp * width + x]);
}
