// A student's typo: the CLI must report it at line 5 with exit code 2.
extern "C" __global__ void scale(float* x, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * s +;
}
