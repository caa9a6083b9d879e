// 1D stencil: out[g] = in[g - radius] + ... + in[g + radius], 0 outside the array. The launch gives
// each block 2 * blockDim.x outputs (half as many blocks as one output per thread would need).
extern "C" __global__ void stencil(const float* in, float* out, int n, int radius)
{
    extern __shared__ float temp[];                 // 2 * blockDim.x + 2 * radius floats
    int width = 2 * blockDim.x;                     // outputs per block
    int base = blockIdx.x * width;                  // the block's first output

    // TODO(student): the block must compute all `width` outputs from base on, not only the first
    // blockDim.x. Stage temp[radius + k] = in[base + k] for k < width (two per thread), the R halo
    // cells on each side, wait, and compute two outputs per thread.
    int k = threadIdx.x;
    temp[radius + k] = base + k < n ? in[base + k] : 0.0f;
    if (threadIdx.x < radius) {
        int left = base - radius + threadIdx.x, right = base + width + threadIdx.x;
        temp[threadIdx.x] = left >= 0 && left < n ? in[left] : 0.0f;
        temp[radius + width + threadIdx.x] = right < n ? in[right] : 0.0f;
    }
    __syncthreads();
    float sum = 0.0f;
    for (int j = -radius; j <= radius; ++j)
        sum += temp[radius + k + j];
    if (base + k < n)
        out[base + k] = sum;
}
