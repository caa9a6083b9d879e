// expect-fail: correct
// The loop starts at threadIdx.x, forgetting the block's offset: every block covers the same
// elements, and those from blockDim.x up to the grid's thread count are never written.
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n)
{
    for (int i = threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        c[i] = a[i] + b[i];
}
