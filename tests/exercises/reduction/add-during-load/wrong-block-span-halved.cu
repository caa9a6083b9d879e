// expect-fail: correct
// Adds two values during the load, but each block starts at blockIdx.x * blockDim.x (128) as if it
// still covered 128 values: neighbouring blocks overlap and the second half of the input is never read.
extern "C" __global__ void reduce_half(const int* in, int* out)
{
    __shared__ int s[128];
    unsigned t = threadIdx.x;
    const int* block = in + blockIdx.x * blockDim.x;
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
