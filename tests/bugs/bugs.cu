// Planted bugs for the simulator's checkers and compute-sanitizer, and correct kernels that look
// suspicious but must not be reported. One spec per case in this folder says which tool should
// catch it ("planted": {"tool": ..., "hazard": ...}, or "tool": "none").

// --- memcheck -------------------------------------------------------------------------------
extern "C" __global__ void read_past_end(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i + 1];   // the last thread reads in[n]
}

extern "C" __global__ void null_pointer(float* out)
{
    float* p = nullptr;
    out[threadIdx.x] = p[threadIdx.x];
}

extern "C" __global__ void write_freed(float* buf)
{
    buf[threadIdx.x] = 1.0f;   // the host freed buf before this launch
}

// --- initcheck ------------------------------------------------------------------------------
extern "C" __global__ void read_uninitialized_global(const float* in, float* out)
{
    out[threadIdx.x] = in[threadIdx.x] * 2.0f;   // in was allocated but never written
}

extern "C" __global__ void read_uninitialized_shared(float* out)
{
    __shared__ float s[64];
    if (threadIdx.x < 32)
        s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[63 - threadIdx.x];   // s[32..63] were never written
}

// --- racecheck ------------------------------------------------------------------------------
extern "C" __global__ void missing_syncthreads(float* out)
{
    __shared__ float s[64];
    s[threadIdx.x] = threadIdx.x;
    // no __syncthreads(): warp 0 reads what warp 1 writes
    out[threadIdx.x] = s[63 - threadIdx.x];
}

extern "C" __global__ void missing_second_barrier(const float* in, float* out, int rounds)
{
    __shared__ float tile[64];
    float acc = 0.0f;
    for (int r = 0; r < rounds; ++r) {
        tile[threadIdx.x] = in[r * 64 + threadIdx.x];
        __syncthreads();
        acc += tile[63 - threadIdx.x];
        // no second __syncthreads(): the next round overwrites words other warps still read
    }
    out[threadIdx.x] = acc;
}

extern "C" __global__ void warp_reduce_no_syncwarp(const int* in, int* out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t < 32) {
        // Relies on the 32 lanes running in lockstep: not guaranteed since Volta.
        volatile int* v = s;
        v[t] += v[t + 16 < 64 ? t + 16 : t];
        v[t] += v[t + 8];
        v[t] += v[t + 4];
        v[t] += v[t + 2];
        v[t] += v[t + 1];
    }
    if (t == 0)
        out[0] = s[0];
}

// --- synccheck --------------------------------------------------------------------------------
extern "C" __global__ void barrier_in_branch(int* out)
{
    if (threadIdx.x % 2 == 0)
        __syncthreads();
    out[threadIdx.x] = threadIdx.x;
}

// --- correct kernels that look suspicious -----------------------------------------------------
extern "C" __global__ void tree_reduce_ok(const int* in, int* out)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    for (int stride = 64; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[0] = s[0];
}

extern "C" __global__ void warp_reduce_syncwarp_ok(const int* in, int* out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t < 32) {
        int v = s[t];
        for (int o = 16; o > 0; o >>= 1) {
            v += s[t + o];
            __syncwarp();
            s[t] = v;
            __syncwarp();
        }
    }
    if (t == 0)
        out[0] = s[0];
}

extern "C" __global__ void shared_histogram_ok(const unsigned* keys, unsigned* bins)
{
    __shared__ unsigned h[16];
    if (threadIdx.x < 16)
        h[threadIdx.x] = 0;
    __syncthreads();
    atomicAdd(&h[keys[threadIdx.x] % 16], 1u);
    __syncthreads();
    if (threadIdx.x < 16)
        bins[threadIdx.x] = h[threadIdx.x];
}

extern "C" __global__ void per_warp_region_ok(float* out)
{
    __shared__ float s[128];
    int t = threadIdx.x, lane = t % 32, warp = t / 32;
    float* mine = s + warp * 32;   // each warp only touches its own 32 words
    mine[lane] = t;
    __syncwarp();
    out[t] = mine[31 - lane];
}

