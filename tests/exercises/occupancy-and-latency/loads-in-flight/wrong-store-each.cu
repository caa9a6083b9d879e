// expect-fail: speedup vs starter
// Unrolled four times, but each value is stored right after its load: the store waits for the
// load, and the next load (which might read what the store wrote) cannot start before it. Still
// one load in flight per warp.
extern "C" __global__ void strided_copy(const float* in, float* out, int n)
{
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += 4 * stride) {
        out[i] = in[i];
        if (i + stride < n) out[i + stride] = in[i + stride];
        if (i + 2 * stride < n) out[i + 2 * stride] = in[i + 2 * stride];
        if (i + 3 * stride < n) out[i + 3 * stride] = in[i + 3 * stride];
    }
}
