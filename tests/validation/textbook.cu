// Textbook kernels profiled with Nsight Compute on hardware and run on the simulator
// (scripts/validate-metrics.sh -> docs/validation.md).

// Reductions: the three classic steps.
extern "C" __global__ void reduce_interleaved(const float* in, float* out)
{
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if (t % (2 * stride) == 0)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

extern "C" __global__ void reduce_sequential(const float* in, float* out)
{
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

extern "C" __global__ void reduce_shuffle(const float* in, float* out)
{
    __shared__ float partial[8];
    unsigned t = threadIdx.x;
    float v = in[blockIdx.x * blockDim.x + t];
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if (t % 32 == 0)
        partial[t / 32] = v;
    __syncthreads();
    if (t < 32) {
        v = t < blockDim.x / 32 ? partial[t] : 0.0f;
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, o);
        if (t == 0)
            out[blockIdx.x] = v;
    }
}

// Array of structs vs struct of arrays: scale the x component.
struct Particle {
    float x, y, z, w;
};

extern "C" __global__ void aos_scale_x(Particle* p, float k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    p[i].x *= k;
}

extern "C" __global__ void soa_scale_x(float* x, float k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] *= k;
}

// 128-bit vector copy vs scalar copy of the same bytes.
extern "C" __global__ void copy_vec4(const float4* in, float4* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}

extern "C" __global__ void copy_scalar(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}

// Matrix transpose straight through global memory: reads coalesced, writes strided.
extern "C" __global__ void transpose_naive(const float* in, float* out, int n)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[x * n + y] = in[y * n + x];
}

// Histogram with shared-memory atomics.
extern "C" __global__ void histogram_shared(const unsigned int* in, unsigned int* bins)
{
    __shared__ unsigned int h[64];
    unsigned t = threadIdx.x;
    if (t < 64)
        h[t] = 0;
    __syncthreads();
    atomicAdd(&h[in[blockIdx.x * blockDim.x + t] % 64], 1u);
    __syncthreads();
    if (t < 64)
        atomicAdd(&bins[t], h[t]);
}
