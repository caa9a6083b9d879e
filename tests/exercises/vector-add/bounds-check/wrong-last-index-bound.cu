// expect-fail: correct
// "The last index is n - 1", so the check became i < n - 1: nothing goes out of bounds, but the
// last element is never written.
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n - 1)
        c[i] = a[i] + b[i];
}
