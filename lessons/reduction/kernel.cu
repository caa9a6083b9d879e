// Four ways to add up a block's 256 values. Each block writes one partial sum.

// 1. Interleaved, divergent: at each step only threads whose index is a multiple of 2*s work,
//    and they are spread over every warp.
extern "C" __global__ void reduce_divergent(const int* in, int* out)
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

// 2. Interleaved with a strided index: the working threads are packed together (no divergence
//    inside a warp until the end), but they touch words 2*stride apart: bank conflicts.
extern "C" __global__ void reduce_strided(const int* in, int* out)
{
    __shared__ int s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned index = 2 * stride * t;
        if (index < blockDim.x)
            s[index] += s[index + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

// 3. Sequential addressing: the first half adds the second half, then the first quarter the
//    second quarter, ...: contiguous threads, contiguous words.
extern "C" __global__ void reduce_sequential(const int* in, int* out)
{
    __shared__ int s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

// 4. Warp shuffles: each warp adds its 32 values in registers, then one warp adds the 8 results.
extern "C" __global__ void reduce_shuffle(const int* in, int* out)
{
    __shared__ int partial[8];
    unsigned t = threadIdx.x;
    int v = in[blockIdx.x * blockDim.x + t];
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if (t % 32 == 0)
        partial[t / 32] = v;
    __syncthreads();
    if (t < 32) {
        v = t < blockDim.x / 32 ? partial[t] : 0;
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, o);
        if (t == 0)
            out[blockIdx.x] = v;
    }
}
