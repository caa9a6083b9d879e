// warpscope's CUDA host headers: what `#include <cuda_runtime.h>` gives a CUDA program (and what
// nvcc includes on its own, so warpscope's build force-includes it): the device prelude (qualifiers,
// vector types, built-in variables, device functions), the runtime API, and the C++ conveniences
// (templated cudaMalloc, cudaMemcpyToSymbol by variable, cudaLaunchKernel by function).
#pragma once
#define __CUDA_RUNTIME_H__   // CUDA's include guard: the SDK's helper_cuda.h defines its device helpers under it
// What CUDA's own headers bring in and programs rely on without including (malloc, memset,
// sqrt, ...); clang's <new> wrapper for device code also needs malloc and free declared first.
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __cplusplus
// Device-side malloc and free (the prelude defines them), declared before <new>: its device
// operator new and delete, which clang's wrapper writes over them, must find these, not the host's.
extern "C" __attribute__((device)) void* malloc(size_t);
extern "C" __attribute__((device)) void free(void*);
#include <cmath>
#include <cstdlib>
// libstdc++'s <memory> writes __attribute__((__noinline__)), which the prelude's __noinline__
// macro would break: included here, before the prelude defines it (its guard keeps it from being
// read again later).
#include <memory>
#endif
#include "cuda_runtime_api.h"
#include "device_launch_parameters.h"
#ifdef __cplusplus
// new, delete and placement new in device code: clang's <new> wrapper adds the device operators
// only when __device__ is defined (by the prelude, through cuda_runtime_api.h), and <memory>
// above included <new> before that; a program's own #include <new> would come too late.
#include <new>
#endif

// The barriers (__syncthreads, __syncwarp) are the prelude's: inline PTX that clobbers memory.

