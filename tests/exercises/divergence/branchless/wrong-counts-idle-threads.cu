// expect-fail: correct
// Counts one per thread instead of one per element: the threads of the last block that lie past
// n are counted too.
extern "C" __global__ void diverge(const int* in, int* out, int* counters, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int odd = threadIdx.x % 2;
    atomicAdd(&counters[odd], 1);
    v = odd ? v + 100 : v * 2;
    if (i < n)
        out[i] = v;
}
