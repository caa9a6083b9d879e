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
    const AccessProp prop = window_.bytes ? propertyOf(sectorAddr) : AccessProp::Normal;
    Line* victim = base;
    for (uint32_t w = 0; w < ways_; ++w) {
        Line& l = base[w];
        if (l.tag == lineAddr) {
            l.lastUse = prop == AccessProp::Streaming && !l.persist ? 0 : clock_;
            if (prop == AccessProp::Persisting && !l.persist && persistCount_ < persistLimit_) {
                l.persist = 1;
                ++persistCount_;
            }
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
    bool persist = false;
    if (persistLimit_ > 0 || persistCount_ > 0) victim = victimFor(base, prop, &persist);
    if (victim->persist && !persist) --persistCount_;
    if (!victim->persist && persist) ++persistCount_;
    victim->persist = persist ? 1 : 0;
    const uint32_t evicted = static_cast<uint32_t>(std::popcount(victim->dirty));
    writebacks_ += evicted;
    dirty_ -= evicted;
    if (evictedDirty) *evictedDirty = evicted;
    if (evictedPartial) *evictedPartial = static_cast<uint32_t>(std::popcount(uint8_t(victim->dirty & ~victim->valid)));
    victim->tag = lineAddr;
    victim->lastUse = prop == AccessProp::Streaming ? 0 : clock_;
    victim->valid = holdPartial ? 0 : bit;
    victim->dirty = write && !keepClean ? bit : 0;
    dirty_ += victim->dirty ? 1 : 0;
    if (write && dirtied) *dirtied = true;
    ++misses_;
    return false;
}

// The line a miss replaces when some lines persist, and whether the new line persists.
SectorCache::Line* SectorCache::victimFor(Line* base, AccessProp prop, bool* persist) {
    Line *lru = nullptr, *lruPersisting = nullptr;
    for (uint32_t w = 0; w < ways_; ++w) {
        Line& l = base[w];
        if (l.persist) {
            if (!lruPersisting || l.lastUse < lruPersisting->lastUse) lruPersisting = &l;
        } else if (!lru || l.lastUse < lru->lastUse) {
            lru = &l;
        }
    }
    if (prop == AccessProp::Persisting) {
        if (persistCount_ < persistLimit_ && lru) {
            *persist = true;
            return lru;
        }
        if (lruPersisting) {   // the set-aside is full: the window thrashes in its own part
            *persist = true;
            return lruPersisting;
        }
    }
    *persist = false;
    return lru ? lru : lruPersisting;   // every way persisting: the oldest goes (and is normal now)
}

void SectorCache::setAccessPolicy(const AccessWindow& window, uint64_t persistingBytes) {
    window_ = window;
    persistLimit_ = std::min<uint64_t>(persistingBytes / 128, uint64_t(sets_) * ways_);
}

void SectorCache::resetPersisting() {
    for (auto& l : lines_) l.persist = 0;
    persistCount_ = 0;
}

AccessProp SectorCache::propertyOf(uint64_t sectorAddr) const {
    if (sectorAddr < window_.base || sectorAddr - window_.base >= window_.bytes) return AccessProp::Normal;
    if (window_.hitRatio >= 1) return window_.hitProp;
    if (window_.hitRatio <= 0) return window_.missProp;
    // hitRatio of the window's lines, the same ones every time: a hash of the line address.
    uint64_t x = (sectorAddr >> 7) * 0x9e3779b97f4a7c15ull;
    x ^= x >> 29;
    const double u = double(x >> 11) * (1.0 / 9007199254740992.0);
    return u < window_.hitRatio ? window_.hitProp : window_.missProp;
}

} // namespace warpscope::mem
