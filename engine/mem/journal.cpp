// The copy-on-first-write journal (journal.hpp): the chunk state machine, roll-back, and which
// allocations a journal records.
#include "mem/journal.hpp"

#include "base/error.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <thread>

namespace warpscope::mem {

// ---------------------------------------------------------------- 0. the pre-image pool
// Chunk-sized pre-image blocks are kept for the next journal of the process (up to kPoolChunks):
// a fresh block costs a page fault per 4 KiB page plus the kernel's zeroing, more than the
// copy itself, and the allocator hands freed 64 KiB blocks back to the system or to another
// thread's arena often enough that the next parallel run (the app's next To end, the next bench
// repetition) would pay it again.
namespace {
constexpr size_t kPoolChunks = 1024;   // 64 MiB
struct ChunkPool {
    std::mutex lock;
    std::vector<std::unique_ptr<uint8_t[]>> free;
};
ChunkPool& chunkPool() {
    static ChunkPool* pool = new ChunkPool;   // never destroyed: a journal closing during exit still finds it
    return *pool;
}
std::unique_ptr<uint8_t[]> takeChunk() {
    ChunkPool& p = chunkPool();
    {
        std::lock_guard<std::mutex> g(p.lock);
        if (!p.free.empty()) {
            auto b = std::move(p.free.back());
            p.free.pop_back();
            return b;
        }
    }
    return std::make_unique_for_overwrite<uint8_t[]>(AllocationJournal::kChunkBytes);
}
void giveChunk(std::unique_ptr<uint8_t[]> b) {
    ChunkPool& p = chunkPool();
    std::lock_guard<std::mutex> g(p.lock);
    if (p.free.size() < kPoolChunks) p.free.push_back(std::move(b));
}
} // namespace

// ---------------------------------------------------------------- 1. per-allocation state
AllocationJournal::AllocationJournal(Allocation& a)
    : alloc_(a), chunks_((a.size + kChunkBytes - 1) >> kChunkShift), state_(std::make_unique<std::atomic<uint8_t>[]>(chunks_)),
      preimage_(std::make_unique<std::unique_ptr<uint8_t[]>[]>(chunks_)) {}

AllocationJournal::~AllocationJournal() {
    for (uint64_t c = 0; c < chunks_; ++c)
        if (preimage_[c]) giveChunk(std::move(preimage_[c]));
}

void AllocationJournal::save(uint64_t offset, uint64_t bytes) {
    const uint64_t first = offset >> kChunkShift, last = (offset + bytes - 1) >> kChunkShift;
    for (uint64_t c = first; c <= last; ++c)
        if (state_[c].load(std::memory_order_acquire) != kSaved) saveChunk(c);
}

bool AllocationJournal::saveSpan(uint64_t lo, uint64_t hi, uint64_t bytes) {
    const uint64_t first = lo - alloc_.base, end = hi - alloc_.base + bytes;
    if (((end - 1) >> kChunkShift) - (first >> kChunkShift) >= 4) return false;
    save(first, end - first);
    return true;
}

void AllocationJournal::saveWarp(const uint64_t* addrs, uint64_t lo, uint64_t hi, uint64_t bytes) {
    if (saveSpan(lo, hi, bytes)) return;
    for (int l = 0; l < 32; ++l) save(addrs[l] - alloc_.base, bytes);
}

namespace {
// True when all `n` bytes are zero; stops at the first 64-byte line that is not.
bool allZero(const uint8_t* p, uint64_t n) {
    uint64_t i = 0;
    for (; i + 64 <= n; i += 64) {
        uint64_t w[8];
        std::memcpy(w, p + i, 64);
        if ((w[0] | w[1] | w[2] | w[3] | w[4] | w[5] | w[6] | w[7]) != 0) return false;
    }
    uint8_t rest = 0;
    for (; i < n; ++i) rest |= p[i];
    return rest == 0;
}
} // namespace

void AllocationJournal::saveChunk(uint64_t c) {
    for (;;) {
        uint8_t s = kUnsaved;
        if (state_[c].compare_exchange_strong(s, kCopying, std::memory_order_acquire)) {
            const uint64_t at = c << kChunkShift, bytes = std::min(kChunkBytes, alloc_.size - at);
            if (allZero(alloc_.data.get() + at, bytes)) {
                // An all-zero chunk (an output buffer nobody wrote yet) needs no copy: restore()
                // clears it. Reading it costs little more than the stores' own reads would.
                state_[c].store(kSaved, std::memory_order_release);
                return;
            }
            try {
                preimage_[c] = takeChunk();   // (always kChunkBytes: the pool's blocks fit any chunk)
            } catch (const std::bad_alloc&) {
                // Leave the chunk unsaved (a waiting writer then tries itself) and stop this share
                // like a fault: runToEnd restores what was saved and runs the launch serially.
                state_[c].store(kUnsaved, std::memory_order_release);
                throw Error(Error::Kind::Input, "Not enough host memory to save global memory for a parallel run.");
            }
            std::memcpy(preimage_[c].get(), alloc_.data.get() + at, bytes);
            // Release: a writer that sees kSaved writes only after the copy has read the old bytes.
            state_[c].store(kSaved, std::memory_order_release);
            return;
        }
        if (s == kSaved) return;
        // Another share is copying this chunk (a few microseconds): wait, it must not change under the copy.
        std::this_thread::yield();
    }
}

void AllocationJournal::restore() {
    for (uint64_t c = 0; c < chunks_; ++c) {
        if (state_[c].load(std::memory_order_acquire) != kSaved) continue;
        const uint64_t at = c << kChunkShift, bytes = std::min(kChunkBytes, alloc_.size - at);
        if (preimage_[c]) {
            std::memcpy(alloc_.data.get() + at, preimage_[c].get(), bytes);
            giveChunk(std::move(preimage_[c]));
        } else {
            std::memset(alloc_.data.get() + at, 0, bytes);   // it was all zero (saveChunk)
        }
        state_[c].store(kUnsaved, std::memory_order_relaxed);
    }
}

uint64_t AllocationJournal::savedChunks() const {
    uint64_t n = 0;
    for (uint64_t c = 0; c < chunks_; ++c) n += state_[c].load(std::memory_order_relaxed) == kSaved;
    return n;
}

// ---------------------------------------------------------------- 2. WriteJournal
WriteJournal::WriteJournal(GlobalMemory& mem) {
    // Read-only (.const) data cannot be stored to (the store faults first), freed data not at all.
    // One journal at a time: an allocation that another open journal records stays with it.
    for (auto& a : mem.allocations()) {
        if (a->freed || a->readOnly || a->size == 0 || a->journal) continue;
        journals_.emplace_back(a.get(), std::make_unique<AllocationJournal>(*a));
        a->journal = journals_.back().second.get();
    }
}

void WriteJournal::rollBack() {
    for (auto& [a, j] : journals_) j->restore();
    close();
}

void WriteJournal::close() {
    for (auto& [a, j] : journals_) a->journal = nullptr;
    journals_.clear();
}

uint64_t WriteJournal::savedChunks() const {
    uint64_t n = 0;
    for (auto& [a, j] : journals_) n += j->savedChunks();
    return n;
}

} // namespace warpscope::mem
