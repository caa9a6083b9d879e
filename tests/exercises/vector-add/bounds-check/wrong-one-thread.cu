// expect-fail: runs in parallel
// "Thread 0 does the whole vector, so nothing can go out of bounds": right numbers, but the other
// threads only check their index and leave; the GPU's parallelism is gone.
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        for (int i = 0; i < n; i++)
            c[i] = a[i] + b[i];
    }
}
