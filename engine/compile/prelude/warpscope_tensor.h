// warpscope's device header for half precision, bfloat16 and nvcuda::wmma on the clang path (no
// CUDA toolkit): what <cuda_fp16.h>, <cuda_bf16.h> and <mma.h> give a course kernel. The stand-in
// headers of those names include this one. Written with inline PTX and clang's NVPTX wmma
// builtins, so the PTX has the same instructions nvcc emits: cvt.rn.f16.f32, add/mul/fma.f16,
// fma.rn.bf16, wmma.load/mma/store. bf16 and tf32 need --arch sm_80 or later.
//
// In a whole program (engine/cudart) host code uses these types too: the conversions, the
// operators and the pair helpers are __host__ __device__, and on the host the conversions call
// warpscope's runtime, which rounds as the simulator does (sim/arith), so host and device agree
// bit for bit. The arithmetic intrinsics (__hadd, __hfma2, ...) stay device functions.
//
// Sections: 1. half  2. half2  3. bfloat16  4. nvcuda::wmma
#pragma once
#ifndef __WARPSCOPE_TENSOR_H__
#define __WARPSCOPE_TENSOR_H__

#ifndef __CUDA_ARCH__
// Host conversions (whole programs; libwarpscope_cudart). mode: 0 rn, 1 rz, 2 rm, 3 rp.
extern "C" unsigned short __warpscope_f32_to_f16(float f, int mode);
extern "C" float __warpscope_f16_to_f32(unsigned short h);
extern "C" unsigned short __warpscope_f32_to_bf16(float f, int mode);
#endif
#define __WS_HFN static __host__ __device__ __forceinline__
// A 16-bit float's constructor body from float `f` to nearest: the PTX cvt on the device, the host
// conversion (libwarpscope_cudart) in host code.
#ifdef __CUDA_ARCH__
#define __WS_FROM_FLOAT(PTX, HOST) asm(PTX " %0, %1;" : "=h"(__x) : "f"(f))
#else
#define __WS_FROM_FLOAT(PTX, HOST) __x = HOST(f, 0)
#endif

// ---------------------------------------------------------------- 1. half
struct __align__(2) __half {
    unsigned short __x;
    __half() = default;
    __host__ __device__ __half(float f) { __WS_FROM_FLOAT("cvt.rn.f16.f32", __warpscope_f32_to_f16); }
    __host__ __device__ operator float() const {
#ifdef __CUDA_ARCH__
        float f;
        asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(__x));
        return f;
#else
        return __warpscope_f16_to_f32(__x);
#endif
    }
};
typedef __half half;

__WS_HFN __half __ushort_as_half(unsigned short u) { __half h; h.__x = u; return h; }
__WS_HFN unsigned short __half_as_ushort(__half h) { return h.__x; }
__WS_HFN short __half_as_short(__half h) { return (short)h.__x; }
__WS_HFN __half __float2half(float f) { return __half(f); }
__WS_HFN __half __float2half_rn(float f) { return __half(f); }
#define __WS_CVT_TO_HALF(NAME, PTX, T, C)                                               \
    __WS_FN __half NAME(T v) {                                                          \
        __half h;                                                                       \
        asm(PTX " %0, %1;" : "=h"(h.__x) : C(v));                                       \
        return h;                                                                       \
    }
