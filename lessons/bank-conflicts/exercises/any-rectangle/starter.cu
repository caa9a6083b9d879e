// Transpose through a padded 32 x 33 shared-memory tile, written for a square n x n matrix.
#define TILE 32

extern "C" __global__ void transpose_rect(const float* in, float* out, int rows, int cols)
{
    // TODO(student): this is the square transpose, with n = cols everywhere. Make it right for a
    // rows x cols matrix: in has `cols` floats per row, out (cols x rows) has `rows`.
    int n = cols;
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < n && y < n)
        tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < n && y < n)
        out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}
