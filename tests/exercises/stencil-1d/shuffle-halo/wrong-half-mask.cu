// expect-fail: synccheck
// The member mask written as 0xffff, "a radius is at most 16, so 16 lanes": but all 32 lanes of
// the warp execute the shuffles, and the upper 16 are not named in the mask they pass.
extern "C" __global__ void stencil_shfl(const float* in, float* out, int n, int radius)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int first = g - lane - radius;                 // the warp's window starts here
    int g0 = first + lane, g1 = first + lane + 32;
    float a = g0 >= 0 && g0 < n ? in[g0] : 0.0f;
    float b = g1 >= 0 && g1 < n ? in[g1] : 0.0f;
    float sum = 0.0f;
    for (int k = -radius; k <= radius; ++k) {
        int j = lane + radius + k;                 // 0 .. 63: position in the window
        float fromA = __shfl_sync(0xffff, a, j % 32);
        float fromB = __shfl_sync(0xffff, b, j % 32);
        sum += j < 32 ? fromA : fromB;
    }
    if (g < n)
        out[g] = sum;
}