#ifdef __CUDA_ARCH__
__WS_CVT_TO_HALF(__float2half_rz, "cvt.rz.f16.f32", float, "f")
__WS_CVT_TO_HALF(__float2half_rd, "cvt.rm.f16.f32", float, "f")
__WS_CVT_TO_HALF(__float2half_ru, "cvt.rp.f16.f32", float, "f")
#else
static inline __half __float2half_rz(float f) { return __ushort_as_half(__warpscope_f32_to_f16(f, 1)); }
static inline __half __float2half_rd(float f) { return __ushort_as_half(__warpscope_f32_to_f16(f, 2)); }
static inline __half __float2half_ru(float f) { return __ushort_as_half(__warpscope_f32_to_f16(f, 3)); }
#endif
__WS_CVT_TO_HALF(__int2half_rn, "cvt.rn.f16.s32", int, "r")
__WS_CVT_TO_HALF(__uint2half_rn, "cvt.rn.f16.u32", unsigned, "r")
__WS_CVT_TO_HALF(__double2half, "cvt.rn.f16.f64", double, "d")
__WS_HFN float __half2float(__half h) { return (float)h; }
__WS_FN int __half2int_rn(__half h) { int r; asm("cvt.rni.s32.f16 %0, %1;" : "=r"(r) : "h"(h.__x)); return r; }
__WS_FN int __half2int_rz(__half h) { int r; asm("cvt.rzi.s32.f16 %0, %1;" : "=r"(r) : "h"(h.__x)); return r; }

#define __WS_HALF_BIN(NAME, PTX)                                                        \
    __WS_FN __half NAME(__half a, __half b) {                                           \
        __half r;                                                                       \
        asm(PTX " %0, %1, %2;" : "=h"(r.__x) : "h"(a.__x), "h"(b.__x));                 \
        return r;                                                                       \
    }
__WS_HALF_BIN(__hadd, "add.f16")
__WS_HALF_BIN(__hsub, "sub.f16")
__WS_HALF_BIN(__hmul, "mul.f16")
__WS_HALF_BIN(__hadd_sat, "add.sat.f16")
__WS_HALF_BIN(__hsub_sat, "sub.sat.f16")
__WS_HALF_BIN(__hmul_sat, "mul.sat.f16")
__WS_HALF_BIN(__hmin, "min.f16")
__WS_HALF_BIN(__hmax, "max.f16")
__WS_FN __half __hfma(__half a, __half b, __half c) {
    __half r;
    asm("fma.rn.f16 %0, %1, %2, %3;" : "=h"(r.__x) : "h"(a.__x), "h"(b.__x), "h"(c.__x));
    return r;
}
__WS_FN __half __hfma_sat(__half a, __half b, __half c) {
    __half r;
    asm("fma.rn.sat.f16 %0, %1, %2, %3;" : "=h"(r.__x) : "h"(a.__x), "h"(b.__x), "h"(c.__x));
    return r;
}
__WS_FN __half __hneg(__half a) { __half r; asm("neg.f16 %0, %1;" : "=h"(r.__x) : "h"(a.__x)); return r; }
__WS_FN __half __habs(__half a) { __half r; asm("abs.f16 %0, %1;" : "=h"(r.__x) : "h"(a.__x)); return r; }
// Division and the comparisons go through f32, exactly: a half quotient rounded once from the
// f32 one is the correctly rounded half quotient (f32 has more than twice half's precision).
__WS_FN __half __hdiv(__half a, __half b) { return __half((float)a / (float)b); }
#define __WS_HALF_CMP(NAME, OP) __WS_FN bool NAME(__half a, __half b) { return (float)a OP (float)b; }
__WS_HALF_CMP(__heq, ==)
__WS_HALF_CMP(__hne, !=)
__WS_HALF_CMP(__hlt, <)
__WS_HALF_CMP(__hle, <=)
__WS_HALF_CMP(__hgt, >)
__WS_HALF_CMP(__hge, >=)
__WS_HFN bool __hisnan(__half a) { return (a.__x & 0x7fffu) > 0x7c00u; }
__WS_HFN bool __hisinf(__half a) { return (a.__x & 0x7fffu) == 0x7c00u; }
// On the host through float, rounded once to half: exact for +, -, *, / (float's 24 bits are at
// least twice half's 11 plus 2, so the double rounding cannot differ from one rounding).
#ifdef __CUDA_ARCH__
#define __WS_OP2(T, OP, DEV) __host__ __device__ inline T operator OP(T a, T b) { return DEV(a, b); }
#else
#define __WS_OP2(T, OP, DEV) __host__ __device__ inline T operator OP(T a, T b) { return T((float)a OP (float)b); }
#endif
__WS_OP2(__half, +, __hadd)
__WS_OP2(__half, -, __hsub)
__WS_OP2(__half, *, __hmul)
__WS_OP2(__half, /, __hdiv)
__host__ __device__ inline __half operator-(__half a) { return __ushort_as_half((unsigned short)(a.__x ^ 0x8000u)); }
__host__ __device__ inline __half& operator+=(__half& a, __half b) { return a = a + b; }
__host__ __device__ inline __half& operator-=(__half& a, __half b) { return a = a - b; }
__host__ __device__ inline __half& operator*=(__half& a, __half b) { return a = a * b; }
__host__ __device__ inline __half& operator/=(__half& a, __half b) { return a = a / b; }
__host__ __device__ inline bool operator==(__half a, __half b) { return (float)a == (float)b; }
__host__ __device__ inline bool operator!=(__half a, __half b) { return (float)a != (float)b; }
__host__ __device__ inline bool operator<(__half a, __half b) { return (float)a < (float)b; }
__host__ __device__ inline bool operator<=(__half a, __half b) { return (float)a <= (float)b; }
__host__ __device__ inline bool operator>(__half a, __half b) { return (float)a > (float)b; }
__host__ __device__ inline bool operator>=(__half a, __half b) { return (float)a >= (float)b; }

