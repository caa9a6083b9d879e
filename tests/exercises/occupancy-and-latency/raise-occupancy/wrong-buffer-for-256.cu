// expect-fail: memcheck
// Sizes the staging buffer for the 256-thread blocks of the timed run: the occupancy goal is met,
// but a block of 1024 threads stages past the end of the buffer.
extern "C" __global__ void stream_copy(const float* in, float* out, int n)
{
    __shared__ float staging[256];         // one value per thread of the block
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    staging[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();                       // every value staged before any is read back
    // Each thread stores the value its mirror thread staged (the block's last element first).
    int t = blockDim.x - 1 - threadIdx.x;
    int j = blockIdx.x * blockDim.x + t;
    if (j < n)
        out[j] = staging[t];
}
