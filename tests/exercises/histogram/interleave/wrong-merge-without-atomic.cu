// expect-fail: racecheck
// The counting is interleaved and private, so the merge seems safe with a plain +=: but the blocks
// merge at the same time, and two blocks' read-add-write of one bin can lose one of the counts.
#define BINS 256

extern "C" __global__ void histo_private(const unsigned char* data, unsigned int* bins, int n)
{
    __shared__ unsigned int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();                                   // every bin is zero before anyone counts
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();                                   // every count is in before the merge
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b] > 0)
            bins[b] += local[b];
}
