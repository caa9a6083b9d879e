// expect-fail: memcheck
// The guard compares the thread's index within its block with n instead of its element index:
// with N=20 there is one block and it works, but in a grid of several blocks every thread of the
// last block passes the check and reads past the end of the arrays.
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    // Only threads with a valid element read a and b and write c.
    if (threadIdx.x < n)
        c[i] = a[i] + b[i];
}
