// The coalescer and the shared-memory bank model reproduce the per-instruction costs measured
// on an H100 (shared/HARDWARE-FACTS.md), one warp-instruction with all 32 lanes active.
#include "mem/access.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <numeric>

using namespace warpscope::mem;

namespace {
constexpr uint64_t kBase = 0x700000000ull;   // 512-byte aligned, like an allocation

uint32_t sectors(uint32_t bytes, const std::function<uint64_t(int)>& addr, uint32_t mask = 0xffffffffu) {
    uint64_t a[32];
    for (int l = 0; l < 32; ++l) a[l] = addr(l);
    GlobalAccess g;
    coalesce(a, mask, bytes, g);
    CHECK(g.requests == 1);
    return g.sectors;
}

SharedAccess shared(uint32_t bytes, bool load, const std::function<uint64_t(int)>& addr) {
    uint64_t a[32];
    for (int l = 0; l < 32; ++l) a[l] = addr(l);
    return sharedWavefronts(a, 0xffffffffu, bytes, load);
}
} // namespace

TEST_CASE("global: sectors per request for float, byte, double and float4 patterns", "[mem]") {
    CHECK(sectors(4, [](int l) { return kBase + 4 * l; }) == 4);         // stride 1
    CHECK(sectors(4, [](int l) { return kBase + 4 + 4 * l; }) == 5);     // +1 element misaligned
    CHECK(sectors(4, [](int l) { return kBase + 8 * l; }) == 8);         // stride 2
    CHECK(sectors(4, [](int l) { return kBase + 16 * l; }) == 16);       // stride 4
    CHECK(sectors(4, [](int l) { return kBase + 32 * l; }) == 32);       // stride 8
    CHECK(sectors(4, [](int l) { return kBase + 128 * l; }) == 32);      // stride 32
    CHECK(sectors(4, [](int) { return kBase; }) == 1);                   // one address
    CHECK(sectors(1, [](int l) { return kBase + l; }) == 1);             // u8 contiguous
    CHECK(sectors(8, [](int l) { return kBase + 8 * l; }) == 8);         // double contiguous
    CHECK(sectors(8, [](int l) { return kBase + 8 + 8 * l; }) == 9);     // double misaligned by 8
    CHECK(sectors(16, [](int l) { return kBase + 16 * l; }) == 16);      // float4 contiguous
    CHECK(sectors(16, [](int l) { return kBase + 16 + 16 * l; }) == 17); // float4 misaligned by 16
    CHECK(sectors(16, [](int l) { return kBase + 32 * l; }) == 32);      // float4 stride 2
    CHECK(sectors(4, [](int l) { return kBase + 4 * l; }, 0xffu) == 1);  // 8 lanes of a partial warp
}

TEST_CASE("global: tag-stage wavefronts follow distinct 128-byte lines", "[mem]") {
    uint64_t a[32];
    for (int l = 0; l < 32; ++l) a[l] = kBase + 128 * l;
    GlobalAccess g;
    coalesce(a, 0xffffffffu, 4, g);
    CHECK(g.lines == 32);
    CHECK(g.wavefronts == 8);
    for (int l = 0; l < 32; ++l) a[l] = kBase + 4 * l;
    coalesce(a, 0xffffffffu, 4, g);
    CHECK(g.lines == 1);
    CHECK(g.wavefronts == 1);
    CHECK(g.bytesRequested == 128);
    CHECK(g.bytesUsed == 128);
    for (int l = 0; l < 32; ++l) a[l] = kBase + 4 * (l / 16);   // two addresses, 16 lanes each
    coalesce(a, 0xffffffffu, 4, g);
    CHECK(g.bytesRequested == 128);
    CHECK(g.bytesUsed == 8);   // a broadcast moves its bytes once
}

