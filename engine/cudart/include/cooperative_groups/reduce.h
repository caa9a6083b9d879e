// warpscope's CUDA headers: cooperative_groups::reduce and its operators (CUDA 11's
// <cooperative_groups/reduce.h>). A tile reduces with a butterfly of shfl.xor (every thread gets
// the result, as CUDA's does); a coalesced group, whose ranks need not be lanes, adds up the
// values of its ranks one shuffle each.
#pragma once
// (if constexpr: the clang path compiles kernels as C++14, where clang accepts it with a warning)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc++17-extensions"
#include "../cooperative_groups.h"

namespace cooperative_groups {

template <class T> struct plus { __device__ __forceinline__ T operator()(const T& a, const T& b) const { return a + b; } };
template <class T> struct less { __device__ __forceinline__ T operator()(const T& a, const T& b) const { return b < a ? b : a; } };
template <class T> struct greater { __device__ __forceinline__ T operator()(const T& a, const T& b) const { return a < b ? b : a; } };
template <class T> struct bit_and { __device__ __forceinline__ T operator()(const T& a, const T& b) const { return a & b; } };
template <class T> struct bit_or { __device__ __forceinline__ T operator()(const T& a, const T& b) const { return a | b; } };
template <class T> struct bit_xor { __device__ __forceinline__ T operator()(const T& a, const T& b) const { return a ^ b; } };

template <unsigned N, class T, class Op> static __device__ __forceinline__ T reduce(const thread_block_tile<N>& g, T v, Op op) {
    if constexpr (N <= 32) {
        for (unsigned d = N / 2; d > 0; d /= 2) v = op(v, g.shfl_xor(v, d));
        return v;
    } else {
        // A tile of whole warps: each warp reduces with shuffles, then every thread combines the
        // warps' results through shared memory, between two of the tile's barriers.
        static __shared__ T perWarp[32];
        const thread_block_tile<32> warp;
        for (unsigned d = 16; d > 0; d /= 2) v = op(v, warp.shfl_xor(v, d));
        const unsigned w = __ws::blockRank() / 32, first = w - (__ws::blockRank() % N) / 32;
        if (warp.thread_rank() == 0) perWarp[w] = v;
        g.sync();
        T r = perWarp[first];
        for (unsigned k = 1; k < N / 32; ++k) r = op(r, perWarp[first + k]);
        g.sync();
        return r;
    }
}
template <class T, class Op> static __device__ __forceinline__ T reduce(const coalesced_group& g, T v, Op op) {
    T r = g.shfl(v, 0);
    for (unsigned k = 1; k < g.size(); ++k) r = op(r, g.shfl(v, k));
    return r;
}

// Inclusive and exclusive scans over a tile (<cooperative_groups/scan.h>), Hillis-Steele with shfl.up.
template <unsigned N, class T, class Op> static __device__ __forceinline__ T inclusive_scan(const thread_block_tile<N>& g, T v, Op op) {
    for (unsigned d = 1; d < N; d *= 2) {
        T o = g.shfl_up(v, d);
        if (g.thread_rank() >= d) v = op(v, o);
    }
    return v;
}
template <unsigned N, class T> static __device__ __forceinline__ T inclusive_scan(const thread_block_tile<N>& g, T v) { return inclusive_scan(g, v, plus<T>()); }
template <unsigned N, class T, class Op> static __device__ __forceinline__ T exclusive_scan(const thread_block_tile<N>& g, T v, Op op) {
    T in = inclusive_scan(g, v, op);
    T prev = g.shfl_up(in, 1);
    return g.thread_rank() == 0 ? T() : prev;
}
template <unsigned N, class T> static __device__ __forceinline__ T exclusive_scan(const thread_block_tile<N>& g, T v) { return exclusive_scan(g, v, plus<T>()); }

} // namespace cooperative_groups
#pragma clang diagnostic pop
