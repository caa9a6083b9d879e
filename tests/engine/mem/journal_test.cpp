// The copy-on-first-write journal of global memory (mem/journal.hpp): the first store into a
// chunk saves it, later ones do not, a roll-back restores exactly the saved chunks, and writers on
// several threads storing into one chunk at once never let a write into the saved pre-image.
#include "mem/journal.hpp"

#include <catch2/catch.hpp>

#include <barrier>
#include <cstring>
#include <thread>
#include <vector>

using namespace warpscope;

namespace {
constexpr uint64_t kChunk = mem::AllocationJournal::kChunkBytes;

// An allocation filled with a pattern that differs from byte to byte and chunk to chunk.
mem::Allocation& patterned(mem::GlobalMemory& m, uint64_t bytes, const std::string& name) {
    uint64_t base = m.allocate(bytes, name);
    mem::Allocation* a = m.find(base, bytes);
    for (uint64_t i = 0; i < bytes; ++i) a->data[i] = static_cast<uint8_t>(i * 7 + i / kChunk);
    return *a;
}

std::vector<uint8_t> bytesOf(const mem::Allocation& a) { return {a.data.get(), a.data.get() + a.size}; }
// Compared as a bool: CHECK would print both vectors (hundreds of kilobytes) on a failure.
bool holds(const mem::Allocation& a, const std::vector<uint8_t>& want) { return bytesOf(a) == want; }

// A store as a kernel does it: the hook first, then the write.
void store32(mem::Allocation& a, uint64_t offset, uint32_t v) {
    mem::beforeStore(a, offset, 4);
    std::memcpy(a.data.get() + offset, &v, 4);
}
} // namespace

TEST_CASE("the journal saves a chunk at its first write only and rolls back exactly", "[mem][journal]") {
    mem::GlobalMemory m;
    mem::Allocation& a = patterned(m, 3 * kChunk + 100, "a");   // the last chunk is partial
    mem::Allocation& b = patterned(m, 1000, "b");
    const uint64_t cbase = m.allocate(64, "c", true);           // read-only: never journaled
    const auto a0 = bytesOf(a), b0 = bytesOf(b);
    {
        mem::WriteJournal j(m);
        REQUIRE(a.journal != nullptr);
        REQUIRE(b.journal != nullptr);
        CHECK(m.find(cbase, 4)->journal == nullptr);
        CHECK(j.savedChunks() == 0);
        store32(a, 8, 0xdeadbeef);
        CHECK(j.savedChunks() == 1);
        store32(a, 12, 0x01020304);   // the same chunk: nothing more is saved
        store32(a, 8, 0x55555555);    // and the second write to a byte keeps the first pre-image
        CHECK(j.savedChunks() == 1);
        store32(a, 3 * kChunk + 96, 7);   // the partial last chunk
        CHECK(j.savedChunks() == 2);
        mem::beforeStore(a, 2 * kChunk - 2, 4);   // an access across a chunk boundary saves both (1 and 2)
        CHECK(j.savedChunks() == 4);
        std::memset(a.data.get() + 2 * kChunk - 2, 0xee, 4);
        store32(b, 996, 9);
        CHECK(j.savedChunks() == 5);
        CHECK_FALSE(holds(a, a0));
        j.rollBack();
        CHECK(a.journal == nullptr);
        CHECK(b.journal == nullptr);
        CHECK(holds(a, a0));
        CHECK(holds(b, b0));
    }
    {   // close (or the end of the journal) keeps what was written
        mem::WriteJournal j(m);
        store32(b, 0, 42);
        j.close();
        CHECK(b.journal == nullptr);
        uint32_t v = 0;
        std::memcpy(&v, b.data.get(), 4);
        CHECK(v == 42);
        mem::beforeStore(b, 4, 4);   // with no journal open nothing is saved (and nothing crashes)
    }
}

TEST_CASE("an all-zero chunk is saved without a copy and rolled back to zero", "[mem][journal]") {
    mem::GlobalMemory m;
    const uint64_t base = m.allocate(3 * kChunk + 40, "out");   // zero, as a fresh allocation is
    mem::Allocation& a = *m.find(base, 4);
    a.data[2 * kChunk + 5] = 1;                                  // chunk 2 is not all zero
    const auto a0 = bytesOf(a);
    mem::WriteJournal j(m);
    for (uint64_t c = 0; c < 3; ++c) store32(a, c * kChunk + 64, 0xabcdef01u);
    store32(a, 3 * kChunk + 36, 5);   // the partial last chunk, zero too
    CHECK(j.savedChunks() == 4);
    std::memset(a.data.get() + kChunk, 0x77, kChunk);   // a whole zero chunk overwritten
    CHECK_FALSE(holds(a, a0));
    j.rollBack();
    CHECK(holds(a, a0));
}

