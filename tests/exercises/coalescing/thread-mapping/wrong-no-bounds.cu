// expect-fail: memcheck
// Coalesced, but the bounds check went missing: the last block copies past the end.
extern "C" __global__ void offset_copy(const float* in, float* out, int offset, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i + offset];
}
