// Planted bugs that compute-sanitizer does not report (global-memory races between blocks, wrong
// member masks of warp-synchronous primitives) and correct kernels that look like them and must
// stay silent. One spec per case in this folder (see bugs.cu for the format).

// --- global-memory races (racecheck) --------------------------------------------------------

// A histogram without atomics: threads of different blocks read-modify-write the same bin.
extern "C" __global__ void global_histogram_race(const unsigned* keys, unsigned* bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) bins[keys[i] % 8] += 1;
}

// The same histogram with atomicAdd: atomics never race with each other.
extern "C" __global__ void global_histogram_atomic_ok(const unsigned* keys, unsigned* bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[keys[i] % 8], 1u);
}

// In place: each thread reads its right neighbour and writes its own element, so the last thread
// of one block reads what the first thread of the next block overwrites.
extern "C" __global__ void neighbour_in_place_race(float* a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 1 < n) a[i] = 0.5f * (a[i] + a[i + 1]);
}

// Every block reads and rewrites only its own slice.
extern "C" __global__ void per_block_disjoint_ok(float* a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 2.0f * a[i] + 1.0f;
}

// Many threads of many blocks set one flag to the same value: benign.
extern "C" __global__ void same_value_flag_ok(const float* x, int* flag, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] > 0.5f) *flag = 1;
}

// Sum of a block's values in shared memory (a tree; blockDim.x is a power of two, at most 64).
__device__ float blockSum(const float* in, int n)
{
    __shared__ float s[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    return s[0];
}

// The CUDA Programming Guide's "last block" sum (__threadfence section): each block writes its
// partial sum, fences, and takes a ticket; the block with the last ticket adds the partial sums.
extern "C" __global__ void last_block_sum_ok(const float* in, float* partial, unsigned* count, float* total, int n)
{
    __shared__ bool amLast;
    float sum = blockSum(in, n);
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = sum;
        __threadfence();
        unsigned ticket = atomicInc(count, gridDim.x);
        amLast = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (amLast && threadIdx.x == 0) {
        float t = 0.0f;
        for (int b = 0; b < gridDim.x; ++b) t += partial[b];
        *total = t;
        *count = 0;
    }
}

// The same without __threadfence(): the last block may read partial sums not yet visible.
extern "C" __global__ void last_block_no_fence(const float* in, float* partial, unsigned* count, float* total, int n)
{
    __shared__ bool amLast;
    float sum = blockSum(in, n);
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = sum;
        unsigned ticket = atomicInc(count, gridDim.x);
        amLast = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (amLast && threadIdx.x == 0) {
        float t = 0.0f;
        for (int b = 0; b < gridDim.x; ++b) t += partial[b];
        *total = t;
    }
}

// --- member masks of warp-synchronous primitives (synccheck) --------------------------------

// All 32 lanes execute a shuffle whose mask names only lanes 0-15.
extern "C" __global__ void shfl_half_mask(const int* in, int* out)
{
    int v = in[threadIdx.x];
    v += __shfl_down_sync(0x0000ffffu, v, 1);
    out[threadIdx.x] = v;
}

// A warp reduction with the full mask in full warps.
extern "C" __global__ void shfl_full_mask_ok(const int* in, int* out)
{
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    if ((threadIdx.x & 31) == 0) out[blockIdx.x * blockDim.x / 32 + threadIdx.x / 32] = v;
}

// A block of 48 threads: the second warp has 16 lanes, and the full mask names 16 that do not exist.
extern "C" __global__ void shfl_full_mask_partial_warp(const int* in, int* out)
{
    int v = in[threadIdx.x];
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    if ((threadIdx.x & 31) == 0) out[threadIdx.x / 32] = v;
}

// The same partial warp with a mask of exactly the lanes that exist.
extern "C" __global__ void partial_warp_mask_ok(const int* in, int* out)
{
    int warpStart = threadIdx.x & ~31;
    int lanes = min(32, (int)blockDim.x - warpStart);
    unsigned mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
    int v = in[threadIdx.x];
    for (int offset = 16; offset > 0; offset >>= 1) {
        int other = __shfl_down_sync(mask, v, offset);
        if ((threadIdx.x & 31) + offset < lanes) v += other;
    }
    if ((threadIdx.x & 31) == 0) out[threadIdx.x / 32] = v;
}

// A ballot inside a branch only half the warp takes, with the full mask.
extern "C" __global__ void ballot_in_branch(const int* in, unsigned* out)
{
    int v = in[threadIdx.x];
    unsigned b = 0;
    if ((threadIdx.x & 31) < 16) b = __ballot_sync(0xffffffffu, v > 0);
    out[threadIdx.x] = b;
}

// __syncwarp() (full mask) after half the warp has returned: the mask names exited lanes.
extern "C" __global__ void syncwarp_after_return(int* out)
{
    if ((threadIdx.x & 31) >= 16) return;
    out[threadIdx.x] = threadIdx.x;
    __syncwarp();
    out[threadIdx.x] += out[(threadIdx.x + 1) & 15];
}

// __match_any_sync with the full mask in full warps.
extern "C" __global__ void match_any_ok(const int* in, unsigned* out)
{
    out[threadIdx.x] = __match_any_sync(0xffffffffu, in[threadIdx.x] & 3);
}

// __syncthreads() after some threads of the block returned (the grid's last block is partial):
// the returned threads count as arrived on Volta and later, and the barrier completes; each
// thread reads its right neighbour's element, or its own at the end of the block or array.
extern "C" __global__ void syncthreads_after_return(const float* in, float* out, int n)
{
    __shared__ float tile[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    tile[threadIdx.x] = in[i];
    __syncthreads();
    int j = threadIdx.x + 1 < blockDim.x && i + 1 < n ? threadIdx.x + 1 : threadIdx.x;
    out[i] = tile[threadIdx.x] + tile[j];
}
