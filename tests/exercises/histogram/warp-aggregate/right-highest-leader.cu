// expect-pass: the lanes with the same byte agree with __match_any_sync, and the highest lane of
// each group (31 - __clz) adds the group's size; every lane reaches the match, also past the end.
extern "C" __global__ void histo_global(const unsigned char* data, unsigned int* bins, int n)
{
    int stride = blockDim.x * gridDim.x;
    int lane = threadIdx.x & 31;
    int first = blockIdx.x * blockDim.x + threadIdx.x;
    for (int base = 0; base < n; base += stride) {
        int i = base + first;
        int byte = -1;
        if (i < n)
            byte = data[i];
        unsigned same = __match_any_sync(0xffffffff, byte);
        int leader = 31 - __clz(same);
        if (byte != -1 && lane == leader)
            atomicAdd(bins + byte, (unsigned)__popc(same));
    }
}
