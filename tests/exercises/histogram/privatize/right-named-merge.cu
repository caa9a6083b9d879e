// expect-pass: the private histogram zeroed and merged with while loops over the bins, and each
// bin's count read into a register before its one global atomic (skipped when it is 0).
#define BINS 256

extern "C" __global__ void histo_private(const unsigned char* data, unsigned int* bins, int n)
{
    __shared__ unsigned int counts[BINS];
    int b = threadIdx.x;
    while (b < BINS) {
        counts[b] = 0;
        b += blockDim.x;
    }
    __syncthreads();
    int stride = gridDim.x * blockDim.x;
    for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += stride)
        atomicAdd(counts + data[i], 1u);
    __syncthreads();
    b = threadIdx.x;
    while (b < BINS) {
        unsigned int c = counts[b];
        if (c != 0)
            atomicAdd(bins + b, c);
        b += blockDim.x;
    }
}
