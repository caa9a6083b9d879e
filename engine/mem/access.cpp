#include "mem/access.hpp"

#include <algorithm>
#include <bit>

namespace warpscope::mem {

void coalesce(const uint64_t* addresses, uint32_t mask, uint32_t bytesPerLane, GlobalAccess& out) {
    out = GlobalAccess{};
    if (mask == 0) return;
    out.requests = 1;
    uint32_t n = 0;
    uint32_t m = mask;
    while (m) {
        int l = std::countr_zero(m);
        m &= m - 1;
        out.bytesRequested += bytesPerLane;
        const uint64_t first = addresses[l] >> 5, last = (addresses[l] + bytesPerLane - 1) >> 5;
        for (uint64_t s = first; s <= last && n < 128; ++s) out.sectorAddr[n++] = s;
    }
    std::sort(out.sectorAddr, out.sectorAddr + n);
    n = static_cast<uint32_t>(std::unique(out.sectorAddr, out.sectorAddr + n) - out.sectorAddr);
    out.sectors = n;
    // Useful bytes: one bit per byte of each distinct sector.
    uint32_t used[128] = {};
    m = mask;
    while (m) {
        int l = std::countr_zero(m);
        m &= m - 1;
        for (uint64_t b = addresses[l]; b < addresses[l] + bytesPerLane; ++b) {
            const uint64_t* it = std::lower_bound(out.sectorAddr, out.sectorAddr + n, b >> 5);
            if (it != out.sectorAddr + n && *it == (b >> 5)) used[it - out.sectorAddr] |= 1u << (b & 31);
        }
    }
    for (uint32_t i = 0; i < n; ++i) out.bytesUsed += static_cast<uint32_t>(std::popcount(used[i]));
    uint32_t lines = 0;
    uint64_t prevLine = ~0ull;
    for (uint32_t i = 0; i < n; ++i) {
        uint64_t line = out.sectorAddr[i] >> 2;
        if (line != prevLine) ++lines;
        prevLine = line;
        out.sectorAddr[i] <<= 5;   // back to byte addresses
    }
    out.lines = lines;
    out.wavefronts = std::max(1u, (lines + 3) / 4);
}

namespace {
// Distinct words per bank for the lanes in `lanes`; returns the worst bank's count.
uint32_t phaseCost(const uint64_t* addresses, uint32_t lanes, uint32_t words, uint32_t* worstBank) {
    // Each lane touches `words` consecutive 32-bit words. At most 32 lanes x 4 words.
    uint64_t seen[128];
    uint32_t n = 0;
    while (lanes) {
        int l = std::countr_zero(lanes);
        lanes &= lanes - 1;
        uint64_t w0 = addresses[l] >> 2;
        for (uint32_t k = 0; k < words; ++k) seen[n++] = w0 + k;
    }
    std::sort(seen, seen + n);
    n = static_cast<uint32_t>(std::unique(seen, seen + n) - seen);
    uint32_t perBank[32] = {};
    uint32_t worst = 0;
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t b = static_cast<uint32_t>(seen[i] & 31);
        if (++perBank[b] > worst) {
            worst = perBank[b];
            if (worstBank) *worstBank = b;
        }
    }
    return worst;
}

// True when every active lane n has the same address as lane n^step (when that lane is active).
bool pairsShare(const uint64_t* addresses, uint32_t mask, int step) {
    for (int l = 0; l < 32; ++l) {
        if (!((mask >> l) & 1)) continue;
        int p = l ^ step;
        if (((mask >> p) & 1) && addresses[p] != addresses[l]) return false;
    }
    return true;
}
} // namespace

SharedAccess sharedWavefronts(const uint64_t* addresses, uint32_t mask, uint32_t bytesPerLane, bool isLoad) {
    SharedAccess r;
    if (mask == 0) return r;
    uint32_t words = std::max(1u, bytesPerLane / 4);
    uint32_t phases = words;   // 1, 2 or 4 phases for 32-, 64-, 128-bit accesses
    if (phases > 1 && isLoad && (pairsShare(addresses, mask, 1) || pairsShare(addresses, mask, 2))) phases /= 2;
    const uint32_t lanesPerPhase = 32 / phases;
    r.phases = phases;
    for (uint32_t p = 0; p < phases; ++p) {
        uint32_t lanes = mask & (lanesPerPhase == 32 ? 0xffffffffu : (((1u << lanesPerPhase) - 1) << (p * lanesPerPhase)));
        if (!lanes) continue;
        r.wavefronts += phaseCost(addresses, lanes, words, &r.worstBank);
        ++r.ideal;
    }
    return r;
}

} // namespace warpscope::mem
