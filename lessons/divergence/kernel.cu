// Divergence: lanes of one warp that disagree about a branch take turns.
extern "C" __global__ void diverge(const int* in, int* out, int* steps, int* counters, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 1;

    // Even and odd lanes do different work. Each side updates its own counter, so the
    // compiler cannot turn the if/else into a select: the warp really splits here.
    if (threadIdx.x % 2 == 0) {
        atomicAdd(&counters[0], 1);
        v = v * 2;
    } else {
        atomicAdd(&counters[1], 1);
        v = v + 100;
    }
    if (i < n)
        out[i] = v;

    // Every thread of the block meets here before the second phase.
    __syncthreads();

    // A loop whose trip count depends on the data: each lane follows the Collatz sequence
    // of its own input, so lanes leave the loop at different times.
    int x = i < n ? in[i] : 1;
    int count = 0;
    while (x != 1) {
        x = (x % 2 == 0) ? x / 2 : 3 * x + 1;
        ++count;
    }
    if (i < n)
        steps[i] = count;
}
