// expect-fail: synccheck
// The threads past the end leave first, as in the other stencils: but they are still named in
// the shuffles' full member mask, which the lanes that stay then wait on.
extern "C" __global__ void stencil_shfl(const float* in, float* out, int n, int radius)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= n)
        return;
    int lane = threadIdx.x % 32;
    int first = g - lane - radius;
    int g0 = first + lane, g1 = first + lane + 32;
    float a = g0 >= 0 && g0 < n ? in[g0] : 0.0f;
    float b = g1 >= 0 && g1 < n ? in[g1] : 0.0f;
    float sum = 0.0f;
    for (int k = -radius; k <= radius; ++k) {
        int j = lane + radius + k;
        float fromA = __shfl_sync(0xffffffffu, a, j % 32);
        float fromB = __shfl_sync(0xffffffffu, b, j % 32);
        sum += j < 32 ? fromA : fromB;
    }
    out[g] = sum;
}
