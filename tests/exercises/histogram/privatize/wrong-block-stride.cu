// expect-fail: correct
// Strides by the block instead of the grid: every block walks the whole array from its own start,
// so most elements are counted by several blocks.
#define BINS 256

extern "C" __global__ void histo_private(const unsigned char* data, unsigned int* bins, int n)
{
    __shared__ unsigned int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b] > 0)
            atomicAdd(&bins[b], local[b]);
}
