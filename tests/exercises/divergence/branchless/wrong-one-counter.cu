// expect-fail: correct
// Branch-free, but every lane adds to counters[0]: the values are right, the counts are not.
extern "C" __global__ void diverge(const int* in, int* out, int* counters, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int odd = threadIdx.x % 2;
    atomicAdd(&counters[0], i < n);
    v = odd ? v + 100 : v * 2;
    if (i < n)
        out[i] = v;
}
