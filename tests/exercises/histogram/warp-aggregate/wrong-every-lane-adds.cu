// expect-fail: correct
// The groups are found, but every lane of a group adds the group's size, not only its leader:
// a bin that k lanes hit gets k * k.
extern "C" __global__ void histo_global(const unsigned char* data, unsigned int* bins, int n)
{
    int stride = blockDim.x * gridDim.x;
    int rounds = (n + stride - 1) / stride;
    for (int r = 0; r < rounds; ++r) {
        int i = r * stride + blockIdx.x * blockDim.x + threadIdx.x;
        int v = i < n ? data[i] : -1;
        unsigned group = __match_any_sync(0xffffffffu, v);
        if (v >= 0)
            atomicAdd(&bins[v], (unsigned)__popc(group));
    }
}
