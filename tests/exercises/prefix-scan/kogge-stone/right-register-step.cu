// expect-pass: each step reads both values into a register, waits, writes, waits again: the
// same Kogge-Stone steps with the barriers on the other side of the loop body.
extern "C" __global__ void scan_kogge_stone(const int* in, int* out, int* sums, int n)
{
    extern __shared__ int x[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    x[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int s = 1; s < blockDim.x; s <<= 1) {
        int v = x[t];
        if (t >= s)
            v += x[t - s];
        __syncthreads();
        x[t] = v;
        __syncthreads();
    }
    if (i < n)
        out[i] = x[t];
    if (t == blockDim.x - 1)
        sums[blockIdx.x] = x[t];
}
