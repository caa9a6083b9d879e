// expect-fail: memcheck
// x takes the columns, but the row length is taken from the grid (gridDim.x * 32 floats a row)
// instead of n: right only when n is a multiple of 32; otherwise the rows overrun the matrix.
extern "C" __global__ void copy2d(const float* in, float* out, int n)
{
    int width = gridDim.x * 32;   // floats per row
    int col = blockIdx.x * 32 + threadIdx.x;
    int row = blockIdx.y * 8 + threadIdx.y;
    if (row < n && col < n)
        out[row * width + col] = in[row * width + col];
}
