// Memory-access patterns whose hardware costs were measured on an H100 (HARDWARE-FACTS.md):
// global coalescing by offset, stride and access width; shared-memory bank conflicts by stride,
// width and broadcast; the transpose tile with and without padding.

extern "C" __global__ void copy_offset(const float* in, float* out, int offset)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i + offset];
}

extern "C" __global__ void copy_stride(const float* in, float* out, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * stride];
}

extern "C" __global__ void same_address(const float* in, float* out)
{
    out[threadIdx.x] = in[0];
}

extern "C" __global__ void copy_bytes(const unsigned char* in, unsigned char* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}

extern "C" __global__ void copy_double(const double* in, double* out, int offset)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i + offset];
}

extern "C" __global__ void copy_float4(const float4* in, float4* out, int offset, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * stride + offset];
}

// Shared memory: each lane reads word (lane * stride) of a 32-bit array.
extern "C" __global__ void shared_stride32(float* out, int stride)
{
    __shared__ float s[32 * 33];
    int t = threadIdx.x;
    for (int k = t; k < 32 * 33; k += blockDim.x)
        s[k] = k;
    __syncthreads();
    out[t] = s[(t * stride) % (32 * 33)];
}

extern "C" __global__ void shared_half_lane(float* out)
{
    __shared__ float s[32];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    out[t] = s[t / 2];
}

// 64-bit and 128-bit shared accesses with a stride (0 = every lane the same address).
extern "C" __global__ void shared_stride64(double* out, int stride)
{
    __shared__ double s[32 * 16];
    int t = threadIdx.x;
    for (int k = t; k < 32 * 16; k += blockDim.x)
        s[k] = k;
    __syncthreads();
    out[t] = s[(t * stride) % (32 * 16)];
    __syncthreads();
    s[(t * stride) % (32 * 16)] = t;
}

extern "C" __global__ void shared_stride128(float4* out, int stride)
{
    __shared__ float4 s[32 * 8];
    int t = threadIdx.x;
    for (int k = t; k < 32 * 8; k += blockDim.x)
        s[k] = make_float4(k, k, k, k);
    __syncthreads();
    out[t] = s[(t * stride) % (32 * 8)];
    __syncthreads();
    s[(t * stride) % (32 * 8)] = make_float4(t, t, t, t);
}

// The matrix-transpose tile read by column: tile[32][32] conflicts 32-way, tile[32][33] not at all.
#define TILE 32
extern "C" __global__ void transpose_tile(const float* in, float* out, int n)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

extern "C" __global__ void transpose_tile_padded(const float* in, float* out, int n)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

// nvcc's own red instruction (what ptxas would make of an atomic whose result is unused).
extern "C" __global__ void red_inline(unsigned int* counter)
{
    asm volatile("red.global.add.u32 [%0], %1;" ::"l"(counter), "r"(1u) : "memory");
}
