// expect-fail: initcheck
// The halo cells are loaded only where there is an element ("nothing to load outside the array"):
// but the stencil counts outside cells as 0, and nobody writes those slots of the tile, so the
// first and last blocks add whatever was left in shared memory.
extern "C" __global__ void stencil(const float* in, float* out, int n, int radius)
{
    extern __shared__ float temp[];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int l = threadIdx.x + radius;
    temp[l] = g < n ? in[g] : 0.0f;
    if (threadIdx.x < radius) {            // the first radius threads load the halos
        int left = g - radius, right = g + blockDim.x;
        if (left >= 0 && left < n)
            temp[l - radius] = in[left];
        if (right < n)
            temp[l + blockDim.x] = in[right];
    }
    __syncthreads();                       // the whole tile is written before anyone reads it
    float sum = 0.0f;
    for (int k = -radius; k <= radius; ++k)
        sum += temp[l + k];
    if (g < n)
        out[g] = sum;
}
