// Sections: 1. global coalescing  2. shared-memory banks
// Each cost has a general form (sorts the touched sectors or words: exact for any input) and the
// form used on the hot path, which gives the same result without sorting in the common patterns
// (unit stride, broadcast, lanes in address order) and calls the general form otherwise. The
// timed mode costs every memory instruction with them; tests/engine/mem compares the two forms.
#include "mem/access.hpp"

#include <algorithm>
#include <bit>

namespace warpscope::mem {

// ---------------------------------------------------------------- 1. global coalescing
void coalesceGeneral(const uint64_t* addresses, uint32_t mask, uint32_t bytesPerLane, GlobalAccess& out) {
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

void coalesce(const uint64_t* addresses, uint32_t mask, uint32_t bytesPerLane, GlobalAccess& out) {
    // The result depends only on the set of byte ranges [a, a + bytesPerLane) the lanes touch, so
    // the lanes' addresses in ascending order give it in one pass: the sectors come out sorted
    // (each lane's first and last sector never go down), the bytes used are the union of ranges.
    // Lanes are usually in address order already; else 32 addresses are sorted, not 128 sectors.
    // Ranges that could wrap around 2^64, and lanes wider than a sector, take the general form.
    if (mask == 0 || bytesPerLane == 0 || bytesPerLane > 32) return coalesceGeneral(addresses, mask, bytesPerLane, out);
    uint64_t a[32];
    uint32_t n = 0;
    bool sorted = true, contiguous = true;   // contiguous: each active lane starts where the previous one ends
    uint64_t prev = addresses[std::countr_zero(mask)], high = 0;
    auto gather = [&](uint64_t x) {
        sorted &= x >= prev;
        contiguous &= x == prev + (n ? bytesPerLane : 0);
        high |= x;
        prev = x;
        a[n++] = x;
    };
    if (mask == 0xffffffffu) {
        for (int l = 0; l < 32; ++l) gather(addresses[l]);   // a whole warp: no lane search
    } else {
        for (uint32_t m = mask; m; m &= m - 1) gather(addresses[std::countr_zero(m)]);
    }
    if (high >> 63) return coalesceGeneral(addresses, mask, bytesPerLane, out);
    out.requests = 1;
    out.bytesRequested = n * bytesPerLane;
    uint64_t width = bytesPerLane;   // of each range in a[0..n)
    if (contiguous) {
        // Unit stride: one range of n * bytesPerLane bytes.
        width *= n;
        n = 1;
    } else if (!sorted) {
        std::sort(a, a + n);
    }
    uint32_t ns = 0, lines = 0, used = 0;
    uint64_t nextSector = 0, lastLine = ~0ull, covered = 0;   // first sector not yet listed; end of the bytes counted
    for (uint32_t i = 0; i < n; ++i) {
        const uint64_t lo = a[i], hi = a[i] + width;
        for (uint64_t s = std::max(lo >> 5, nextSector); s <= (hi - 1) >> 5; ++s) {
            out.sectorAddr[ns++] = s << 5;
            if ((s >> 2) != lastLine) {
                ++lines;
                lastLine = s >> 2;
            }
            nextSector = s + 1;
        }
        const uint64_t from = std::max(lo, covered);
        if (hi > from) used += static_cast<uint32_t>(hi - from);
        covered = std::max(covered, hi);
    }
    out.sectors = ns;
    out.bytesUsed = used;
    out.lines = lines;
    out.wavefronts = std::max(1u, (lines + 3) / 4);
}

// ---------------------------------------------------------------- 2. shared-memory banks
namespace {
using PhaseCostFn = uint32_t (*)(const uint64_t*, uint32_t, uint32_t, uint32_t*);

// Distinct words per bank for the lanes in `lanes`; returns the worst bank's count and sets
// *worstBank to the bank that first reaches that count in ascending word order.
uint32_t phaseCostGeneral(const uint64_t* addresses, uint32_t lanes, uint32_t words, uint32_t* worstBank) {
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

// OR of a[k] ^ a0 and of a[k] over N lanes, in local accumulators and a fixed trip count so the
// compiler vectorises it (a whole warp, or half of one: a 64-bit access's phase).
template <uint32_t N>
inline void orLanes(const uint64_t* a, uint64_t a0, uint64_t& differOut, uint64_t& anyOut) {
    uint64_t differ = 0, any = 0;
    for (uint32_t k = 0; k < N; ++k) {
        differ |= a[k] ^ a0;
        any |= a[k];
    }
    differOut = differ;
    anyOut = any;
}

// The same without sorting words: a word is (row = word / 32, bank = word % 32), so the distinct
// words are, per distinct row, a 32-bit mask of banks. Walking the rows in ascending order and
// each mask's banks in ascending order visits the words in the order the general form does.
// Few rows is the common case (1 without conflicts); beyond 16 rows the general form is used.
uint32_t phaseCostFast(const uint64_t* addresses, uint32_t lanes, uint32_t words, uint32_t* worstBank) {
    if (lanes == 0) return 0;
    const uint32_t wordBits = words >= 32 ? 0xffffffffu : (1u << words) - 1;
    if (!worstBank) {
        // Without the worst bank (the cycle model's question) the one-row case needs no minimum
        // or maximum: the lanes share the first lane's row when no address differs from it above
        // bit 6, and a lane's words stay in the row when every address is aligned to the access
        // (1 word always does). Plain OR loops over a run of lanes, which the compiler vectorises.
        const int first = std::countr_zero(lanes);
        const uint64_t a0 = addresses[first];
        uint64_t differ = 0, any = 0;
        if (lanes == 0xffffffffu) {
            orLanes<32>(addresses, a0, differ, any);
        } else if (lanes == 0x0000ffffu || lanes == 0xffff0000u) {
            orLanes<16>(addresses + first, a0, differ, any);
        } else {
            for (uint32_t m = lanes; m; m &= m - 1) {
                differ |= addresses[std::countr_zero(m)] ^ a0;
                any |= addresses[std::countr_zero(m)];
            }
        }
        const bool wordsFit = words == 1 || (std::has_single_bit(words) && (any & (4 * uint64_t(words) - 1)) == 0);
        if ((differ >> 7) == 0 && wordsFit) return 1;
    }
    {
        // The most common case first: every lane's words in one 128-byte row (no conflict, or a
        // broadcast), so no bank delivers more than one word. That holds when the lowest and the
        // highest address share a row and the highest lane's words do not run past the row's
        // end; the worst bank is then the lowest one used, the lowest address's bank.
        uint64_t lo = UINT64_MAX, hi = 0;
        const int first = std::countr_zero(lanes), last = 31 - std::countl_zero(lanes);
        if ((lanes >> first) == (2ull << (last - first)) - 1) {
            for (int l = first; l <= last; ++l) {   // a run of lanes (a whole warp or phase)
                lo = std::min(lo, addresses[l]);
                hi = std::max(hi, addresses[l]);
            }
        } else {
            for (uint32_t m = lanes; m; m &= m - 1) {
                lo = std::min(lo, addresses[std::countr_zero(m)]);
                hi = std::max(hi, addresses[std::countr_zero(m)]);
            }
        }
        if ((lo >> 7) == (hi >> 7) && ((hi >> 2) & 31) + words <= 32) {
            if (worstBank) *worstBank = static_cast<uint32_t>((lo >> 2) & 31);
            return 1;
        }
    }
    constexpr uint32_t kMaxRows = 16;
    uint64_t rows[kMaxRows];
    uint32_t banks[kMaxRows];
    uint32_t nr = 0, hit = 0;
    // Adds the banks `bits` (shifted to word w's bank) to w's row; false when there are too many rows.
    auto add = [&](uint64_t w, uint32_t bits) {
        const uint64_t row = w >> 5;
        if (nr == 0 || rows[hit] != row) {
            hit = 0;
            while (hit < nr && rows[hit] != row) ++hit;
            if (hit == nr) {
                if (nr == kMaxRows) return false;
                rows[nr] = row;
                banks[nr++] = 0;
            }
        }
        banks[hit] |= bits << (w & 31);
        return true;
    };
    if (words == 1) {
        for (uint32_t m = lanes; m; m &= m - 1)
            if (!add(addresses[std::countr_zero(m)] >> 2, 1u)) return phaseCostGeneral(addresses, lanes, words, worstBank);
    } else {
        for (uint32_t m = lanes; m; m &= m - 1) {
            const uint64_t w0 = addresses[std::countr_zero(m)] >> 2;
            bool fits = true;
            if ((w0 & 31) + words <= 32) {
                fits = add(w0, wordBits);   // the lane's words in one row: one lookup
            } else {
                for (uint32_t k = 0; k < words && fits; ++k) fits = add(w0 + k, 1u);
            }
            if (!fits) return phaseCostGeneral(addresses, lanes, words, worstBank);
        }
    }
    if (nr == 0) return 0;
    if (nr == 1) {
        if (worstBank) *worstBank = static_cast<uint32_t>(std::countr_zero(banks[0]));
        return 1;
    }
    // Rows in ascending order (insertion sort: a handful of entries).
    for (uint32_t i = 1; i < nr; ++i)
        for (uint32_t j = i; j > 0 && rows[j - 1] > rows[j]; --j) {
            std::swap(rows[j - 1], rows[j]);
            std::swap(banks[j - 1], banks[j]);
        }
    uint8_t perBank[32] = {};
    uint32_t worst = 0;
    for (uint32_t i = 0; i < nr; ++i)
        for (uint32_t m = banks[i]; m; m &= m - 1) {
            const uint32_t b = static_cast<uint32_t>(std::countr_zero(m));
            if (++perBank[b] > worst) {
                worst = perBank[b];
                if (worstBank) *worstBank = b;
            }
        }
    return worst;
}

// pairsShare for a whole warp: one OR of the pairs' differences, no branches, fixed trip counts
// (lanes l and l + Step for each l with the Step bit clear: groups of Step lanes every 2 * Step).
template <int Step>
bool pairsShareAll(const uint64_t* a) {
    uint64_t differ = 0;
    for (int g = 0; g < 32; g += 2 * Step)
        for (int k = 0; k < Step; ++k) differ |= a[g + k] ^ a[g + k + Step];
    return differ == 0;
}

// True when every active lane n has the same address as lane n^step (when that lane is active).
// Each pair is compared once, from its lane with the `step` bit clear.
bool pairsShare(const uint64_t* addresses, uint32_t mask, int step) {
    if (mask == 0xffffffffu) return step == 1 ? pairsShareAll<1>(addresses) : pairsShareAll<2>(addresses);
    for (int l = 0; l < 32; ++l) {
        if (l & step) continue;
        const int p = l ^ step;
        if (((mask >> l) & 1) && ((mask >> p) & 1) && addresses[p] != addresses[l]) return false;
    }
    return true;
}

SharedAccess sharedWavefrontsWith(PhaseCostFn phaseCost, const uint64_t* addresses, uint32_t mask, uint32_t bytesPerLane, bool isLoad,
                                  bool wantWorstBank = true) {
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
        r.wavefronts += phaseCost(addresses, lanes, words, wantWorstBank ? &r.worstBank : nullptr);
        ++r.ideal;
    }
    return r;
}
} // namespace

SharedAccess sharedWavefrontsGeneral(const uint64_t* addresses, uint32_t mask, uint32_t bytesPerLane, bool isLoad) {
    return sharedWavefrontsWith(phaseCostGeneral, addresses, mask, bytesPerLane, isLoad);
}

SharedAccess sharedWavefronts(const uint64_t* addresses, uint32_t mask, uint32_t bytesPerLane, bool isLoad) {
    return sharedWavefrontsWith(phaseCostFast, addresses, mask, bytesPerLane, isLoad);
}

uint32_t sharedWavefrontCount(const uint64_t* addresses, uint32_t mask, uint32_t bytesPerLane, bool isLoad) {
    return sharedWavefrontsWith(phaseCostFast, addresses, mask, bytesPerLane, isLoad, false).wavefronts;
}

} // namespace warpscope::mem
