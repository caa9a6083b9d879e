// A set-associative, LRU, sectored cache: 128-byte lines of four 32-byte sectors, as L1 and L2
// are organised on NVIDIA GPUs. Used to estimate hit rates and the bytes that reach DRAM; it
// never changes functional results.
#pragma once
#include "base/hot_memory.hpp"

#include <cstdint>
#include <vector>

namespace warpscope::mem {

class SectorCache {
public:
    SectorCache(uint64_t bytes, uint32_t ways);
    // Looks up one sector (byte address of its start). Returns true on a hit. A miss fills the
    // sector (allocating the line, evicting the least recently used one). `write` marks it dirty;
    // the dirty sectors of an evicted line are counted in writebacks(). `dirtied`, when given, is
    // set when this write made a clean (or absent) sector dirty: a sector DRAM will be written once.
    // `evictedDirty`, when given, receives the dirty sectors of the line this miss evicted (the
    // DRAM writes the eviction causes); `evictedPartial` those of them never held whole (see
    // `partial`). `keepClean` writes the sector through: it is held valid and clean, `dirtied` says
    // it would have become dirty (the caller charges that write at once). `partial`: the write
    // covers only part of the sector; if the sector is absent it is held dirty but not valid (its
    // other bytes are not here) until a load brings it whole.
    bool access(uint64_t sectorAddr, bool write, bool* dirtied = nullptr, uint32_t* evictedDirty = nullptr,
                bool keepClean = false, bool partial = false, uint32_t* evictedPartial = nullptr);
    uint64_t hits() const { return hits_; }
    uint64_t misses() const { return misses_; }
    uint64_t writebacks() const { return writebacks_; }   // dirty sectors evicted
    uint64_t dirtySectors() const { return dirty_; }      // dirty sectors still held
    uint64_t capacity() const { return uint64_t(sets_) * ways_ * 128; }

private:
    struct Line {
        uint64_t tag = ~0ull;
        uint64_t lastUse = 0;
        uint8_t valid = 0, dirty = 0;   // one bit per sector
    };
    uint32_t sets_, ways_;
    base::HotVector<Line> lines_;   // (huge-page-backed: every global access reads it)
    uint64_t clock_ = 0, hits_ = 0, misses_ = 0, writebacks_ = 0, dirty_ = 0;
};

} // namespace warpscope::mem
