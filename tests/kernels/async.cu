// warpscope-ptx-arch: sm_90
// Planted mistakes with asynchronous copies, mbarriers and warp reductions
// (tests/engine/sim/async_test.cpp): each is a clear report at the lane and line.
#include <cuda_pipeline.h>

// Reads its own copy's destination before waiting for the group: racecheck.
extern "C" __global__ void read_before_wait(const float* in, float* out) {
    __shared__ float s[64];
    __pipeline_memcpy_async(&s[threadIdx.x], &in[threadIdx.x], 4);
    __pipeline_commit();
    const float early = s[threadIdx.x];
    __pipeline_wait_prior(0);
    out[threadIdx.x] = early + s[threadIdx.x];
}

// Waits, but reads another warp's copy without __syncthreads(): racecheck (read-after-write).
extern "C" __global__ void no_barrier_after_wait(const float* in, float* out) {
    __shared__ float s[64];
    __pipeline_memcpy_async(&s[threadIdx.x], &in[threadIdx.x], 4);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    out[threadIdx.x] = s[63 - threadIdx.x];
}

// Never commits: the wait covers nothing.
extern "C" __global__ void never_committed(const float* in, float* out) {
    __shared__ float s[64];
    __pipeline_memcpy_async(&s[threadIdx.x], &in[threadIdx.x], 4);
    __pipeline_wait_prior(0);
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

// An mbarrier initialised for 64 arrivals that 64 threads arrive on 3 at a time: the 22nd
// thread's 3 arrivals exceed the 1 the phase still expects.
extern "C" __global__ void phase_mismatch(float* out) {
    __shared__ unsigned long long bar;
    const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
    if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(a), "r"(64));
    __syncthreads();
    unsigned long long state;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1], %2;" : "=l"(state) : "r"(a), "r"(3));
    out[threadIdx.x] = float(state);
}

// Arrives on an mbarrier nobody initialised.
extern "C" __global__ void uninitialised_mbarrier(float* out) {
    __shared__ unsigned long long bar;
    const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
    unsigned long long state;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(a));
    out[threadIdx.x] = float(state);
}

// __reduce_add_sync with the full mask inside a branch half the warp skips.
extern "C" __global__ void reduce_in_branch(const unsigned* in, unsigned* out) {
    unsigned v = in[threadIdx.x];
    if (threadIdx.x & 1) v = __reduce_add_sync(0xffffffffu, v);
    out[threadIdx.x] = v;
}

// A cp.async whose shared destination is not aligned to its 8 bytes.
extern "C" __global__ void misaligned_copy(const float* in, float* out) {
    __shared__ float s[64];
    __pipeline_memcpy_async(&s[1 + 2 * threadIdx.x], &in[2 * threadIdx.x], 8);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    out[threadIdx.x] = s[threadIdx.x];
}