TEST_CASE("shared 32-bit: wavefronts are the worst bank's distinct words", "[mem]") {
    auto w = [](int stride) { return shared(4, true, [&](int l) { return uint64_t(4 * l * stride); }).wavefronts; };
    CHECK(w(1) == 1);
    CHECK(w(2) == 2);
    CHECK(w(4) == 4);
    CHECK(w(16) == 16);
    CHECK(w(32) == 32);
    CHECK(w(3) == 1);
    CHECK(w(33) == 1);
    CHECK(shared(4, true, [](int) { return uint64_t(64); }).wavefronts == 1);       // broadcast
    CHECK(shared(4, true, [](int l) { return uint64_t(4 * (l / 2)); }).wavefronts == 1);   // lane/2
    SharedAccess s = shared(4, true, [](int l) { return uint64_t(4 * 32 * l); });
    CHECK(s.ideal == 1);
    CHECK(s.conflicts() == 31);   // the transpose tile read by column
}

TEST_CASE("shared 64-bit: two phases, pairing halves loads only", "[mem]") {
    auto w = [](int stride, bool load) { return shared(8, load, [&](int l) { return uint64_t(8 * l * stride); }).wavefronts; };
    CHECK(w(1, true) == 2);
    CHECK(w(2, true) == 4);
    CHECK(w(16, true) == 32);
    CHECK(shared(8, true, [](int) { return uint64_t(0); }).wavefronts == 1);    // broadcast load
    CHECK(shared(8, false, [](int) { return uint64_t(0); }).wavefronts == 2);   // broadcast store
    CHECK(shared(8, true, [](int l) { return uint64_t(8 * l); }).ideal == 2);
}

TEST_CASE("shared 128-bit: four phases, pairing halves loads only", "[mem]") {
    auto w = [](int stride, bool load) { return shared(16, load, [&](int l) { return uint64_t(16 * l * stride); }).wavefronts; };
    CHECK(w(1, true) == 4);
    CHECK(w(2, true) == 8);
    CHECK(w(8, true) == 32);
    CHECK(shared(16, true, [](int) { return uint64_t(0); }).wavefronts == 2);   // broadcast load
    CHECK(shared(16, false, [](int) { return uint64_t(0); }).wavefronts == 4);  // broadcast store
}

TEST_CASE("global sweeps: offsets 0..32 and strides 1..32 follow closed forms", "[mem]") {
    for (int off = 0; off <= 32; ++off) {
        INFO("float offset " << off);
        // 128 contiguous bytes starting at 4*off: 4 sectors when sector-aligned, else 5.
        CHECK(sectors(4, [&](int l) { return kBase + 4 * (off + l); }) == ((4 * off) % 32 == 0 ? 4u : 5u));
    }
    for (int s = 1; s <= 32; ++s) {
        INFO("float stride " << s);
        // Lane l at byte 4*s*l: every 32-byte sector holds 8/s lanes while s < 8, one lane after.
        CHECK(sectors(4, [&](int l) { return kBase + 4 * uint64_t(s) * l; }) == std::min(32u, 4u * uint32_t(s)));
    }
}

TEST_CASE("shared sweeps: stride s gives gcd(s, 32)-way conflicts for 32-bit words", "[mem]") {
    for (int s = 1; s <= 64; ++s) {
        INFO("word stride " << s);
        SharedAccess a = shared(4, true, [&](int l) { return uint64_t(4 * s * l); });
        uint32_t g = std::gcd(uint32_t(s), 32u);
        CHECK(a.wavefronts == g);
        CHECK(a.conflicts() == g - 1);
    }
    // n-way conflicts for n = 2..32: n lanes share each bank with different words.
    for (uint32_t n = 2; n <= 32; n *= 2) {
        INFO(n << "-way");
        SharedAccess a = shared(4, true, [&](int l) { return uint64_t(4) * ((l % (32 / n)) + 32 * (l / (32 / n))); });
        CHECK(a.wavefronts == n);
    }
    // Broadcast of one word to every lane, and of a few words to groups of lanes, is free.
    CHECK(shared(4, true, [](int l) { return uint64_t(4 * (l % 4)); }).wavefronts == 1);
    CHECK(shared(4, false, [](int) { return uint64_t(12); }).wavefronts == 1);
}

