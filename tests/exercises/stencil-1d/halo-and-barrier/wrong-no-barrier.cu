// expect-fail: racecheck
// The halo is there, the barrier is not: a thread may read a neighbour's slot before it is written.
extern "C" __global__ void stencil(const float* in, float* out, int n, int radius)
{
    extern __shared__ float temp[];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int l = threadIdx.x + radius;
    temp[l] = g < n ? in[g] : 0.0f;
    if (threadIdx.x < radius) {
        int left = g - radius, right = g + blockDim.x;
        temp[l - radius] = left >= 0 && left < n ? in[left] : 0.0f;
        temp[l + blockDim.x] = right < n ? in[right] : 0.0f;
    }
    float sum = 0.0f;
    for (int k = -radius; k <= radius; ++k)
        sum += temp[l + k];
    if (g < n)
        out[g] = sum;
}
