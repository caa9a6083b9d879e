// expect-fail: correct
// x picks the column, but the block's extent is taken as 8 in x and 32 in y (the block's shape
// swapped): blocks overlap in x and leave rows out in y.
extern "C" __global__ void copy2d(const float* in, float* out, int n)
{
    int col = blockIdx.x * 8 + threadIdx.x;
    int row = blockIdx.y * 32 + threadIdx.y;
    if (row < n && col < n)
        out[row * n + col] = in[row * n + col];
}
