// Transpose a rows x cols matrix (out is cols x rows) through a padded 32 x 33 tile: loads and
// stores both run along rows, 32 consecutive floats per warp, and the column read of the tile
// touches 32 different banks.
#define TILE 32

extern "C" __global__ void transpose_rect(const float* in, float* out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int c = blockIdx.x * TILE + threadIdx.x;        // column of in
    int r = blockIdx.y * TILE + threadIdx.y;        // row of in
    if (r < rows && c < cols)
        tile[threadIdx.y][threadIdx.x] = in[r * cols + c];
    __syncthreads();
    int oc = blockIdx.y * TILE + threadIdx.x;       // column of out: a row of in
    int orow = blockIdx.x * TILE + threadIdx.y;     // row of out: a column of in
    if (orow < cols && oc < rows)
        out[orow * rows + oc] = tile[threadIdx.x][threadIdx.y];
}
