// expect-fail: memcheck
// Takes "no branches at all" to the store as well: the bounds check goes, and the threads past n in
// the last block write past the end of out.
extern "C" __global__ void diverge(const int* in, int* out, int* counters, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int odd = threadIdx.x % 2;                 // 0 or 1: also the counter to add to
    atomicAdd(&counters[odd], i < n);
    v = odd ? v + 100 : v * 2;                 // a select, not a branch
    out[i] = v;
}
