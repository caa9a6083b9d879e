// warpscope-ptx-arch: sm_90
// Warp reductions, cooperative groups, asynchronous copies and grid.sync() for the clang path's
// test (tests/engine/compile/async_clang_test.cpp): the same kernels through nvcc (this committed
// PTX) and through clang with warpscope's prelude and headers (no toolkit) must give the same
// bytes on the simulator. (Each feature is checked against the H100 in tests/golden.)
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_pipeline.h>

namespace cg = cooperative_groups;

// 64 threads, 16 values each.
extern "C" __global__ void reductions(const int* in, int* out) {
    const int t = threadIdx.x;
    const int v = in[t];
    int* o = out + t * 16;
    o[0] = __reduce_add_sync(0xffffffffu, v);
    o[1] = __reduce_min_sync(0xffffffffu, v);
    o[2] = int(__reduce_max_sync(0xffffffffu, unsigned(v)));
    o[3] = int(__reduce_xor_sync(0xffffffffu, unsigned(v)));
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
    cg::thread_block_tile<4> t4 = cg::tiled_partition<4>(block);
    o[4] = int(t16.thread_rank()) + 100 * int(t16.meta_group_rank());
    o[5] = t16.shfl(v, 3);
    o[6] = t16.shfl_down(v, 2);
    o[7] = t4.shfl_xor(v, 1);
    o[8] = int(t16.ballot(v & 1));
    o[9] = t16.any(v % 5 == 0) + 2 * t16.all(v != 0);
    o[10] = cg::reduce(t16, v, cg::plus<int>());
    o[11] = cg::reduce(t4, v, cg::greater<int>());
    o[12] = cg::reduce(t16, v, cg::bit_xor<int>());
    cg::thread_group dyn = cg::tiled_partition(block, 8);
    o[13] = int(dyn.thread_rank()) + 100 * int(dyn.size());
    int c = -1;
    if (v & 1) {
        cg::coalesced_group odd = cg::coalesced_threads();
        c = int(odd.thread_rank()) + 100 * int(odd.size()) + 10000 * (odd.shfl(v, 0) & 0xff);
    }
    o[14] = c;
    o[15] = int(block.size());
}

// 128 threads: three groups of copies (4, 8 and 16 bytes, zero fill), waited oldest first.
extern "C" __global__ void copies(const unsigned* in, unsigned* out) {
    __shared__ unsigned a[128];
    __shared__ uint2 b[128];
    __shared__ uint4 c[128];
    const unsigned t = threadIdx.x;
    __pipeline_memcpy_async(&a[t], &in[t], 4);
    __pipeline_commit();
    __pipeline_memcpy_async(&b[t], &in[128 + 2 * t], 8, (t % 3 == 0) ? 4 : 0);
    __pipeline_commit();
    __pipeline_memcpy_async(&c[t], &in[512 + 4 * t], 16, (t & 7) * 2);
    __pipeline_commit();
    __pipeline_wait_prior(2);
    __syncthreads();
    out[t * 6] = a[127 - t];
    __pipeline_wait_prior(1);
    __syncthreads();
    out[t * 6 + 1] = b[(t + 5) & 127].x + b[(t + 5) & 127].y;
    __pipeline_wait_prior(0);
    __syncthreads();
    const uint4 v = c[(t * 7) & 127];
    out[t * 6 + 2] = v.x;
    out[t * 6 + 3] = v.y;
    out[t * 6 + 4] = v.z;
    out[t * 6 + 5] = v.w;
}

// A cooperative launch of 4 blocks of 64: each thread adds what two other blocks wrote.
extern "C" __global__ void grid_sum(const int* in, int* tmp, int* out) {
    cg::grid_group grid = cg::this_grid();
    const unsigned r = unsigned(grid.thread_rank()), n = unsigned(grid.size());
    tmp[r] = in[r] * 5 + 1;
    grid.sync();
    out[r] = tmp[(r + 64) % n] + tmp[(r + 130) % n];
}
