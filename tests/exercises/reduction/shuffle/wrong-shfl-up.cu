// expect-fail: correct
// __shfl_up_sync instead of __shfl_down_sync: the warp's sum collects in lane 31, while lane 0
// (with no lane below it, it adds its own value to itself) writes the partial sum.
extern "C" __global__ void reduce_shuffle(const int* in, int* out)
{
    __shared__ int partial[8];
    unsigned t = threadIdx.x;
    int v = in[blockIdx.x * blockDim.x + t];
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_up_sync(0xffffffffu, v, o);
    if (t % 32 == 0)
        partial[t / 32] = v;
    __syncthreads();
    if (t < 32) {
        v = t < blockDim.x / 32 ? partial[t] : 0;
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_up_sync(0xffffffffu, v, o);
        if (t == 0)
            out[blockIdx.x] = v;
    }
}
