// Even elements are doubled and counted in counters[0]; odd elements get 100 added and are
// counted in counters[1]. The lane's parity picks a counter and a value, not a path: all 32
// lanes run the same instructions.
extern "C" __global__ void diverge(const int* in, int* out, int* counters, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int odd = threadIdx.x % 2;                 // 0 or 1: also the counter to add to
    atomicAdd(&counters[odd], i < n);
    v = odd ? v + 100 : v * 2;                 // a select, not a branch
    if (i < n)
        out[i] = v;
}
