// Histogram of bytes into 256 bins. Each thread visits the elements i, i + S, i + 2S, ... (S: the
// threads of the grid). This version adds every element straight to the global histogram.
#define BINS 256

extern "C" __global__ void histo_private(const unsigned char* data, unsigned int* bins, int n)
{
    // TODO(student): count into a private histogram of this block in shared memory (all zero
    // before anyone counts), then add its counts to `bins`: one global atomicAdd per bin.
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&bins[data[i]], 1u);
}
