// expect-fail: memcheck
// Declares the staging buffer extern, expecting it to take the block's size by itself: an extern
// __shared__ array gets only the dynamic shared memory the launch asks for, and this launch asks
// for none, so every thread stages past its end.
extern "C" __global__ void stream_copy(const float* in, float* out, int n)
{
    extern __shared__ float staging[];     // as big as the block needs
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    staging[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();                       // every value staged before any is read back
    // Each thread stores the value its mirror thread staged (the block's last element first).
    int t = blockDim.x - 1 - threadIdx.x;
    int j = blockIdx.x * blockDim.x + t;
    if (j < n)
        out[j] = staging[t];
}
