// expect-pass: the filter walked with offsets -R..R (the tap index rebuilt from them), ghost cells
// skipped with continue, and the sum kept in a register until the one store.
#define R 2
#define FW (2 * R + 1)

__constant__ float c_filter[FW * FW];

extern "C" __global__ void conv2d_const(const float* in, float* out, int rows, int cols)
{
    int x = threadIdx.x + blockIdx.x * blockDim.x;
    int y = threadIdx.y + blockIdx.y * blockDim.y;
    if (x < cols && y < rows) {
        float acc = 0.0f;
        for (int oy = -R; oy <= R; ++oy) {
            int yy = y + oy;
            if (yy < 0 || yy >= rows)
                continue;
            for (int ox = -R; ox <= R; ++ox) {
                int xx = x + ox;
                if (xx < 0 || xx >= cols)
                    continue;
                acc += c_filter[(oy + R) * FW + (ox + R)] * in[yy * cols + xx];
            }
        }
        out[y * cols + x] = acc;
    }
}
