// expect-fail: sectors per request
// Each thread copies a pair of neighbours, so neighbouring lanes read floats 2 apart: every load
// touches twice the sectors it needs.
extern "C" __global__ void offset_copy(const float* in, float* out, int offset, int n)
{
    int base = blockIdx.x * blockDim.x * 2;
    int k = threadIdx.x;
    int i = base + (k % 32) * 2 + (k / 32) * 64;   // even elements first
    if (i < n)
        out[i] = in[i + offset];
    if (i + 1 < n)
        out[i + 1] = in[i + 1 + offset];
}
