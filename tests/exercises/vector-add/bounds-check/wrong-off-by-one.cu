// expect-fail: memcheck
// Off by one: i == n still reads and writes one element past the end.
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)
        c[i] = a[i] + b[i];
}
