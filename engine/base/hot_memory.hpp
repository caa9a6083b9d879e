// Memory for the simulator's hot per-warp state (register files, predicates, shared memory, the
// cycle model's warp records and scoreboards), from 2 MiB-aligned chunks the kernel is asked to
// back with transparent huge pages (madvise MADV_HUGEPAGE; Linux's default THP mode "madvise"
// honours it, "never" ignores it and nothing else changes).
//
// Why: a timed run interleaves every resident warp, one instruction at a time (8,192 warps on the
// h100 preset), so each issue reads state that is tens of megabytes away from the last one's. On
// 4 KiB pages nearly every such read also misses the TLB; on 2 MiB pages the whole working set
// needs a few dozen TLB entries. docs/performance.md ("Huge pages for the hot state") has the
// measurements.
//
// HotVector<T> is a std::vector whose storage comes from here. Freed blocks go to per-size free
// lists (a thread keeps up to 2 MiB of each size itself; the rest are shared under a lock) and are
// reused; chunks are never returned to the system, so the pool holds at most the peak of what was
// in use at once. Blocks over 1 MiB are mapped and unmapped on their own.
#pragma once
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace warpscope::base {

// Blocks up to this size come from the pool's chunks, which stay mapped for the life of the
// process (a pointer into a freed one still reads mapped memory); bigger ones are mapped alone.
constexpr size_t kHotPooledBytes = size_t(1) << 20;

// At least 64-byte aligned (a cache line); `bytes` may be 0. Throws std::bad_alloc.
void* hotAllocate(size_t bytes);
// `bytes` must be what was passed to hotAllocate for `p`.
void hotFree(void* p, size_t bytes) noexcept;

struct HotMemoryStats {
    uint64_t chunkBytes = 0;       // mapped for the pooled sizes (never unmapped)
    uint64_t largeBytes = 0;       // mapped now for blocks over 1 MiB
    uint64_t hugeAdvised = 0;      // mappings the kernel accepted MADV_HUGEPAGE for
};
HotMemoryStats hotMemoryStats();

template <class T>
struct HotAllocator {
    using value_type = T;
    HotAllocator() noexcept = default;
    template <class U>
    HotAllocator(const HotAllocator<U>&) noexcept {}
    T* allocate(size_t n) {
        if (n > SIZE_MAX / sizeof(T)) throw std::bad_array_new_length();
        return static_cast<T*>(hotAllocate(n * sizeof(T)));
    }
    void deallocate(T* p, size_t n) noexcept { hotFree(p, n * sizeof(T)); }
    template <class U>
    bool operator==(const HotAllocator<U>&) const noexcept { return true; }
};

template <class T>
using HotVector = std::vector<T, HotAllocator<T>>;

} // namespace warpscope::base
