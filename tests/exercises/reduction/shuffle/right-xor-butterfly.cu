// expect-pass: a butterfly with __shfl_xor_sync (every lane ends with its warp's sum), then the
// first warp reduces the 8 warp sums the same way.
extern "C" __global__ void reduce_shuffle(const int* in, int* out)
{
    __shared__ int warpSum[8];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int v = in[blockIdx.x * 256 + threadIdx.x];
    for (int mask = 1; mask < 32; mask <<= 1)
        v += __shfl_xor_sync(0xffffffff, v, mask);
    if (lane == 0)
        warpSum[warp] = v;
    __syncthreads();
    if (warp == 0) {
        int w = lane < 8 ? warpSum[lane] : 0;
        for (int mask = 1; mask < 32; mask <<= 1)
            w += __shfl_xor_sync(0xffffffff, w, mask);
        if (lane == 0)
            out[blockIdx.x] = w;
    }
}
