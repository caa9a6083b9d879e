// expect-fail: correct
// Takes __ffs(group) as the leader's lane, forgetting that __ffs counts from 1: the lane above the
// group's lowest adds, which belongs to the group only when the two lanes hold the same byte.
extern "C" __global__ void histo_global(const unsigned char* data, unsigned int* bins, int n)
{
    int stride = blockDim.x * gridDim.x;
    int rounds = (n + stride - 1) / stride;
    unsigned lane = threadIdx.x % 32;
    for (int r = 0; r < rounds; ++r) {
        int i = r * stride + blockIdx.x * blockDim.x + threadIdx.x;
        int v = i < n ? data[i] : -1;
        unsigned group = __match_any_sync(0xffffffffu, v);
        unsigned leader = __ffs(group);       // the lowest lane of the group
        if (v >= 0 && lane == leader)
            atomicAdd(&bins[v], (unsigned)__popc(group));
    }
}
