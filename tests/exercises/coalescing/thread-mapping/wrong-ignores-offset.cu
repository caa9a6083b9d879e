// expect-fail: correct
// Coalesced and fast, but the offset went missing while the indexing was rewritten: right only
// when OFFSET is 0.
extern "C" __global__ void offset_copy(const float* in, float* out, int offset, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}
