// expect-fail: correct
// The right halo is read from in[g + radius] (the element radius places on) instead of the
// element blockDim.x places on: the cells after the block's last element get the wrong values.
extern "C" __global__ void stencil(const float* in, float* out, int n, int radius)
{
    extern __shared__ float temp[];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int l = threadIdx.x + radius;
    temp[l] = g < n ? in[g] : 0.0f;
    if (threadIdx.x < radius) {
        int left = g - radius, right = g + radius;
        temp[l - radius] = left >= 0 && left < n ? in[left] : 0.0f;
        temp[l + blockDim.x] = right < n ? in[right] : 0.0f;
    }
    __syncthreads();
    float sum = 0.0f;
    for (int k = -radius; k <= radius; ++k)
        sum += temp[l + k];
    if (g < n)
        out[g] = sum;
}
