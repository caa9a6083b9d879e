// expect-fail: correct
// Reads along a row but stores along a column: the stores are uncoalesced and the result is the
// transpose, not the copy.
extern "C" __global__ void copy2d(const float* in, float* out, int n)
{
    int col = blockIdx.x * 32 + threadIdx.x;
    int row = blockIdx.y * 8 + threadIdx.y;
    if (row < n && col < n)
        out[col * n + row] = in[row * n + col];
}
