// expect-fail: divergent branches
// Replaces the if/else by ?: on both sides, believing ?: is always a select: with a call to atomicAdd
// on each side it is still two paths, and every warp splits on the lane's parity.
extern "C" __global__ void diverge(const int* in, int* out, int* counters, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int odd = threadIdx.x % 2;                 // 0 or 1: also the counter to add to
    v = odd ? (atomicAdd(&counters[1], i < n), v + 100)
            : (atomicAdd(&counters[0], i < n), v * 2);   // ?: instead of if/else
    if (i < n)
        out[i] = v;
}
