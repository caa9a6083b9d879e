// Warp-aggregated atomics: the lanes of a warp that hold the same byte find each other with
// __match_any_sync, and the lowest of them adds the whole group's count. On a uniform byte
// stream a warp makes one atomic instead of 32.
extern "C" __global__ void histo_global(const unsigned char* data, unsigned int* bins, int n)
{
    int stride = blockDim.x * gridDim.x;
    int rounds = (n + stride - 1) / stride;
    unsigned lane = threadIdx.x % 32;
    for (int r = 0; r < rounds; ++r) {
        int i = r * stride + blockIdx.x * blockDim.x + threadIdx.x;
        int v = i < n ? data[i] : -1;
        unsigned group = __match_any_sync(0xffffffffu, v);
        unsigned leader = __ffs(group) - 1;
        if (v >= 0 && lane == leader)
            atomicAdd(&bins[v], (unsigned)__popc(group));
    }
}
