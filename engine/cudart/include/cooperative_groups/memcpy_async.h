// warpscope's CUDA headers: cooperative_groups::memcpy_async and wait (CUDA 11's
// <cooperative_groups/memcpy_async.h>). The group copies the bytes itself, each thread a strided
// share of 4-byte words where the pointers allow it; wait(group) is the group's barrier, after
// which every copy is visible, as CUDA promises. (On the hardware the copy may be cp.async and
// overlap; the results are the same.)
#pragma once
#include "../cooperative_groups.h"

namespace cooperative_groups {

template <class Group> static __device__ __forceinline__ void memcpy_async(const Group& g, void* dst, const void* src, size_t bytes) {
    const unsigned rank = (unsigned)g.thread_rank(), n = (unsigned)g.size();
    if ((((unsigned long long)dst | (unsigned long long)src | bytes) & 3) == 0) {
        unsigned* d = (unsigned*)dst;
        const unsigned* s = (const unsigned*)src;
        for (size_t i = rank; i < bytes / 4; i += n) d[i] = s[i];
    } else {
        char* d = (char*)dst;
        const char* s = (const char*)src;
        for (size_t i = rank; i < bytes; i += n) d[i] = s[i];
    }
}
// The typed form: count elements of T.
template <class Group, class T> static __device__ __forceinline__ void memcpy_async(const Group& g, T* dst, size_t dstCount, const T* src, size_t srcCount) {
    memcpy_async(g, (void*)dst, (const void*)src, (dstCount < srcCount ? dstCount : srcCount) * sizeof(T));
}
template <class Group> static __device__ __forceinline__ void wait(const Group& g) { g.sync(); }
template <unsigned Stages, class Group> static __device__ __forceinline__ void wait_prior(const Group& g) { g.sync(); }

} // namespace cooperative_groups
