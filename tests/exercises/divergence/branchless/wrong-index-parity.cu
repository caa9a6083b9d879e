// expect-fail: divergent branches
// Tests the parity of the element instead of the lane: the same results, and the same split,
// since neighbouring lanes still hold neighbouring elements.
extern "C" __global__ void diverge(const int* in, int* out, int* counters, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    if (i % 2 == 0) {
        atomicAdd(&counters[0], i < n);
        v = v * 2;
    } else {
        atomicAdd(&counters[1], i < n);
        v = v + 100;
    }
    if (i < n)
        out[i] = v;
}
