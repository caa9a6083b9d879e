// expect-fail: memcheck
// Loads before checking the bounds: the threads past n in the last block read past the input.
extern "C" __global__ void diverge(const int* in, int* out, int* counters, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    int odd = threadIdx.x % 2;
    atomicAdd(&counters[odd], i < n);
    v = odd ? v + 100 : v * 2;
    if (i < n)
        out[i] = v;
}
