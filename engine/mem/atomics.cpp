#include "mem/atomics.hpp"

#include <algorithm>
#include <bit>

namespace warpscope::mem {

AtomicWork atomicWork(const uint64_t* addresses, uint32_t mask, uint32_t regionBytes) {
    AtomicWork w;
    if (mask == 0) return w;
    // Distinct addresses with the number of lanes on each.
    uint64_t addr[32];
    uint32_t count[32];
    uint32_t n = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        const uint64_t a = addresses[std::countr_zero(m)];
        uint32_t i = 0;
        while (i < n && addr[i] != a) ++i;
        if (i == n) {
            addr[n] = a;
            count[n++] = 0;
        }
        ++count[i];
    }
    for (uint32_t i = 0; i < n; ++i) w.passes = std::max(w.passes, count[i]);
    // Pass j: the distinct sectors of the addresses with at least j lanes.
    const uint32_t regionShift = static_cast<uint32_t>(std::countr_zero(std::max(regionBytes, 32u)));
    for (uint32_t j = 1; j <= w.passes; ++j) {
        uint64_t sectors[32];
        uint32_t ns = 0;
        for (uint32_t i = 0; i < n; ++i) {
            if (count[i] < j) continue;
            const uint64_t s = addr[i] >> 5;
            if (std::find(sectors, sectors + ns, s) == sectors + ns) sectors[ns++] = s;
        }
        w.sectorOps += ns;
        for (uint32_t k = 0; k < ns; ++k) {
            const uint64_t r = (sectors[k] << 5) >> regionShift;
            uint32_t i = 0;
            while (i < w.regions && w.region[i] != r) ++i;
            if (i == w.regions) {
                w.region[w.regions] = r;
                w.regionOps[w.regions++] = 0;
            }
            ++w.regionOps[i];
        }
    }
    return w;
}

} // namespace warpscope::mem
