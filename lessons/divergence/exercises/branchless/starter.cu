// Even elements are doubled and counted in counters[0]; odd elements get 100 added and are
// counted in counters[1]. The if/else on the lane's parity splits every warp in two.
extern "C" __global__ void diverge(const int* in, int* out, int* counters, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;

    // TODO(student): compute the same results without a branch that splits the warp: let the
    // parity choose an address and a value instead of a path through the code.
    if (threadIdx.x % 2 == 0) {
        atomicAdd(&counters[0], i < n);
        v = v * 2;
    } else {
        atomicAdd(&counters[1], i < n);
        v = v + 100;
    }

    if (i < n)
        out[i] = v;
}
