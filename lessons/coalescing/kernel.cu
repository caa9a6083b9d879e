// Coalescing: the same copy with the source shifted by OFFSET elements, or read every STRIDE-th
// element. Each warp's 32 loads become one request; what it costs is the number of 32-byte
// sectors those 32 addresses touch.
extern "C" __global__ void offset_copy(const float* in, float* out, int offset)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i + offset];
}

extern "C" __global__ void stride_copy(const float* in, float* out, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * stride];
}
