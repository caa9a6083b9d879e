// expect-fail: correct
// The stride written as a number: 4 blocks of 256 threads make 1024 threads in the grid. With
// smaller blocks the grid has fewer threads, and the elements between its last thread and 1024
// (and every such gap after it) are never written.
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += 1024)
        c[i] = a[i] + b[i];
}