// Device functions CUDA's headers give beside the prelude's: the SM's cycle counters (%clock,
// %clock64), overloaded on __device__ beside the host's clock() from <time.h>, as clang's own CUDA
// wrapper does.
static __device__ __forceinline__ clock_t clock() { return (clock_t)__nvvm_read_ptx_sreg_clock(); }
static __device__ __forceinline__ long long clock64() { return __nvvm_read_ptx_sreg_clock64(); }
// nan("") and nanf("") in device code (a quiet NaN; the payload string is ignored).
static __device__ __forceinline__ double nan(const char*) { return __builtin_nan(""); }
static __device__ __forceinline__ float nanf(const char*) { return __builtin_nanf(""); }
// memcpy and memset in device code (CUDA allows them in kernels).
static __device__ __forceinline__ void* memcpy(void* d, const void* s, size_t n) { return __builtin_memcpy(d, s, n); }
static __device__ __forceinline__ void* memset(void* d, int v, size_t n) { return __builtin_memset(d, v, n); }
// Arithmetic with a chosen rounding (round down _rd, up _ru, toward zero _rz), as one PTX
// instruction each (add.rm.f32, ...): the interval-arithmetic intrinsics.
#define __WS_RND2(name, op, mode, T, ty, c)                                                        \
    static __device__ __forceinline__ T name(T a, T b) { T r; asm(#op "." #mode "." #ty " %0, %1, %2;" : "=" c(r) : c(a), c(b)); return r; }
#define __WS_RND1(name, op, mode, T, ty, c)                                                        \
    static __device__ __forceinline__ T name(T a) { T r; asm(#op "." #mode "." #ty " %0, %1;" : "=" c(r) : c(a)); return r; }
#define __WS_RNDS(mode, sfx)                                                                          \
    __WS_RND2(__fadd_##sfx, add, mode, float, f32, "f") __WS_RND2(__fmul_##sfx, mul, mode, float, f32, "f")    \
    __WS_RND2(__fdiv_##sfx, div, mode, float, f32, "f") __WS_RND1(__fsqrt_##sfx, sqrt, mode, float, f32, "f")  \
    __WS_RND1(__frcp_##sfx, rcp, mode, float, f32, "f")                                                \
    __WS_RND2(__dadd_##sfx, add, mode, double, f64, "d") __WS_RND2(__dmul_##sfx, mul, mode, double, f64, "d")  \
    __WS_RND2(__ddiv_##sfx, div, mode, double, f64, "d") __WS_RND1(__dsqrt_##sfx, sqrt, mode, double, f64, "d") \
    __WS_RND1(__drcp_##sfx, rcp, mode, double, f64, "d")
__WS_RNDS(rm, rd) __WS_RNDS(rp, ru) __WS_RNDS(rz, rz)
__WS_RND2(__dadd_rn, add, rn, double, f64, "d") __WS_RND2(__dmul_rn, mul, rn, double, f64, "d")
__WS_RND2(__ddiv_rn, div, rn, double, f64, "d") __WS_RND1(__dsqrt_rn, sqrt, rn, double, f64, "d")
__WS_RND1(__drcp_rn, rcp, rn, double, f64, "d")
#undef __WS_RNDS
#undef __WS_RND1
#undef __WS_RND2
// CUDA's unsigned and 64-bit min and max (device functions of CUDA's math headers).
static __device__ __forceinline__ unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
static __device__ __forceinline__ unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
static __device__ __forceinline__ long long llmin(long long a, long long b) { return a < b ? a : b; }
static __device__ __forceinline__ long long llmax(long long a, long long b) { return a > b ? a : b; }
static __device__ __forceinline__ unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
static __device__ __forceinline__ unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
// Scoped atomics (atom.sys / atom.cta): atomicAdd_system, atomicAdd_block, ... as CUDA names them.
#define __WS_SCOPED(name, scope, T, builtin, C) \
    static __device__ __forceinline__ T name##_##scope(T* p, T v) { return (T)builtin((C*)p, (C)v); }
#define __WS_SCOPES(name, T, op, sfx, C) __WS_SCOPED(name, system, T, __nvvm_atom_sys_##op##_gen_##sfx, C) __WS_SCOPED(name, block, T, __nvvm_atom_cta_##op##_gen_##sfx, C)
__WS_SCOPES(atomicAdd, int, add, i, int) __WS_SCOPES(atomicAdd, unsigned int, add, i, int)
__WS_SCOPES(atomicAdd, unsigned long long, add, ll, long long) __WS_SCOPES(atomicAdd, float, add, f, float)
__WS_SCOPES(atomicAdd, double, add, d, double)
__WS_SCOPES(atomicExch, int, xchg, i, int) __WS_SCOPES(atomicExch, unsigned int, xchg, i, int)
__WS_SCOPES(atomicExch, unsigned long long, xchg, ll, long long)
__WS_SCOPES(atomicMin, int, min, i, int) __WS_SCOPES(atomicMin, unsigned int, min, ui, unsigned int)
__WS_SCOPES(atomicMax, int, max, i, int) __WS_SCOPES(atomicMax, unsigned int, max, ui, unsigned int)
__WS_SCOPES(atomicInc, unsigned int, inc, ui, unsigned int) __WS_SCOPES(atomicDec, unsigned int, dec, ui, unsigned int)
__WS_SCOPES(atomicAnd, int, and, i, int) __WS_SCOPES(atomicAnd, unsigned int, and, i, int)
__WS_SCOPES(atomicOr, int, or, i, int) __WS_SCOPES(atomicOr, unsigned int, or, i, int)
__WS_SCOPES(atomicXor, int, xor, i, int) __WS_SCOPES(atomicXor, unsigned int, xor, i, int)
#undef __WS_SCOPES
#undef __WS_SCOPED
static __device__ __forceinline__ int atomicCAS_system(int* p, int c, int v) { return __nvvm_atom_sys_cas_gen_i(p, c, v); }
static __device__ __forceinline__ unsigned atomicCAS_system(unsigned* p, unsigned c, unsigned v) { return (unsigned)__nvvm_atom_sys_cas_gen_i((int*)p, (int)c, (int)v); }
static __device__ __forceinline__ int atomicCAS_block(int* p, int c, int v) { return __nvvm_atom_cta_cas_gen_i(p, c, v); }
static __device__ __forceinline__ unsigned atomicCAS_block(unsigned* p, unsigned c, unsigned v) { return (unsigned)__nvvm_atom_cta_cas_gen_i((int*)p, (int)c, (int)v); }

#ifdef __cplusplus
template <class T> inline cudaError_t cudaMalloc(T** devPtr, size_t size) { return ::cudaMalloc((void**)(void*)devPtr, size); }
template <class T> inline cudaError_t cudaMallocHost(T** ptr, size_t size) { return ::cudaMallocHost((void**)(void*)ptr, size); }
template <class T> inline cudaError_t cudaHostAlloc(T** ptr, size_t size, unsigned int flags) {
    return ::cudaHostAlloc((void**)(void*)ptr, size, flags);
}
template <class T> inline cudaError_t cudaMallocManaged(T** devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal) {
    return ::cudaMallocManaged((void**)(void*)devPtr, size, flags);
}
template <class T> inline cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, size_t count, size_t offset = 0,
                                                         cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
    return ::cudaMemcpyToSymbol((const void*)&symbol, src, count, offset, kind);
}
template <class T> inline cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, size_t count, size_t offset = 0,
                                                           cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
    return ::cudaMemcpyFromSymbol(dst, (const void*)&symbol, count, offset, kind);
}
template <class T> inline cudaError_t cudaMemcpyToSymbolAsync(const T& symbol, const void* src, size_t count, size_t offset = 0,
                                                              cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t stream = 0) {
    return ::cudaMemcpyToSymbolAsync((const void*)&symbol, src, count, offset, kind, stream);
}
template <class T> inline cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const T& symbol, size_t count, size_t offset = 0,
                                                                cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t stream = 0) {
    return ::cudaMemcpyFromSymbolAsync(dst, (const void*)&symbol, count, offset, kind, stream);
}
template <class T> inline cudaError_t cudaGetSymbolAddress(void** devPtr, const T& symbol) {
    return ::cudaGetSymbolAddress(devPtr, (const void*)&symbol);
}
template <class T> inline cudaError_t cudaGetSymbolSize(size_t* size, const T& symbol) {
    return ::cudaGetSymbolSize(size, (const void*)&symbol);
}
template <class T> inline cudaError_t cudaLaunchKernel(T* func, dim3 grid, dim3 block, void** args, size_t sharedMem = 0,
                                                       cudaStream_t stream = 0) {
    return ::cudaLaunchKernel((const void*)func, grid, block, args, sharedMem, stream);
}
template <class T> inline cudaError_t cudaLaunchCooperativeKernel(T* func, dim3 grid, dim3 block, void** args, size_t sharedMem = 0,
                                                                  cudaStream_t stream = 0) {
    return ::cudaLaunchCooperativeKernel((const void*)func, grid, block, args, sharedMem, stream);
}
template <class T> inline cudaError_t cudaFuncSetAttribute(T* func, cudaFuncAttribute attr, int value) {
    return ::cudaFuncSetAttribute((const void*)func, attr, value);
}
template <class T> inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, T* func) {
    return ::cudaFuncGetAttributes(attr, (const void*)func);
}
template <class T> inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, T func, int blockSize, size_t dynamicSMemSize) {
    return ::cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, (const void*)func, blockSize, dynamicSMemSize);
}
template <class T> inline cudaError_t cudaFuncSetCacheConfig(T* func, cudaFuncCache config) {
    return ::cudaFuncSetCacheConfig((const void*)func, config);
}
template <class T> inline cudaError_t cudaFuncSetSharedMemConfig(T* func, cudaSharedMemConfig config) {
    return ::cudaFuncSetSharedMemConfig((const void*)func, config);
}
template <class T> inline cudaError_t cudaMallocAsync(T** devPtr, size_t size, cudaStream_t stream) {
    return ::cudaMallocAsync((void**)(void*)devPtr, size, stream);
}
template <class T> inline cudaError_t cudaMallocAsync(T** devPtr, size_t size, cudaMemPool_t pool, cudaStream_t stream) {
    return ::cudaMallocFromPoolAsync((void**)(void*)devPtr, size, pool, stream);
}
template <class T> inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, T func, int blockSize,
                                                                                          size_t dynamicSMemSize, unsigned int flags) {
    return ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, (const void*)func, blockSize, dynamicSMemSize, flags);
}
inline struct cudaPitchedPtr make_cudaPitchedPtr(void* d, size_t p, size_t xsz, size_t ysz) {
    struct cudaPitchedPtr s = {d, p, xsz, ysz};
    return s;
}
inline struct cudaPos make_cudaPos(size_t x, size_t y, size_t z) {
    struct cudaPos s = {x, y, z};
    return s;
}
inline struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) {
    struct cudaExtent s = {w, h, d};
    return s;
}
// CUDA 12's cudaGraphAddDependencies (no edge data), beside CUDA 13's.
inline cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to, size_t numDependencies) {
    return ::cudaGraphAddDependencies(graph, from, to, (const struct cudaGraphEdgeData*)0, numDependencies);
}
inline cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* pGraphExec, cudaGraph_t graph, unsigned long long flags = 0) {
    return ::cudaGraphInstantiate(pGraphExec, graph, flags);
}
// CUDA 11's cudaGraphInstantiate (error node and log), beside CUDA 12's (flags).
inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t* pGraphExec, cudaGraph_t graph, cudaGraphNode_t* pErrorNode, char* pLogBuffer,
                                        size_t bufferSize) {
    if (pErrorNode) *pErrorNode = 0;
    if (pLogBuffer && bufferSize) pLogBuffer[0] = 0;
    return ::cudaGraphInstantiate(pGraphExec, graph, 0ull);
}
// The block size that gives the most resident threads per SM, and the grid that fills the device
// with it (the occupancy calculator's answer, through the per-size query above).
template <class T> inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int* minGridSize, int* blockSize, T func, size_t dynamicSMemSize = 0,
                                                                         int blockSizeLimit = 0) {
    if (!minGridSize || !blockSize) return cudaErrorInvalidValue;
    cudaDeviceProp p;
    cudaError_t e = cudaGetDeviceProperties(&p, 0);
    if (e != cudaSuccess) return e;
    int limit = blockSizeLimit > 0 && blockSizeLimit < p.maxThreadsPerBlock ? blockSizeLimit : p.maxThreadsPerBlock;
    int best = 0, bestSize = 0, bestBlocks = 0;
    for (int size = limit / 32 * 32; size >= 32; size -= 32) {
        int blocks = 0;
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, func, size, dynamicSMemSize);
        if (e != cudaSuccess) return e;
        if (blocks * size > best) {
            best = blocks * size;
            bestSize = size;
            bestBlocks = blocks;
        }
    }
    *blockSize = bestSize;
    *minGridSize = bestBlocks * p.multiProcessorCount;
    return cudaSuccess;
}
#endif
