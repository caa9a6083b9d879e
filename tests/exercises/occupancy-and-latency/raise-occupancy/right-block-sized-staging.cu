// expect-pass: keeps the staging and the mirror order, but the buffer holds one block's values
// (at most 1024 floats, 4 KiB), so shared memory no longer limits the blocks per SM.
extern "C" __global__ void stream_copy(const float* in, float* out, int n)
{
    __shared__ float staging[1024];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    staging[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    int t = blockDim.x - 1 - threadIdx.x;
    int j = blockIdx.x * blockDim.x + t;
    if (j < n)
        out[j] = staging[t];
}
