// expect-fail: memcheck
// Every thread reads s places to its left, also the first s threads, which have no left
// neighbour: threadIdx.x - s wraps around to a huge unsigned index.
extern "C" __global__ void scan_kogge_stone(const int* in, int* out, int* sums, int n)
{
    extern __shared__ int x[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[threadIdx.x] = i < n ? in[i] : 0;
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        __syncthreads();
        int left = x[threadIdx.x - s];
        __syncthreads();
        x[threadIdx.x] += left;
    }
    if (i < n)
        out[i] = x[threadIdx.x];
    if (threadIdx.x == blockDim.x - 1)
        sums[blockIdx.x] = x[threadIdx.x];
}
