// The huge-page-backed pool for the simulator's hot state (base/hot_memory.hpp): alignment, blocks
// that do not overlap and keep their bytes, reuse, blocks over 1 MiB, and blocks freed on
// another thread than the one that allocated them.
#include "base/hot_memory.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <set>
#include <thread>
#include <vector>

using namespace warpscope;

namespace {
struct Block {
    uint8_t* p;
    size_t bytes;
    uint8_t fill;
};

bool holds(const Block& b) {
    return std::all_of(b.p, b.p + b.bytes, [&](uint8_t v) { return v == b.fill; });
}
} // namespace

TEST_CASE("hot memory: aligned blocks that keep their bytes, reused once freed", "[base]") {
    const size_t sizes[] = {0, 1, 8, 63, 64, 65, 200, 1024, 1025, 3712, 4096, 70000, 1u << 20, (1u << 20) + 1, 5u << 20};
    std::vector<Block> blocks;
    uint8_t fill = 1;
    for (int round = 0; round < 3; ++round)
        for (size_t n : sizes) {
            auto* p = static_cast<uint8_t*>(base::hotAllocate(n));
            REQUIRE(p != nullptr);
            CHECK(reinterpret_cast<uintptr_t>(p) % 64 == 0);
            std::memset(p, fill, n);
            blocks.push_back({p, n, fill});
            fill = uint8_t(fill % 250 + 1);
        }
    // Nothing overlaps: every block still holds what was written into it.
    for (auto& b : blocks) CHECK(holds(b));
    // A freed block of a pooled size comes back for the next request of that size.
    base::hotFree(blocks[9].p, blocks[9].bytes);   // 3712 bytes
    auto* again = static_cast<uint8_t*>(base::hotAllocate(3712));
    CHECK(again == blocks[9].p);
    blocks[9].p = again;
    std::memset(again, blocks[9].fill, blocks[9].bytes);
    const auto before = base::hotMemoryStats();
    CHECK(before.chunkBytes > 0);
    CHECK(before.largeBytes >= (5u << 20) * 3);   // the blocks over 1 MiB are mapped one by one
    for (auto& b : blocks) {
        CHECK(holds(b));
        base::hotFree(b.p, b.bytes);
    }
    CHECK(base::hotMemoryStats().largeBytes + (6u << 20) * 3 <= before.largeBytes);   // ... and unmapped when freed
}

TEST_CASE("hot memory: blocks freed on other threads, vectors of it", "[base]") {
    // Threads allocate and free each other's blocks; each block keeps its own bytes meanwhile.
    std::vector<std::vector<Block>> made(4);
    {
        std::vector<std::thread> ts;
        for (int t = 0; t < 4; ++t)
            ts.emplace_back([&, t] {
                for (int i = 0; i < 500; ++i) {
                    const size_t n = size_t(64 + (i * 37 + t * 11) % 5000);
                    auto* p = static_cast<uint8_t*>(base::hotAllocate(n));
                    std::memset(p, uint8_t(t + 1), n);
                    made[size_t(t)].push_back({p, n, uint8_t(t + 1)});
                }
            });
        for (auto& th : ts) th.join();
    }
    std::set<uint8_t*> distinct;
    for (auto& v : made)
        for (auto& b : v) {
            CHECK(holds(b));
            distinct.insert(b.p);
        }
    CHECK(distinct.size() == 2000);
    {
        std::vector<std::thread> ts;
        for (int t = 0; t < 4; ++t)
            ts.emplace_back([&, t] {
                for (auto& b : made[size_t((t + 1) % 4)]) base::hotFree(b.p, b.bytes);   // another thread's blocks
            });
        for (auto& th : ts) th.join();
    }
    base::HotVector<uint32_t> v(1000, 7u);
    v.resize(5000, 9u);
    CHECK(v[999] == 7u);
    CHECK(v[4999] == 9u);
    CHECK(reinterpret_cast<uintptr_t>(v.data()) % 64 == 0);
}
