// expect-fail: memcheck
// The offset applied to the store instead of the load: out[i + offset] = in[i], which writes past
// the end of out for the last offset elements.
extern "C" __global__ void offset_copy(const float* in, float* out, int offset, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i + offset] = in[i];
}