extern "C" __global__ void double_buffer_ok(const float* in, float* out, int rounds)
{
    __shared__ float tile[2][64];
    float acc = 0.0f;
    for (int r = 0; r < rounds; ++r) {
        tile[r & 1][threadIdx.x] = in[r * 64 + threadIdx.x];
        __syncthreads();
        acc += tile[r & 1][63 - threadIdx.x];
        __syncthreads();
    }
    out[threadIdx.x] = acc;
}

extern "C" __global__ void exit_whole_warps_ok(float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    out[i] = i;
}

// --- more planted bugs (issue 9), appended so the lines above keep their numbers ---------------
// memcheck: a float loaded through a byte pointer one or two bytes past a 4-byte boundary.
extern "C" __global__ void misaligned_load(const char* bytes, float* out)
{
    const float* p = reinterpret_cast<const float*>(bytes + 2 + 4 * threadIdx.x);
    out[threadIdx.x] = *p;   // address is 2 mod 4: misaligned on every GPU
}

// watchdog: a loop bound taken from the wrong variable (2^30 iterations per thread). It ends on
// the GPU in about a second, but the instruction budget stops it on the simulator.
extern "C" __global__ void runaway_loop(unsigned* out, unsigned n)
{
    unsigned x = threadIdx.x;
    for (unsigned i = 0; i < n; ++i)
        x = x * 1664525u + 1013904223u;
    out[threadIdx.x] = x;
}

// racecheck: both warps write the same 32 words with different values and no barrier between.
extern "C" __global__ void write_write_race(int* out)
{
    __shared__ int s[32];
    s[threadIdx.x % 32] = threadIdx.x;   // warp 0 writes 0..31, warp 1 writes 32..63
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x % 32];
}

// racecheck: both warps store the same value to the same word (reported separately: benign on
// hardware, but still a race the tools flag).
extern "C" __global__ void same_value_store(int* out, int value)
{
    __shared__ int flag;
    if (threadIdx.x % 32 == 0)
        flag = value;   // lane 0 of every warp
    __syncthreads();
    out[threadIdx.x] = flag;
}

// synccheck: warps disagree on the thread count of named barrier 1 (hangs on hardware).
extern "C" __global__ void mismatched_barrier_count(int* out)
{
    if (threadIdx.x < 32)
        asm volatile("bar.sync 1, 64;" ::: "memory");
    else
        asm volatile("bar.sync 1, 32;" ::: "memory");
    out[threadIdx.x] = threadIdx.x;
}

// correct: only the first two warps reach __syncthreads(), the third has exited. Exited threads
// no longer take part in a barrier for all threads of the block (PTX ISA, exit), so it completes.
extern "C" __global__ void partial_block_barrier_ok(int* out)
{
    if (threadIdx.x >= 64)
        return;
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[63 - threadIdx.x];
}

// racecheck: thread 0..15 zero the shared histogram and every warp adds to it with no barrier in
// between: another warp's atomicAdd may land before the zeroing and be lost.
extern "C" __global__ void shared_histogram_no_barrier(const unsigned* keys, unsigned* bins)
{
    __shared__ unsigned h[16];
    if (threadIdx.x < 16)
        h[threadIdx.x] = 0;
    atomicAdd(&h[keys[threadIdx.x] % 16], 1u);
    __syncthreads();
    if (threadIdx.x < 16)
        bins[threadIdx.x] = h[threadIdx.x];
}

// racecheck: the block's count is read while other warps may still be adding to it (the barrier
// between the atomics and the read is missing).
extern "C" __global__ void shared_count_read_early(const int* flags, unsigned* out)
{
    __shared__ unsigned count;
    if (threadIdx.x == 0)
        count = 0;
    __syncthreads();
    if (flags[threadIdx.x])
        atomicAdd(&count, 1u);
    if (threadIdx.x == 0)
        out[blockIdx.x] = count;
}

// correct: the same count with the barrier before the read, and a second counter that only
// atomics touch between barriers.
extern "C" __global__ void shared_count_ok(const int* flags, unsigned* out)
{
    __shared__ unsigned count, seen;
    if (threadIdx.x == 0) {
        count = 0;
        seen = 0;
    }
    __syncthreads();
    if (flags[threadIdx.x])
        atomicAdd(&count, 1u);
    atomicAdd(&seen, 1u);
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = count * 1000 + seen;
}
