// warpscope-ptx-arch: sm_90
// wmma GEMMs on inputs chosen to expose how the tensor cores round: random signs, exponents over
// a wide range (products differ by up to 2^24 inside one dot product, sums cancel), accumulators
// of their own magnitude. 32x32 outputs per kernel, one 16x16 tile per warp, K = 64 (32 for tf32)
// so every tile chains several mma_sync through the accumulator. f16 -> f32 and f16 -> f16 in all
// four A/B layout pairs, from global and from padded shared memory; bf16 -> f32; tf32 -> f32;
// s8/u8 -> s32 wrapping and saturating.
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;

// Random operands from hashed bits: sign, an exponent in a chosen window, every mantissa bit.
__device__ half f16From(unsigned h) {
    unsigned e = 9 + (h >> 10) % 12;                       // 2^-6 .. 2^5
    unsigned short b = (unsigned short)((h & 0x83ffu) | (e << 10));
    if ((h >> 24) == 0x5a) b &= 0x8000u;                  // a few signed zeros
    return __ushort_as_half(b);
}
__device__ __nv_bfloat16 bf16From(unsigned h) {
    unsigned e = 119 + (h >> 7) % 16;                      // 2^-8 .. 2^7
    unsigned short b = (unsigned short)((h & 0x807fu) | (e << 7));
    return __ushort_as_bfloat16(b);
}
__device__ float f32From(unsigned h, unsigned window, unsigned low) {
    unsigned e = low + (h >> 23 & 0xff) % window;
    return __uint_as_float((h & 0x807fffffu) | (e << 23));
}

extern "C" __global__ void prep(const unsigned* ha, const unsigned* hb, half* a16, half* b16, __nv_bfloat16* abf,
                                __nv_bfloat16* bbf, float* atf, float* btf, signed char* a8, signed char* b8,
                                float* c32, half* c16, int* ci) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;     // 0 .. 2047
    unsigned x = ha[i], y = hb[i];
    a16[i] = f16From(x);
    b16[i] = f16From(y);
    abf[i] = bf16From(x * 2654435761u);
    bbf[i] = bf16From(y * 2654435761u);
    atf[i] = f32From(x ^ (y << 7), 16, 119);
    btf[i] = f32From(y ^ (x << 5), 16, 119);
    a8[i] = (signed char)(x >> 3);
    b8[i] = (signed char)(y >> 5);
    if (i < 1024) {
        c32[i] = f32From(x ^ y, 24, 115);
        c16[i] = f16From(x ^ (y >> 3));
        // Near the ends of the int32 range for every eighth, so saturation shows.
        unsigned k = x ^ (y >> 9);
        ci[i] = (i % 8 == 0) ? (int)(0x7fff0000u + (k & 0xffff)) : (i % 8 == 1) ? (int)(0x80000000u + (k & 0xffff)) : (int)(k >> 8) - (1 << 23);
    }
}

// One warp per 16x16 tile of a 32x32 D; A is 32xK, B is Kx32.
template <typename T, typename LA, typename LB, typename Acc, int KK, int K>
__device__ void gemm(const T* A, const T* B, const Acc* C, Acc* D, bool aRow, bool bRow, bool cRow, bool dRow) {
    int warp = threadIdx.x / 32, tm = warp / 2, tn = warp % 2;
    wmma::fragment<wmma::accumulator, 16, 16, KK, Acc> acc;
    const Acc* cTile = cRow ? C + tm * 16 * 32 + tn * 16 : C + tn * 16 * 32 + tm * 16;
    wmma::load_matrix_sync(acc, cTile, 32, cRow ? wmma::mem_row_major : wmma::mem_col_major);
    for (int k = 0; k < K; k += KK) {
        wmma::fragment<wmma::matrix_a, 16, 16, KK, typename std::conditional<std::is_same<T, float>::value, wmma::precision::tf32, T>::type, LA> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, KK, typename std::conditional<std::is_same<T, float>::value, wmma::precision::tf32, T>::type, LB> fb;
        // A row-major: element (m, k) at m*K + k; col-major: at k*32 + m.
        wmma::load_matrix_sync(fa, aRow ? A + tm * 16 * K + k : A + k * 32 + tm * 16, aRow ? K : 32);
        wmma::load_matrix_sync(fb, bRow ? B + k * 32 + tn * 16 : B + tn * 16 * K + k, bRow ? 32 : K);
        if constexpr (std::is_same<T, float>::value) {
            for (int i = 0; i < fa.num_elements; i++) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
            for (int i = 0; i < fb.num_elements; i++) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
        }
        wmma::mma_sync(acc, fa, fb, acc);
    }
    Acc* dTile = dRow ? D + tm * 16 * 32 + tn * 16 : D + tn * 16 * 32 + tm * 16;
    wmma::store_matrix_sync(dTile, acc, 32, dRow ? wmma::mem_row_major : wmma::mem_col_major);
}

