// expect-fail: memcheck
// Checks the neighbours but not the thread's own pixel: the threads of the last blocks that lie
// below or right of the image still store, past the end of out.
#define R 2
#define FW (2 * R + 1)

__constant__ float c_filter[FW * FW];

extern "C" __global__ void conv2d_const(const float* in, float* out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    float sum = 0.0f;
    for (int dy = 0; dy < FW; ++dy)
        for (int dx = 0; dx < FW; ++dx) {
            int r = row + dy - R, c = col + dx - R;
            if (r >= 0 && r < rows && c >= 0 && c < cols)
                sum += c_filter[dy * FW + dx] * in[r * cols + c];
        }
    out[row * cols + col] = sum;
}
