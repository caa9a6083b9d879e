// expect-pass: the grid walks the input in steps of its size: at each step block k takes the
// k-th run of blockDim.x bytes and thread t the t-th byte of it, so a warp reads 32 neighbours.
#define BINS 256

extern "C" __global__ void histo_private(const unsigned char* data, unsigned int* bins, int n)
{
    __shared__ unsigned int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int start = blockIdx.x * blockDim.x; start < n; start += gridDim.x * blockDim.x) {
        int i = start + threadIdx.x;
        if (i < n)
            atomicAdd(&local[data[i]], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b])
            atomicAdd(&bins[b], local[b]);
}
