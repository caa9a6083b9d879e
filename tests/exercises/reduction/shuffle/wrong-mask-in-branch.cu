// expect-fail: synccheck
// The second stage only runs the shuffle in the lanes that hold a warp's sum (8 of them), but
// keeps the full mask: the mask names 24 lanes that never execute the shuffle.
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
    if (t < blockDim.x / 32) {
        v = partial[t];
        for (int o = 4; o > 0; o >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, o);
        if (t == 0)
            out[blockIdx.x] = v;
    }
}
