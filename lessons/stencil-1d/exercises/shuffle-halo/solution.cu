// Each warp loads its 32 + 2R inputs once, two per lane (a: the first 32 of the window, b: the
// rest), and every lane gathers its 2R + 1 neighbours from the lanes that hold them with
// shuffles. No shared memory and no barrier; two coalesced loads per thread.
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
        float fromA = __shfl_sync(0xffffffffu, a, j % 32);
        float fromB = __shfl_sync(0xffffffffu, b, j % 32);
        sum += j < 32 ? fromA : fromB;
    }
    if (g < n)
        out[g] = sum;
}