// ---------------------------------------------------------------- 2. half2
struct __align__(4) __half2 {
    __half x, y;
    __half2() = default;
    __host__ __device__ __half2(__half a, __half b) : x(a), y(b) {}
};
typedef __half2 half2;
__WS_HFN unsigned __ws_h2bits(__half2 v) { return (unsigned)v.x.__x | ((unsigned)v.y.__x << 16); }
__WS_HFN __half2 __ws_bitsh2(unsigned u) {
    __half2 r;
    r.x.__x = (unsigned short)(u & 0xffffu);
    r.y.__x = (unsigned short)(u >> 16);
    return r;
}
__WS_HFN __half2 __halves2half2(__half a, __half b) { __half2 r; r.x = a; r.y = b; return r; }
__WS_HFN __half2 __floats2half2_rn(float a, float b) { return __halves2half2(__half(a), __half(b)); }
__WS_HFN __half2 __float2half2_rn(float a) { return __halves2half2(__half(a), __half(a)); }
__WS_HFN __half2 __half2half2(__half a) { return __halves2half2(a, a); }
__WS_HFN __half __low2half(__half2 v) { return v.x; }
__WS_HFN __half __high2half(__half2 v) { return v.y; }
__WS_HFN float __low2float(__half2 v) { return (float)v.x; }
__WS_HFN float __high2float(__half2 v) { return (float)v.y; }
__WS_HFN float2 __half22float2(__half2 v) { return float2((float)v.x, (float)v.y); }
__WS_HFN __half2 __float22half2_rn(float2 v) { return __halves2half2(__half(v.x), __half(v.y)); }
#define __WS_HALF2_BIN(NAME, PTX)                                                       \
    __WS_FN __half2 NAME(__half2 a, __half2 b) {                                        \
        unsigned r;                                                                     \
        asm(PTX " %0, %1, %2;" : "=r"(r) : "r"(__ws_h2bits(a)), "r"(__ws_h2bits(b)));   \
        return __ws_bitsh2(r);                                                          \
    }
