// Vector add with a grid-stride loop: any grid size covers any n.
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n)
{
    int stride = blockDim.x * gridDim.x;   // threads in the whole grid
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        c[i] = a[i] + b[i];
}
