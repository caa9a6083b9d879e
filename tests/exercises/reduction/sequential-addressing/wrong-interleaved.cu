// expect-fail: divergent branches
// Interleaved pairs: no bank conflicts (the active lanes use every other bank), but the active
// lanes are spread over every warp, so nearly every warp splits at every step.
extern "C" __global__ void reduce_sequential(const int* in, int* out)
{
    __shared__ int s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if (t % (2 * stride) == 0)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
