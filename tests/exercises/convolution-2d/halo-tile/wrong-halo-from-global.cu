// expect-fail: global loads per element
// Right numbers, but the halo is read from global memory in the summing loop: every thread at the
// tile's edges, and so every warp, goes to global memory for most of its 25 taps.
#define R 2                      // filter radius
#define FW (2 * R + 1)           // filter width: 5
#define TILE_W 32                // outputs per block: 32 columns ...
#define TILE_H 8                 // ... by 8 rows
#define IN_W (TILE_W + 2 * R)    // the input tile: 36 columns ...
#define IN_H (TILE_H + 2 * R)    // ... by 12 rows

__constant__ float c_filter[FW * FW];

extern "C" __global__ void conv2d_tiled(const float* in, float* out, int rows, int cols)
{
    __shared__ float tile[IN_H][IN_W];
    int row0 = blockIdx.y * TILE_H - R;          // the image cell of tile[0][0]
    int col0 = blockIdx.x * TILE_W - R;

    int r0 = row0 + threadIdx.y + R, c0 = col0 + threadIdx.x + R;
    tile[threadIdx.y + R][threadIdx.x + R] = r0 < rows && c0 < cols ? in[r0 * cols + c0] : 0.0f;
    __syncthreads();

    int row = blockIdx.y * TILE_H + threadIdx.y;
    int col = blockIdx.x * TILE_W + threadIdx.x;
    if (row >= rows || col >= cols)
        return;
    float sum = 0.0f;
    for (int dy = 0; dy < FW; ++dy)
        for (int dx = 0; dx < FW; ++dx)
        {
            int ty = threadIdx.y + dy, tx = threadIdx.x + dx;
            int r = row + dy - R, c = col + dx - R;
            float v;
            if (ty >= R && ty < R + TILE_H && tx >= R && tx < R + TILE_W)
                v = tile[ty][tx];                                   // inside the block: shared
            else
                v = r >= 0 && r < rows && c >= 0 && c < cols ? in[r * cols + c] : 0.0f;   // halo
            sum += c_filter[dy * FW + dx] * v;
        }
    out[row * cols + col] = sum;
}
