// expect-pass: no loops over the two elements: each thread stages element t and t + blockDim.x by
// name, the first R threads the halos, then it computes its two outputs one after the other.
extern "C" __global__ void stencil(const float* in, float* out, int n, int radius)
{
    extern __shared__ float temp[];
    int t = threadIdx.x, B = blockDim.x;
    int base = blockIdx.x * 2 * B;
    int g0 = base + t, g1 = base + B + t;
    temp[radius + t] = g0 < n ? in[g0] : 0.0f;
    temp[radius + B + t] = g1 < n ? in[g1] : 0.0f;
    if (t < radius) {
        int left = base - radius + t, right = base + 2 * B + t;
        temp[t] = (left >= 0 && left < n) ? in[left] : 0.0f;
        temp[radius + 2 * B + t] = right < n ? in[right] : 0.0f;
    }
    __syncthreads();
    float s0 = 0.0f, s1 = 0.0f;
    for (int j = -radius; j <= radius; ++j) {
        s0 += temp[radius + t + j];
        s1 += temp[radius + B + t + j];
    }
    if (g0 < n) out[g0] = s0;
    if (g1 < n) out[g1] = s1;
}
