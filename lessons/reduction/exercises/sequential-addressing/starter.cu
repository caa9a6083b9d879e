// Sum of each block's 256 values in shared memory.
extern "C" __global__ void reduce_sequential(const int* in, int* out)
{
    __shared__ int s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    // TODO(student): the working threads are packed, but they touch words 2 * stride apart:
    // bank conflicts. Let the first half of the active range add the second half instead.
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned index = 2 * stride * t;
        if (index < blockDim.x)
            s[index] += s[index + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