__WS_HALF2_BIN(__hadd2, "add.f16x2")
__WS_HALF2_BIN(__hsub2, "sub.f16x2")
__WS_HALF2_BIN(__hmul2, "mul.f16x2")
__WS_HALF2_BIN(__hmin2, "min.f16x2")
__WS_HALF2_BIN(__hmax2, "max.f16x2")
__WS_FN __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
    unsigned r;
    asm("fma.rn.f16x2 %0, %1, %2, %3;" : "=r"(r) : "r"(__ws_h2bits(a)), "r"(__ws_h2bits(b)), "r"(__ws_h2bits(c)));
    return __ws_bitsh2(r);
}
#ifdef __CUDA_ARCH__
__WS_OP2(__half2, +, __hadd2)
__WS_OP2(__half2, -, __hsub2)
__WS_OP2(__half2, *, __hmul2)
#else
__host__ __device__ inline __half2 operator+(__half2 a, __half2 b) { return __half2(a.x + b.x, a.y + b.y); }
__host__ __device__ inline __half2 operator-(__half2 a, __half2 b) { return __half2(a.x - b.x, a.y - b.y); }
__host__ __device__ inline __half2 operator*(__half2 a, __half2 b) { return __half2(a.x * b.x, a.y * b.y); }
#endif
__host__ __device__ inline __half2& operator+=(__half2& a, __half2 b) { return a = a + b; }
__host__ __device__ inline __half2& operator-=(__half2& a, __half2 b) { return a = a - b; }
__host__ __device__ inline __half2& operator*=(__half2& a, __half2 b) { return a = a * b; }

// ---------------------------------------------------------------- 3. bfloat16
struct __align__(2) __nv_bfloat16 {
    unsigned short __x;
    __nv_bfloat16() = default;
    __host__ __device__ __nv_bfloat16(float f) { __WS_FROM_FLOAT("cvt.rn.bf16.f32", __warpscope_f32_to_bf16); }
    __host__ __device__ operator float() const { return __builtin_bit_cast(float, (unsigned)__x << 16); }
};
typedef __nv_bfloat16 nv_bfloat16;
struct __align__(4) __nv_bfloat162 {
    __nv_bfloat16 x, y;
};
__WS_HFN __nv_bfloat16 __ushort_as_bfloat16(unsigned short u) { __nv_bfloat16 h; h.__x = u; return h; }
__WS_HFN unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.__x; }
__WS_HFN __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
__WS_HFN __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
__WS_HFN float __bfloat162float(__nv_bfloat16 h) { return (float)h; }
__WS_FN __nv_bfloat16 __int2bfloat16_rn(int i) { return __nv_bfloat16((float)i); }   // exact below 2^24, then rounded once more
// sm_80 has only fma for bf16 (add and mul are fma with 1 and -0, as nvcc writes them).
__WS_FN __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
    __nv_bfloat16 r;
    asm("fma.rn.bf16 %0, %1, %2, %3;" : "=h"(r.__x) : "h"(a.__x), "h"(b.__x), "h"(c.__x));
    return r;
}
__WS_FN __nv_bfloat16 __hadd(__nv_bfloat16 a, __nv_bfloat16 b) { return __hfma(a, __ushort_as_bfloat16(0x3f80), b); }
__WS_FN __nv_bfloat16 __hsub(__nv_bfloat16 a, __nv_bfloat16 b) { return __hfma(b, __ushort_as_bfloat16(0xbf80), a); }
__WS_FN __nv_bfloat16 __hmul(__nv_bfloat16 a, __nv_bfloat16 b) { return __hfma(a, b, __ushort_as_bfloat16(0x8000)); }
__WS_OP2(__nv_bfloat16, +, __hadd)
__WS_OP2(__nv_bfloat16, -, __hsub)
__WS_OP2(__nv_bfloat16, *, __hmul)
#undef __WS_OP2

