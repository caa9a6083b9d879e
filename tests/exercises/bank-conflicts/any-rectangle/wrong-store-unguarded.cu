// expect-fail: memcheck
// Checks the bounds of the load only: the threads of an edge block store transposed cells that
// do not exist.
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
    out[orow * rows + oc] = tile[threadIdx.x][threadIdx.y];
}
