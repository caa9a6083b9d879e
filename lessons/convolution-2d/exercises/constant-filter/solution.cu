// 2D convolution with the 5 x 5 filter in constant memory: one thread per output pixel, threads
// along x on consecutive columns (coalesced rows), ghost cells outside the image counted as 0.
#define R 2                      // filter radius
#define FW (2 * R + 1)           // filter width: 5

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
            if (r >= 0 && r < rows && c >= 0 && c < cols)   // a ghost cell adds nothing
                sum += c_filter[dy * FW + dx] * in[r * cols + c];
        }
    out[row * cols + col] = sum;
}
