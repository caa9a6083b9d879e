// expect-fail: runs in parallel
// "A tree is hard to get right": thread 0 of each block adds the block's 256 values one after the
// other. The sums are right, with no conflicts and no divergence to speak of, but 255 of the 256
// threads only load their value and wait.
extern "C" __global__ void reduce_sequential(const int* in, int* out)
{
    __shared__ int s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    if (t == 0) {
        int sum = 0;
        for (unsigned k = 0; k < blockDim.x; k++)
            sum += s[k];
        out[blockIdx.x] = sum;
    }
}
