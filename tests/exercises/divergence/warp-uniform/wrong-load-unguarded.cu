// expect-fail: memcheck
// The warp-uniform mapping, but the load is not guarded: the grid is rounded up to 64 elements,
// so lanes past n read past the end of in.
extern "C" __global__ void uniform(const int* in, int* out, int* counters, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int warp = i / 32, lane = i % 32;
    int e = (warp / 2) * 64 + 2 * lane + warp % 2;
    int v = in[e];
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
