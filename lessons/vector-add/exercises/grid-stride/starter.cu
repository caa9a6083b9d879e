// Vector add with a fixed-size grid: the host launches at most 4 blocks.
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    // TODO(student): one element per thread is not enough when n is larger than the grid.
    // Loop: handle i, then i + (threads in the whole grid), ... while below n.
    if (i < n)
        c[i] = a[i] + b[i];
}
