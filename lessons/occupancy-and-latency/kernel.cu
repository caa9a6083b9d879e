// Occupancy and latency: a streaming copy, one element per thread. Each warp issues one load,
// waits several hundred cycles for DRAM, stores and leaves. How long the whole copy takes depends
// on how many warps each SM keeps resident to wait at the same time.
extern "C" __global__ void stream_copy(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < n) {
        // The load is issued at once; the warp stalls only when the store needs its value.
        float v = in[i];
        out[i] = v;
    }
}
