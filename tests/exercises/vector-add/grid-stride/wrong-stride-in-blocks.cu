// expect-fail: global loads per element
// Steps by gridDim.x (the number of blocks) instead of the number of threads in the grid: every
// element is still written, with the right value, but by dozens of threads, each loading it again.
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x)
        c[i] = a[i] + b[i];
}
