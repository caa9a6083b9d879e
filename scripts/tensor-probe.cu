// Latency and throughput of the tensor-core instructions on the GPU it runs on, for the cycle
// model's tensor pipe (docs/tensor-cores.md). Build and run on the GPU machine:
//   nvcc -O2 -arch=sm_90 scripts/tensor-probe.cu -o tensor-probe && ./tensor-probe
// Latency: one warp, one dependent chain (D feeds the next C). Throughput: one block of W warps
// (W/4 per SM sub-partition), each with 8 independent chains; cycles per warp-instruction per
// sub-partition = elapsed / (iterations * chains * W / 4).
#include <cstdio>
#include <mma.h>
using namespace nvcuda;

#define MMA_F16_F32(d, a, b) asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))
#define MMA_BF16_F32(d, a, b) asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))
#define MMA_K8_F32(d, a, b) asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};" : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]))
#define MMA_TF32(d, a, b) asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))
#define MMA_S8(d, a, b) asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))

#define PROBE(NAME, T, OP)                                                                    \
    template <int CHAINS>                                                                     \
    __global__ void NAME(long long* cyc, T* sink, int iters) {                                \
        unsigned a[4] = {threadIdx.x | 0x3c003c00u, 0x3c003c00u, 0x3c00u, 0x3c00u};           \
        unsigned b[2] = {0x3c003c00u, threadIdx.x & 1};                                      \
        T d[CHAINS][4] = {};                                                                  \
        __syncthreads();                                                                      \
        long long t0 = clock64();                                                             \
        for (int i = 0; i < iters; i++) {                                                     \
            _Pragma("unroll") for (int c = 0; c < CHAINS; c++) OP(d[c], a, b);                \
        }                                                                                     \
        long long t1 = clock64();                                                             \
        T s = 0;                                                                              \
        for (int c = 0; c < CHAINS; c++) s += d[c][0] + d[c][3];                              \
        sink[blockIdx.x * blockDim.x + threadIdx.x] = s;                                      \
        if ((threadIdx.x & 31) == 0) cyc[threadIdx.x / 32] = t1 - t0;                         \
    }
PROBE(pF16, float, MMA_F16_F32)
PROBE(pBF16, float, MMA_BF16_F32)
PROBE(pK8, float, MMA_K8_F32)
PROBE(pTF32, float, MMA_TF32)
PROBE(pS8, int, MMA_S8)

template <int CHAINS>
__global__ void pWmma(long long* cyc, float* sink, int iters) {
    __shared__ half z[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x) z[i] = __float2half(0.001f * i);
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[CHAINS];
    wmma::load_matrix_sync(fa, z, 16);
    wmma::load_matrix_sync(fb, z, 16);
    for (int c = 0; c < CHAINS; c++) wmma::fill_fragment(acc[c], 0.0f);
    long long t0 = clock64();
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int c = 0; c < CHAINS; c++) wmma::mma_sync(acc[c], fa, fb, acc[c]);
    }
    long long t1 = clock64();
    float s = 0;
    for (int c = 0; c < CHAINS; c++) s += acc[c].x[0];
    sink[blockIdx.x * blockDim.x + threadIdx.x] = s;
    if ((threadIdx.x & 31) == 0) cyc[threadIdx.x / 32] = t1 - t0;
}

__global__ void pLdmatrix(long long* cyc, unsigned* sink, int iters) {
    __shared__ __align__(16) unsigned short rows[512];
    for (int i = threadIdx.x; i < 512; i += blockDim.x) rows[i] = 0;
    __syncthreads();
    unsigned addr = (unsigned)__cvta_generic_to_shared(&rows[(threadIdx.x % 32) * 8]);
    unsigned r0 = 0, r1, r2, r3;
    long long t0 = clock64();
    for (int i = 0; i < iters; i++)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr + r0));
    long long t1 = clock64();
    sink[threadIdx.x] = r0 + r1 + r2 + r3;
    if ((threadIdx.x & 31) == 0) cyc[threadIdx.x / 32] = t1 - t0;
}

template <typename K, typename T>
void run(const char* name, K kernel, int warps, int chains, int iters, long long* dc, T* ds) {
    kernel<<<1, warps * 32>>>(dc, ds, iters);
    kernel<<<1, warps * 32>>>(dc, ds, iters);   // the second run is timed
    long long c[32];
    cudaMemcpy(c, dc, sizeof(long long) * warps, cudaMemcpyDeviceToHost);
    long long mx = 0;
    for (int w = 0; w < warps; w++) mx = c[w] > mx ? c[w] : mx;
    double perSub = (double)mx / ((double)iters * chains * (warps > 4 ? warps / 4.0 : 1.0));
    printf("%-28s warps %2d chains %d: %8lld cycles, %.2f cycles per warp-instruction per sub-partition%s\n", name, warps, chains, mx, perSub,
           warps == 1 && chains == 1 ? " (latency)" : "");
}

int main() {
    long long* dc;
    float* df;
    int* di;
    unsigned* du;
    cudaMalloc(&dc, 64 * sizeof(long long));
    cudaMalloc(&df, 4096 * sizeof(float));
    cudaMalloc(&di, 4096 * sizeof(int));
    cudaMalloc(&du, 4096 * sizeof(unsigned));
    const int it = 4096;
#define BOTH(N, K, S)                                 \
    run(N, K<1>, 1, 1, it, dc, S);                    \
    run(N, K<8>, 4, 8, it / 4, dc, S);                \
    run(N, K<8>, 8, 8, it / 4, dc, S);                \
    run(N, K<8>, 16, 8, it / 4, dc, S);
    BOTH("mma m16n8k16 f16->f32", pF16, df)
    BOTH("mma m16n8k16 bf16->f32", pBF16, df)
    BOTH("mma m16n8k8 f16->f32", pK8, df)
    BOTH("mma m16n8k8 tf32->f32", pTF32, df)
    BOTH("mma m16n8k32 s8->s32", pS8, di)
    run("wmma m16n16k16 f16->f32", pWmma<1>, 1, 1, it, dc, df);
    run("wmma m16n16k16 f16->f32", pWmma<4>, 4, 4, it / 4, dc, df);
    run("wmma m16n16k16 f16->f32", pWmma<4>, 8, 4, it / 4, dc, df);
    run("ldmatrix x4 (dependent)", pLdmatrix, 1, 1, it, dc, du);
    cudaError_t e = cudaDeviceSynchronize();
    printf("status: %s\n", cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : 1;
}
