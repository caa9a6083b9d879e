// expect-fail: divergent branches
// Groups of 16 lanes share a side: right numbers, but every warp still splits in two.
extern "C" __global__ void uniform(const int* in, int* out, int* counters, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int half = i / 16, lane = i % 16;
    int e = (half / 2) * 32 + 2 * lane + half % 2;
    int v = e < n ? in[e] : 0;

    if (half % 2 == 0) {
        atomicAdd(&counters[0], e < n);
        v = v * 2;
    } else {
        atomicAdd(&counters[1], e < n);
        v = v + 100;
    }
    if (e < n)
        out[e] = v;
}
