// expect-pass: a grid-stride loop written as a while loop over a running index, the grid's
// thread count computed once.
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n)
{
    int threads = gridDim.x * blockDim.x;
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    while (i < n) {
        c[i] = a[i] + b[i];
        i += threads;
    }
}
