// expect-fail: synccheck
// The barrier put right after the halo loads, inside their if: only the first R threads reach it,
// the rest of the block goes on to sum without waiting.
extern "C" __global__ void stencil(const float* in, float* out, int n, int radius)
{
    extern __shared__ float temp[];                 // 2 * blockDim.x + 2 * radius floats
    int width = 2 * blockDim.x;                     // outputs per block
    int base = blockIdx.x * width;                  // the block's first output
    // Each thread loads two elements, blockDim.x apart, so a warp's lanes stay consecutive.
    for (int k = threadIdx.x; k < width; k += blockDim.x)
        temp[radius + k] = base + k < n ? in[base + k] : 0.0f;
    if (threadIdx.x < radius) {                     // the halos, R cells on each side
        int left = base - radius + threadIdx.x, right = base + width + threadIdx.x;
        temp[threadIdx.x] = left >= 0 && left < n ? in[left] : 0.0f;
        temp[radius + width + threadIdx.x] = right < n ? in[right] : 0.0f;
        __syncthreads();
    }
    for (int k = threadIdx.x; k < width; k += blockDim.x) {
        float sum = 0.0f;
        for (int j = -radius; j <= radius; ++j)
            sum += temp[radius + k + j];
        if (base + k < n)
            out[base + k] = sum;
    }
}
