// expect-fail: correct
// Interleaves within the block but forgets the block's place in the grid: every block starts at
// element threadIdx.x, so the first elements are counted by every block.
#define BINS 256

extern "C" __global__ void histo_private(const unsigned char* data, unsigned int* bins, int n)
{
    __shared__ unsigned int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();                                   // every bin is zero before anyone counts
    for (int i = threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();                                   // every count is in before the merge
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b] > 0)
            atomicAdd(&bins[b], local[b]);
}
