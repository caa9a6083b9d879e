// Planted bugs: each kernel must stop with a clear report, never crash or hang the simulator.

// Writes one element past the end when n is not a multiple of the block size (missing bounds check).
extern "C" __global__ void oob_store(float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 1.0f;
    (void)n;
}

// Reads through a misaligned float pointer.
extern "C" __global__ void misaligned(const char* base, float* out)
{
    const float* p = (const float*)(base + 2);
    out[threadIdx.x] = p[threadIdx.x];
}

// __syncthreads() inside a branch that splits the warp.
extern "C" __global__ void divergent_barrier(int* out)
{
    int t = threadIdx.x;
    if (t % 32 < 8) {
        __syncthreads();
    }
    out[t] = t;
}

// Warp 0 waits at named barrier 1 for 64 threads; warp 1 waits at barrier 2: neither completes.
extern "C" __global__ void barrier_deadlock(int* out)
{
    if (threadIdx.x < 32)
        asm volatile("bar.sync 1, 64;");
    else
        asm volatile("bar.sync 2, 64;");
    out[threadIdx.x] = 1;
}

// Spins forever on a flag nobody sets.
extern "C" __global__ void runaway(volatile int* flag, int* out)
{
    int n = 0;
    while (flag[0] == 0)
        ++n;
    out[threadIdx.x] = n;
}

// Shared-memory index out of range.
extern "C" __global__ void shared_oob(int* out, int k)
{
    __shared__ int s[64];
    s[threadIdx.x + k] = 1;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

extern "C" __global__ void trap_kernel(int* out)
{
    if (threadIdx.x == 5)
        __trap();
    out[threadIdx.x] = 1;
}

// __syncthreads() inside a loop where a quarter of each warp skips it: the lanes that skip go
// round the loop again and can meet the barrier in another iteration, so the warp is not one
// whose other lanes only run to the end (those the GPU counts as arrived once they exit).
extern "C" __global__ void divergent_barrier_loop(int* out, int rounds)
{
    int t = threadIdx.x, acc = 0;
    for (int k = 0; k < rounds; ++k) {
        if (t % 32 < 8)
            __syncthreads();
        acc += k * t;
    }
    out[t] = acc;
}
