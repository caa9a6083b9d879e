// A streaming copy, one element per thread, staged through shared memory.
extern "C" __global__ void stream_copy(const float* in, float* out, int n)
{
    // TODO(student): this buffer reserves 48 KiB per block, so few blocks fit on an SM. The copy
    // does not need it: raise the occupancy.
    __shared__ float staging[12288];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        staging[threadIdx.x] = in[i];
        out[i] = staging[threadIdx.x];
    }
}
