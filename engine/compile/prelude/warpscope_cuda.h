// warpscope's CUDA device prelude: what a course kernel expects from CUDA, for clang in CUDA
// device-only mode without a CUDA toolkit (-nocudainc -nocudalib). It is force-included before the
// student's file (-include). Everything is written with clang's NVVM builtins or inline PTX, so
// the PTX needs no libdevice and no link step. What the simulator cannot run, or what would need
// libdevice, is declared "unavailable" with a message, so the student sees an error at their own
// line instead of a link error.
//
// Sections: 1. qualifiers  2. vector types and built-in variables  3. synchronisation
//           4. atomics  5. warp functions  6. conversions and bit tricks  7. math
//           8. __ldg  9. unsupported features (a whole program's host headers: engine/cudart)
#pragma once
#define __WARPSCOPE_PRELUDE__ 1
// As nvcc defines it for CUDA sources: headers (the samples' helpers among them) put __host__
// __device__ on their functions only under it.
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif

// ---------------------------------------------------------------- 1. qualifiers
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
#define __WS_FN static __device__ __forceinline__
#define __WS_UNAVAILABLE(why) __attribute__((unavailable(why)))
// Declared for host and device, so that a call from a kernel finds them and reports the message.
#define __WS_HD __host__ __device__
#define CUDART_INF_F __builtin_huge_valf()
#define CUDART_NAN_F __builtin_nanf("")
#define CUDART_PI_F 3.141592654f
#ifndef INFINITY   // a whole program's <math.h> may have defined them already
#define INFINITY __builtin_huge_valf()
#endif
#ifndef NAN
#define NAN __builtin_nanf("")
#endif

typedef __SIZE_TYPE__ size_t;
typedef unsigned int uint;

// ---------------------------------------------------------------- 2. vector types and built-in variables
// CUDA's alignment: a 2-vector of 4-byte elements is 8-aligned, a 4-vector 16-aligned, so copying a
// float4 is one 128-bit access (ld.v4.f32), as nvcc makes it. The 3-vectors are unpadded.
#define __WS_ARGS(...) __VA_ARGS__
#define __WS_VEC1(T, N, A) struct __align__(A) N##1 { T x; }; \
    __WS_FN N##1 make_##N##1(T x) { N##1 v; v.x = x; return v; }
// The 2- and 4-vectors copy themselves as one vector (ld.v2/ld.v4): clang would otherwise copy a
// 16-byte struct as two 64-bit halves. So they have constructors (a float4 v = {a, b, c, d} still
// works through the element constructor; missing elements are zero as in CUDA).
#define __WS_VECN(T, N, A, n, FIELDS, PARAMS, INIT)                                                   \
    struct __align__(A) N##n {                                                                     \
        T FIELDS;                                                                                  \
        typedef T __ws_v __attribute__((ext_vector_type(n), may_alias));                           \
        N##n() = default;                                                                          \
        __host__ __device__ constexpr N##n(PARAMS) : INIT {}                                       \
        __host__ __device__ N##n(const N##n& o) { *(__ws_v*)this = *(const __ws_v*)&o; }           \
        __host__ __device__ N##n& operator=(const N##n& o) { *(__ws_v*)this = *(const __ws_v*)&o; return *this; } \
    };
#define __WS_VEC2(T, N, A) __WS_VECN(T, N, A, 2, __WS_ARGS(x, y), __WS_ARGS(T vx, T vy = 0), __WS_ARGS(x(vx), y(vy))) \
    __WS_FN N##2 make_##N##2(T x, T y) { return N##2(x, y); }
#define __WS_VEC4(T, N, A) __WS_VECN(T, N, A, 4, __WS_ARGS(x, y, z, w), __WS_ARGS(T vx, T vy = 0, T vz = 0, T vw = 0), __WS_ARGS(x(vx), y(vy), z(vz), w(vw))) \
    __WS_FN N##4 make_##N##4(T x, T y, T z, T w) { return N##4(x, y, z, w); }
#define __WS_VEC3(T, N) struct N##3 { T x, y, z; }; \
    __WS_FN N##3 make_##N##3(T x, T y, T z) { N##3 v; v.x = x; v.y = y; v.z = z; return v; }
#define __WS_VECS(T, N, A1, A2, A4) __WS_VEC1(T, N, A1) __WS_VEC2(T, N, A2) __WS_VEC3(T, N) __WS_VEC4(T, N, A4)
__WS_VECS(signed char, char, 1, 2, 4)
__WS_VECS(unsigned char, uchar, 1, 2, 4)
__WS_VECS(short, short, 2, 4, 8)
__WS_VECS(unsigned short, ushort, 2, 4, 8)
__WS_VECS(int, int, 4, 8, 16)
__WS_VECS(unsigned int, uint, 4, 8, 16)
__WS_VECS(long long, longlong, 8, 16, 16)
__WS_VECS(unsigned long long, ulonglong, 8, 16, 16)
__WS_VECS(float, float, 4, 8, 16)
__WS_VECS(double, double, 8, 16, 16)

struct dim3 {
    unsigned int x, y, z;
    __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    __host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; }
};

// The index variables read the special registers (%tid, %ntid, %ctaid, %nctaid); a read of one
// field reads one register (the others are dead and removed).
__WS_FN uint3 __ws_threadIdx() { return uint3{(unsigned)__nvvm_read_ptx_sreg_tid_x(), (unsigned)__nvvm_read_ptx_sreg_tid_y(), (unsigned)__nvvm_read_ptx_sreg_tid_z()}; }
__WS_FN uint3 __ws_blockIdx() { return uint3{(unsigned)__nvvm_read_ptx_sreg_ctaid_x(), (unsigned)__nvvm_read_ptx_sreg_ctaid_y(), (unsigned)__nvvm_read_ptx_sreg_ctaid_z()}; }
__WS_FN dim3 __ws_blockDim() { return dim3((unsigned)__nvvm_read_ptx_sreg_ntid_x(), (unsigned)__nvvm_read_ptx_sreg_ntid_y(), (unsigned)__nvvm_read_ptx_sreg_ntid_z()); }
__WS_FN dim3 __ws_gridDim() { return dim3((unsigned)__nvvm_read_ptx_sreg_nctaid_x(), (unsigned)__nvvm_read_ptx_sreg_nctaid_y(), (unsigned)__nvvm_read_ptx_sreg_nctaid_z()); }
#ifdef __WARPSCOPE_WHOLE_PROGRAM__
// In a whole program they are not macros, as host code names struct members gridDim and blockDim
// (cudaKernelNodeParams, cudaLaunchParams): objects whose fields read the registers (clang's
// __declspec(property), as its own CUDA headers do), never defined, only their getters called.
#define __WS_BUILTIN_VAR(NAME, READ, EXTRA)                                                                         \
    struct __ws_##NAME##_t {                                                                                        \
        __declspec(property(get = __fx)) unsigned int x;                                                            \
        __declspec(property(get = __fy)) unsigned int y;                                                            \
        __declspec(property(get = __fz)) unsigned int z;                                                            \
        static __device__ __attribute__((always_inline)) unsigned int __fx() { return READ().x; }                  \
        static __device__ __attribute__((always_inline)) unsigned int __fy() { return READ().y; }                  \
        static __device__ __attribute__((always_inline)) unsigned int __fz() { return READ().z; }                  \
        EXTRA                                                                                                       \
        __device__ __attribute__((always_inline)) operator uint3() const { return uint3{__fx(), __fy(), __fz()}; } \
    };                                                                                                              \
    extern const __device__ __ws_##NAME##_t NAME;
