// expect-pass: shift the input pointer by the offset once, then lane k copies element k of its
// warp's 32 (the same coalesced mapping, written with a pointer and an early return).
extern "C" __global__ void offset_copy(const float* in, float* out, int offset, int n)
{
    const float* src = in + offset;
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n)
        return;
    out[i] = src[i];
}