using wmma::row_major;
using wmma::col_major;
extern "C" __global__ void f16_rc(const half* A, const half* B, const float* C, float* D) { gemm<half, row_major, col_major, float, 16, 64>(A, B, C, D, true, false, true, true); }
extern "C" __global__ void f16_cr(const half* A, const half* B, const float* C, float* D) { gemm<half, col_major, row_major, float, 16, 64>(A, B, C, D, false, true, false, false); }
extern "C" __global__ void f16_rr(const half* A, const half* B, const float* C, float* D) { gemm<half, row_major, row_major, float, 16, 64>(A, B, C, D, true, true, true, false); }
extern "C" __global__ void f16_cc(const half* A, const half* B, const float* C, float* D) { gemm<half, col_major, col_major, float, 16, 64>(A, B, C, D, false, false, false, true); }
extern "C" __global__ void f16_h_rc(const half* A, const half* B, const half* C, half* D) { gemm<half, row_major, col_major, half, 16, 64>(A, B, C, D, true, false, true, true); }
extern "C" __global__ void f16_h_cr(const half* A, const half* B, const half* C, half* D) { gemm<half, col_major, row_major, half, 16, 64>(A, B, C, D, false, true, false, false); }
extern "C" __global__ void bf16_rc(const __nv_bfloat16* A, const __nv_bfloat16* B, const float* C, float* D) { gemm<__nv_bfloat16, row_major, col_major, float, 16, 64>(A, B, C, D, true, false, true, true); }
extern "C" __global__ void bf16_cr(const __nv_bfloat16* A, const __nv_bfloat16* B, const float* C, float* D) { gemm<__nv_bfloat16, col_major, row_major, float, 16, 64>(A, B, C, D, false, true, true, false); }
extern "C" __global__ void tf32_rc(const float* A, const float* B, const float* C, float* D) { gemm<float, row_major, col_major, float, 8, 32>(A, B, C, D, true, false, true, true); }
extern "C" __global__ void tf32_cr(const float* A, const float* B, const float* C, float* D) { gemm<float, col_major, row_major, float, 8, 32>(A, B, C, D, false, true, false, true); }
extern "C" __global__ void s8_rc(const signed char* A, const signed char* B, const int* C, int* D) { gemm<signed char, row_major, col_major, int, 16, 64>(A, B, C, D, true, false, true, true); }
extern "C" __global__ void u8_cr(const unsigned char* A, const unsigned char* B, const int* C, int* D) { gemm<unsigned char, col_major, row_major, int, 16, 64>(A, B, C, D, false, true, true, true); }

// Saturating s8: the accumulator clamps instead of wrapping.
extern "C" __global__ void s8_sat(const signed char* A, const signed char* B, const int* C, int* D) {
    int warp = threadIdx.x / 32, tm = warp / 2, tn = warp % 2;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
    wmma::load_matrix_sync(acc, C + tm * 16 * 32 + tn * 16, 32, wmma::mem_row_major);
    for (int k = 0; k < 64; k += 16) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, row_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, col_major> fb;
        wmma::load_matrix_sync(fa, A + tm * 16 * 64 + k, 64);
        wmma::load_matrix_sync(fb, B + tn * 16 * 64 + k, 64);
        wmma::mma_sync(acc, fa, fb, acc, true);
    }
    wmma::store_matrix_sync(D + tm * 16 * 32 + tn * 16, acc, 32, wmma::mem_row_major);
}

// Staged through padded shared memory (row stride 24 halves = 48 bytes), A col-major in shared.
extern "C" __global__ void f16_shared(const half* A, const half* B, const float* C, float* D) {
    __shared__ half sa[64][40];   // sa[k][m]: A col-major, stride 40
    __shared__ half sb[64][40];   // sb[k][n]: B row-major, stride 40
    __shared__ float sd[32][36];
    for (int i = threadIdx.x; i < 64 * 32; i += blockDim.x) {
        int r = i / 32, c = i % 32;
        sa[r][c] = A[c * 64 + r];
        sb[r][c] = B[r * 32 + c];
    }
    __syncthreads();
    int warp = threadIdx.x / 32, tm = warp / 2, tn = warp % 2;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < 64; k += 16) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, col_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, row_major> fb;
        wmma::load_matrix_sync(fa, &sa[k][tm * 16], 40);
        wmma::load_matrix_sync(fb, &sb[k][tn * 16], 40);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    for (int i = 0; i < acc.num_elements; i++) acc.x[i] += C[0];
    wmma::store_matrix_sync(&sd[tm * 16][tn * 16], acc, 36, wmma::mem_row_major);
    __syncthreads();
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) D[i] = sd[i / 32][i % 32];
}
