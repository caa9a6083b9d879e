// expect-fail: sectors per request
// Every element of the block is copied exactly once (lane * 8 + warp is a permutation of 0..255),
// so the result is right, but the 32 lanes of a warp now read elements 8 floats apart.
extern "C" __global__ void offset_copy(const float* in, float* out, int offset, int n)
{
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int i = blockIdx.x * blockDim.x + lane * (blockDim.x / 32) + warp;
    if (i < n)
        out[i] = in[i + offset];
}
