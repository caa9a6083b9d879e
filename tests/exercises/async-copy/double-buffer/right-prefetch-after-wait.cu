// expect-pass: one barrier a trip: wait for tile t, synchronise, then start tile t + 1 into the
// other buffer (t + 1) % 2 before the multiply, which the copy overlaps.
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
    // Tile 0 in flight before the loop; each trip waits for its own tile, then starts the next one
    // into the other buffer before multiplying, so the copy runs under the multiply.
    cp_async4(&As[0][ty][tx], &A[row * n + tx]);
    cp_async4(&Bs[0][ty][tx], &B[ty * n + col]);
    cp_async_commit();
    float acc = 0.0f;
    for (int t = 0; t < tiles; ++t) {
        cp_async_wait<0>();
        __syncthreads();   // tile t landed for the whole block, and nobody still reads buffer (t + 1) % 2
        if (t + 1 < tiles) {
            cp_async4(&As[(t + 1) % 2][ty][tx], &A[row * n + (t + 1) * TILE + tx]);
            cp_async4(&Bs[(t + 1) % 2][ty][tx], &B[((t + 1) * TILE + ty) * n + col]);
            cp_async_commit();
        }
        for (int j = 0; j < TILE; ++j) acc += As[t % 2][ty][j] * Bs[t % 2][j][tx];
    }
    C[row * n + col] = acc;
}