__WS_BUILTIN_VAR(threadIdx, __ws_threadIdx, )
__WS_BUILTIN_VAR(blockIdx, __ws_blockIdx, )
__WS_BUILTIN_VAR(blockDim, __ws_blockDim, __device__ __attribute__((always_inline)) operator dim3() const { return __ws_blockDim(); })
__WS_BUILTIN_VAR(gridDim, __ws_gridDim, __device__ __attribute__((always_inline)) operator dim3() const { return __ws_gridDim(); })
#undef __WS_BUILTIN_VAR
#else
#define threadIdx (__ws_threadIdx())
#define blockIdx (__ws_blockIdx())
#define blockDim (__ws_blockDim())
#define gridDim (__ws_gridDim())
#endif
#ifdef __WARPSCOPE_WHOLE_PROGRAM__
static constexpr int warpSize = 32;   // not a macro: host code reads cudaDeviceProp::warpSize
#else
#define warpSize 32
#endif

// ---------------------------------------------------------------- 3. synchronisation
// The barriers as inline PTX that clobbers memory. clang 14's own __syncthreads builtin lowers to
// llvm.nvvm.barrier0, across which LLVM moves a load of a static __shared__ variable whose address
// never escapes: in `if (threadIdx.x == 0) v = x; __syncthreads(); y = v;` the other threads then
// read v before the barrier (tests/compile/barrier_order.cu). The asm keeps every memory access
// on its side of the barrier, as nvcc does; the PTX is the same `bar.sync 0`.
#define __syncthreads() asm volatile("bar.sync 0;" ::: "memory")
__WS_FN int __syncthreads_count(int p) { return __nvvm_bar0_popc(p); }
__WS_FN int __syncthreads_and(int p) { return __nvvm_bar0_and(p); }
__WS_FN int __syncthreads_or(int p) { return __nvvm_bar0_or(p); }
__WS_FN void __syncwarp(unsigned mask = 0xffffffffu) { asm volatile("bar.warp.sync %0;" ::"r"(mask) : "memory"); }
__WS_FN void __threadfence() { __nvvm_membar_gl(); }
__WS_FN void __threadfence_block() { __nvvm_membar_cta(); }
__WS_FN void __threadfence_system() { __nvvm_membar_sys(); }

// ---------------------------------------------------------------- 4. atomics
// Generic-address atomics (atom.<op>.<type>); each returns the old value.
#define __WS_AT(name, T, builtin, C) __WS_FN T name(T* p, T v) { return (T)builtin((C*)p, (C)v); }
__WS_AT(atomicAdd, int, __nvvm_atom_add_gen_i, int)
__WS_AT(atomicAdd, unsigned int, __nvvm_atom_add_gen_i, int)
__WS_AT(atomicAdd, unsigned long long, __nvvm_atom_add_gen_ll, long long)
__WS_AT(atomicAdd, float, __nvvm_atom_add_gen_f, float)
__WS_AT(atomicAdd, double, __nvvm_atom_add_gen_d, double)
__WS_FN int atomicSub(int* p, int v) { return __nvvm_atom_add_gen_i(p, -v); }
__WS_FN unsigned int atomicSub(unsigned int* p, unsigned int v) { return (unsigned)__nvvm_atom_add_gen_i((int*)p, -(int)v); }
__WS_AT(atomicExch, int, __nvvm_atom_xchg_gen_i, int)
__WS_AT(atomicExch, unsigned int, __nvvm_atom_xchg_gen_i, int)
__WS_AT(atomicExch, unsigned long long, __nvvm_atom_xchg_gen_ll, long long)
__WS_FN float atomicExch(float* p, float v) { return __builtin_bit_cast(float, __nvvm_atom_xchg_gen_i((int*)p, __builtin_bit_cast(int, v))); }
__WS_AT(atomicMin, int, __nvvm_atom_min_gen_i, int)
__WS_AT(atomicMin, unsigned int, __nvvm_atom_min_gen_ui, unsigned int)
__WS_AT(atomicMin, long long, __nvvm_atom_min_gen_ll, long long)
__WS_AT(atomicMin, unsigned long long, __nvvm_atom_min_gen_ull, unsigned long long)
__WS_AT(atomicMax, int, __nvvm_atom_max_gen_i, int)
__WS_AT(atomicMax, unsigned int, __nvvm_atom_max_gen_ui, unsigned int)
__WS_AT(atomicMax, long long, __nvvm_atom_max_gen_ll, long long)
__WS_AT(atomicMax, unsigned long long, __nvvm_atom_max_gen_ull, unsigned long long)
__WS_AT(atomicInc, unsigned int, __nvvm_atom_inc_gen_ui, unsigned int)
__WS_AT(atomicDec, unsigned int, __nvvm_atom_dec_gen_ui, unsigned int)
__WS_AT(atomicAnd, int, __nvvm_atom_and_gen_i, int)
__WS_AT(atomicAnd, unsigned int, __nvvm_atom_and_gen_i, int)
__WS_AT(atomicAnd, unsigned long long, __nvvm_atom_and_gen_ll, long long)
__WS_AT(atomicOr, int, __nvvm_atom_or_gen_i, int)
__WS_AT(atomicOr, unsigned int, __nvvm_atom_or_gen_i, int)
__WS_AT(atomicOr, unsigned long long, __nvvm_atom_or_gen_ll, long long)
__WS_AT(atomicXor, int, __nvvm_atom_xor_gen_i, int)
__WS_AT(atomicXor, unsigned int, __nvvm_atom_xor_gen_i, int)
__WS_AT(atomicXor, unsigned long long, __nvvm_atom_xor_gen_ll, long long)
__WS_FN int atomicCAS(int* p, int cmp, int v) { return __nvvm_atom_cas_gen_i(p, cmp, v); }
__WS_FN unsigned int atomicCAS(unsigned int* p, unsigned int cmp, unsigned int v) { return (unsigned)__nvvm_atom_cas_gen_i((int*)p, (int)cmp, (int)v); }
__WS_FN unsigned long long atomicCAS(unsigned long long* p, unsigned long long cmp, unsigned long long v) {
    return (unsigned long long)__nvvm_atom_cas_gen_ll((long long*)p, (long long)cmp, (long long)v);
}

