// expect-fail: correct
// Counts how many whole strides fit into n and loops that many times: when n is not a multiple of
// the grid's thread count, the last partial stride (the tail of the arrays) is never written; when
// n is smaller than the grid, nothing is.
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;   // threads in the whole grid
    int steps = n / stride;                // how many times each thread goes round

    for (int k = 0; k < steps; k++)
        c[i + k * stride] = a[i + k * stride] + b[i + k * stride];
}
