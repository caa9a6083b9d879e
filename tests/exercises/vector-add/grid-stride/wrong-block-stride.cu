// expect-fail: global loads per element
// Steps by the block's size only: the numbers are right, but all 4 blocks load every element.
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x)
        c[i] = a[i] + b[i];
}
