// expect-fail: correct
// Stops one step early (s < blockDim.x / 2): the second half of each section never receives the
// sum of the first half.
extern "C" __global__ void scan_kogge_stone(const int* in, int* out, int* sums, int n)
{
    extern __shared__ int x[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[threadIdx.x] = i < n ? in[i] : 0;
    for (unsigned s = 1; s < blockDim.x / 2; s *= 2) {
        __syncthreads();
        int left = threadIdx.x >= s ? x[threadIdx.x - s] : 0;
        __syncthreads();
        x[threadIdx.x] += left;
    }
    if (i < n)
        out[i] = x[threadIdx.x];
    if (threadIdx.x == blockDim.x - 1)
        sums[blockIdx.x] = x[threadIdx.x];
}
