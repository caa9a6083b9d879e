// expect-fail: correct
// Interleaves within the block, then steps by the block's size instead of the grid's: every block
// walks on through the elements the blocks after it start at, so those are counted several times.
#define BINS 256

extern "C" __global__ void histo_private(const unsigned char* data, unsigned int* bins, int n)
{
    __shared__ unsigned int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();                                   // every bin is zero before anyone counts
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();                                   // every count is in before the merge
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b] > 0)
            atomicAdd(&bins[b], local[b]);
}
