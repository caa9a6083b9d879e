// Each block sums 256 values, but with 128 threads: half of the threads of the sequential
// version sat idle after the first step anyway. Each thread now has two values to bring in.
extern "C" __global__ void reduce_half(const int* in, int* out)
{
    __shared__ int s[128];
    unsigned t = threadIdx.x;
    const int* block = in + blockIdx.x * 256;
    // TODO(student): add the second value this thread is responsible for while loading, so that
    // s[t] holds the sum of two of the block's 256 values. Keep the loads coalesced: lane k of a
    // warp should read next to lane k + 1 in both loads.
    s[t] = block[t];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
