// warpscope-ptx-arch: sm_90
// Golden: asynchronous copies into shared memory as nvcc 13 lowers them for sm_90:
//   - the __pipeline_* intrinsics (cuda_pipeline.h): cp.async.ca 4/8 bytes and cp.async.cg 16
//     bytes, zero fill (their last argument: the bytes to fill with zeros, so src-size is the
//     copy size less that), several commit groups waited with
//     __pipeline_wait_prior(N) in order;
//   - cuda::memcpy_async with a thread-scope cuda::pipeline (cp.async + commit + wait_group);
//   - cuda::memcpy_async of a whole tile by the block, completed through a cuda::barrier
//     (cp.async.mbarrier.arrive, mbarrier.arrive / try_wait) and reused for a second phase;
//   - a block-scope cuda::pipeline with two stages (mbarrier.try_wait.parity) double-buffering
//     a running sum over 8 tiles;
//   - a tiled matrix multiply double-buffered with the intrinsics.
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline.h>
#include <cstdint>

namespace cg = cooperative_groups;

// 128 threads. Three groups of copies; each wait_prior releases the oldest remaining one.
extern "C" __global__ void pipeline_groups(const uint32_t* in, uint32_t* out) {
    __shared__ uint32_t a[128];
    __shared__ uint2 b[128];
    __shared__ uint4 c[128];
    const unsigned t = threadIdx.x;
    const uint32_t* src = in + blockIdx.x * 1024;
    __pipeline_memcpy_async(&a[t], &src[t], 4);
    __pipeline_commit();
    __pipeline_memcpy_async(&b[t], &src[128 + 2 * t], 8, (t % 3 == 0) ? 4 : 0);   // zero fill of the last 4 bytes, or none
    __pipeline_commit();
    __pipeline_memcpy_async(&c[t], &src[512 + 4 * t], 16, (t & 7) * 2);   // zero fill of the last 0..14 bytes
    __pipeline_commit();
    uint32_t* o = out + (blockIdx.x * 128 + t) * 8;
    __pipeline_wait_prior(2);
    __syncthreads();
    o[0] = a[127 - t];
    __pipeline_wait_prior(1);
    __syncthreads();
    o[1] = b[(t + 5) & 127].x;
    o[2] = b[(t + 5) & 127].y;
    __pipeline_wait_prior(0);
    __syncthreads();
    const uint4 v = c[(t * 7) & 127];
    o[3] = v.x;
    o[4] = v.y;
    o[5] = v.z;
    o[6] = v.w;
    o[7] = a[t] + b[t].x + c[t].w;
}

// 128 threads: cuda::pipeline at thread scope (each thread its own copies), four stages in flight.
extern "C" __global__ void thread_pipeline(const float* in, float* out) {
    __shared__ float s[4][128];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    const unsigned t = threadIdx.x;
    const float* src = in + blockIdx.x * 512;
    for (int k = 0; k < 4; ++k) {
        pipe.producer_acquire();
        cuda::memcpy_async(&s[k][t], &src[k * 128 + t], sizeof(float), pipe);
        pipe.producer_commit();
    }
    float acc = 0.0f;
    for (int k = 0; k < 4; ++k) {
        pipe.consumer_wait();   // the oldest stage
        acc = acc * 2.0f + s[k][t];   // each thread reads only what it copied itself
        pipe.consumer_release();
    }
    out[blockIdx.x * 128 + t] = acc;
}

// 256 threads: the whole block copies a 1 KiB tile with one cuda::memcpy_async completed by a
// cuda::barrier, twice (the barrier's second phase).
extern "C" __global__ void block_barrier(const float* in, float* out) {
    __shared__ float tile[256];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    const unsigned t = block.thread_rank();
    cuda::memcpy_async(block, tile, in + blockIdx.x * 512, sizeof(float) * 256, bar);
    bar.arrive_and_wait();
    const float first = tile[255 - t];
    block.sync();
    cuda::memcpy_async(block, tile, in + blockIdx.x * 512 + 256, sizeof(float) * 256, bar);
    bar.arrive_and_wait();
    out[blockIdx.x * 512 + t] = first;
    out[blockIdx.x * 512 + 256 + t] = tile[(t * 3) & 255];
}

// 128 threads: a block-scope pipeline of two stages streams 8 tiles of 128 floats; every tile
// is summed in reverse order by each thread.
extern "C" __global__ void block_pipeline(const float* in, float* out) {
    constexpr int kStages = 2, kTiles = 8, kTile = 128;
    __shared__ float buf[kStages][kTile];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, kStages> state;
    auto block = cg::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);
    const float* src = in + blockIdx.x * kTiles * kTile;
    for (int k = 0; k < kStages; ++k) {
        pipe.producer_acquire();
        cuda::memcpy_async(block, buf[k], src + k * kTile, sizeof(float) * kTile, pipe);
        pipe.producer_commit();
    }
    float acc = 0.0f;
    const unsigned t = block.thread_rank();
    for (int k = 0; k < kTiles; ++k) {
        pipe.consumer_wait();
        acc = acc * 0.5f + buf[k % kStages][kTile - 1 - t];
        pipe.consumer_release();
        if (k + kStages < kTiles) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, buf[k % kStages], src + (k + kStages) * kTile, sizeof(float) * kTile, pipe);
            pipe.producer_commit();
        }
    }
    out[blockIdx.x * kTile + t] = acc;
}

// C = A B for n x n (n a multiple of 16), 16 x 16 tiles, the next tiles of A and B copied while
// the current ones are multiplied (two buffers, __pipeline_* intrinsics).
extern "C" __global__ void matmul_double_buffered(const float* A, const float* B, float* C, int n) {
    constexpr int T = 16;
    __shared__ float As[2][T][T];
    __shared__ float Bs[2][T][T];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    const int tiles = n / T;
    __pipeline_memcpy_async(&As[0][ty][tx], &A[row * n + tx], sizeof(float));
    __pipeline_memcpy_async(&Bs[0][ty][tx], &B[ty * n + col], sizeof(float));
    __pipeline_commit();
    float acc = 0.0f;
    for (int k = 0; k < tiles; ++k) {
        const int cur = k & 1, nxt = cur ^ 1;
        if (k + 1 < tiles) {
            __pipeline_memcpy_async(&As[nxt][ty][tx], &A[row * n + (k + 1) * T + tx], sizeof(float));
            __pipeline_memcpy_async(&Bs[nxt][ty][tx], &B[((k + 1) * T + ty) * n + col], sizeof(float));
        }
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        for (int j = 0; j < T; ++j) acc += As[cur][ty][j] * Bs[cur][j][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}
