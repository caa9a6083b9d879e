// Kernels that exercise the SIMT engine: divergence and reconvergence, loops with
// data-dependent trip counts, early exit, barriers, atomics under contention, shuffles, votes.
// The tests in tests/engine/sim compute the expected results on the CPU.

// Nested if/else: every lane records which path it took. Each path stores to its own counter
// slot, so the compiler keeps real branches instead of turning them into selects.
extern "C" __global__ void nested_branches(const int* in, int* path, int* seen)
{
    int t = threadIdx.x;
    int v = in[t];
    int code;
    if (v % 2 == 0) {
        if (v % 4 == 0) {
            code = 1;
            atomicAdd(&seen[1], 1);
        } else {
            code = 2;
            atomicAdd(&seen[2], 1);
        }
    } else {
        if (v > 10) {
            code = 3;
            atomicAdd(&seen[3], 1);
        } else {
            code = 4;
            atomicAdd(&seen[4], 1);
        }
    }
    path[t] = code * 100 + v;
}

// A loop whose trip count differs per lane, with continue and break.
extern "C" __global__ void data_loop(const int* trips, int* out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int n = trips[t];
    int acc = 0;
    for (int k = 0; k < n; ++k) {
        if (k % 3 == 1)
            continue;
        acc += k * k + t;
        if (acc > 5000)
            break;
    }
    out[t] = acc;
}

// Early exit: half the lanes return before the rest do more work.
extern "C" __global__ void early_exit(int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    if ((i & 3) == 0)
        return;
    out[i] = i * 3;
}

// if/else on lane < 16: the classic divergent branch. Each side counts itself with an atomic,
// which the compiler cannot merge, so the if/else stays a real branch.
extern "C" __global__ void half_warp(float* out, int* sides)
{
    int t = threadIdx.x;
    float v;
    if (t % 32 < 16) {
        v = t * 2.0f;
        atomicAdd(&sides[0], 1);
    } else {
        v = t * 0.5f;
        atomicAdd(&sides[1], 1);
    }
    out[t] = v + 1.0f;
}

// Shared-memory tree reduction with __syncthreads.
extern "C" __global__ void block_sum(const int* in, int* out)
{
    extern __shared__ int buf[];
    int t = threadIdx.x;
    buf[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s)
            buf[t] += buf[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = buf[0];
}

// Atomics under contention: every thread of every block hits the same few words.
extern "C" __global__ void contention(int* counters, unsigned int* wrap, int* maxv, unsigned long long* big)
{
    __shared__ int local;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        local = 0;
    __syncthreads();
    atomicAdd(&local, 1);
    atomicAdd(&counters[0], 1);
    atomicSub(&counters[1], 2);
    atomicOr(&counters[2], 1 << (i % 31));
    atomicXor(&counters[3], i);
    atomicInc(&wrap[0], 99u);
    atomicDec(&wrap[1], 7u);
    atomicMax(&maxv[0], (i * 7919) % 1000);
    atomicMin(&maxv[1], -((i * 104729) % 1000));
    atomicAdd(big, 1ull << 33);
    // A CAS loop: a lock-free increment that only terminates if CAS is atomic.
    int old = counters[4], assumed;
    do {
        assumed = old;
        old = atomicCAS(&counters[4], assumed, assumed + 3);
    } while (old != assumed);
    __syncthreads();
    if (threadIdx.x == 0)
        atomicAdd(&counters[5], local);
}

// Shuffles and votes.
extern "C" __global__ void warp_ops(const int* in, int* out)
{
    int t = threadIdx.x;
    int v = in[t];
    int lane = t & 31;
    out[t * 8 + 0] = __shfl_down_sync(0xffffffffu, v, 3);
    out[t * 8 + 1] = __shfl_up_sync(0xffffffffu, v, 5);
    out[t * 8 + 2] = __shfl_xor_sync(0xffffffffu, v, 6);
    out[t * 8 + 3] = __shfl_sync(0xffffffffu, v, (lane * 7) & 31);
    out[t * 8 + 4] = __shfl_down_sync(0xffffffffu, v, 1, 8);   // width 8 segments
    out[t * 8 + 5] = (int)__ballot_sync(0xffffffffu, v > 50);
    out[t * 8 + 6] = __all_sync(0xffffffffu, v >= 0) + 2 * __any_sync(0xffffffffu, v > 95);
    int sum = v;
    for (int o = 16; o > 0; o >>= 1)
        sum += __shfl_xor_sync(0xffffffffu, sum, o);
    out[t * 8 + 7] = sum;
}

// Votes inside divergent code: only the active lanes take part.
extern "C" __global__ void divergent_vote(const int* in, unsigned int* out)
{
    int t = threadIdx.x;
    unsigned int r = 0;
    if (in[t] & 1)
        r = __activemask();
    else
        r = __ballot_sync(__activemask(), in[t] > 40);
    out[t] = r;
}

// A __noinline__ device function called from divergent code.
__device__ __noinline__ int collatz_steps(int x)
{
    int n = 0;
    while (x != 1 && n < 1000) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        ++n;
    }
    return n;
}

extern "C" __global__ void call_divergent(const int* in, int* out)
{
    int t = threadIdx.x;
    int v = in[t];
    if (v > 0)
        out[t] = collatz_steps(v);
    else
        out[t] = -1;
}
