// 1D stencil: out[g] = in[g - radius] + ... + in[g + radius], 0 outside the array. Each block
// stages its inputs in shared memory: temp holds blockDim.x + 2 * radius floats.
extern "C" __global__ void stencil(const float* in, float* out, int n, int radius)
{
    extern __shared__ float temp[];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int l = threadIdx.x + radius;          // my slot: after the left halo
    temp[l] = g < n ? in[g] : 0.0f;

    // TODO(student): load the radius halo elements on each side of the block (0 outside the
    // array), and make every thread wait until the whole tile is written.

    float sum = 0.0f;
    for (int k = -radius; k <= radius; ++k)
        sum += temp[l + k];
    if (g < n)
        out[g] = sum;
}
