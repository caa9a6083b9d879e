// expect-fail: memcheck
// The loop checks i < n, but not the three values after it: in the last round the loads past the
// end of `in` run off the allocation whenever n is not a multiple of 4 * stride.
extern "C" __global__ void strided_copy(const float* in, float* out, int n)
{
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += 4 * stride) {
        float v0 = in[i];
        float v1 = in[i + stride];
        float v2 = in[i + 2 * stride];
        float v3 = in[i + 3 * stride];
        out[i] = v0;
        if (i + stride < n) out[i + stride] = v1;
        if (i + 2 * stride < n) out[i + 2 * stride] = v2;
        if (i + 3 * stride < n) out[i + 3 * stride] = v3;
    }
}
