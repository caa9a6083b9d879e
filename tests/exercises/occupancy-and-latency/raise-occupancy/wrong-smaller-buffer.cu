// expect-fail: occupancy
// Shrinks the staging buffer to 40 KiB: still only 5 blocks of 8 warps per SM (62 %).
extern "C" __global__ void stream_copy(const float* in, float* out, int n)
{
    __shared__ float staging[10240];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    staging[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();                       // every value staged before any is read back
    // Each thread stores the value its mirror thread staged (the block's last element first).
    int t = blockDim.x - 1 - threadIdx.x;
    int j = blockIdx.x * blockDim.x + t;
    if (j < n)
        out[j] = staging[t];
}
