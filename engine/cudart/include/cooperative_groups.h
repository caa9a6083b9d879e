// warpscope's CUDA headers: cooperative groups (namespace cooperative_groups), written for
// warpscope from the CUDA C++ Programming Guide's description, over the prelude's warp
// functions, so each group operation becomes the PTX a learner can step (bar.sync, bar.warp.sync,
// shfl.sync, vote.sync, match.any.sync):
//   thread_block (this_thread_block), thread_group (tiled_partition(group, n)),
//   thread_block_tile<N> (tiled_partition<N>: N a power of two up to 32, or a multiple of 32 up to
//   the block, whose sync is a named barrier), coalesced_group (coalesced_threads,
//   labeled_partition, binary_partition), grid_group (this_grid: ranks and sizes; its sync needs
//   cudaLaunchCooperativeKernel, as on a GPU),
//   cooperative_groups::sync(g); cg::reduce in <cooperative_groups/reduce.h>, cg::memcpy_async and
//   cg::wait in <cooperative_groups/memcpy_async.h>.
// Threads are ranked in the block as CUDA ranks them (x fastest, then y, then z) and a warp is 32
// consecutive ranks, as on the hardware.
#pragma once
// (if constexpr: the clang path compiles kernels as C++14, where clang accepts it with a warning)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc++17-extensions"
#define _COOPERATIVE_GROUPS_H_
#include "cuda_runtime.h"

