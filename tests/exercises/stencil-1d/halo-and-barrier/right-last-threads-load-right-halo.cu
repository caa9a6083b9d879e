// expect-pass: the first radius threads load the left halo and the last radius threads the
// right one (another split of the halo loads), then one barrier, then the sum.
extern "C" __global__ void stencil(const float* in, float* out, int n, int radius)
{
    extern __shared__ float tile[];
    int t = threadIdx.x;
    int g = blockIdx.x * blockDim.x + t;
    tile[t + radius] = g < n ? in[g] : 0.0f;
    if (t < radius) {
        int left = g - radius;
        tile[t] = left >= 0 && left < n ? in[left] : 0.0f;
    }
    if (t >= blockDim.x - radius) {
        int right = g + radius;
        tile[t + 2 * radius] = right < n ? in[right] : 0.0f;
    }
    __syncthreads();
    float s = 0.0f;
    for (int j = 0; j <= 2 * radius; ++j)
        s += tile[t + j];
    if (g < n)
        out[g] = s;
}
