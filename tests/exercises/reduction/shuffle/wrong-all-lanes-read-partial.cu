// expect-fail: memcheck
// The first warp reads partial[lane] for all 32 lanes, but there are only 8 warp sums: lanes 8 to
// 31 read past the end of the shared array.
extern "C" __global__ void reduce_shuffle(const int* in, int* out)
{
    __shared__ int partial[8];
    unsigned t = threadIdx.x;
    int v = in[blockIdx.x * blockDim.x + t];
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if (t % 32 == 0)
        partial[t / 32] = v;
    __syncthreads();
    if (t < 32) {
        v = partial[t];
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, o);
        if (t == 0)
            out[blockIdx.x] = v;
    }
}
