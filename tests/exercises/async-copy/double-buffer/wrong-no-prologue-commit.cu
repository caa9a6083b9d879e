// expect-fail: racecheck
// Starts tile 0 before the loop but forgets to commit it: its copies join the first trip's group
// (tile 1), so wait<1> leaves tile 0 in flight while the first multiply reads it.
#define TILE 16

// These exercises compile for sm_80 (cp.async needs it: below it, <cuda_pipeline.h>'s
// __pipeline_memcpy_async quietly becomes an ordinary load and store). The three helpers emit the
// PTX the lesson's __pipeline_* calls compile to; either form is fine:
//   cp_async4(dst, src)  = __pipeline_memcpy_async(dst, src, 4)   (cp.async.ca.shared.global, 4 bytes)
//   cp_async_commit()    = __pipeline_commit()                    (cp.async.commit_group)
//   cp_async_wait<N>()   = __pipeline_wait_prior(N)               (cp.async.wait_group N)
__device__ __forceinline__ void cp_async4(float* dst, const float* src) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(static_cast<unsigned>(__cvta_generic_to_shared(dst))), "l"(src) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int N> __device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory"); }

// The reference: ordinary loads into shared memory (keep it as it is; your kernel is checked against it).
extern "C" __global__ void matmul_plain(const float* A, const float* B, float* C, int n) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < n / TILE; ++t) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col];
        __syncthreads();
        for (int j = 0; j < TILE; ++j) acc += As[ty][j] * Bs[j][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

// C = A B with the tiles copied by cp.async into two buffers: tile t + 1 is in flight while the
// warp multiplies tile t.
extern "C" __global__ void matmul_double_buffered(const float* A, const float* B, float* C, int n) {
    __shared__ float As[2][TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    int tiles = n / TILE;
    cp_async4(&As[0][ty][tx], &A[row * n + tx]);
    cp_async4(&Bs[0][ty][tx], &B[ty * n + col]);
    float acc = 0.0f;
    for (int t = 0; t < tiles; ++t) {
        int cur = t & 1, next = cur ^ 1;
        if (t + 1 < tiles) {
            cp_async4(&As[next][ty][tx], &A[row * n + (t + 1) * TILE + tx]);
            cp_async4(&Bs[next][ty][tx], &B[((t + 1) * TILE + ty) * n + col]);
        }
        cp_async_commit();        // also on the last trip (an empty group): the wait below counts groups
        cp_async_wait<1>();   // all but the newest group: tile t has landed
        __syncthreads();            // ... for every thread of the block
        for (int j = 0; j < TILE; ++j) acc += As[cur][ty][j] * Bs[cur][j][tx];
        __syncthreads();            // nobody reads buffer cur any more when the next trip refills it
    }
    C[row * n + col] = acc;
}
