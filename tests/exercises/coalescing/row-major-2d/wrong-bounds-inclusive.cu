// expect-fail: memcheck
// The mapping is right, but the bounds check lets row == n and col == n through: one row and one
// column past the matrix when n is not a multiple of the block.
extern "C" __global__ void copy2d(const float* in, float* out, int n)
{
    int col = blockIdx.x * 32 + threadIdx.x;
    int row = blockIdx.y * 8 + threadIdx.y;
    if (row <= n && col <= n)
        out[row * n + col] = in[row * n + col];
}
