// Histogram of bytes: bins[v] = how many elements of data equal v, for v = 0 .. 255. Each thread
// visits the elements i, i + S, i + 2S, ... where S is the number of threads in the grid, so any
// grid covers any n. Three versions of one computation.
#define BINS 256

// 1. Every element is one atomicAdd on the global histogram. When many lanes of a warp hold the
//    same value, their atomics land on one address and the L2 applies them one after the other.
extern "C" __global__ void histo_global(const unsigned char* data, unsigned int* bins, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&bins[data[i]], 1u);
}

// 2. Privatization: each block counts into its own histogram in shared memory, then adds its 256
//    counts to the global one: 256 global atomics per block instead of one per element.
extern "C" __global__ void histo_private(const unsigned char* data, unsigned int* bins, int n)
{
    __shared__ unsigned int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();  // all bins zero before anyone counts
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();  // all counts in before the merge
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b] > 0)
            atomicAdd(&bins[b], local[b]);
}

// 3. Aggregation: a thread that sees the same value again and again counts the run in a register
//    and adds it with one atomic when the value changes.
extern "C" __global__ void histo_aggregate(const unsigned char* data, unsigned int* bins, int n)
{
    __shared__ unsigned int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    int prev = -1;  // the value of the current run
    unsigned int run = 0;  // its length so far
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int v = data[i];
        if (v == prev) {
            ++run;
        } else {
            if (run > 0)
                atomicAdd(&local[prev], run);
            prev = v;
            run = 1;
        }
    }
    if (run > 0)
        atomicAdd(&local[prev], run);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b] > 0)
            atomicAdd(&bins[b], local[b]);
}
