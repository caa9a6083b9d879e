// expect-fail: memcheck
// Forgets the ghost cells: near the border it reads the row above the image (before the buffer)
// or wraps into the neighbouring row.
#define R 2
#define FW (2 * R + 1)

__constant__ float c_filter[FW * FW];

extern "C" __global__ void conv2d_const(const float* in, float* out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= rows || col >= cols)
        return;
    float sum = 0.0f;
    for (int dy = 0; dy < FW; ++dy)
        for (int dx = 0; dx < FW; ++dx)
            sum += c_filter[dy * FW + dx] * in[(row + dy - R) * cols + (col + dx - R)];
    out[row * cols + col] = sum;
}
