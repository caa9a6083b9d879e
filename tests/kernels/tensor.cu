// warpscope-ptx-arch: sm_90
// Tensor cores and half precision for the clang path's test (tests/engine/compile/tensor_clang_test.cpp):
// the same kernels through nvcc (this committed PTX) and clang with warpscope's headers must give
// the same bytes on the simulator. The bad_* kernels are planted mistakes (tests/engine/sim/tensor_test.cpp).
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;
extern "C" __global__ void gemm16(const half* a, const half* b, const float* c, float* d) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(acc, c, 16, wmma::mem_row_major);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(acc, fa, fb, acc);
    for (int i = 0; i < acc.num_elements; i++) acc.x[i] *= 2.0f;
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_col_major);
}
extern "C" __global__ void gemmh(const half* a, const half* b, half* d) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, half> acc;
    wmma::fill_fragment(acc, __float2half(0.0f));
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}
extern "C" __global__ void gemmbf(const __nv_bfloat16* a, const __nv_bfloat16* b, float* d) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}
extern "C" __global__ void gemmtf(const float* a, const float* b, float* d) {
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::load_matrix_sync(fa, a, 8);
    wmma::load_matrix_sync(fb, b, 8);
    for (int i = 0; i < fa.num_elements; i++) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}
extern "C" __global__ void gemms8(const signed char* a, const signed char* b, int* d) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
    wmma::fill_fragment(acc, 0);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(acc, fa, fb, acc, true);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}
extern "C" __global__ void halfops(const float* in, float* out) {
    int i = threadIdx.x;
    half a = __float2half(in[i]), b = __float2half(in[i + 32]);
    half c = __hfma(a, b, __hadd(a, b)) * a - b;
    half2 p = __floats2half2_rn(in[i], in[i + 32]);
    half2 q = __hfma2(p, p, p);
    __nv_bfloat16 x = __float2bfloat16(in[i]), y = __float2bfloat16(in[i + 32]);
    __nv_bfloat16 z = __hfma(x, y, x + y);
    out[i] = __half2float(c) + __low2float(q) + __high2float(q) + __bfloat162float(z) + (a < b ? 1.0f : 0.0f);
}

// Only half the warp reaches the warp-wide load: undefined on hardware, an error here.
extern "C" __global__ void bad_divergent(const half* a, float* out) {
    if (threadIdx.x < 16) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
        wmma::load_matrix_sync(fa, a, 16);
        out[threadIdx.x] = __half2float(fa.x[0]);
    }
}

#ifndef __WARPSCOPE_PRELUDE__
// ldmatrix rows must be 16-byte aligned; lane 3 gives an address 8 bytes off.
extern "C" __global__ void bad_ldmatrix(unsigned* out) {
    __shared__ __align__(16) unsigned short rows[256];
    for (int i = threadIdx.x; i < 256; i += 32) rows[i] = (unsigned short)i;
    __syncwarp();
    unsigned addr = (unsigned)__cvta_generic_to_shared(&rows[threadIdx.x * 8 + (threadIdx.x == 3 ? 4 : 0)]);
    unsigned r;
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r) : "r"(addr));
    out[threadIdx.x] = r;
}

// mma.sync m8n8k4 (Volta's shape): not modelled, so an error naming it.
extern "C" __global__ void bad_shape(const unsigned* in, float* out) {
    unsigned a0 = in[0], a1 = in[1], b0 = in[2], b1 = in[3];
    float d[8], c = 0.0f;
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, {%10,%11}, {%12,%12,%12,%12,%12,%12,%12,%12};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]), "=f"(d[4]), "=f"(d[5]), "=f"(d[6]), "=f"(d[7])
                 : "r"(a0), "r"(a1), "r"(b0), "r"(b1), "f"(c));
    for (int i = 0; i < 8; i++) out[threadIdx.x * 8 + i] = d[i];
}
#endif
