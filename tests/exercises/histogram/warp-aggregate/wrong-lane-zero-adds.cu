// expect-fail: correct
// The groups are found with __match_any_sync, but lane 0 adds for every group: only the group
// that holds lane 0 is counted (lane 0 adds its own group's size), the other bytes are lost.
extern "C" __global__ void histo_global(const unsigned char* data, unsigned int* bins, int n)
{
    int stride = blockDim.x * gridDim.x;
    int rounds = (n + stride - 1) / stride;
    unsigned lane = threadIdx.x % 32;
    for (int r = 0; r < rounds; ++r) {
        int i = r * stride + blockIdx.x * blockDim.x + threadIdx.x;
        int v = i < n ? data[i] : -1;
        unsigned group = __match_any_sync(0xffffffffu, v);
        if (v >= 0 && lane == 0)
            atomicAdd(&bins[v], (unsigned)__popc(group));
    }
}
