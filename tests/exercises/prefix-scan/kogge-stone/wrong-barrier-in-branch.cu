// expect-fail: synccheck
// The barrier between read and write sits inside the branch that only threads t >= s take:
// the first s threads never arrive.
extern "C" __global__ void scan_kogge_stone(const int* in, int* out, int* sums, int n)
{
    extern __shared__ int x[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[threadIdx.x] = i < n ? in[i] : 0;
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        __syncthreads();
        if (threadIdx.x >= s) {
            int left = x[threadIdx.x - s];
            __syncthreads();
            x[threadIdx.x] += left;
        }
    }
    if (i < n)
        out[i] = x[threadIdx.x];
    if (threadIdx.x == blockDim.x - 1)
        sums[blockIdx.x] = x[threadIdx.x];
}
