// expect-fail: correct
// No shared memory any more, but the starter's mirror order is kept over the whole array instead
// of within a block: in[i] is stored at n - 1 - i, so the array comes out reversed.
extern "C" __global__ void stream_copy(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[n - 1 - i] = in[i];
}