// ---------------------------------------------------------------- 5. warp functions
// The shfl "c" operand packs the segment mask ((32 - width) << 8) and the clamp (31, or 0 for up).
#define __WS_SHFL(name, kind, clampv, Arg)                                                            \
    __WS_FN int name(unsigned m, int v, Arg a, int w = 32) { return __nvvm_shfl_sync_##kind##_i32(m, v, a, ((32 - w) << 8) | clampv); } \
    __WS_FN unsigned name(unsigned m, unsigned v, Arg a, int w = 32) { return (unsigned)__nvvm_shfl_sync_##kind##_i32(m, (int)v, a, ((32 - w) << 8) | clampv); } \
    __WS_FN float name(unsigned m, float v, Arg a, int w = 32) { return __nvvm_shfl_sync_##kind##_f32(m, v, a, ((32 - w) << 8) | clampv); } \
    __WS_FN long long name(unsigned m, long long v, Arg a, int w = 32) {                               \
        int lo = __nvvm_shfl_sync_##kind##_i32(m, (int)v, a, ((32 - w) << 8) | clampv);                \
        int hi = __nvvm_shfl_sync_##kind##_i32(m, (int)(v >> 32), a, ((32 - w) << 8) | clampv);        \
        return (long long)(((unsigned long long)(unsigned)hi << 32) | (unsigned)lo); }                 \
    __WS_FN unsigned long long name(unsigned m, unsigned long long v, Arg a, int w = 32) { return (unsigned long long)name(m, (long long)v, a, w); } \
    __WS_FN double name(unsigned m, double v, Arg a, int w = 32) { return __builtin_bit_cast(double, name(m, __builtin_bit_cast(long long, v), a, w)); }
__WS_SHFL(__shfl_sync, idx, 0x1f, int)
__WS_SHFL(__shfl_up_sync, up, 0, unsigned)
__WS_SHFL(__shfl_down_sync, down, 0x1f, unsigned)
__WS_SHFL(__shfl_xor_sync, bfly, 0x1f, int)
__WS_FN int __all_sync(unsigned m, int p) { return __nvvm_vote_all_sync(m, p); }
__WS_FN int __any_sync(unsigned m, int p) { return __nvvm_vote_any_sync(m, p); }
__WS_FN int __uni_sync(unsigned m, int p) { return __nvvm_vote_uni_sync(m, p); }
__WS_FN unsigned __ballot_sync(unsigned m, int p) { return __nvvm_vote_ballot_sync(m, p); }
__WS_FN unsigned __activemask() { unsigned r; asm volatile("activemask.b32 %0;" : "=r"(r)); return r; }
__WS_FN unsigned __match_any_sync(unsigned m, int v) { return __nvvm_match_any_sync_i32(m, v); }
__WS_FN unsigned __match_any_sync(unsigned m, unsigned v) { return __nvvm_match_any_sync_i32(m, (int)v); }
__WS_FN unsigned __match_any_sync(unsigned m, float v) { return __nvvm_match_any_sync_i32(m, __builtin_bit_cast(int, v)); }
__WS_FN unsigned __match_any_sync(unsigned m, long long v) { return __nvvm_match_any_sync_i64(m, v); }
__WS_FN unsigned __match_all_sync(unsigned m, int v, int* pred) { return __nvvm_match_all_sync_i32p(m, v, pred); }
__WS_FN unsigned __match_all_sync(unsigned m, unsigned v, int* pred) { return __nvvm_match_all_sync_i32p(m, (int)v, pred); }
__WS_FN unsigned __match_all_sync(unsigned m, float v, int* pred) { return __nvvm_match_all_sync_i32p(m, __builtin_bit_cast(int, v), pred); }
__WS_FN unsigned __match_all_sync(unsigned m, long long v, int* pred) { return __nvvm_match_all_sync_i64p(m, v, pred); }
__WS_FN unsigned __lanemask_lt() { return (unsigned)__nvvm_read_ptx_sreg_lanemask_lt(); }
__WS_FN unsigned __laneid() { return (unsigned)__nvvm_read_ptx_sreg_laneid(); }
// Warp reductions (redux.sync, sm_80): the lanes of the mask all get the result.
__WS_FN unsigned __reduce_add_sync(unsigned m, unsigned v) { unsigned r; asm volatile("redux.sync.add.u32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(m)); return r; }
__WS_FN int __reduce_add_sync(unsigned m, int v) { int r; asm volatile("redux.sync.add.s32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(m)); return r; }
__WS_FN unsigned __reduce_min_sync(unsigned m, unsigned v) { unsigned r; asm volatile("redux.sync.min.u32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(m)); return r; }
__WS_FN int __reduce_min_sync(unsigned m, int v) { int r; asm volatile("redux.sync.min.s32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(m)); return r; }
__WS_FN unsigned __reduce_max_sync(unsigned m, unsigned v) { unsigned r; asm volatile("redux.sync.max.u32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(m)); return r; }
__WS_FN int __reduce_max_sync(unsigned m, int v) { int r; asm volatile("redux.sync.max.s32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(m)); return r; }
__WS_FN unsigned __reduce_and_sync(unsigned m, unsigned v) { unsigned r; asm volatile("redux.sync.and.b32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(m)); return r; }
__WS_FN unsigned __reduce_or_sync(unsigned m, unsigned v) { unsigned r; asm volatile("redux.sync.or.b32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(m)); return r; }
__WS_FN unsigned __reduce_xor_sync(unsigned m, unsigned v) { unsigned r; asm volatile("redux.sync.xor.b32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(m)); return r; }
__WS_FN void __nanosleep(unsigned ns) { asm volatile("nanosleep.u32 %0;" ::"r"(ns)); }
__WS_FN unsigned long long __cvta_generic_to_shared(const void* p) {
    unsigned long long r;
    asm("cvta.to.shared.u64 %0, %1;" : "=l"(r) : "l"(p));
    return r;
}
// Asynchronous copies (cuda_pipeline.h's primitives, sm_80): cp.async of 4, 8 or 16 bytes whose
// last `zfill` bytes are zeros, commit of the thread's copies as a group, and a wait until at
// most N of its groups are still in flight.
__WS_FN void __pipeline_memcpy_async(void* dst, const void* src, unsigned long size, unsigned long zfill = 0) {
    const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    const unsigned n = (unsigned)(size - zfill);
    if (size == 16) asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(s), "l"(src), "r"(n) : "memory");
    else if (size == 8) asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" ::"r"(s), "l"(src), "r"(n) : "memory");
    else asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(s), "l"(src), "r"(n) : "memory");
}
__WS_FN void __pipeline_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <unsigned N> __WS_FN void __ws_pipeline_wait() { asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory"); }
#define __pipeline_wait_prior(n) __ws_pipeline_wait<(n)>()
// The pre-CUDA-9 forms without a mask are removed from CUDA; say so at the student's line.
__WS_HD int __all(int) __WS_UNAVAILABLE("__all was removed in CUDA 9: use __all_sync(0xffffffff, pred)");
__WS_HD int __any(int) __WS_UNAVAILABLE("__any was removed in CUDA 9: use __any_sync(0xffffffff, pred)");
__WS_HD unsigned __ballot(int) __WS_UNAVAILABLE("__ballot was removed in CUDA 9: use __ballot_sync(0xffffffff, pred)");
template <class T> __WS_HD T __shfl(T, int, int = 32) __WS_UNAVAILABLE("__shfl was removed in CUDA 9: use __shfl_sync(0xffffffff, ...)");
template <class T> __WS_HD T __shfl_down(T, unsigned, int = 32) __WS_UNAVAILABLE("__shfl_down was removed in CUDA 9: use __shfl_down_sync(0xffffffff, ...)");
template <class T> __WS_HD T __shfl_up(T, unsigned, int = 32) __WS_UNAVAILABLE("__shfl_up was removed in CUDA 9: use __shfl_up_sync(0xffffffff, ...)");
template <class T> __WS_HD T __shfl_xor(T, int, int = 32) __WS_UNAVAILABLE("__shfl_xor was removed in CUDA 9: use __shfl_xor_sync(0xffffffff, ...)");

// ---------------------------------------------------------------- 6. conversions and bit tricks
__WS_FN int __float2int_rn(float x) { return __nvvm_f2i_rn(x); }
__WS_FN int __float2int_rz(float x) { return __nvvm_f2i_rz(x); }
__WS_FN int __float2int_rd(float x) { return __nvvm_f2i_rm(x); }
__WS_FN int __float2int_ru(float x) { return __nvvm_f2i_rp(x); }
__WS_FN unsigned __float2uint_rn(float x) { return __nvvm_f2ui_rn(x); }
__WS_FN unsigned __float2uint_rz(float x) { return __nvvm_f2ui_rz(x); }
__WS_FN float __int2float_rn(int x) { return __nvvm_i2f_rn(x); }
__WS_FN float __int2float_rz(int x) { return __nvvm_i2f_rz(x); }
__WS_FN float __uint2float_rn(unsigned x) { return __nvvm_ui2f_rn(x); }
__WS_FN float __double2float_rn(double x) { return __nvvm_d2f_rn(x); }
__WS_FN int __double2int_rn(double x) { return __nvvm_d2i_rn(x); }
__WS_FN int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
__WS_FN unsigned __float_as_uint(float x) { return __builtin_bit_cast(unsigned, x); }
__WS_FN float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
__WS_FN float __uint_as_float(unsigned x) { return __builtin_bit_cast(float, x); }
__WS_FN long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
__WS_FN double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
__WS_FN int __popc(unsigned x) { return __builtin_popcount(x); }
__WS_FN int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
__WS_FN int __clz(int x) { int r; asm("clz.b32 %0, %1;" : "=r"(r) : "r"(x)); return r; }
__WS_FN int __clzll(long long x) { int r; asm("clz.b64 %0, %1;" : "=r"(r) : "l"(x)); return r; }
__WS_FN int __ffs(int x) { return x == 0 ? 0 : __builtin_ctz((unsigned)x) + 1; }
__WS_FN unsigned __brev(unsigned x) { unsigned r; asm("brev.b32 %0, %1;" : "=r"(r) : "r"(x)); return r; }
__WS_FN int __mul24(int a, int b) { return __nvvm_mul24_i(a, b); }
__WS_FN unsigned __umul24(unsigned a, unsigned b) { return __nvvm_mul24_ui(a, b); }
__WS_FN int __mulhi(int a, int b) { return __nvvm_mulhi_i(a, b); }
__WS_FN unsigned __umulhi(unsigned a, unsigned b) { return __nvvm_mulhi_ui(a, b); }

// ---------------------------------------------------------------- 7. math
// min/max as CUDA overloads them (integers: min/max.s32/u32/s64; floats: min/max.f32), and the
// mixed float and double ones (max(1e-37, x) with x a float: the double one). Q is the functions'
// qualifiers, FMINF..FMAX the float and double minimum and maximum they call: the device's here,
// the C library's for host code below.
#define __WS_MINMAX(Q, FMINF, FMIN, FMAXF, FMAX)                                                         \
    Q int min(int a, int b) { return a < b ? a : b; }                                                    \
    Q unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }                                     \
    Q unsigned min(int a, unsigned b) { return (unsigned)a < b ? (unsigned)a : b; }                      \
    Q unsigned min(unsigned a, int b) { return a < (unsigned)b ? a : (unsigned)b; }                      \
    Q long long min(long long a, long long b) { return a < b ? a : b; }                                  \
    Q unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }       \
    Q float min(float a, float b) { return FMINF(a, b); }                                                \
    Q double min(double a, double b) { return FMIN(a, b); }                                              \
    Q int max(int a, int b) { return a > b ? a : b; }                                                    \
    Q unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }                                     \
    Q unsigned max(int a, unsigned b) { return (unsigned)a > b ? (unsigned)a : b; }                      \
    Q unsigned max(unsigned a, int b) { return a > (unsigned)b ? a : (unsigned)b; }                      \
    Q long long max(long long a, long long b) { return a > b ? a : b; }                                  \
    Q unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }       \
    Q float max(float a, float b) { return FMAXF(a, b); }                                                \
    Q double max(double a, double b) { return FMAX(a, b); }                                              \
    Q double min(float a, double b) { return FMIN(a, b); }                                               \
    Q double min(double a, float b) { return FMIN(a, b); }                                               \
    Q double max(float a, double b) { return FMAX(a, b); }                                               \
    Q double max(double a, float b) { return FMAX(a, b); }
__WS_MINMAX(__WS_FN, __nvvm_fmin_f, __nvvm_fmin_d, __nvvm_fmax_f, __nvvm_fmax_d)
__WS_FN int abs(int a) { return a < 0 ? -a : a; }

// Single instructions, as nvcc emits them (IEEE-rounded where CUDA's are).
__WS_FN float sqrtf(float x) { return __nvvm_sqrt_rn_f(x); }
__WS_FN float rsqrtf(float x) { return __nvvm_rsqrt_approx_f(x); }
__WS_FN float fmaf(float a, float b, float c) { return __nvvm_fma_rn_f(a, b, c); }
__WS_FN float fminf(float a, float b) { return __nvvm_fmin_f(a, b); }
__WS_FN float fmaxf(float a, float b) { return __nvvm_fmax_f(a, b); }
__WS_FN float fabsf(float x) { return __nvvm_fabs_f(x); }
__WS_FN float floorf(float x) { return __nvvm_floor_f(x); }
__WS_FN float ceilf(float x) { return __nvvm_ceil_f(x); }
__WS_FN float truncf(float x) { return __nvvm_trunc_f(x); }
__WS_FN float rintf(float x) { return __nvvm_round_f(x); }
__WS_FN float __saturatef(float x) { return __nvvm_saturate_f(x); }
__WS_FN float __fadd_rn(float a, float b) { return __nvvm_add_rn_f(a, b); }
__WS_FN float __fmul_rn(float a, float b) { return __nvvm_mul_rn_f(a, b); }
__WS_FN float __fmaf_rn(float a, float b, float c) { return __nvvm_fma_rn_f(a, b, c); }
__WS_FN float __fdiv_rn(float a, float b) { return __nvvm_div_rn_f(a, b); }
__WS_FN float __frcp_rn(float x) { return __nvvm_rcp_rn_f(x); }
__WS_FN float __fsqrt_rn(float x) { return __nvvm_sqrt_rn_f(x); }
__WS_FN float __fdividef(float a, float b) { return __nvvm_div_approx_f(a, b); }
__WS_FN float __expf(float x) { return __nvvm_ex2_approx_f(x * 1.4426950408889634f); }
__WS_FN float exp2f(float x) { return __nvvm_ex2_approx_f(x); }
__WS_FN float __logf(float x) { return __nvvm_lg2_approx_f(x) * 0.6931471805599453f; }
__WS_FN float __log2f(float x) { return __nvvm_lg2_approx_f(x); }
__WS_FN float __sinf(float x) { return __nvvm_sin_approx_f(x); }
__WS_FN float __cosf(float x) { return __nvvm_cos_approx_f(x); }
__WS_FN float __powf(float x, float y) { return __nvvm_ex2_approx_f(y * __nvvm_lg2_approx_f(x)); }
__WS_FN double sqrt(double x) { return __nvvm_sqrt_rn_d(x); }
__WS_FN double fma(double a, double b, double c) { return __nvvm_fma_rn_d(a, b, c); }
__WS_FN double fabs(double x) { return __nvvm_fabs_d(x); }
__WS_FN double fmin(double a, double b) { return __nvvm_fmin_d(a, b); }
__WS_FN double fmax(double a, double b) { return __nvvm_fmax_d(a, b); }
__WS_FN double floor(double x) { return __nvvm_floor_d(x); }
__WS_FN double ceil(double x) { return __nvvm_ceil_d(x); }
// frexp and ldexp are exact (ldexpf rounds once, where the result is subnormal): written with the
// bits, and ldexpf through a double product that cannot overflow or lose bits.
__WS_FN float frexpf(float x, int* e) {
    int b = __builtin_bit_cast(int, x), bias = 126;
    if ((b & 0x7fffffff) == 0 || (b & 0x7f800000) == 0x7f800000) { *e = 0; return x; }   // zero, inf, NaN
    if ((b & 0x7f800000) == 0) {   // subnormal: normalise first (exact)
        b = __builtin_bit_cast(int, x * 16777216.0f);
        bias += 24;
    }
    *e = ((b >> 23) & 0xff) - bias;
    return __builtin_bit_cast(float, (b & (int)0x807fffff) | 0x3f000000);
}
__WS_FN double frexp(double x, int* e) {
    long long b = __builtin_bit_cast(long long, x);
    int bias = 1022;
    if ((b & 0x7fffffffffffffffLL) == 0 || (b & 0x7ff0000000000000LL) == 0x7ff0000000000000LL) { *e = 0; return x; }
    if ((b & 0x7ff0000000000000LL) == 0) {
        b = __builtin_bit_cast(long long, x * 18014398509481984.0);   // 2^54
        bias += 54;
    }
    *e = (int)((b >> 52) & 0x7ff) - bias;
    return __builtin_bit_cast(double, (b & (long long)0x800fffffffffffffULL) | 0x3fe0000000000000LL);
}
__WS_FN float ldexpf(float x, int n) {
    n = n < -300 ? -300 : n > 300 ? 300 : n;   // beyond these every float is 0 or inf anyway
    return (float)((double)x * __builtin_bit_cast(double, (long long)(n + 1023) << 52));
}
__WS_FN float frexp(float x, int* e) { return frexpf(x, e); }
__WS_FN float ldexp(float x, int n) { return ldexpf(x, n); }

// expf logf sinf cosf powf: libdevice's are not available, so these are computed in double
// precision from short series and rounded once to float, so a student's results can differ from
// nvcc's in the last bit (1 ulp at most on the tests' inputs).
// ln(|x|) for a finite positive double: x = 2^e * m, m in [sqrt(1/2), sqrt(2)), and
// ln m = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.172.
__WS_FN double __ws_log_d(double x) {
    long long b = __builtin_bit_cast(long long, x);
    int e = (int)((b >> 52) & 0x7ff) - 1023;
    double m = __builtin_bit_cast(double, (b & 0x000fffffffffffffLL) | 0x3ff0000000000000LL);
    if (m > 1.4142135623730951) { m *= 0.5; e += 1; }
    double s = (m - 1.0) / (m + 1.0), z = s * s, t = 1.0 / 23.0;
    for (int k = 21; k >= 1; k -= 2) t = fma(t, z, 1.0 / k);
    return fma((double)e, 0.6931471805599453, 2.0 * s * t + (double)e * 2.3190468138462996e-17);
}
// e^t for t in [-800, 800]: t = k ln2 + r, |r| <= ln2/2, Taylor to r^13.
__WS_FN double __ws_exp_d(double t) {
    double k = __nvvm_round_d(t * 1.4426950408889634);
    double r = fma(-k, 6.93147180369123816490e-01, t);
    r = fma(-k, 1.90821492927058770002e-10, r);
    double p = 1.0 / 6227020800.0;
    for (int n = 12; n >= 1; --n) {
        double f = 1.0;
        for (int i = 2; i <= n; ++i) f *= i;
        p = fma(p, r, 1.0 / f);
    }
    p = fma(p, r, 1.0);
    int ki = (int)k, k1 = ki / 2, k2 = ki - k1;   // two scale factors keep each one a normal double
    return p * __builtin_bit_cast(double, (long long)(k1 + 1023) << 52) * __builtin_bit_cast(double, (long long)(k2 + 1023) << 52);
}
__WS_FN float expf(float x) {
    if (x != x) return x + x;
    double t = fmin(fmax((double)x, -800.0), 800.0);
    return __nvvm_d2f_rn(__ws_exp_d(t));
}
__WS_FN float logf(float x) {
    if (x != x || x == __builtin_huge_valf()) return x + x;
    if (x == 0.0f) return -__builtin_huge_valf();
    if (x < 0.0f) return __builtin_nanf("");
    return __nvvm_d2f_rn(__ws_log_d((double)x));
}
__WS_FN float powf(float x, float y) {
    if (y == 0.0f || x == 1.0f) return 1.0f;
    if (x != x || y != y) return x + y;
    bool yInt = __nvvm_trunc_f(y) == y;
    bool yOdd = yInt && fabsf(y) < 16777216.0f && ((int)y & 1) != 0;
    float ax = fabsf(x);
    float mag;
    if (x < 0.0f && !yInt) return __builtin_nanf("");
    if (ax == 0.0f) mag = y < 0.0f ? __builtin_huge_valf() : 0.0f;
    else if (ax == __builtin_huge_valf()) mag = y < 0.0f ? 0.0f : __builtin_huge_valf();
    else if (y == __builtin_huge_valf()) mag = ax == 1.0f ? 1.0f : (ax > 1.0f ? __builtin_huge_valf() : 0.0f);
    else if (y == -__builtin_huge_valf()) mag = ax == 1.0f ? 1.0f : (ax > 1.0f ? 0.0f : __builtin_huge_valf());
    else {
        double t = fmin(fmax((double)y * __ws_log_d((double)ax), -800.0), 800.0);
        mag = __nvvm_d2f_rn(__ws_exp_d(t));
    }
    return (x < 0.0f && yOdd) ? -mag : mag;
}
// sin and cos: r = x - q pi/2, then Taylor series on |r| <= pi/4. For |x| < 2^20 the reduction is
// in double with pi/2 in three parts (the first with 33 bits, so q * part is exact); above, the
// float's 24-bit integer mantissa times 96 bits of 2/pi taken at its exponent (Payne-Hanek) gives
// the quadrant and the fraction exactly enough for every float.
__WS_FN double __ws_reduce_big(float ax, int* quadrant) {
    const unsigned twoOverPi[8] = {0u, 0xA2F9836Eu, 0x4E441529u, 0xFC2757D1u, 0xF534DDC0u, 0xDB629599u, 0x3C439041u, 0xFE5163ABu};
    unsigned bits = __builtin_bit_cast(unsigned, ax);
    int e = (int)(bits >> 23) - 150;                    // ax = m * 2^e
    unsigned long long m = (bits & 0x7fffffu) | 0x800000u;
    int k = e - 1 + 32;                                 // first bit wanted, counted from bit 1 of the table
    int j = (k - 1) / 32, sh = (k - 1) % 32;
    unsigned b[3];
    for (int i = 0; i < 3; ++i)
        b[i] = sh == 0 ? twoOverPi[j + i] : (twoOverPi[j + i] << sh) | (twoOverPi[j + i + 1] >> (32 - sh));
    // (m * B) mod 2^96: the top 2 bits are the quadrant, the rest the fraction of a quadrant.
    unsigned long long p2 = m * b[2], p1 = m * b[1], p0 = m * b[0];
    unsigned long long mid = (p2 >> 32) + (p1 & 0xffffffffu);
    unsigned top = (unsigned)((p1 >> 32) + p0 + (mid >> 32));
    unsigned long long frac = ((unsigned long long)(top & 0x3fffffffu) << 34) | ((mid & 0xffffffffu) << 2) | ((p2 & 0xffffffffu) >> 30);
    int q = (int)(top >> 30);
    double f = (double)frac * 5.421010862427522e-20;   // 2^-64
    if (f >= 0.5) { f -= 1.0; q += 1; }
    *quadrant = q & 3;
    return f * 1.5707963267948966;
}
__WS_FN double __ws_reduce(float x, int* quadrant) {
    if (fabsf(x) >= 1048576.0f) {
        double r = __ws_reduce_big(fabsf(x), quadrant);
        if (x < 0.0f) { r = -r; *quadrant = (4 - *quadrant) & 3; }
        return r;
    }
    double q = __nvvm_round_d((double)x * 0.63661977236758134);
    double r = fma(-q, 1.5707963267341256, (double)x);
    r = fma(-q, 6.0771005065061922e-11, r);
    r = fma(-q, 2.0222662487959506e-21, r);
    *quadrant = (int)(long long)q & 3;
    return r;
}
__WS_FN double __ws_sin_poly(double r) {
    double z = r * r, p = -1.0 / 1307674368000.0;   // -1/15!
    double f = 1307674368000.0;
    for (int n = 13; n >= 3; n -= 2) { f /= (double)(n + 1) * (n + 2); p = fma(p, z, ((n / 2) % 2 ? -1.0 : 1.0) / f); }
    return fma(p * z, r, r);
}
__WS_FN double __ws_cos_poly(double r) {
    double z = r * r, p = 1.0 / 87178291200.0;      // 1/14!
    double f = 87178291200.0;
    for (int n = 12; n >= 2; n -= 2) { f /= (double)(n + 1) * (n + 2); p = fma(p, z, ((n / 2) % 2 ? -1.0 : 1.0) / f); }
    return fma(p, z, 1.0);
}
__WS_FN float sinf(float x) {
    if (x != x || fabsf(x) == __builtin_huge_valf()) return x - x;
    if (x == 0.0f) return x;   // keeps the sign of -0
    int q;
    double r = __ws_reduce(x, &q);
    double v = (q & 1) ? __ws_cos_poly(r) : __ws_sin_poly(r);
    return __nvvm_d2f_rn((q & 2) ? -v : v);
}
__WS_FN float cosf(float x) {
    if (x != x || fabsf(x) == __builtin_huge_valf()) return x - x;
    int q;
    double r = __ws_reduce(x, &q);
    double v = (q & 1) ? __ws_sin_poly(r) : __ws_cos_poly(r);
    return __nvvm_d2f_rn(((q + 1) & 2) ? -v : v);
}

// ---------------------------------------------------------------- 8. __ldg
// Loads through the read-only (non-coherent) path: ld.global.nc.
__WS_FN float __ldg(const float* p) { return __nvvm_ldg_f(p); }
__WS_FN double __ldg(const double* p) { return __nvvm_ldg_d(p); }
__WS_FN int __ldg(const int* p) { return __nvvm_ldg_i(p); }
__WS_FN unsigned __ldg(const unsigned* p) { return __nvvm_ldg_ui(p); }
__WS_FN long long __ldg(const long long* p) { return __nvvm_ldg_ll(p); }
__WS_FN unsigned long long __ldg(const unsigned long long* p) { return __nvvm_ldg_ull(p); }
__WS_FN float2 __ldg(const float2* p) { typedef float v2 __attribute__((ext_vector_type(2))); v2 v = __nvvm_ldg_f2((const v2*)p); return make_float2(v.x, v.y); }
__WS_FN float4 __ldg(const float4* p) { typedef float v4 __attribute__((ext_vector_type(4))); v4 v = __nvvm_ldg_f4((const v4*)p); return make_float4(v.x, v.y, v.z, v.w); }
__WS_FN int2 __ldg(const int2* p) { typedef int v2 __attribute__((ext_vector_type(2))); v2 v = __nvvm_ldg_i2((const v2*)p); return make_int2(v.x, v.y); }
__WS_FN int4 __ldg(const int4* p) { typedef int v4 __attribute__((ext_vector_type(4))); v4 v = __nvvm_ldg_i4((const v4*)p); return make_int4(v.x, v.y, v.z, v.w); }

// ---------------------------------------------------------------- 9. unsupported features
// The libdevice functions the built-in compiler lacks: each declared unavailable with
// __WS_NO_LIBDEVICE's message, under the qualifier each branch below sets (__WS_NOLIB_QUAL).
#define __WS_NOLIB1(f) __WS_NOLIB_QUAL float f(float) __WS_UNAVAILABLE(__WS_NO_LIBDEVICE(f));
#define __WS_NOLIB2(f) __WS_NOLIB_QUAL float f(float, float) __WS_UNAVAILABLE(__WS_NO_LIBDEVICE(f));
#define __WS_NOLIBD1(f) __WS_NOLIB_QUAL double f(double) __WS_UNAVAILABLE(__WS_NO_LIBDEVICE(f));
#define __WS_NOLIBD2(f) __WS_NOLIB_QUAL double f(double, double) __WS_UNAVAILABLE(__WS_NO_LIBDEVICE(f));
#define __WS_NOLIB_ALL() \
__WS_NOLIB1(tanf) __WS_NOLIB1(asinf) __WS_NOLIB1(acosf) __WS_NOLIB1(atanf) __WS_NOLIB1(sinhf) \
__WS_NOLIB1(coshf) __WS_NOLIB1(tanhf) __WS_NOLIB1(log2f) __WS_NOLIB1(log10f) __WS_NOLIB1(log1pf) \
__WS_NOLIB1(expm1f) __WS_NOLIB1(exp10f) __WS_NOLIB1(erff) __WS_NOLIB1(erfcf) __WS_NOLIB1(cbrtf) \
__WS_NOLIB1(tgammaf) __WS_NOLIB1(lgammaf) __WS_NOLIB1(roundf) \
__WS_NOLIB2(atan2f) __WS_NOLIB2(hypotf) __WS_NOLIB2(fmodf) __WS_NOLIB2(remainderf) \
__WS_NOLIBD1(exp) __WS_NOLIBD1(log) __WS_NOLIBD1(sin) __WS_NOLIBD1(cos) __WS_NOLIBD1(tan) \
__WS_NOLIBD1(exp2) __WS_NOLIBD1(log2) __WS_NOLIBD1(tanh) __WS_NOLIBD2(pow) __WS_NOLIBD2(atan2) \
__WS_NOLIB_QUAL void sincosf(float, float*, float*) __WS_UNAVAILABLE(__WS_NO_LIBDEVICE(sincosf));
#ifdef __WARPSCOPE_WHOLE_PROGRAM__
// A whole program (engine/cudart): the host code includes the system headers, whose host
// functions of these names are the ones host code calls; clang picks these device-only
// declarations in device code (overloading on __host__/__device__), so a kernel still gets the
// message at its line. assert, cudaStream_t and the runtime API are the host headers'. Device
// malloc/free are not declared here: clang's own <new> wrapper calls them from device code (a
// kernel that calls them is then an error at its line: a host function called from device code).
#define __WS_NO_LIBDEVICE(f) "warpscope's built-in compiler has no " #f ": it needs CUDA's libdevice; use the functions in docs/compile.md"
#define __WS_NOLIB_QUAL __device__
__WS_NOLIB_ALL()
// printf in a kernel, as CUDA does it: each call appends a record to a FIFO in device memory and
// the host runtime prints the records at the next synchronisation point (engine/cudart/runtime.cpp
// reads __ws_printf_fifo after each launch). A record is 64-bit words: its length in words, the
// format string's address, then each argument widened to 64 bits (integers sign- or zero-extended,
// float as double, pointers as addresses). A full FIFO drops the record, as CUDA's does.
#define __WS_PRINTF_WORDS (1u << 17)
static __device__ unsigned long long __ws_printf_fifo[__WS_PRINTF_WORDS];
static __device__ unsigned long long __ws_printf_used;
// Device-side malloc and free: a heap of __WS_HEAP_BYTES (CUDA's default 8 MiB) per translation
// unit, handed out in order, 16-byte aligned, by one atomicAdd; NULL once it is used up, as CUDA's
// malloc returns when its heap is full. free gives nothing back (a lock-based free list would
// deadlock lanes that the simulator runs in lockstep), so a program that allocates more than the
// heap in all, freed or not, sees NULL where a GPU would not.
// cudaDeviceSetLimit(cudaLimitMallocHeapSize, n) above 8 MiB: the whole-program runtime allocates
// n bytes and points __ws_heapx_base/__ws_heapx_bytes of every unit at them (then the heap starts
// over there; what was allocated before stays where it is).
#define __WS_HEAP_BYTES (8ull << 20)
static __device__ unsigned long long __ws_heap_top;
static __device__ __align__(16) unsigned char __ws_heap[__WS_HEAP_BYTES];
static __device__ unsigned char* __ws_heapx_base;
static __device__ unsigned long long __ws_heapx_bytes;
extern "C" __device__ __attribute__((weak)) void* malloc(size_t n) {
    unsigned char* base = __ws_heapx_base;
    const unsigned long long cap = base ? __ws_heapx_bytes : __WS_HEAP_BYTES;
    if (!base) base = __ws_heap;
    unsigned long long size = n ? (n + 15) & ~15ull : 16;
    if (size > cap) return nullptr;
    unsigned long long at = atomicAdd(&__ws_heap_top, size);
    return at + size <= cap ? (void*)(base + at) : nullptr;
}
extern "C" __device__ __attribute__((weak)) void free(void*) {}
// A class with a pure virtual function names this in its vtable; calling it traps, as on a GPU.
extern "C" __device__ __attribute__((weak)) void __cxa_pure_virtual() { __builtin_trap(); }
__WS_FN unsigned long long __ws_pf(long long v) { return (unsigned long long)v; }
__WS_FN unsigned long long __ws_pf(long v) { return (unsigned long long)(long long)v; }
__WS_FN unsigned long long __ws_pf(int v) { return (unsigned long long)(long long)v; }
__WS_FN unsigned long long __ws_pf(short v) { return (unsigned long long)(long long)v; }
__WS_FN unsigned long long __ws_pf(signed char v) { return (unsigned long long)(long long)v; }
__WS_FN unsigned long long __ws_pf(char v) { return (unsigned long long)(long long)v; }
__WS_FN unsigned long long __ws_pf(bool v) { return v ? 1ull : 0ull; }
__WS_FN unsigned long long __ws_pf(unsigned long long v) { return v; }
__WS_FN unsigned long long __ws_pf(unsigned long v) { return v; }
__WS_FN unsigned long long __ws_pf(unsigned int v) { return v; }
__WS_FN unsigned long long __ws_pf(unsigned short v) { return v; }
__WS_FN unsigned long long __ws_pf(unsigned char v) { return v; }
__WS_FN unsigned long long __ws_pf(double v) { return __builtin_bit_cast(unsigned long long, v); }
__WS_FN unsigned long long __ws_pf(float v) { return __builtin_bit_cast(unsigned long long, (double)v); }
// A long double reaches this from host code (printf("%Lf") in main: the device pass still
// instantiates the template for it); nvptx's long double is a double.
__WS_FN unsigned long long __ws_pf(long double v) { return __builtin_bit_cast(unsigned long long, (double)v); }
template <class T> __WS_FN unsigned long long __ws_pf(T* p) { return (unsigned long long)p; }
// __host__ too: host code calls the C library's printf (the better match for clang), except where
// clang cannot tell host from device, as in an OpenMP parallel region's outlined body: there
// this one runs on the host and hands over to the C library.
template <class... A> __host__ __device__ __noinline__ int printf(const char* format, A... args) {
#ifndef __CUDA_ARCH__
    return __builtin_printf(format, args...);
#else
    constexpr unsigned n = sizeof...(A);
    const unsigned long long words = n + 2;
    unsigned long long at = atomicAdd(&__ws_printf_used, words);
    if (at + words > __WS_PRINTF_WORDS) return -1;
    // Volatile: nothing in device code reads the FIFO, so plain stores would be dropped.
    volatile unsigned long long* out = &__ws_printf_fifo[at];
    *out++ = words;
    *out++ = (unsigned long long)format;
    ((*out++ = __ws_pf(args)), ...);
    return (int)n;
#endif
}
// CUDA's min and max are host functions too (host code calls them unqualified).
#define __WS_HOST static inline __host__
__WS_MINMAX(__WS_HOST, fminf, fmin, fmaxf, fmax)
// clang 14 implements __managed__ for HIP only: a variable would silently have two copies.
#undef __managed__
#define __managed__ __attribute__((unavailable("__managed__ variables are not supported by the clang that builds whole programs (clang 14 ignores the attribute): allocate with cudaMallocManaged instead")))
// assert in a kernel (glibc's assert calls __assert_fail): the first failing thread notes what
// failed and where, then every failing thread traps; the host runtime turns the trap into
// cudaErrorAssert and prints CUDA's message.
static __device__ unsigned long long __ws_assert_info[8];
static __device__ __noinline__ void __assert_fail(const char* message, const char* file, unsigned int line, const char* function) {
    if (atomicCAS(&__ws_assert_info[0], 0ull, 1ull) == 0) {
        volatile unsigned long long* a = __ws_assert_info;
        a[1] = (unsigned long long)message;
        a[2] = (unsigned long long)file;
        a[3] = line;
        a[4] = (unsigned long long)function;
        a[5] = blockIdx.x | (unsigned long long)blockIdx.y << 32;
        a[6] = blockIdx.z | (unsigned long long)threadIdx.x << 32;
        a[7] = threadIdx.y | (unsigned long long)threadIdx.z << 32;
    }
    __builtin_trap();
}
#define __WS_NO_TEX "textures are not supported by the simulator: read the array through a pointer (use __ldg for the read-only path)"
template <class T, int dim = 1, int mode = 0> struct __WS_UNAVAILABLE(__WS_NO_TEX) texture {};
template <class T, class... A> __WS_HD T tex1Dfetch(A...) __WS_UNAVAILABLE(__WS_NO_TEX);
template <class T, class... A> __WS_HD T tex1D(A...) __WS_UNAVAILABLE(__WS_NO_TEX);
template <class T, class... A> __WS_HD T tex2D(A...) __WS_UNAVAILABLE(__WS_NO_TEX);
template <class T, class... A> __WS_HD T tex3D(A...) __WS_UNAVAILABLE(__WS_NO_TEX);
#else
#define __WS_NO_LIBDEVICE(f) "warpscope's built-in compiler has no " #f ": it needs CUDA's libdevice; use the functions in docs/compile.md, or compile with nvcc/NVRTC (--compiler nvcc)"
#define __WS_NOLIB_QUAL __WS_HD
__WS_NOLIB_ALL()

template <class... A> __WS_HD int printf(const char*, A...) __WS_UNAVAILABLE("printf is not supported by the simulator: write the value into an output buffer and look at it in the Memory panel (or save it with --save)");
__WS_HD void* malloc(size_t) __WS_UNAVAILABLE("device-side malloc is not supported by the simulator: allocate the buffer in lesson.json");
__WS_HD void free(void*) __WS_UNAVAILABLE("device-side free is not supported by the simulator");
__WS_HD void __assertfail(const char*, const char*, unsigned, const char*, size_t) __WS_UNAVAILABLE("assert is not supported by the simulator: use a check in lesson.json");
#define assert(e) __assertfail(#e, __FILE__, __LINE__, __func__, 1)
#define __WS_NO_TEX "textures are not supported by the simulator: read the array through a pointer (use __ldg for the read-only path)"
template <class T, int dim = 1, int mode = 0> struct __WS_UNAVAILABLE(__WS_NO_TEX) texture {};
typedef unsigned long long cudaTextureObject_t __WS_UNAVAILABLE(__WS_NO_TEX);
typedef unsigned long long cudaSurfaceObject_t __WS_UNAVAILABLE("surfaces are not supported by the simulator");
template <class T, class... A> __WS_HD T tex1Dfetch(A...) __WS_UNAVAILABLE(__WS_NO_TEX);
template <class T, class... A> __WS_HD T tex1D(A...) __WS_UNAVAILABLE(__WS_NO_TEX);
template <class T, class... A> __WS_HD T tex2D(A...) __WS_UNAVAILABLE(__WS_NO_TEX);
template <class T, class... A> __WS_HD T tex3D(A...) __WS_UNAVAILABLE(__WS_NO_TEX);
#define __WS_NO_DP "launching a kernel from a kernel (dynamic parallelism) is not supported by the simulator: launch it from the host script in lesson.json"
struct CUstream_st;
typedef struct CUstream_st* cudaStream_t;
__WS_HD int cudaConfigureCall(dim3, dim3, size_t = 0, cudaStream_t = 0) __WS_UNAVAILABLE(__WS_NO_DP);
__WS_HD int __cudaPushCallConfiguration(dim3, dim3, size_t = 0, cudaStream_t = 0) __WS_UNAVAILABLE(__WS_NO_DP);
__WS_HD int cudaLaunchDevice(void*, void*, dim3, dim3, unsigned, cudaStream_t) __WS_UNAVAILABLE(__WS_NO_DP);
__WS_HD int cudaDeviceSynchronize() __WS_UNAVAILABLE("cudaDeviceSynchronize in a kernel (dynamic parallelism) is not supported by the simulator");
#endif // __WARPSCOPE_WHOLE_PROGRAM__
