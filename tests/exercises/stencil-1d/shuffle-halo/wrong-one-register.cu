// expect-fail: correct
// One load per lane, and the neighbours from the other lanes of the warp: but the warp's 32
// values are only its own outputs' inputs, so the lanes at either end wrap around to the wrong
// side of the warp instead of reading the halo.
extern "C" __global__ void stencil_shfl(const float* in, float* out, int n, int radius)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    float a = g < n ? in[g] : 0.0f;
    float sum = 0.0f;
    for (int k = -radius; k <= radius; ++k)
        sum += __shfl_sync(0xffffffffu, a, (lane + k + 32) % 32);
    if (g < n)
        out[g] = sum;
}
