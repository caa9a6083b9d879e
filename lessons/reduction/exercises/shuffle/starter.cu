// Sum of each block's 256 values with warp shuffles: warps add in registers, then one warp adds
// the 8 warp sums.
extern "C" __global__ void reduce_shuffle(const int* in, int* out)
{
    __shared__ int partial[8];
    unsigned t = threadIdx.x;
    int v = in[blockIdx.x * blockDim.x + t];

    // TODO(student): add up the warp's 32 values of v so that lane 0 holds their sum
    // (__shfl_down_sync with offsets 16, 8, 4, 2, 1).

    if (t % 32 == 0)
        partial[t / 32] = v;
    __syncthreads();
    if (t < 32) {
        v = t < blockDim.x / 32 ? partial[t] : 0;
        // TODO(student): the same warp-level sum over the 8 partial sums.
        if (t == 0)
            out[blockIdx.x] = v;
    }
}
