// 1D stencil with a shared-memory tile: each block loads its elements and radius halo elements
// on each side once, waits at the barrier, then sums from shared memory.
extern "C" __global__ void stencil(const float* in, float* out, int n, int radius)
{
    extern __shared__ float temp[];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int l = threadIdx.x + radius;
    temp[l] = g < n ? in[g] : 0.0f;
    if (threadIdx.x < radius) {            // the first radius threads load the halos
        int left = g - radius, right = g + blockDim.x;
        temp[l - radius] = left >= 0 && left < n ? in[left] : 0.0f;
        temp[l + blockDim.x] = right < n ? in[right] : 0.0f;
    }
    __syncthreads();                       // the whole tile is written before anyone reads it
    float sum = 0.0f;
    for (int k = -radius; k <= radius; ++k)
        sum += temp[l + k];
    if (g < n)
        out[g] = sum;
}
