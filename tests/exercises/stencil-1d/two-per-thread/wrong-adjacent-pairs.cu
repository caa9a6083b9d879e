// expect-fail: sectors per request
// Gives each thread two neighbouring elements, 2t and 2t + 1: right results, but at each load the
// lanes of a warp read every other element, 64 floats apart at the ends.
extern "C" __global__ void stencil(const float* in, float* out, int n, int radius)
{
    extern __shared__ float temp[];                 // 2 * blockDim.x + 2 * radius floats
    int width = 2 * blockDim.x;                     // outputs per block
    int base = blockIdx.x * width;                  // the block's first output
    for (int k = 2 * threadIdx.x; k < 2 * threadIdx.x + 2; ++k)
        temp[radius + k] = base + k < n ? in[base + k] : 0.0f;
    if (threadIdx.x < radius) {                     // the halos, R cells on each side
        int left = base - radius + threadIdx.x, right = base + width + threadIdx.x;
        temp[threadIdx.x] = left >= 0 && left < n ? in[left] : 0.0f;
        temp[radius + width + threadIdx.x] = right < n ? in[right] : 0.0f;
    }
    __syncthreads();
    for (int k = 2 * threadIdx.x; k < 2 * threadIdx.x + 2; ++k) {
        float sum = 0.0f;
        for (int j = -radius; j <= radius; ++j)
            sum += temp[radius + k + j];
        if (base + k < n)
            out[base + k] = sum;
    }
}
