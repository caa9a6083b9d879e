// expect-fail: global loads per element
// Right numbers without a tile: every thread reads its 2R + 1 inputs from global memory.
extern "C" __global__ void stencil(const float* in, float* out, int n, int radius)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= n)
        return;
    float sum = 0.0f;
    for (int k = -radius; k <= radius; ++k)
        if (g + k >= 0 && g + k < n)
            sum += in[g + k];
    out[g] = sum;
}
