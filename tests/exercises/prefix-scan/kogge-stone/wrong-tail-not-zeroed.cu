// expect-fail: initcheck
// Loads only the elements that exist and leaves the rest of the last section's slots as they are:
// the threads past n then read and add slots nobody wrote.
extern "C" __global__ void scan_kogge_stone(const int* in, int* out, int* sums, int n)
{
    extern __shared__ int x[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[threadIdx.x] = in[i];
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
