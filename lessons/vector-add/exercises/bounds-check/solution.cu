// Vector add: one thread computes one element, c[i] = a[i] + b[i].
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    // Threads past the end of the arrays (the rounded-up last block) do nothing.
    if (i < n)
        c[i] = a[i] + b[i];
}