// The hot-path forms (no sorting in the common patterns) against the general forms (sort every
// sector or word): every field must agree, on patterns built to hit each branch of the fast
// forms (in order, reversed, broadcast, interleaved, strided with conflicts, misaligned, partial
// masks, many rows) and on random ones.
TEST_CASE("coalesce and sharedWavefronts agree with their general forms", "[mem]") {
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    auto next = [&] {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        return rng;
    };
    const uint32_t widths[] = {1, 2, 4, 8, 12, 16, 32};
    using Pattern = std::function<uint64_t(int, uint64_t)>;   // lane, random word -> address offset
    const std::vector<std::pair<const char*, Pattern>> patterns = {
        {"unit stride", [](int l, uint64_t) { return uint64_t(4 * l); }},
        {"reversed", [](int l, uint64_t) { return uint64_t(4 * (31 - l)); }},
        {"broadcast", [](int, uint64_t) { return uint64_t(64); }},
        {"two halves repeat", [](int l, uint64_t) { return uint64_t(4 * (l % 16)); }},
        {"half-warp broadcast", [](int l, uint64_t) { return uint64_t(4 * 16 * (l / 16)); }},
        {"stride 33 words", [](int l, uint64_t) { return uint64_t(4 * 33 * l); }},
        {"column of a 32-wide tile", [](int l, uint64_t) { return uint64_t(4 * 32 * l); }},
        {"column, reversed", [](int l, uint64_t) { return uint64_t(4 * 32 * (31 - l)); }},
        {"misaligned odd bytes", [](int l, uint64_t) { return uint64_t(3 + 5 * l); }},
        {"pairs share", [](int l, uint64_t) { return uint64_t(16 * (l / 2)); }},
        {"one row, wide", [](int l, uint64_t) { return uint64_t(16 * (l % 8)); }},
        {"the last words of a row", [](int l, uint64_t) { return uint64_t(112 + 8 * (l % 2)); }},
        {"random in 4 KiB", [](int, uint64_t r) { return r % 4096; }},
        {"random rows", [](int l, uint64_t r) { return (r % 64) * 128 + 4 * uint64_t(l); }},
        {"random in 256 B", [](int, uint64_t r) { return r % 256; }},
        {"random anywhere", [](int, uint64_t r) { return r >> 4; }},
    };
    int compared = 0;
    for (const auto& [name, pattern] : patterns)
        for (uint32_t bytes : widths)
            for (int round = 0; round < 40; ++round) {
                uint64_t a[32];
                const uint64_t base = round % 3 == 2 ? (next() >> 20) : kBase + 8 * uint64_t(round % 5);
                for (int l = 0; l < 32; ++l) a[l] = base + pattern(l, next());
                uint32_t mask = round == 0 ? 0xffffffffu : round == 1 ? 0u : round % 4 == 0 ? 0x0000ffffu : static_cast<uint32_t>(next());
                INFO(name << ", " << bytes << " bytes a lane, mask " << mask << ", round " << round);
                GlobalAccess fast, general;
                coalesce(a, mask, bytes, fast);
                coalesceGeneral(a, mask, bytes, general);
                REQUIRE(fast.requests == general.requests);
                REQUIRE(fast.sectors == general.sectors);
                REQUIRE(fast.lines == general.lines);
                REQUIRE(fast.wavefronts == general.wavefronts);
                REQUIRE(fast.bytesRequested == general.bytesRequested);
                REQUIRE(fast.bytesUsed == general.bytesUsed);
                REQUIRE(std::equal(fast.sectorAddr, fast.sectorAddr + fast.sectors, general.sectorAddr));
                for (bool load : {true, false}) {
                    SharedAccess s = sharedWavefronts(a, mask, bytes, load), g = sharedWavefrontsGeneral(a, mask, bytes, load);
                    REQUIRE(s.wavefronts == g.wavefronts);
                    REQUIRE(s.ideal == g.ideal);
                    REQUIRE(s.phases == g.phases);
                    REQUIRE(s.worstBank == g.worstBank);
                    REQUIRE(sharedWavefrontCount(a, mask, bytes, load) == g.wavefronts);
                }
                ++compared;
            }
    CHECK(compared == int(patterns.size() * std::size(widths) * 40));
}
