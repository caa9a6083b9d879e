// Held-out tiled kernels for the lone-block cost (issue 34): kernels that stage data in shared
// memory behind __syncthreads() in blocks of 1,024 threads, as the Best Practices Guide's C = AB
// and C = AA^T tiles do, but are none of them. Written before any fit and never fitted; the H100
// runs each at two blocks per SM and with 116 KiB of dynamic shared memory it never touches, which
// leaves one block per SM (tests/validation/lone-tiles.json, scripts/probe-lone-tiles.sh).
// __launch_bounds__(1024, 2) holds ptxas to 32 registers so that two blocks fit when unpadded.
// lt_empty and lt_sync probe a lone block's fixed cost (tests/validation/lone-empty.json): a block
// that does nothing, at several block sizes, and one that meets at a barrier; one block per SM.
#define LT 32

extern "C" __global__ void lt_empty() {}

// The same with one barrier and one store per block (what a barrier adds to a lone block).
extern "C" __global__ void lt_sync(float* out)
{
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = float(blockDim.x);
}

// Transpose of a w x w matrix through a padded 32 x 33 tile, one element per thread.
extern "C" __global__ void __launch_bounds__(1024, 2) lt_transpose(const float* in, float* out, int w)
{
    __shared__ float tile[LT][LT + 1];
    int x = blockIdx.x * LT + threadIdx.x, y = blockIdx.y * LT + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * w + x];
    __syncthreads();
    x = blockIdx.y * LT + threadIdx.x;
    y = blockIdx.x * LT + threadIdx.y;
    out[y * w + x] = tile[threadIdx.x][threadIdx.y];
}

// 3 x 3 weighted box filter of a w x w image: the input is (w + 2) x (w + 2) with a one-cell
// border; a block loads its 34 x 34 tile (the halo in a second, partly idle pass), then each
// thread reads its nine neighbours from shared memory.
extern "C" __global__ void __launch_bounds__(1024, 2) lt_stencil2d(const float* in, float* out, int w)
{
    __shared__ float s[LT + 2][LT + 2];
    const int pitch = w + 2;
    const int bx = blockIdx.x * LT, by = blockIdx.y * LT;
    const int t = threadIdx.y * LT + threadIdx.x;
    for (int i = t; i < (LT + 2) * (LT + 2); i += LT * LT) {
        const int r = i / (LT + 2), c = i % (LT + 2);
        s[r][c] = in[(by + r) * pitch + bx + c];
    }
    __syncthreads();
    const int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
    const float v = 0.25f * s[ty][tx] + 0.125f * (s[ty - 1][tx] + s[ty + 1][tx] + s[ty][tx - 1] + s[ty][tx + 1]) +
                    0.0625f * (s[ty - 1][tx - 1] + s[ty - 1][tx + 1] + s[ty + 1][tx - 1] + s[ty + 1][tx + 1]);
    out[(by + threadIdx.y) * w + bx + threadIdx.x] = v;
}

// y = A x, A rows x cols (cols <= 1024): a block of 32 warps owns 32 rows; x is staged in shared
// memory once per block; each warp reads its row coalesced and adds up with shuffles.
extern "C" __global__ void __launch_bounds__(1024, 2) lt_matvec(const float* a, const float* x, float* y, int cols)
{
    __shared__ float xs[1024];
    const int t = threadIdx.y * LT + threadIdx.x;
    if (t < cols) xs[t] = x[t];
    __syncthreads();
    const int row = blockIdx.x * LT + threadIdx.y;
    const float* r = a + (size_t)row * cols;
    float acc = 0.0f;
    for (int c = threadIdx.x; c < cols; c += LT) acc += r[c] * xs[c];
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
    if (threadIdx.x == 0) y[row] = acc;
}

// Each block adds up 4,096 consecutive elements: four coalesced loads per thread, then a tree in
// shared memory with one __syncthreads() per halving down to 32 partial sums, then shuffles.
extern "C" __global__ void __launch_bounds__(1024, 2) lt_reduce(const float* in, float* out)
{
    __shared__ float s[1024];
    const int t = threadIdx.x;
    const float* p = in + (size_t)blockIdx.x * 4096;
    float v = p[t] + p[t + 1024] + p[t + 2048] + p[t + 3072];
    s[t] = v;
    __syncthreads();
    for (int half = 512; half >= 32; half >>= 1) {
        if (t < half) s[t] = v = v + s[t + half];
        __syncthreads();
    }
    if (t < 32) {
        for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
        if (t == 0) out[blockIdx.x] = v;
    }
}

// 17-tap convolution (radius 8, weights 1 .. 9 .. 1): the input has 8 elements of border at each
// end; a block stages its 1,024 + 16 inputs (the halo by 16 threads), then each thread reads 17
// neighbours from shared memory.
extern "C" __global__ void __launch_bounds__(1024, 2) lt_conv1d(const float* in, float* out)
{
    __shared__ float s[1024 + 16];
    const int t = threadIdx.x;
    const int base = blockIdx.x * 1024;
    s[t] = in[base + t];
    if (t < 16) s[1024 + t] = in[base + 1024 + t];
    __syncthreads();
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k <= 16; ++k) acc += float(1 + (k < 8 ? k : 16 - k)) * s[t + k];
    out[base + t] = acc;
}
