#include "base/hot_memory.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <mutex>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace warpscope::base {
namespace {

constexpr size_t kLine = 64;
constexpr size_t kHuge = size_t(2) << 20;          // a transparent huge page
constexpr size_t kChunk = size_t(16) << 20;        // what one mapping of pooled blocks holds
constexpr size_t kLargest = kHotPooledBytes;       // bigger blocks are mapped one by one
// Size classes: 64-byte steps up to 1 KiB (16 classes), then powers of two up to 1 MiB (10).
constexpr int kSmallClasses = 16;
constexpr int kClasses = kSmallClasses + 10;
constexpr size_t kThreadKeepsBytes = size_t(2) << 20;   // what a thread keeps of one size for itself

int classOf(size_t bytes) {
    if (bytes <= 1024) return bytes == 0 ? 0 : int((bytes - 1) / kLine);
    int c = kSmallClasses;
    for (size_t s = 2048; s < bytes; s <<= 1) ++c;
    return c;
}

size_t classBytes(int c) {
    return c < kSmallClasses ? size_t(c + 1) * kLine : size_t(2048) << (c - kSmallClasses);
}

// Blocks of class c a thread keeps (at least 4: a thread that frees and takes a few big blocks in
// turn need not go to the shared pool's lock each time).
int threadKeeps(int c) { return int(std::max<size_t>(4, kThreadKeepsBytes / classBytes(c))); }

struct FreeBlock {
    FreeBlock* next;
};

std::atomic<uint64_t> gChunkBytes{0}, gLargeBytes{0}, gHugeAdvised{0};

// A mapping of `bytes` (a multiple of 2 MiB) at a 2 MiB boundary, advised for huge pages.
void* mapAligned(size_t bytes) {
#if defined(__linux__)
    void* raw = mmap(nullptr, bytes + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
    const uintptr_t aligned = (start + kHuge - 1) & ~uintptr_t(kHuge - 1);
    if (aligned > start) munmap(raw, aligned - start);
    const uintptr_t end = start + bytes + kHuge;
    if (end > aligned + bytes) munmap(reinterpret_cast<void*>(aligned + bytes), end - (aligned + bytes));
#ifdef MADV_HUGEPAGE
    if (madvise(reinterpret_cast<void*>(aligned), bytes, MADV_HUGEPAGE) == 0) gHugeAdvised.fetch_add(1, std::memory_order_relaxed);
#endif
    return reinterpret_cast<void*>(aligned);
#else
    return ::operator new(bytes, std::align_val_t(kHuge));
#endif
}

void unmapAligned(void* p, size_t bytes) {
#if defined(__linux__)
    munmap(p, bytes);
#else
    (void)bytes;
    ::operator delete(p, std::align_val_t(kHuge));
#endif
}

size_t roundHuge(size_t bytes) { return (bytes + kHuge - 1) & ~(kHuge - 1); }

// The shared pool: per-class free lists and the chunk being carved. Never destroyed (blocks may
// be freed by static destructors after main returns).
struct Pool {
    std::mutex lock;
    std::array<FreeBlock*, kClasses> free{};
    char* cursor = nullptr;
    char* end = nullptr;

    void* take(int c) {
        std::lock_guard<std::mutex> g(lock);
        if (FreeBlock* b = free[size_t(c)]) {
            free[size_t(c)] = b->next;
            return b;
        }
        const size_t bytes = classBytes(c);
        if (size_t(end - cursor) < bytes) {
            cursor = static_cast<char*>(mapAligned(kChunk));
            end = cursor + kChunk;
            gChunkBytes.fetch_add(kChunk, std::memory_order_relaxed);
        }
        void* p = cursor;
        cursor += bytes;
        return p;
    }
    void give(int c, FreeBlock* first, FreeBlock* last) {
        std::lock_guard<std::mutex> g(lock);
        last->next = free[size_t(c)];
        free[size_t(c)] = first;
    }
};

Pool& pool() {
    static Pool* p = new Pool;
    return *p;
}

// What a thread keeps for itself, handed back to the pool when the thread ends. A block freed
// after that (a static's destructor at exit) goes straight to the pool (tCacheGone: trivially
// destructible, so still readable then).
thread_local bool tCacheGone = false;

struct ThreadCache {
    std::array<FreeBlock*, kClasses> head{};
    std::array<int, kClasses> count{};
    ~ThreadCache() {
        tCacheGone = true;
        for (int c = 0; c < kClasses; ++c) {
            FreeBlock* first = head[size_t(c)];
            if (!first) continue;
            FreeBlock* last = first;
            while (last->next) last = last->next;
            pool().give(c, first, last);
        }
    }
};

thread_local ThreadCache tCache;

} // namespace

void* hotAllocate(size_t bytes) {
    if (bytes > kLargest) {
        const size_t mapped = roundHuge(bytes);
        void* p = mapAligned(mapped);
        gLargeBytes.fetch_add(mapped, std::memory_order_relaxed);
        return p;
    }
    const int c = classOf(bytes);
    if (tCacheGone) return pool().take(c);
    ThreadCache& t = tCache;
    if (FreeBlock* b = t.head[size_t(c)]) {
        t.head[size_t(c)] = b->next;
        --t.count[size_t(c)];
        return b;
    }
    return pool().take(c);
}

void hotFree(void* p, size_t bytes) noexcept {
    if (!p) return;
    if (bytes > kLargest) {
        const size_t mapped = roundHuge(bytes);
        unmapAligned(p, mapped);
        gLargeBytes.fetch_sub(mapped, std::memory_order_relaxed);
        return;
    }
    const int c = classOf(bytes);
    auto* b = static_cast<FreeBlock*>(p);
    if (tCacheGone) return pool().give(c, b, b);
    ThreadCache& t = tCache;
    if (t.count[size_t(c)] < threadKeeps(c)) {
        b->next = t.head[size_t(c)];
        t.head[size_t(c)] = b;
        ++t.count[size_t(c)];
        return;
    }
    pool().give(c, b, b);
}

HotMemoryStats hotMemoryStats() {
    HotMemoryStats s;
    s.chunkBytes = gChunkBytes.load(std::memory_order_relaxed);
    s.largeBytes = gLargeBytes.load(std::memory_order_relaxed);
    s.hugeAdvised = gHugeAdvised.load(std::memory_order_relaxed);
    return s;
}

} // namespace warpscope::base