// ---------------------------------------------------------------- 4. nvcuda::wmma
// Fragments keep their elements in x[] (as CUDA's do) over the 32-bit registers the builtins
// take. Shapes: m16n16k16 for half, bfloat16, signed and unsigned char; m16n16k8 for tf32.
namespace nvcuda {
namespace wmma {
struct row_major {};
struct col_major {};
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
namespace precision {
struct tf32 {};
} // namespace precision
enum layout_t { mem_row_major, mem_col_major };

template <typename E, int N, int R>
struct __ws_frag_base {
    union {
        E x[N];
        int __r[R];
        float __f[R];
    };
    enum { num_elements = N };
    typedef E element_type;
};

template <typename Use, int M, int N, int K, typename T, typename Layout = void>
class fragment;

#define __WS_FRAG(USE, K, T, E, N, R)                                                    \
    template <typename L>                                                                \
    class fragment<USE, 16, 16, K, T, L> : public __ws_frag_base<E, N, R> {};
__WS_FRAG(matrix_a, 16, __half, __half, 16, 8)
__WS_FRAG(matrix_b, 16, __half, __half, 16, 8)
__WS_FRAG(matrix_a, 16, __nv_bfloat16, __nv_bfloat16, 8, 4)
__WS_FRAG(matrix_b, 16, __nv_bfloat16, __nv_bfloat16, 8, 4)
__WS_FRAG(matrix_a, 8, precision::tf32, float, 4, 4)
__WS_FRAG(matrix_b, 8, precision::tf32, float, 4, 4)
__WS_FRAG(matrix_a, 16, signed char, signed char, 8, 2)
__WS_FRAG(matrix_b, 16, signed char, signed char, 8, 2)
__WS_FRAG(matrix_a, 16, unsigned char, unsigned char, 8, 2)
__WS_FRAG(matrix_b, 16, unsigned char, unsigned char, 8, 2)
__WS_FRAG(accumulator, 16, float, float, 8, 8)
__WS_FRAG(accumulator, 16, __half, __half, 8, 4)
__WS_FRAG(accumulator, 16, int, int, 8, 8)
__WS_FRAG(accumulator, 8, float, float, 8, 8)
#undef __WS_FRAG

template <typename L> struct __ws_is_col { enum { value = 0 }; };
template <> struct __ws_is_col<col_major> { enum { value = 1 }; };

#define __WS_LOAD_AB(USE, K, T, P, BUILTIN)                                              \
    template <typename L>                                                                \
    __device__ inline void load_matrix_sync(fragment<USE, 16, 16, K, T, L>& f, const P* p, unsigned ldm) { \
        BUILTIN(f.__r, (const int*)p, ldm, __ws_is_col<L>::value);                      \
    }
__WS_LOAD_AB(matrix_a, 16, __half, __half, __hmma_m16n16k16_ld_a)
__WS_LOAD_AB(matrix_b, 16, __half, __half, __hmma_m16n16k16_ld_b)
__WS_LOAD_AB(matrix_a, 16, __nv_bfloat16, __nv_bfloat16, __mma_bf16_m16n16k16_ld_a)
__WS_LOAD_AB(matrix_b, 16, __nv_bfloat16, __nv_bfloat16, __mma_bf16_m16n16k16_ld_b)
__WS_LOAD_AB(matrix_a, 8, precision::tf32, float, __mma_tf32_m16n16k8_ld_a)
__WS_LOAD_AB(matrix_b, 8, precision::tf32, float, __mma_tf32_m16n16k8_ld_b)
__WS_LOAD_AB(matrix_a, 16, signed char, signed char, __imma_m16n16k16_ld_a_s8)
__WS_LOAD_AB(matrix_b, 16, signed char, signed char, __imma_m16n16k16_ld_b_s8)
__WS_LOAD_AB(matrix_a, 16, unsigned char, unsigned char, __imma_m16n16k16_ld_a_u8)
__WS_LOAD_AB(matrix_b, 16, unsigned char, unsigned char, __imma_m16n16k16_ld_b_u8)
#undef __WS_LOAD_AB

__device__ inline void load_matrix_sync(fragment<accumulator, 16, 16, 16, float>& f, const float* p, unsigned ldm, layout_t l) {
    if (l == mem_col_major) __hmma_m16n16k16_ld_c_f32(f.__f, p, ldm, 1);
    else __hmma_m16n16k16_ld_c_f32(f.__f, p, ldm, 0);
}
__device__ inline void load_matrix_sync(fragment<accumulator, 16, 16, 8, float>& f, const float* p, unsigned ldm, layout_t l) {
    if (l == mem_col_major) __mma_tf32_m16n16k8_ld_c(f.__f, p, ldm, 1);
    else __mma_tf32_m16n16k8_ld_c(f.__f, p, ldm, 0);
}
__device__ inline void load_matrix_sync(fragment<accumulator, 16, 16, 16, __half>& f, const __half* p, unsigned ldm, layout_t l) {
    if (l == mem_col_major) __hmma_m16n16k16_ld_c_f16(f.__r, (const int*)p, ldm, 1);
    else __hmma_m16n16k16_ld_c_f16(f.__r, (const int*)p, ldm, 0);
}
__device__ inline void load_matrix_sync(fragment<accumulator, 16, 16, 16, int>& f, const int* p, unsigned ldm, layout_t l) {
    if (l == mem_col_major) __imma_m16n16k16_ld_c(f.__r, p, ldm, 1);
    else __imma_m16n16k16_ld_c(f.__r, p, ldm, 0);
}
__device__ inline void store_matrix_sync(float* p, const fragment<accumulator, 16, 16, 16, float>& f, unsigned ldm, layout_t l) {
    if (l == mem_col_major) __hmma_m16n16k16_st_c_f32(p, const_cast<float*>(f.__f), ldm, 1);
    else __hmma_m16n16k16_st_c_f32(p, const_cast<float*>(f.__f), ldm, 0);
}
__device__ inline void store_matrix_sync(float* p, const fragment<accumulator, 16, 16, 8, float>& f, unsigned ldm, layout_t l) {
    if (l == mem_col_major) __mma_m16n16k8_st_c_f32(p, const_cast<float*>(f.__f), ldm, 1);
    else __mma_m16n16k8_st_c_f32(p, const_cast<float*>(f.__f), ldm, 0);
}
__device__ inline void store_matrix_sync(__half* p, const fragment<accumulator, 16, 16, 16, __half>& f, unsigned ldm, layout_t l) {
    if (l == mem_col_major) __hmma_m16n16k16_st_c_f16((int*)p, const_cast<int*>(f.__r), ldm, 1);
    else __hmma_m16n16k16_st_c_f16((int*)p, const_cast<int*>(f.__r), ldm, 0);
}
__device__ inline void store_matrix_sync(int* p, const fragment<accumulator, 16, 16, 16, int>& f, unsigned ldm, layout_t l) {
    if (l == mem_col_major) __imma_m16n16k16_st_c_i32(p, const_cast<int*>(f.__r), ldm, 1);
    else __imma_m16n16k16_st_c_i32(p, const_cast<int*>(f.__r), ldm, 0);
}

template <typename Use, int M, int N, int K, typename T, typename L, typename V>
__device__ inline void fill_fragment(fragment<Use, M, N, K, T, L>& f, const V& v) {
    for (int i = 0; i < f.num_elements; i++) f.x[i] = v;
}

// The builtins' layout arguments are constants: a run-time layout_t picks one of two calls.
// The builtins' layout argument: 0 row.row, 1 row.col, 2 col.row, 3 col.col.
template <typename LA, typename LB> struct __ws_ab { enum { value = __ws_is_col<LA>::value * 2 + __ws_is_col<LB>::value }; };

#define __WS_MMA_H(DT, CT, BUILTIN, DR, CR, CP)                                           \
    template <typename LA, typename LB>                                                  \
    __device__ inline void mma_sync(fragment<accumulator, 16, 16, 16, DT>& d, const fragment<matrix_a, 16, 16, 16, __half, LA>& a, \
                                    const fragment<matrix_b, 16, 16, 16, __half, LB>& b, const fragment<accumulator, 16, 16, 16, CT>& c) { \
        BUILTIN(d.DR, const_cast<int*>(a.__r), const_cast<int*>(b.__r), const_cast<CP*>(c.CR), __ws_ab<LA, LB>::value, 0); \
    }
__WS_MMA_H(float, float, __hmma_m16n16k16_mma_f32f32, __f, __f, float)
__WS_MMA_H(float, __half, __hmma_m16n16k16_mma_f32f16, __f, __r, int)
__WS_MMA_H(__half, float, __hmma_m16n16k16_mma_f16f32, __r, __f, float)
__WS_MMA_H(__half, __half, __hmma_m16n16k16_mma_f16f16, __r, __r, int)
#undef __WS_MMA_H

template <typename LA, typename LB>
__device__ inline void mma_sync(fragment<accumulator, 16, 16, 16, float>& d, const fragment<matrix_a, 16, 16, 16, __nv_bfloat16, LA>& a,
                                const fragment<matrix_b, 16, 16, 16, __nv_bfloat16, LB>& b, const fragment<accumulator, 16, 16, 16, float>& c) {
    __mma_bf16_m16n16k16_mma_f32(d.__f, const_cast<int*>(a.__r), const_cast<int*>(b.__r), const_cast<float*>(c.__f), __ws_ab<LA, LB>::value, 0);
}
template <typename LA, typename LB>
__device__ inline void mma_sync(fragment<accumulator, 16, 16, 8, float>& d, const fragment<matrix_a, 16, 16, 8, precision::tf32, LA>& a,
                                const fragment<matrix_b, 16, 16, 8, precision::tf32, LB>& b, const fragment<accumulator, 16, 16, 8, float>& c) {
    __mma_tf32_m16n16k8_mma_f32(d.__f, const_cast<int*>(a.__r), const_cast<int*>(b.__r), const_cast<float*>(c.__f), __ws_ab<LA, LB>::value, 0);
}
template <typename LA, typename LB>
__device__ inline void mma_sync(fragment<accumulator, 16, 16, 16, int>& d, const fragment<matrix_a, 16, 16, 16, signed char, LA>& a,
                                const fragment<matrix_b, 16, 16, 16, signed char, LB>& b, const fragment<accumulator, 16, 16, 16, int>& c,
                                bool satf = false) {
    if (satf) __imma_m16n16k16_mma_s8(d.__r, const_cast<int*>(a.__r), const_cast<int*>(b.__r), const_cast<int*>(c.__r), __ws_ab<LA, LB>::value, 1);
    else __imma_m16n16k16_mma_s8(d.__r, const_cast<int*>(a.__r), const_cast<int*>(b.__r), const_cast<int*>(c.__r), __ws_ab<LA, LB>::value, 0);
}
template <typename LA, typename LB>
__device__ inline void mma_sync(fragment<accumulator, 16, 16, 16, int>& d, const fragment<matrix_a, 16, 16, 16, unsigned char, LA>& a,
                                const fragment<matrix_b, 16, 16, 16, unsigned char, LB>& b, const fragment<accumulator, 16, 16, 16, int>& c,
                                bool satf = false) {
    if (satf) __imma_m16n16k16_mma_u8(d.__r, const_cast<int*>(a.__r), const_cast<int*>(b.__r), const_cast<int*>(c.__r), __ws_ab<LA, LB>::value, 1);
    else __imma_m16n16k16_mma_u8(d.__r, const_cast<int*>(a.__r), const_cast<int*>(b.__r), const_cast<int*>(c.__r), __ws_ab<LA, LB>::value, 0);
}

__device__ inline float __float_to_tf32(float in) {
    float out;
    asm("{\n\t.reg .b32 __ws_t;\n\tcvt.rna.tf32.f32 __ws_t, %1;\n\tmov.b32 %0, __ws_t;\n\t}" : "=f"(out) : "f"(in));
    return out;
}
} // namespace wmma
} // namespace nvcuda

#endif
