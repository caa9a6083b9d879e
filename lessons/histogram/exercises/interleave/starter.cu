// Privatized histogram of bytes into 256 bins. Each thread counts a contiguous chunk of the input:
// thread t of the grid takes elements t * chunk .. t * chunk + chunk - 1.
#define BINS 256

extern "C" __global__ void histo_private(const unsigned char* data, unsigned int* bins, int n)
{
    __shared__ unsigned int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();

    // TODO(student): let the lanes of a warp read neighbouring bytes. At each step thread t should
    // read element t + k * S (S: the threads of the grid), not one of its own chunk.
    int threads = blockDim.x * gridDim.x;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int chunk = (n + threads - 1) / threads;
    for (int i = t * chunk; i < (t + 1) * chunk && i < n; ++i)
        atomicAdd(&local[data[i]], 1u);

    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b] > 0)
            atomicAdd(&bins[b], local[b]);
}
