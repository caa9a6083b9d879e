// The first step of the tree happens during the load: thread t adds values t and t + 128, both
// loads coalesced (a warp reads 32 neighbouring ints each time). 128 threads do the work that
// took 256, and one shared-memory round trip is gone.
extern "C" __global__ void reduce_half(const int* in, int* out)
{
    __shared__ int s[128];
    unsigned t = threadIdx.x;
    const int* block = in + blockIdx.x * 256;
    s[t] = block[t] + block[t + blockDim.x];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
