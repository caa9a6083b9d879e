// expect-fail: speedup vs starter
// Four loads in flight, but the loop still steps by one stride: every element is copied (up to)
// four times, with the right values, so the extra loads eat the gain.
extern "C" __global__ void strided_copy(const float* in, float* out, int n)
{
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        float v0 = in[i];
        float v1 = i + stride < n ? in[i + stride] : 0.0f;
        float v2 = i + 2 * stride < n ? in[i + 2 * stride] : 0.0f;
        float v3 = i + 3 * stride < n ? in[i + 3 * stride] : 0.0f;
        out[i] = v0;
        if (i + stride < n) out[i + stride] = v1;
        if (i + 2 * stride < n) out[i + 2 * stride] = v2;
        if (i + 3 * stride < n) out[i + 3 * stride] = v3;
    }
}
