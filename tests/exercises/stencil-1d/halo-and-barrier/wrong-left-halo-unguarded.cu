// expect-fail: memcheck
// The halos are loaded and the barrier is there, but the left halo is not checked against 0: the
// first block's first radius threads read in[-radius .. -1].
extern "C" __global__ void stencil(const float* in, float* out, int n, int radius)
{
    extern __shared__ float temp[];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int l = threadIdx.x + radius;
    temp[l] = g < n ? in[g] : 0.0f;
    if (threadIdx.x < radius) {
        int left = g - radius, right = g + blockDim.x;
        temp[l - radius] = left < n ? in[left] : 0.0f;
        temp[l + blockDim.x] = right < n ? in[right] : 0.0f;
    }
    __syncthreads();
    float sum = 0.0f;
    for (int k = -radius; k <= radius; ++k)
        sum += temp[l + k];
    if (g < n)
        out[g] = sum;
}
