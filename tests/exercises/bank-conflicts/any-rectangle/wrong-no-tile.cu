// expect-fail: sectors per request
// No tile at all: each thread copies its element straight to its transposed place. The loads run
// along rows, but a warp's 32 stores land in 32 different rows of out.
#define TILE 32

extern "C" __global__ void transpose_rect(const float* in, float* out, int rows, int cols)
{
    int c = blockIdx.x * TILE + threadIdx.x;
    int r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && c < cols)
        out[c * rows + r] = in[r * cols + c];
}
