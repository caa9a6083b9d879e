// expect-fail: sectors per request
// Four loads in flight, but each thread takes four neighbouring elements: lane k reads 4k..4k+3,
// so a warp's load of v0 touches every fourth float of 128 and needs 16 sectors, not 4.
extern "C" __global__ void strided_copy(const float* in, float* out, int n)
{
    int stride = gridDim.x * blockDim.x;
    for (int t = blockIdx.x * blockDim.x + threadIdx.x; 4 * t < n; t += stride) {
        int i = 4 * t;
        float v0 = in[i];
        float v1 = i + 1 < n ? in[i + 1] : 0.0f;
        float v2 = i + 2 < n ? in[i + 2] : 0.0f;
        float v3 = i + 3 < n ? in[i + 3] : 0.0f;
        out[i] = v0;
        if (i + 1 < n) out[i + 1] = v1;
        if (i + 2 < n) out[i + 2] = v2;
        if (i + 3 < n) out[i + 3] = v3;
    }
}
