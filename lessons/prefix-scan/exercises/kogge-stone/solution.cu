// Kogge-Stone scan of one section per block: out[i] = the sum of the section's elements up to and
// including i. One element per thread; the section is blockDim.x ints of shared memory.
extern "C" __global__ void scan_kogge_stone(const int* in, int* out, int* sums, int n)
{
    extern __shared__ int x[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[threadIdx.x] = i < n ? in[i] : 0;
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        __syncthreads();                      // the previous step is complete
        int left = threadIdx.x >= s ? x[threadIdx.x - s] : 0;
        __syncthreads();                      // every thread has read before anyone writes
        x[threadIdx.x] += left;
    }
    if (i < n)
        out[i] = x[threadIdx.x];
    if (threadIdx.x == blockDim.x - 1)
        sums[blockIdx.x] = x[threadIdx.x];
}
