// expect-fail: correct
// Numbers the warps within the block (threadIdx.x / 32) but offsets the elements by whole blocks:
// right while a block holds whole pairs of warps, but with 32-thread blocks every warp is warp 0,
// so each block takes only even elements and the odd ones are never written.
extern "C" __global__ void uniform(const int* in, int* out, int* counters, int n)
{
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int e = blockIdx.x * blockDim.x + (warp / 2) * 64 + 2 * lane + warp % 2;
    int v = e < n ? in[e] : 0;

    if (warp % 2 == 0) {
        atomicAdd(&counters[0], e < n);
        v = v * 2;
    } else {
        atomicAdd(&counters[1], e < n);
        v = v + 100;
    }
    if (e < n)
        out[e] = v;
}
