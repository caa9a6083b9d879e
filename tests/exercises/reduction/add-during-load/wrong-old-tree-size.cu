// expect-fail: initcheck
// The two values are added during the load, but the rest was kept from the 256-thread version:
// the tree starts at stride 128, so its first step reads s[128..255], which nothing wrote.
extern "C" __global__ void reduce_half(const int* in, int* out)
{
    __shared__ int s[256];
    unsigned t = threadIdx.x;
    const int* block = in + blockIdx.x * 256;
    s[t] = block[t] + block[t + 128];
    __syncthreads();
    for (unsigned stride = 128; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
