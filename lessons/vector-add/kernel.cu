// Vector add: one thread computes one element, c[i] = a[i] + b[i].
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n)
{
    // Which element is mine? Blocks tile the array; threads tile the block.
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    // The grid is rounded up to whole blocks, so the last block may have threads
    // past the end of the array: they must not touch memory.
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}
