// warpscope-ptx-arch: sm_90
// Probe: the shared-memory side of LDGSTS (cp.async), one pattern a kernel, one warp each, so
// Nsight Compute's smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts and
// smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts of one instruction can be
// read off directly (docs/async-copy.md, "Counters"). Launched <<<1, 32>>> with (g, out): by
// tests/validation/ldgsts-probe.json in the simulator and by scripts/time-async-lesson.cu
// (once-probe) under ncu on the GPU (scripts/record-async.sh).
#include <cuda_pipeline.h>

#define PROBE_END(expr)             \
    __pipeline_commit();            \
    __pipeline_wait_prior(0);       \
    __syncwarp();                   \
    out[t] = (expr);

__device__ __forceinline__ void cpAsyncCa16(void* dst, const void* src) {
    const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(d), "l"(src) : "memory");
}

// 32 lanes x 4 bytes from one 128-byte line into 128 contiguous shared bytes.
extern "C" __global__ void ca4_line(const float* g, float* out) {
    __shared__ float sh[32];
    const int t = threadIdx.x;
    __pipeline_memcpy_async(&sh[t], &g[t], 4);
    PROBE_END(sh[31 - t])
}

// The same shared bytes, the source split over two lines: lanes 16..31 read the start of the
// next line (their bytes move from line offset 0..63 to shared offset 64..127).
extern "C" __global__ void ca4_two_lines_shifted(const float* g, float* out) {
    __shared__ float sh[32];
    const int t = threadIdx.x;
    __pipeline_memcpy_async(&sh[t], &g[t + (t >= 16 ? 16 : 0)], 4);
    PROBE_END(sh[31 - t])
}

// Two lines again, each lane at the same offset in its line as in shared memory.
extern "C" __global__ void ca4_two_lines_aligned(const float* g, float* out) {
    __shared__ float sh[32];
    const int t = threadIdx.x;
    __pipeline_memcpy_async(&sh[t], &g[t + (t >= 16 ? 32 : 0)], 4);
    PROBE_END(sh[31 - t])
}

// One line, lanes reversed.
extern "C" __global__ void ca4_reversed(const float* g, float* out) {
    __shared__ float sh[32];
    const int t = threadIdx.x;
    __pipeline_memcpy_async(&sh[t], &g[31 - t], 4);
    PROBE_END(sh[31 - t])
}

// One line into 32 words of the same bank (a 32-way conflict for st.shared).
extern "C" __global__ void ca4_same_bank(const float* g, float* out) {
    __shared__ float sh[32 * 32];
    const int t = threadIdx.x;
    __pipeline_memcpy_async(&sh[t * 32], &g[t], 4);
    PROBE_END(sh[t * 32])
}

// 32 lines, one lane each, into contiguous shared words.
extern "C" __global__ void ca4_scattered(const float* g, float* out) {
    __shared__ float sh[32];
    const int t = threadIdx.x;
    __pipeline_memcpy_async(&sh[t], &g[t * 32], 4);
    PROBE_END(sh[31 - t])
}

// Half the warp copies.
extern "C" __global__ void ca4_half_warp(const float* g, float* out) {
    __shared__ float sh[32];
    const int t = threadIdx.x;
    sh[t] = 0.0f;
    __syncwarp();
    if (t < 16) __pipeline_memcpy_async(&sh[t], &g[t], 4);
    PROBE_END(sh[31 - t])
}

// Source size 0: the copy writes only zeros.
extern "C" __global__ void ca4_zfill_all(const float* g, float* out) {
    __shared__ float sh[32];
    const int t = threadIdx.x;
    __pipeline_memcpy_async(&sh[t], &g[t], 4, 4);
    PROBE_END(sh[31 - t] + 1.0f)
}

// 8 bytes a lane (two lines), the last 4 of each zero-filled.
extern "C" __global__ void ca8_zfill4(const float* g, float* out) {
    __shared__ float2 sh[32];
    const int t = threadIdx.x;
    __pipeline_memcpy_async(&sh[t], &reinterpret_cast<const float2*>(g)[t], 8, 4);
    PROBE_END(sh[31 - t].x + sh[t].y)
}

// 16 bytes a lane (.cg), four whole lines.
extern "C" __global__ void cg16_lines(const float* g, float* out) {
    __shared__ float4 sh[32];
    const int t = threadIdx.x;
    __pipeline_memcpy_async(&sh[t], &reinterpret_cast<const float4*>(g)[t], 16);
    PROBE_END(sh[31 - t].x + sh[t].w)
}

// The same with a source size of 8: the upper 8 bytes of each lane are zeros.
extern "C" __global__ void cg16_zfill8(const float* g, float* out) {
    __shared__ float4 sh[32];
    const int t = threadIdx.x;
    __pipeline_memcpy_async(&sh[t], &reinterpret_cast<const float4*>(g)[t], 16, 8);
    PROBE_END(sh[31 - t].x + sh[t].w)
}

// 16 bytes a lane, the shared destination one float4 further than the source's line offset.
extern "C" __global__ void cg16_dst_shifted(const float* g, float* out) {
    __shared__ float4 sh[33];
    const int t = threadIdx.x;
    __pipeline_memcpy_async(&sh[t + 1], &reinterpret_cast<const float4*>(g)[t], 16);
    PROBE_END(sh[32 - t].x + sh[t + 1].w)
}

// 16 bytes a lane through L1 (.ca; __pipeline_memcpy_async takes .cg for 16 bytes).
extern "C" __global__ void ca16_lines(const float* g, float* out) {
    __shared__ float4 sh[32];
    const int t = threadIdx.x;
    cpAsyncCa16(&sh[t], &reinterpret_cast<const float4*>(g)[t]);
    PROBE_END(sh[31 - t].x + sh[t].w)
}
