// expect-pass: the warp's window loaded two values per lane, and each neighbour taken from the
// lane that holds it with one shuffle of each register per step, choosing after the shuffles
// (every lane takes part in both). The window position is counted from the left end.
extern "C" __global__ void stencil_shfl(const float* in, float* out, int n, int radius)
{
    int lane = threadIdx.x & 31;
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int windowStart = (g - lane) - radius;
    int p = windowStart + lane, q = p + 32;
    float lo = (p >= 0 && p < n) ? in[p] : 0.0f;
    float hi = (q >= 0 && q < n) ? in[q] : 0.0f;
    float sum = 0.0f;
    for (int d = 0; d <= 2 * radius; ++d) {
        int pos = lane + d;                        // the neighbour's place in the window
        float x = __shfl_sync(0xffffffff, lo, pos & 31);
        float y = __shfl_sync(0xffffffff, hi, pos & 31);
        sum += pos < 32 ? x : y;
    }
    if (g < n)
        out[g] = sum;
}
