// expect-fail: correct
// The block size written as 256 instead of blockDim.x: right for the lesson's default, but with
// 32- or 512-thread blocks the blocks' ranges overlap or leave holes.
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * 256 + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
