// expect-fail: racecheck
// "The loads are in registers already, no need to wait": but the first step of the loop reads
// s[t + 64], which another warp writes, before that warp has written it.
extern "C" __global__ void reduce_half(const int* in, int* out)
{
    __shared__ int s[128];
    unsigned t = threadIdx.x;
    const int* block = in + blockIdx.x * 256;
    s[t] = block[t] + block[t + blockDim.x];
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
