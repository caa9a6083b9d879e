// Kogge-Stone scan of one section per block: out[i] = the sum of the section's elements up to and
// including i. One element per thread; the section is blockDim.x ints of shared memory.
extern "C" __global__ void scan_kogge_stone(const int* in, int* out, int* sums, int n)
{
    extern __shared__ int x[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[threadIdx.x] = i < n ? in[i] : 0;

    // TODO(student): in steps with stride s = 1, 2, 4, ... < blockDim.x, every thread t >= s adds
    // x[t - s] to x[t]. Every thread must read before anyone writes, and every step must be
    // finished before the next begins.

    if (i < n)
        out[i] = x[threadIdx.x];
    if (threadIdx.x == blockDim.x - 1)
        sums[blockIdx.x] = x[threadIdx.x];
}
