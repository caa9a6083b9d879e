// expect-fail: racecheck
// Loads the whole tile but starts computing at once: a thread reads cells that another warp has
// not stored yet.
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

    for (int y = threadIdx.y; y < IN_H; y += TILE_H)
        for (int x = threadIdx.x; x < IN_W; x += TILE_W) {
            int r = row0 + y, c = col0 + x;
            tile[y][x] = r >= 0 && r < rows && c >= 0 && c < cols ? in[r * cols + c] : 0.0f;
        }

    int row = blockIdx.y * TILE_H + threadIdx.y;
    int col = blockIdx.x * TILE_W + threadIdx.x;
    if (row >= rows || col >= cols)
        return;
    float sum = 0.0f;
    for (int dy = 0; dy < FW; ++dy)
        for (int dx = 0; dx < FW; ++dx)
            sum += c_filter[dy * FW + dx] * tile[threadIdx.y + dy][threadIdx.x + dx];
    out[row * cols + col] = sum;
}
