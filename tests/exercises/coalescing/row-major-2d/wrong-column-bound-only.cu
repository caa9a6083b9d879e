// expect-fail: memcheck
// The mapping is right, but only the column is checked: the last row of blocks runs past the
// matrix when n is not a multiple of 8.
extern "C" __global__ void copy2d(const float* in, float* out, int n)
{
    int col = blockIdx.x * 32 + threadIdx.x;
    int row = blockIdx.y * 8 + threadIdx.y;
    if (col < n)
        out[row * n + col] = in[row * n + col];
}
