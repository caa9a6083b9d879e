// expect-fail: divergent branches
// The first half of each block takes the even elements, the second half the odd ones. With 128
// threads a half is two whole warps and nothing splits, but with 32 threads a half is 16 lanes:
// then every warp splits on the branch (the performance size alone does not show it).
extern "C" __global__ void uniform(const int* in, int* out, int* counters, int n)
{
    int half = blockDim.x / 2;
    bool first = threadIdx.x < half;
    int local = first ? threadIdx.x : threadIdx.x - half;
    int e = blockIdx.x * blockDim.x + 2 * local + (first ? 0 : 1);
    int v = e < n ? in[e] : 0;

    if (first) {
        atomicAdd(&counters[0], e < n);
        v = v * 2;
    } else {
        atomicAdd(&counters[1], e < n);
        v = v + 100;
    }
    if (e < n)
        out[e] = v;
}
