// expect-fail: racecheck
// No barrier between loading the block's values and the first step: thread t adds s[t + 128]
// before the warp that loads it may have written it.
extern "C" __global__ void reduce_sequential(const int* in, int* out)
{
    __shared__ int s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
