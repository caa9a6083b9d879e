// expect-fail: occupancy
// Shrinks the staging buffer to 40 KiB: still only 5 blocks of 8 warps per SM (62 %).
extern "C" __global__ void stream_copy(const float* in, float* out, int n)
{
    __shared__ float staging[10240];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        staging[threadIdx.x] = in[i];
        out[i] = staging[threadIdx.x];
    }
}
