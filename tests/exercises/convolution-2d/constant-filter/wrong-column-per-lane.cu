// expect-fail: sectors per request
// Walks the image column by column: each thread computes a short vertical strip, so the 32 lanes
// of a warp read 32 different rows and every load touches 32 sectors. (The results are right.)
#define R 2
#define FW (2 * R + 1)

__constant__ float c_filter[FW * FW];

extern "C" __global__ void conv2d_const(const float* in, float* out, int rows, int cols)
{
    // Block (bx, by) still owns the 32 x 8 pixels at (8 by .. 8 by + 7, 32 bx .. 32 bx + 31), but
    // thread (x, y) takes pixel (8 by + x % 8, 32 bx + 4 y + x / 8).
    int row = blockIdx.y * blockDim.y + threadIdx.x % 8;
    int col = blockIdx.x * blockDim.x + threadIdx.y * 4 + threadIdx.x / 8;
    if (row >= rows || col >= cols)
        return;
    float sum = 0.0f;
    for (int dy = 0; dy < FW; ++dy)
        for (int dx = 0; dx < FW; ++dx) {
            int r = row + dy - R, c = col + dx - R;
            if (r >= 0 && r < rows && c >= 0 && c < cols)
                sum += c_filter[dy * FW + dx] * in[r * cols + c];
        }
    out[row * cols + col] = sum;
}
