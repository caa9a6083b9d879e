// expect-pass: the 36 x 12 input tile loaded by one flat loop over its 432 cells (the block's 256
// threads numbered 0..255, consecutive threads consecutive cells of a tile row).
#define R 2
#define FW (2 * R + 1)
#define TILE_W 32
#define TILE_H 8
#define IN_W (TILE_W + 2 * R)
#define IN_H (TILE_H + 2 * R)

__constant__ float c_filter[FW * FW];

extern "C" __global__ void conv2d_tiled(const float* in, float* out, int rows, int cols)
{
    __shared__ float tile[IN_H][IN_W];
    int me = threadIdx.y * TILE_W + threadIdx.x;
    int top = blockIdx.y * TILE_H - R, left = blockIdx.x * TILE_W - R;
    for (int cell = me; cell < IN_H * IN_W; cell += TILE_W * TILE_H) {
        int ty = cell / IN_W, tx = cell % IN_W;
        int r = top + ty, c = left + tx;
        float v = 0.0f;
        if (r >= 0 && r < rows && c >= 0 && c < cols)
            v = in[r * cols + c];
        tile[ty][tx] = v;
    }
    __syncthreads();
    int row = blockIdx.y * TILE_H + threadIdx.y;
    int col = blockIdx.x * TILE_W + threadIdx.x;
    if (row < rows && col < cols) {
        float sum = 0.0f;
        for (int dy = 0; dy < FW; ++dy)
            for (int dx = 0; dx < FW; ++dx)
                sum += c_filter[dy * FW + dx] * tile[threadIdx.y + dy][threadIdx.x + dx];
        out[row * cols + col] = sum;
    }
}
