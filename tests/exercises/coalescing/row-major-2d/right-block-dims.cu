// expect-pass: the same mapping (x walks along a row) written with blockDim instead of the
// constants 32 and 8, and an early return for the threads outside the matrix.
extern "C" __global__ void copy2d(const float* in, float* out, int n)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= n || y >= n)
        return;
    int at = y * n + x;
    out[at] = in[at];
}
