// expect-pass: the first addition at load time written with the block's two halves as pointers,
// then the tree from 64 down with a while loop.
extern "C" __global__ void reduce_half(const int* in, int* out)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    const int* lo = in + blockIdx.x * 2 * blockDim.x;
    const int* hi = lo + blockDim.x;
    s[t] = lo[t] + hi[t];
    __syncthreads();
    int half = blockDim.x / 2;
    while (half > 0) {
        if (t < half)
            s[t] += s[t + half];
        __syncthreads();
        half /= 2;
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
