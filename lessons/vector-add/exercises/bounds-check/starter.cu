// Vector add: one thread computes one element, c[i] = a[i] + b[i].
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    // TODO(student): the last block may have threads past the end of the arrays.
    // Only threads with a valid element may read a and b and write c.
    c[i] = a[i] + b[i];
}
