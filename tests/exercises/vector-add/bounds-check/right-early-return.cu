// expect-pass: a correct answer written another way: the thread past the end leaves at once
// (an early return) instead of wrapping the add in an if, and the index is computed the other way round.
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n)
{
    int i = threadIdx.x + blockDim.x * blockIdx.x;
    if (i >= n)
        return;
    c[i] = a[i] + b[i];
}
