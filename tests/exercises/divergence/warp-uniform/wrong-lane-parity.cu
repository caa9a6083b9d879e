// expect-fail: divergent branches
// Every element is handled once and right, but the branch is on the lane's parity: each warp
// splits into its even and its odd lanes.
extern "C" __global__ void uniform(const int* in, int* out, int* counters, int n)
{
    int e = blockIdx.x * blockDim.x + threadIdx.x;
    int v = e < n ? in[e] : 0;
    if (e % 2 == 0) {
        atomicAdd(&counters[0], e < n);
        v = v * 2;
    } else {
        atomicAdd(&counters[1], e < n);
        v = v + 100;
    }
    if (e < n)
        out[e] = v;
}
