#include "mem/cache.hpp"

#include <algorithm>
#include <bit>

namespace warpscope::mem {

SectorCache::SectorCache(uint64_t bytes, uint32_t ways) : ways_(std::max(1u, ways)) {
    uint64_t lines = std::max<uint64_t>(1, bytes / 128);
    sets_ = static_cast<uint32_t>(std::max<uint64_t>(1, lines / ways_));
    lines_.resize(size_t(sets_) * ways_);
}

bool SectorCache::access(uint64_t sectorAddr, bool write, bool* dirtied, uint32_t* evictedDirty, bool keepClean, bool partial,
                         uint32_t* evictedPartial) {
    if (dirtied) *dirtied = false;
    if (evictedDirty) *evictedDirty = 0;
    if (evictedPartial) *evictedPartial = 0;
    // A partial write to an absent sector leaves it dirty but not valid (written through, it is
    // completed and held whole).
    const bool holdPartial = write && partial && !keepClean;
    const uint64_t lineAddr = sectorAddr >> 7;
    const uint8_t bit = static_cast<uint8_t>(1u << ((sectorAddr >> 5) & 3));
    // Hash the line address a little so power-of-two strides do not all land in one set.
    const uint64_t set = (lineAddr ^ (lineAddr >> 11)) % sets_;
    Line* base = &lines_[size_t(set) * ways_];
    ++clock_;
    Line* victim = base;
    for (uint32_t w = 0; w < ways_; ++w) {
        Line& l = base[w];
        if (l.tag == lineAddr) {
            l.lastUse = clock_;
            if (write && !(l.dirty & bit)) {
                if (dirtied) *dirtied = true;
                if (!keepClean) {
                    l.dirty |= bit;
                    ++dirty_;
                }
            }
            if (l.valid & bit) {
                ++hits_;
                return true;
            }
            if (!holdPartial) l.valid |= bit;
            ++misses_;
            return false;
        }
        if (l.lastUse < victim->lastUse) victim = &l;
    }
    const uint32_t evicted = static_cast<uint32_t>(std::popcount(victim->dirty));
    writebacks_ += evicted;
    dirty_ -= evicted;
    if (evictedDirty) *evictedDirty = evicted;
    if (evictedPartial) *evictedPartial = static_cast<uint32_t>(std::popcount(uint8_t(victim->dirty & ~victim->valid)));
    victim->tag = lineAddr;
    victim->lastUse = clock_;
    victim->valid = holdPartial ? 0 : bit;
    victim->dirty = write && !keepClean ? bit : 0;
    dirty_ += victim->dirty ? 1 : 0;
    if (write && dirtied) *dirtied = true;
    ++misses_;
    return false;
}

} // namespace warpscope::mem
