// expect-fail: synccheck
// The match is only done for lanes that have an element, but with the full mask: in the warp at
// the end of the data, the lanes past n never call it although the mask names them.
extern "C" __global__ void histo_global(const unsigned char* data, unsigned int* bins, int n)
{
    int stride = blockDim.x * gridDim.x;
    int rounds = (n + stride - 1) / stride;
    unsigned lane = threadIdx.x % 32;
    for (int r = 0; r < rounds; ++r) {
        int i = r * stride + blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) {
            int v = data[i];
            unsigned group = __match_any_sync(0xffffffffu, v);
            if (lane == __ffs(group) - 1)
                atomicAdd(&bins[v], (unsigned)__popc(group));
        }
    }
}
