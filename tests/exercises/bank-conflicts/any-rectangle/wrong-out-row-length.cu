// expect-fail: correct
// Writes out with the input's row length: right for a square, scrambled (or out of bounds) for
// any other shape.
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
        out[orow * cols + oc] = tile[threadIdx.x][threadIdx.y];
}