namespace cooperative_groups {

#define __WS_CG static __device__ __forceinline__
#define __WS_CGM __device__ __forceinline__

namespace __ws {
__WS_CG unsigned blockRank() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
__WS_CG unsigned blockSize() { return blockDim.x * blockDim.y * blockDim.z; }
__WS_CG unsigned lane() { return (unsigned)__nvvm_read_ptx_sreg_laneid(); }
__WS_CG unsigned lanesBelow() { return (unsigned)__nvvm_read_ptx_sreg_lanemask_lt(); }
// The lanes of this thread's warp that the block has (the last warp of a block may be partial).
__WS_CG unsigned warpLanes() {
    const unsigned first = blockRank() & ~31u, left = blockSize() - first;
    return left >= 32 ? 0xffffffffu : (1u << left) - 1;
}
// Moves a value of any trivially copyable type through a 32-bit shuffle, one word at a time.
template <class T, class F> __WS_CG T shuffleWords(const T& v, F f) {
    constexpr unsigned n = (sizeof(T) + 3) / 4;
    int in[n] = {}, out[n];
    __builtin_memcpy(in, &v, sizeof(T));
    for (unsigned i = 0; i < n; ++i) out[i] = f(in[i]);
    T r;
    __builtin_memcpy(&r, out, sizeof(T));
    return r;
}
// The lane of the k-th set bit of mask (k from 0).
__WS_CG unsigned nthLane(unsigned mask, unsigned k) {
    for (unsigned l = 0; l < 32; ++l)
        if (mask >> l & 1) {
            if (k == 0) return l;
            --k;
        }
    return 0;
}
// Bits of ballot (by lane) packed in the order of mask's lanes: bit r = the thread of rank r.
__WS_CG unsigned packByRank(unsigned ballot, unsigned mask) {
    unsigned r = 0, k = 0;
    for (unsigned l = 0; l < 32; ++l)
        if (mask >> l & 1) r |= (ballot >> l & 1) << k++;
    return r;
}
} // namespace __ws

// ---------------------------------------------------------------- the groups
// A group chosen at run time (what tiled_partition(g, n) returns, and what a thread_block or a
// tile converts to when passed as a thread_group).
class thread_group {
public:
    enum : unsigned { kBlock = 0, kTile = 1, kCoalesced = 2 };
    __WS_CGM unsigned long long size() const { return kind_ == kBlock ? __ws::blockSize() : __popc(mask_); }
    __WS_CGM unsigned long long num_threads() const { return size(); }
    __WS_CGM unsigned long long thread_rank() const { return kind_ == kBlock ? __ws::blockRank() : __popc(mask_ & __ws::lanesBelow()); }
    __WS_CGM void sync() const {
        if (kind_ == kBlock) __syncthreads();
        else __syncwarp(mask_);
    }
    __WS_CGM unsigned get_type() const { return kind_; }
    __WS_CGM thread_group(unsigned kind, unsigned mask) : kind_(kind), mask_(mask) {}
    __WS_CGM unsigned __mask() const { return mask_; }

protected:
    unsigned kind_;
    unsigned mask_;   // the group's lanes in this warp (tiles and coalesced groups)
};

class thread_block : public thread_group {
public:
    __WS_CGM thread_block() : thread_group(kBlock, 0) {}
    __WS_CGM static void sync() { __syncthreads(); }
    __WS_CGM static unsigned long long size() { return __ws::blockSize(); }
    __WS_CGM static unsigned long long num_threads() { return __ws::blockSize(); }
    __WS_CGM static unsigned long long thread_rank() { return __ws::blockRank(); }
    __WS_CGM static dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    __WS_CGM static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    __WS_CGM static dim3 group_dim() { return blockDim; }
    __WS_CGM static dim3 dim_threads() { return blockDim; }
};

__WS_CG thread_block this_thread_block() { return thread_block(); }
// The shared memory CUDA asks for tiles wider than a warp on older GPUs: not needed here.
template <unsigned Size, unsigned MaxBlockSize = 1024> struct block_tile_memory {};
template <unsigned Size, unsigned MaxBlockSize>
__WS_CG thread_block this_thread_block(block_tile_memory<Size, MaxBlockSize>&) { return thread_block(); }

// N threads of consecutive ranks. N <= 32: a power of two, inside one warp; N > 32: whole warps
// (a multiple of 32), synchronised with a named barrier (bar.sync 1+tile, N).
template <unsigned N> class thread_block_tile : public thread_group {
    static_assert(N <= 32 ? (N & (N - 1)) == 0 && N > 0 : N % 32 == 0,
                  "thread_block_tile<N>: N is a power of two up to 32, or a multiple of 32");
    static constexpr unsigned kMask = N >= 32 ? 0xffffffffu : (1u << N) - 1;
    // Each 32-bit word of v through shuffle(mask, word), for the warp functions below.
    template <class T, class S> __WS_CGM T tileShuffle(T v, S shuffle) const {
        static_assert(N <= 32, "shuffles need a tile of at most 32 threads");
        const unsigned m = mask_;
        return __ws::shuffleWords(v, [m, shuffle](int w) { return shuffle(m, w); });
    }

public:
    __WS_CGM thread_block_tile() : thread_group(kTile, N >= 32 ? __ws::warpLanes() : (kMask << (__ws::lane() & ~(N - 1))) & __ws::warpLanes()) {}
    __WS_CGM static constexpr unsigned long long size() { return N; }
    __WS_CGM static constexpr unsigned long long num_threads() { return N; }
    __WS_CGM static unsigned long long thread_rank() { return __ws::blockRank() % N; }
    __WS_CGM static unsigned long long meta_group_rank() { return __ws::blockRank() / N; }
    __WS_CGM static unsigned long long meta_group_size() { return (__ws::blockSize() + N - 1) / N; }
    __WS_CGM void sync() const {
        if constexpr (N <= 32) {
            __syncwarp(mask_);
        } else {
            const unsigned id = 1 + unsigned(meta_group_rank()) % 15, count = N;
            asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(count) : "memory");
        }
    }
    // Warp functions within the tile (tiles up to 32 threads). Ranks are the tile's.
    template <class T> __WS_CGM T shfl(T v, int srcRank) const {
        return tileShuffle(v, [srcRank](unsigned m, int w) { return __shfl_sync(m, w, srcRank, N); });
    }
    template <class T> __WS_CGM T shfl_down(T v, unsigned delta) const {
        return tileShuffle(v, [delta](unsigned m, int w) { return __shfl_down_sync(m, w, delta, N); });
    }
    template <class T> __WS_CGM T shfl_up(T v, unsigned delta) const {
        return tileShuffle(v, [delta](unsigned m, int w) { return __shfl_up_sync(m, w, delta, N); });
    }
    template <class T> __WS_CGM T shfl_xor(T v, unsigned laneMask) const {
        return tileShuffle(v, [laneMask](unsigned m, int w) { return __shfl_xor_sync(m, w, (int)laneMask, N); });
    }
    __WS_CGM int any(int p) const { return __ballot_sync(mask_, p) & mask_ ? 1 : 0; }
    __WS_CGM int all(int p) const { return (__ballot_sync(mask_, p) & mask_) == mask_ ? 1 : 0; }
    __WS_CGM unsigned ballot(int p) const {
        const unsigned b = __ballot_sync(mask_, p);
        return N >= 32 ? b : (b >> (__ws::lane() & ~(N - 1))) & kMask;
    }
    template <class T> __WS_CGM unsigned match_any(T v) const {
        const unsigned b = __match_any_sync(mask_, v);
        return N >= 32 ? b : (b >> (__ws::lane() & ~(N - 1))) & kMask;
    }
};

// The threads of a warp active where it was made (coalesced_threads), ranked by lane.
class coalesced_group : public thread_group {
    // v as lane `src` of the group holds it.
    template <class T> __WS_CGM T fromLane(T v, unsigned src) const {
        const unsigned m = mask_;
        return __ws::shuffleWords(v, [m, src](int w) { return __shfl_sync(m, w, (int)src); });
    }

public:
    __WS_CGM explicit coalesced_group(unsigned mask) : thread_group(kCoalesced, mask) {}
    __WS_CGM unsigned long long meta_group_rank() const { return 0; }
    __WS_CGM unsigned long long meta_group_size() const { return 1; }
    template <class T> __WS_CGM T shfl(T v, unsigned srcRank) const { return fromLane(v, __ws::nthLane(mask_, srcRank)); }
    template <class T> __WS_CGM T shfl_down(T v, unsigned delta) const {
        const unsigned r = unsigned(thread_rank()) + delta;
        return fromLane(v, r < size() ? __ws::nthLane(mask_, r) : __ws::lane());
    }
    template <class T> __WS_CGM T shfl_up(T v, unsigned delta) const {
        const unsigned r = unsigned(thread_rank());
        return fromLane(v, r >= delta ? __ws::nthLane(mask_, r - delta) : __ws::lane());
    }
    __WS_CGM int any(int p) const { return __ballot_sync(mask_, p) & mask_ ? 1 : 0; }
    __WS_CGM int all(int p) const { return (__ballot_sync(mask_, p) & mask_) == mask_ ? 1 : 0; }
    __WS_CGM unsigned ballot(int p) const { return __ws::packByRank(__ballot_sync(mask_, p), mask_); }
};

