// expect-fail: correct
// Mixes up the two sizes in the row check: right on a square image, wrong on a wide or tall one.
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
        for (int dx = 0; dx < FW; ++dx) {
            int r = row + dy - R, c = col + dx - R;
            if (r >= 0 && r < cols && c >= 0 && c < cols)
                sum += c_filter[dy * FW + dx] * in[r * cols + c];
        }
    out[row * cols + col] = sum;
}
