// Divergence: lanes of one warp that disagree about a branch take turns.
extern "C" __global__ void diverge(const int* in, int* out, int* counters, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;

    // Even and odd lanes do different work. Each side updates its own counter, so the
    // compiler cannot turn the if/else into a select: the warp really splits here.
    if (threadIdx.x % 2 == 0) {
        atomicAdd(&counters[0], i < n);
        v = v * 2;
    } else {
        atomicAdd(&counters[1], i < n);
        v = v + 100;
    }

    // The two halves have met again: every thread of the block can reach the barrier.
    __syncthreads();
    if (i < n)
        out[i] = v;
}

// The same work with a condition that is the same for all 32 lanes of a warp. Warps 2k and
// 2k+1 share 64 elements: the even warp takes the even elements, the odd warp the odd ones.
extern "C" __global__ void uniform(const int* in, int* out, int* counters, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int warp = i / 32, lane = i % 32;
    int e = (warp / 2) * 64 + 2 * lane + warp % 2;   // the element this thread works on
    int v = e < n ? in[e] : 0;

    if (warp % 2 == 0) {
        atomicAdd(&counters[0], e < n);
        v = v * 2;
    } else {
        atomicAdd(&counters[1], e < n);
        v = v + 100;
    }

    __syncthreads();
    if (e < n)
        out[e] = v;
}

// A loop whose trip count depends on the data: each lane follows the Collatz sequence of its
// own input, so lanes leave the loop at different times. (64 bits: below 2^20 some sequences
// climb past 2^31.)
extern "C" __global__ void collatz(const int* in, int* steps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long x = i < n ? in[i] : 1;
    int count = 0;
    while (x != 1) {
        if (x % 2 == 0)
            x = x / 2;
        else
            x = 3 * x + 1;
        ++count;
    }
    if (i < n)
        steps[i] = count;
}
