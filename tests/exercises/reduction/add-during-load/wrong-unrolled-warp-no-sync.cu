// expect-fail: correct
// The last warp's steps unrolled, as in the well-known optimisation, but without volatile or
// __syncwarp: the compiler keeps s[t] in a register and nothing orders a lane's reads of its
// neighbours' words after their writes, so the last steps add stale values.
extern "C" __global__ void reduce_half(const int* in, int* out)
{
    __shared__ int s[128];
    unsigned t = threadIdx.x;
    const int* block = in + blockIdx.x * 256;
    s[t] = block[t] + block[t + blockDim.x];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t < 32) {   // one warp left: its lanes run in step, no barrier needed
        s[t] += s[t + 32];
        s[t] += s[t + 16];
        s[t] += s[t + 8];
        s[t] += s[t + 4];
        s[t] += s[t + 2];
        s[t] += s[t + 1];
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
