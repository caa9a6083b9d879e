// expect-fail: racecheck
// Shared memory is fast, so why an atomic? Two lanes with the same byte read the same count, both
// add one and both store: one of the two increments is lost.
#define BINS 256

extern "C" __global__ void histo_private(const unsigned char* data, unsigned int* bins, int n)
{
    __shared__ unsigned int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        local[data[i]]++;
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b] > 0)
            atomicAdd(&bins[b], local[b]);
}
