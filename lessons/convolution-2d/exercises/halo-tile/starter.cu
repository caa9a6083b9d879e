// Tiled 2D convolution: a block of 32 x 8 threads computes 32 x 8 outputs from a 36 x 12 tile of
// inputs in shared memory (its own pixels and a halo of R = 2 cells on every side).
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

    // TODO(student): load all IN_H x IN_W cells of the tile (0 outside the image), not only the
    // block's own pixels, and wait until the whole tile is written before reading it.
    int r = row0 + threadIdx.y + R, c = col0 + threadIdx.x + R;
    tile[threadIdx.y + R][threadIdx.x + R] = r < rows && c < cols ? in[r * cols + c] : 0.0f;

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