__WS_CG coalesced_group coalesced_threads() { return coalesced_group(__activemask()); }

}  // namespace cooperative_groups
// The simulator's grid barrier (no body: warpscope's compile step turns the call into the
// instruction; only this header calls it).
extern "C" __device__ void __warpscope_grid_sync();
namespace cooperative_groups {

// The whole grid. Its ranks and sizes work in any launch; grid.sync() needs a cooperative launch.
class grid_group {
public:
    __WS_CGM static unsigned long long thread_rank() {
        const unsigned long long b = blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
        return b * __ws::blockSize() + __ws::blockRank();
    }
    __WS_CGM static unsigned long long size() { return (unsigned long long)gridDim.x * gridDim.y * gridDim.z * __ws::blockSize(); }
    __WS_CGM static unsigned long long num_threads() { return size(); }
    __WS_CGM static unsigned long long num_blocks() { return (unsigned long long)gridDim.x * gridDim.y * gridDim.z; }
    __WS_CGM static unsigned long long block_rank() { return blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z); }
    __WS_CGM static dim3 group_dim() { return blockDim; }
    __WS_CGM static dim3 dim_blocks() { return gridDim; }
    __WS_CGM static dim3 block_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    // A cooperative launch gives the grid a workspace (its address in %envreg1:%envreg2, 0 in
    // any other launch); grid.sync() counts arrivals there.
    __WS_CGM static unsigned* workspace() {
        unsigned hi, lo;
        asm volatile("mov.u32 %0, %%envreg1;" : "=r"(hi));
        asm volatile("mov.u32 %0, %%envreg2;" : "=r"(lo));
        return (unsigned*)(((unsigned long long)hi << 32) | lo);
    }
    __WS_CGM static bool is_valid() { return workspace() != 0; }
    // Every thread of the grid waits here for all the others. The wait is the simulator's own
    // grid barrier: a call of the bodiless __warpscope_grid_sync, which warpscope lowers to one
    // instruction (bar.sync's grid-wide form; docs/async-copy.md). Each warp parks there, as at
    // __syncthreads(), until every warp of every block still running has arrived; nothing spins,
    // so a launch executes the same instructions whatever order its blocks run in, and the
    // blocks between two grid syncs can run on several host threads. Outside a cooperative
    // launch it traps (the simulator then names the missing cudaLaunchCooperativeKernel).
    __device__ void sync() const {
        if (!workspace()) asm volatile("trap;");
        __warpscope_grid_sync();
    }
};
__WS_CG grid_group this_grid() { return grid_group(); }

// ---------------------------------------------------------------- partitions
template <unsigned N, class Parent> __WS_CG thread_block_tile<N> tiled_partition(const Parent&) { return thread_block_tile<N>(); }
// A tile of `size` threads (a power of two up to 32, or the whole block) chosen at run time.
__WS_CG thread_group tiled_partition(const thread_group& parent, unsigned size) {
    if (parent.get_type() == thread_group::kBlock && size >= __ws::blockSize()) return thread_group(thread_group::kBlock, 0);
    const unsigned m = size >= 32 ? 0xffffffffu : (1u << size) - 1;
    const unsigned base = size >= 32 ? 0 : (__ws::lane() & ~(size - 1));
    const unsigned inParent = parent.get_type() == thread_group::kBlock ? __ws::warpLanes() : parent.__mask();
    return thread_group(thread_group::kTile, (m << base) & inParent);
}
// The threads of the group with the same label, or the same predicate.
template <class Group, class T> __WS_CG coalesced_group labeled_partition(const Group& g, T label) {
    const unsigned m = g.get_type() == thread_group::kBlock ? __ws::warpLanes() : g.__mask();
    return coalesced_group(__match_any_sync(m, label));
}
template <class Group> __WS_CG coalesced_group binary_partition(const Group& g, bool pred) {
    const unsigned m = g.get_type() == thread_group::kBlock ? __ws::warpLanes() : g.__mask();
    const unsigned yes = __ballot_sync(m, pred);
    return coalesced_group(pred ? yes & m : ~yes & m);
}

template <class Group> __WS_CG void sync(const Group& g) { g.sync(); }
template <class Group> __WS_CG unsigned long long thread_rank(const Group& g) { return g.thread_rank(); }
template <class Group> __WS_CG unsigned long long group_size(const Group& g) { return g.size(); }

#undef __WS_CGM
#undef __WS_CG
} // namespace cooperative_groups
#pragma clang diagnostic pop
