// expect-pass: another warp-uniform mapping: each pair of warps shares 64 elements; the even warp
// takes the even elements, the odd warp the odd ones, with the warp and lane from threadIdx and
// blockIdx (blocks are whole warps) rather than from the global index.
extern "C" __global__ void uniform(const int* in, int* out, int* counters, int n)
{
    int warpsPerBlock = blockDim.x / 32;
    int warp = blockIdx.x * warpsPerBlock + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    int parity = warp & 1;
    int e = (warp >> 1) * 64 + lane * 2 + parity;
    bool inside = e < n;
    int v = inside ? in[e] : 0;
    if (parity) {
        atomicAdd(&counters[1], inside);
        v += 100;
    } else {
        atomicAdd(&counters[0], inside);
        v *= 2;
    }
    if (inside)
        out[e] = v;
}
