// Copy-on-first-write journal of global memory, for a launch that may have to be undone.
//
// A parallel run to the end (sim::Gpu::runToEnd with threads) lets several threads run shares of
// the blocks at once. If one share faults, or the launch runs past its instruction budget, the
// whole launch is run again serially so that the error and the memory are exactly those of the
// serial run; that needs global memory as it was before the launch. Copying every allocation up
// front costs a full copy on the critical path even for chunks nobody writes. Instead, while a
// WriteJournal is open, every store path calls beforeStore / beforeWarpStore before writing: the
// first write into a 64 KiB chunk copies the chunk's pre-image, so only written chunks are copied
// and the copying is spread over the threads that write.
//
// Sections: 1. per-allocation state (the hot checks, inline)   2. WriteJournal (open, roll back, close)
#pragma once
#include "mem/memory.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace warpscope::mem {

// ---------------------------------------------------------------- 1. per-allocation state
// The journal of one allocation, reached through Allocation::journal while a WriteJournal is open.
class AllocationJournal {
public:
    static constexpr uint64_t kChunkShift = 16;
    static constexpr uint64_t kChunkBytes = uint64_t(1) << kChunkShift;   // 64 KiB: a few us to copy, few chunks per warp store

    explicit AllocationJournal(Allocation& a);
    ~AllocationJournal();   // hands its pre-image blocks to the process's pool (journal.cpp)
    AllocationJournal(const AllocationJournal&) = delete;
    AllocationJournal& operator=(const AllocationJournal&) = delete;

    // Saves the pre-image of every chunk that [offset, offset + bytes) touches and that has not
    // been saved yet. Safe from many threads at once; returns only when those chunks are saved.
    // (Out of line: inlined, the journal's loops made the store handlers slower with no journal open.)
    void save(uint64_t offset, uint64_t bytes);
    // The same for a whole warp's store: lane l writes [addrs[l], addrs[l] + bytes) (global
    // addresses), all of them inside [lo, hi + bytes). A span of a few chunks is saved whole; a
    // wider one lane by lane (a scattered store must not copy megabytes it never touches).
    void saveWarp(const uint64_t* addrs, uint64_t lo, uint64_t hi, uint64_t bytes);
    // Saves [lo, hi + bytes) when it covers only a few chunks and returns true; false (nothing
    // saved) for a wider span, which saveWarp would save lane by lane.
    bool saveSpan(uint64_t lo, uint64_t hi, uint64_t bytes);

    // Puts every saved chunk back and forgets it (no writer may run).
    void restore();
    uint64_t savedChunks() const;

private:
    enum : uint8_t { kUnsaved = 0, kCopying = 1, kSaved = 2 };
    void saveChunk(uint64_t c);   // the first writer copies; a writer that finds it copying waits

    Allocation& alloc_;
    uint64_t chunks_ = 0;
    std::unique_ptr<std::atomic<uint8_t>[]> state_;
    // The pre-image of each saved chunk, taken by the thread that saves it (written before its
    // state turns kSaved, read only after the writers are done): a kChunkBytes block from the
    // process's pool of paged-in blocks (journal.cpp) when it has one. One allocation-sized
    // buffer would be fresh memory whose page faults cost more than the copy. Null for a saved
    // chunk that was all zero (an output nobody wrote yet: no copy; restore() clears it).
    std::unique_ptr<std::unique_ptr<uint8_t[]>[]> preimage_;
};

// The hooks the store paths call before writing into an allocation. With no journal open they
// cost one predictable branch.
inline void beforeStore(Allocation& a, uint64_t offset, uint64_t bytes) {
    if (a.journal) [[unlikely]]
        a.journal->save(offset, bytes);
}
inline void beforeWarpStore(Allocation& a, const uint64_t* addrs, uint64_t lo, uint64_t hi, uint64_t bytes) {
    if (a.journal) [[unlikely]]
        a.journal->saveWarp(addrs, lo, hi, bytes);
}
// For a store path that would rather not hand out its lanes' addresses (the pre-decoded store:
// an address array that escapes into a call costs it on every store, journal or not): true when
// the store may go ahead; false when a journal is open and the span is wide, and the caller must
// take a path that calls beforeWarpStore.
inline bool beforeSpanStore(Allocation& a, uint64_t lo, uint64_t hi, uint64_t bytes) {
    if (!a.journal) [[likely]]
        return true;
    return a.journal->saveSpan(lo, hi, bytes);
}

// ---------------------------------------------------------------- 2. WriteJournal
// Journals every live, writable allocation of a GlobalMemory from construction until close() or
// destruction (which keep memory as it is). Allocations must not be made or freed meanwhile.
class WriteJournal {
public:
    explicit WriteJournal(GlobalMemory& mem);
    ~WriteJournal() { close(); }
    WriteJournal(const WriteJournal&) = delete;
    WriteJournal& operator=(const WriteJournal&) = delete;

    // Puts back the pre-image of every chunk written since the journal opened, and closes it.
    // Call only when no writer runs.
    void rollBack();
    // Stops journaling; memory stays as it is.
    void close();
    uint64_t savedChunks() const;   // chunks copied so far (tests, measurements)

private:
    std::vector<std::pair<Allocation*, std::unique_ptr<AllocationJournal>>> journals_;
};

} // namespace warpscope::mem
