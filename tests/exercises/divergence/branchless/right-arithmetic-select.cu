// expect-pass: no ?: at all: the parity is a 0/1 mask and the value is computed arithmetically
// (odd: v + 100, even: 2v), so every lane runs the same instructions.
extern "C" __global__ void diverge(const int* in, int* out, int* counters, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool inside = i < n;
    int v = 0;
    if (inside)
        v = in[i];
    int odd = threadIdx.x & 1;
    atomicAdd(counters + odd, inside ? 1 : 0);
    int result = odd * (v + 100) + (1 - odd) * (v * 2);
    if (inside)
        out[i] = result;
}
