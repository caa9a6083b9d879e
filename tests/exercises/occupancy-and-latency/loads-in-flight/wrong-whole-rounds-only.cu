// expect-fail: correct
// Runs the loop only while all four of its elements exist (i + 3 * stride < n), so no value needs
// a guard: but when n is not a multiple of 4 * stride the last, partial round is never copied.
extern "C" __global__ void strided_copy(const float* in, float* out, int n)
{
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i + 3 * stride < n; i += 4 * stride) {
        float v0 = in[i];
        float v1 = in[i + stride];
        float v2 = in[i + 2 * stride];
        float v3 = in[i + 3 * stride];
        out[i] = v0;
        out[i + stride] = v1;
        out[i + 2 * stride] = v2;
        out[i + 3 * stride] = v3;
    }
}
