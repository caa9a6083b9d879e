// expect-pass: sequential addressing with the active half counted down from the block size in a
// while loop (the same sums, the same conflict-free access: a warp reads 32 consecutive words).
extern "C" __global__ void reduce_sequential(const int* in, int* out)
{
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    int active = 256;
    while (active > 1) {
        active /= 2;
        if (t < active)
            s[t] = s[t] + s[t + active];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
