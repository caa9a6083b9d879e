// expect-fail: racecheck
// Reads the lesson's "wait for all but N groups" as "wait for N groups" and writes wait<1>: with
// only one group committed, wait_group 1 returns at once and the multiply reads tiles still in flight.
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

// C = A B, tiled, each tile copied into shared memory by cp.async (LDGSTS): no register in between.
extern "C" __global__ void matmul_async(const float* A, const float* B, float* C, int n) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < n / TILE; ++t) {
        cp_async4(&As[ty][tx], &A[row * n + t * TILE + tx]);
        cp_async4(&Bs[ty][tx], &B[(t * TILE + ty) * n + col]);
        cp_async_commit();        // the two copies form one group
        cp_async_wait<1>();   // wait for the one group we committed
        __syncthreads();            // and every thread's copies, after this
        for (int j = 0; j < TILE; ++j) acc += As[ty][j] * Bs[j][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}
