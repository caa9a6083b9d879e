// Held-out kernels for the timing model (issue 34): written before the launch-cost fit and never
// used to fit anything, so that how well the model predicts kernels it was not tuned on can be
// measured. Sizes make each launch last about 2 to 40 us on an H100, where fixed costs matter.

extern "C" __global__ void h_saxpy(float a, const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

extern "C" __global__ void h_copy_strided(const float* in, float* out, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[(long long)i * stride];
}

extern "C" __global__ void h_transpose_naive(const float* in, float* out, int w)
{
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int k = 0; k < 32; k += 8)
        out[x * w + y + k] = in[(y + k) * w + x];
}

extern "C" __global__ void h_transpose_tile(const float* in, float* out, int w)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int k = 0; k < 32; k += 8)
        tile[threadIdx.y + k][threadIdx.x] = in[(y + k) * w + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int k = 0; k < 32; k += 8)
        out[(y + k) * w + x] = tile[threadIdx.x][threadIdx.y + k];
}

struct Particle { float x, y, z, w; };

extern "C" __global__ void h_scale_aos(Particle* p, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        p[i].x *= s;
        p[i].y *= s;
        p[i].z *= s;
    }
}

extern "C" __global__ void h_scale_soa(float* x, float* y, float* z, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] *= s;
        y[i] *= s;
        z[i] *= s;
    }
}

extern "C" __global__ void h_matmul_naive(const float* a, const float* b, float* c, int m)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0;
    for (int k = 0; k < m; ++k)
        s += a[row * m + k] * b[k * m + col];
    c[row * m + col] = s;
}

extern "C" __global__ void h_matmul_tiled(const float* a, const float* b, float* c, int m)
{
    __shared__ float ta[16][16], tb[16][16];
    int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
    float s = 0;
    for (int t = 0; t < m; t += 16) {
        ta[threadIdx.y][threadIdx.x] = a[row * m + t + threadIdx.x];
        tb[threadIdx.y][threadIdx.x] = b[(t + threadIdx.y) * m + col];
        __syncthreads();
        for (int k = 0; k < 16; ++k)
            s += ta[threadIdx.y][k] * tb[k][threadIdx.x];
        __syncthreads();
    }
    c[row * m + col] = s;
}

// One thread per row of a rows x cols matrix (uncoalesced), and one warp per row.
extern "C" __global__ void h_rowsum_thread(const float* a, float* out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float s = 0;
        for (int c = 0; c < cols; ++c)
            s += a[r * cols + c];
        out[r] = s;
    }
}

extern "C" __global__ void h_rowsum_warp(const float* a, float* out, int rows, int cols)
{
    int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    if (r >= rows)
        return;
    float s = 0;
    for (int c = lane; c < cols; c += 32)
        s += a[r * cols + c];
    for (int o = 16; o > 0; o /= 2)
        s += __shfl_down_sync(0xffffffffu, s, o);
    if (lane == 0)
        out[r] = s;
}

// Block sums in shared memory, one atomicAdd per block.
extern "C" __global__ void h_sum_atomic(const float* in, float* out, int n)
{
    __shared__ float part[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    part[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s)
            part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(out, part[0]);
}

// A 3 x 3 box blur of a w x h image, one thread per pixel.
extern "C" __global__ void h_blur(const float* in, float* out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1)
        return;
    float s = 0;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
            s += in[(y + dy) * w + x + dx];
    out[y * w + x] = s / 9.0f;
}

// out[i] = in[idx[i]]: a gather through an index array (scattered or in order).
extern "C" __global__ void h_gather(const float* in, const int* idx, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[idx[i]];
}

// A 64-bin histogram of byte values, privatised in shared memory.
extern "C" __global__ void h_histogram(const unsigned* in, unsigned* bins, int n)
{
    __shared__ unsigned local[64];
    if (threadIdx.x < 64)
        local[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[in[i] % 64], 1u);
    __syncthreads();
    if (threadIdx.x < 64)
        atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
