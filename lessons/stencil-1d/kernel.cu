// 1D stencil: out[i] = in[i - R] + ... + in[i + R]. Each block stages its elements and R halo
// elements on each side in shared memory, so every input is read from global memory once.
extern "C" __global__ void stencil(const float* in, float* out, int n, int radius)
{
    extern __shared__ float temp[];          // blockDim.x + 2 * radius floats
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int l = threadIdx.x + radius;
    temp[l] = in[g];
    if (threadIdx.x < radius) {              // the first R threads also load the halos
        temp[l - radius] = g - radius >= 0 ? in[g - radius] : 0.0f;
        temp[l + blockDim.x] = g + blockDim.x < n ? in[g + blockDim.x] : 0.0f;
    }
    __syncthreads();                         // everything staged before anyone reads
    float sum = 0.0f;
    for (int k = -radius; k <= radius; ++k)
        sum += temp[l + k];
    out[g] = sum;
}

// The same kernel without the barrier: a thread may read a neighbour's slot before the thread
// that owns it has written it.
extern "C" __global__ void stencil_no_sync(const float* in, float* out, int n, int radius)
{
    extern __shared__ float temp[];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int l = threadIdx.x + radius;
    temp[l] = in[g];
    if (threadIdx.x < radius) {
        temp[l - radius] = g - radius >= 0 ? in[g - radius] : 0.0f;
        temp[l + blockDim.x] = g + blockDim.x < n ? in[g + blockDim.x] : 0.0f;
    }
    float sum = 0.0f;
    for (int k = -radius; k <= radius; ++k)
        sum += temp[l + k];
    out[g] = sum;
}
