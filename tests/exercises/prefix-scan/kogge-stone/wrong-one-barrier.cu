// expect-fail: racecheck
// One barrier per step, after the update: a warp may add its new value to x[t] while a warp to
// its right still has to read the old one.
extern "C" __global__ void scan_kogge_stone(const int* in, int* out, int* sums, int n)
{
    extern __shared__ int x[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[threadIdx.x] = i < n ? in[i] : 0;
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (threadIdx.x >= s)
            x[threadIdx.x] += x[threadIdx.x - s];
        __syncthreads();
    }
    if (i < n)
        out[i] = x[threadIdx.x];
    if (threadIdx.x == blockDim.x - 1)
        sums[blockIdx.x] = x[threadIdx.x];
}
