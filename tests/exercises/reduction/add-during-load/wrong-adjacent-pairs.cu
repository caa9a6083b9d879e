// expect-fail: sectors per request
// Each thread adds a pair of neighbours: the sum is right, but lane k reads ints 2k and 2k + 1,
// so each of the two loads of a warp spans 64 ints (8 sectors) instead of 32.
extern "C" __global__ void reduce_half(const int* in, int* out)
{
    __shared__ int s[128];
    unsigned t = threadIdx.x;
    const int* block = in + blockIdx.x * 256;
    s[t] = block[2 * t] + block[2 * t + 1];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
