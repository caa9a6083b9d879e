// expect-fail: correct
// Writes the load's bounds check with rows and cols the other way round (r < cols, c < rows): right
// for a square, but a wide or tall matrix leaves parts of the tile unloaded or reads the wrong cells.
#define TILE 32

extern "C" __global__ void transpose_rect(const float* in, float* out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int c = blockIdx.x * TILE + threadIdx.x;        // column of in
    int r = blockIdx.y * TILE + threadIdx.y;        // row of in
    if (r < cols && c < rows)
        tile[threadIdx.y][threadIdx.x] = in[r * cols + c];
    __syncthreads();
    int oc = blockIdx.y * TILE + threadIdx.x;       // column of out: a row of in
    int orow = blockIdx.x * TILE + threadIdx.y;     // row of out: a column of in
    if (orow < cols && oc < rows)
        out[orow * rows + oc] = tile[threadIdx.x][threadIdx.y];
}
