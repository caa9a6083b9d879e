// Passes and sector-ops of a warp's global atomic, against Nsight Compute on the H100
// (tests/validation/timing/probes/h100-atomics-sectors.txt: one line, k lanes per address).
#include "mem/atomics.hpp"

#include <catch2/catch.hpp>

using namespace warpscope;

namespace {
// Lane l uses word l / k of the line at `base` (the atomics probe's sameline pattern).
mem::AtomicWork oneLine(uint32_t k, uint64_t base = 0x10000, uint32_t regionBytes = 256) {
    uint64_t a[32];
    for (uint32_t l = 0; l < 32; ++l) a[l] = base + 4 * (l / k);
    return mem::atomicWork(a, ~0u, regionBytes);
}
} // namespace

TEST_CASE("atomic sector-ops: one pass per repeated address, each pass its sectors", "[mem]") {
    // ncu: 4, 4, 4, 8, 16, 32 sectors per request for k = 1, 2, 4, 8, 16, 32.
    const uint32_t k[] = {1, 2, 4, 8, 16, 32};
    const uint32_t sectors[] = {4, 4, 4, 8, 16, 32};
    const uint32_t passes[] = {1, 2, 4, 8, 16, 32};
    for (int i = 0; i < 6; ++i) {
        auto w = oneLine(k[i]);
        CHECK(w.sectorOps == sectors[i]);
        CHECK(w.passes == passes[i]);
        REQUIRE(w.regions == 1);
        CHECK(w.regionOps[0] == sectors[i]);
    }
}

TEST_CASE("atomic sector-ops: uneven repeats, regions, inactive lanes", "[mem]") {
    uint64_t a[32];
    for (uint32_t l = 0; l < 32; ++l) a[l] = 0x20000 + 4 * l;   // 32 words, 4 sectors of one line
    a[1] = a[0];                                                  // word 0 twice
    a[2] = a[0];                                                  // and a third time
    a[31] = 0x20000 + 128 + 4;                                    // a word of the next line
    auto w = mem::atomicWork(a, ~0u, 256);
    CHECK(w.passes == 3);
    // Pass 1: sectors 0-3 of the line and sector 0 of the next (5); passes 2 and 3: sector 0.
    CHECK(w.sectorOps == 7);
    REQUIRE(w.regions == 1);   // both lines lie in one 256-byte region
    CHECK(w.regionOps[0] == 7);
    auto lines = mem::atomicWork(a, ~0u, 128);
    REQUIRE(lines.regions == 2);
    CHECK(lines.regionOps[0] + lines.regionOps[1] == 7);
    CHECK((lines.regionOps[0] == 6 || lines.regionOps[1] == 6));
    // Only lanes 0 and 31: two addresses once each.
    auto two = mem::atomicWork(a, 1u | (1u << 31), 256);
    CHECK(two.passes == 1);
    CHECK(two.sectorOps == 2);
    CHECK(mem::atomicWork(a, 0, 256).sectorOps == 0);
}
