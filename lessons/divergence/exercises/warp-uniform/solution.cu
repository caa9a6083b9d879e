// Warps 2k and 2k+1 share elements 64k .. 64k+63: the even warp the even ones, the odd warp the
// odd ones. The branch depends on the warp number only, so no warp splits.
extern "C" __global__ void uniform(const int* in, int* out, int* counters, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int warp = i / 32, lane = i % 32;
    int e = (warp / 2) * 64 + 2 * lane + warp % 2;
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
