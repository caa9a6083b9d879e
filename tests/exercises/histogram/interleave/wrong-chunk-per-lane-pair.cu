// expect-fail: sectors per request
// Halfway: each thread takes two neighbouring bytes at a time, so a warp's 32 lanes read every
// other byte of 64 and the loads touch twice the sectors.
#define BINS 256

extern "C" __global__ void histo_private(const unsigned char* data, unsigned int* bins, int n)
{
    __shared__ unsigned int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();                                   // every bin is zero before anyone counts
    int threads = blockDim.x * gridDim.x;
    for (int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x); i < n; i += 2 * threads) {
        atomicAdd(&local[data[i]], 1u);
        if (i + 1 < n)
            atomicAdd(&local[data[i + 1]], 1u);
    }
    __syncthreads();                                   // every count is in before the merge
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b] > 0)
            atomicAdd(&bins[b], local[b]);
}
