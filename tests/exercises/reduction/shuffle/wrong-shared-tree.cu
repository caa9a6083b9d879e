// expect-fail: shared requests per block
// Correct sums without a single shuffle: the classic tree through shared memory, a barrier after
// every step. Eight warps load, add and store for each of the 8 steps where one shuffle would do.
extern "C" __global__ void reduce_shuffle(const int* in, int* out)
{
    __shared__ int buf[256];
    unsigned t = threadIdx.x;
    buf[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s)
            buf[t] += buf[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = buf[0];
}
