// 2D convolution with a 5 x 5 filter: out[row][col] = sum of filter[dy][dx] * in[row + dy - 2][col + dx - 2],
// counting cells outside the image as 0 (the "ghost cells"). Three versions of one computation.
#define R 2  // filter radius
#define FW (2 * R + 1)  // filter width: 5
#define TILE_W 32  // output tile of a block: 32 columns ...
#define TILE_H 8  // ... by 8 rows (one warp per row)
#define IN_W (TILE_W + 2 * R)  // the input tile with its halo: 36 columns ...
#define IN_H (TILE_H + 2 * R)  // ... by 12 rows

// 1. Everything from global memory: 25 filter weights and 25 inputs per output.
extern "C" __global__ void conv2d_global(const float* in, const float* filter, float* out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= rows || col >= cols)
        return;
    float sum = 0.0f;
    for (int dy = 0; dy < FW; ++dy)
        for (int dx = 0; dx < FW; ++dx) {
            int r = row + dy - R, c = col + dx - R;
            if (r >= 0 && r < rows && c >= 0 && c < cols) {
                float w = filter[dy * FW + dx];  // the same address in every lane
                sum += w * in[r * cols + c];
            }
        }
    out[row * cols + col] = sum;
}

// 2. The filter in constant memory: the host copies it once (cudaMemcpyToSymbol), and a warp whose
//    lanes all read the same constant word gets it in one broadcast.
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
            if (r >= 0 && r < rows && c >= 0 && c < cols)
                sum += c_filter[dy * FW + dx] * in[r * cols + c];
        }
    out[row * cols + col] = sum;
}

// 3. Tiled: a block stages its 32 x 8 inputs and a 2-cell halo around them (36 x 12 cells) in shared
//    memory once, then every thread reads its 25 inputs from there.
extern "C" __global__ void conv2d_tiled(const float* in, float* out, int rows, int cols)
{
    __shared__ float tile[IN_H][IN_W];
    int row0 = blockIdx.y * TILE_H - R;  // the tile's top-left cell in the image
    int col0 = blockIdx.x * TILE_W - R;
    for (int y = threadIdx.y; y < IN_H; y += TILE_H)  // warps 0-3 load two rows, 4-7 one
        for (int x = threadIdx.x; x < IN_W; x += TILE_W) {  // lanes 0-3 also the last 4 columns
            int r = row0 + y, c = col0 + x;
            tile[y][x] = r >= 0 && r < rows && c >= 0 && c < cols ? in[r * cols + c] : 0.0f;
        }
    __syncthreads();  // the whole tile is in before anyone reads it
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
