// expect-fail: correct
// Picks the register before the shuffle, "one shuffle instead of two": but each lane chooses a or
// b by its own window position, and the lane it reads from sends the register that lane chose,
// which is the other one whenever the two positions fall on different sides of 32.
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
        float mine = j < 32 ? a : b;
        sum += __shfl_sync(0xffffffffu, mine, j % 32);
    }
    if (g < n)
        out[g] = sum;
}
