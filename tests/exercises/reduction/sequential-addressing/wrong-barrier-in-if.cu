// expect-fail: synccheck
// The barrier moved inside the if: only the threads below the stride reach it, the others skip it.
extern "C" __global__ void reduce_sequential(const int* in, int* out)
{
    __shared__ int s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride) {
            s[t] += s[t + stride];
            __syncthreads();
        }
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