TEST_CASE("a warp's store saves the chunks its lanes touch, not the whole span", "[mem][journal]") {
    mem::GlobalMemory m;
    mem::Allocation& a = patterned(m, 64 * kChunk, "a");
    const auto a0 = bytesOf(a);
    mem::WriteJournal j(m);
    // Coalesced: 32 consecutive words across a chunk boundary.
    uint64_t addrs[32];
    for (int l = 0; l < 32; ++l) addrs[l] = a.base + 2 * kChunk - 64 + uint64_t(l) * 4;
    mem::beforeWarpStore(a, addrs, addrs[0], addrs[31], 4);
    CHECK(j.savedChunks() == 2);
    // Scattered: lanes 0 and 31 at the two ends of the allocation, the others in chunk 40.
    for (int l = 0; l < 32; ++l) addrs[l] = a.base + 40 * kChunk + uint64_t(l) * 8;
    addrs[0] = a.base;
    addrs[31] = a.base + 64 * kChunk - 8;
    // The span-only hook of the pre-decoded store declines it (the caller then takes the path
    // that has the lanes' addresses) and saves nothing.
    CHECK_FALSE(mem::beforeSpanStore(a, a.base, a.base + 64 * kChunk - 8, 8));
    CHECK(j.savedChunks() == 2);
    mem::beforeWarpStore(a, addrs, a.base, a.base + 64 * kChunk - 8, 8);
    CHECK(j.savedChunks() == 5);   // 1 and 2 before, now 0, 40 and 63 (not the 64 in between)
    CHECK(mem::beforeSpanStore(a, a.base + 10 * kChunk, a.base + 11 * kChunk, 8));   // a narrow span: saved
    CHECK(j.savedChunks() == 7);
    for (int l = 0; l < 32; ++l) std::memset(a.data.get() + (addrs[l] - a.base), 0, 8);
    std::memset(a.data.get() + 10 * kChunk, 0, kChunk + 8);
    j.rollBack();
    CHECK(holds(a, a0));
    CHECK(mem::beforeSpanStore(a, a.base, a.base + 64 * kChunk - 8, 8));   // no journal: always go ahead
}

TEST_CASE("writers on several threads save each chunk once and before any of them writes into it", "[mem][journal]") {
    // Each round: 4 threads released together store into the same 3 chunks, each to its own
    // words. A write that landed before the copy (or during it) would be in the pre-image, and
    // the roll-back would then leave it in memory.
    constexpr int kThreads = 4, kRounds = 200;
    mem::GlobalMemory m;
    mem::Allocation& a = patterned(m, 3 * kChunk, "a");
    const auto a0 = bytesOf(a);
    for (int round = 0; round < kRounds; ++round) {
        mem::WriteJournal j(m);
        std::barrier start(kThreads);
        {
            std::vector<std::jthread> pool;
            for (int t = 0; t < kThreads; ++t)
                pool.emplace_back([&, t] {
                    start.arrive_and_wait();
                    for (uint64_t k = 0; k < 3 * kChunk / 4 / kThreads; ++k)
                        store32(a, (k * kThreads + uint64_t(t)) * 4, 0xa5a5a5a5u ^ uint32_t(t));
                });
        }
        CHECK(j.savedChunks() == 3);
        uint32_t v = 0;
        std::memcpy(&v, a.data.get() + 4, 4);
        CHECK(v == (0xa5a5a5a5u ^ 1u));
        j.rollBack();
        REQUIRE(holds(a, a0));
    }
}

TEST_CASE("pre-image blocks reused from an earlier journal restore exactly what this one saved", "[mem][journal]") {
    // The blocks of one journal go back to a process-wide pool and hold its pre-images until the
    // next journal takes them: each roll-back must restore its own launch's bytes, including a
    // partial last chunk whose block is larger than the chunk.
    mem::GlobalMemory m;
    mem::Allocation& a = patterned(m, 2 * kChunk + 300, "a");
    for (int round = 0; round < 3; ++round) {
        for (uint64_t i = 0; i < a.size; ++i) a.data[i] = static_cast<uint8_t>(i * 13 + round * 101);
        const auto before = bytesOf(a);
        mem::WriteJournal j(m);
        for (uint64_t off = 0; off + 4 <= a.size; off += 1024) store32(a, off, 0xa5a5a5a5u ^ uint32_t(round));
        store32(a, a.size - 4, 0x5a5a5a5au);
        CHECK(j.savedChunks() == 3);
        j.rollBack();
        CHECK(holds(a, before));
    }
    {
        // A journal closed without a roll-back also hands its blocks back; memory stays written.
        mem::WriteJournal j(m);
        store32(a, 0, 42);
        j.close();
        uint32_t v = 0;
        std::memcpy(&v, a.data.get(), 4);
        CHECK(v == 42);
    }
}
