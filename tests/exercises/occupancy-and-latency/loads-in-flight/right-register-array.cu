// expect-pass: the four loads in flight kept in an unrolled register array: load all four
// (those inside the array), then store all four.
extern "C" __global__ void strided_copy(const float* in, float* out, int n)
{
    int stride = gridDim.x * blockDim.x;
    int start = blockIdx.x * blockDim.x + threadIdx.x;
    for (int base = start; base < n; base += 4 * stride) {
        float v[4];
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            int j = base + u * stride;
            v[u] = j < n ? in[j] : 0.0f;
        }
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            int j = base + u * stride;
            if (j < n)
                out[j] = v[u];
        }
    }
}
