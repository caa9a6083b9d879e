// Copy out[i] = in[i + offset] for i < n: lane k of a warp copies the element after lane k-1's,
// so a warp's 32 loads fall in 4 sectors.
extern "C" __global__ void offset_copy(const float* in, float* out, int offset, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i + offset];
}
