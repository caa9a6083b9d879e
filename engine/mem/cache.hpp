// A set-associative, LRU, sectored cache: 128-byte lines of four 32-byte sectors, as L1 and L2
// are organised on NVIDIA GPUs. Used to estimate hit rates and the bytes that reach DRAM; it
// never changes functional results.
#pragma once
#include "base/hot_memory.hpp"

#include <cstdint>
#include <vector>

namespace warpscope::mem {

// L2 access management (the Programming Guide's "Device Memory L2 Access Management"): an access
// policy window gives the accesses to [base, base + bytes) a property, hitProp for hitRatio of
// its lines (chosen by a hash of the line address, so the same lines every time) and missProp for
// the rest; accesses outside it are normal. Persisting lines are kept ahead of normal and
// streaming ones, up to the set-aside size (cudaLimitPersistingL2CacheSize): a miss evicts the
// least recently used line that is not persisting; past the set-aside, a persisting access
// replaces the set's least recently used persisting line (the window thrashes in its own part)
// or, when the set has none, is held as a normal line. Lines the set-aside does not use are
// there for normal accesses. Streaming lines are inserted least recently used: evicted first.
enum class AccessProp : uint8_t { Normal = 0, Streaming = 1, Persisting = 2 };   // cudaAccessProperty's values
struct AccessWindow {
    uint64_t base = 0, bytes = 0;   // bytes 0: no window
    double hitRatio = 1;
    AccessProp hitProp = AccessProp::Normal, missProp = AccessProp::Normal;
};

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

    // The access policy window and the persisting set-aside in bytes (0: no line persists). Lines
    // already persisting stay so (as on the GPU until cudaCtxResetPersistingL2Cache).
    void setAccessPolicy(const AccessWindow& window, uint64_t persistingBytes);
    void resetPersisting();                                // every line normal again
    AccessProp propertyOf(uint64_t sectorAddr) const;      // under the current window
    uint64_t persistingLines() const { return persistCount_; }

private:
    struct Line {
        uint64_t tag = ~0ull;
        uint64_t lastUse = 0;
        uint8_t valid = 0, dirty = 0;   // one bit per sector
        uint8_t persist = 0;             // held as a persisting line
    };
    Line* victimFor(Line* base, AccessProp prop, bool* persist);
    uint32_t sets_, ways_;
    base::HotVector<Line> lines_;   // (huge-page-backed: every global access reads it)
    uint64_t clock_ = 0, hits_ = 0, misses_ = 0, writebacks_ = 0, dirty_ = 0;
    AccessWindow window_;
    uint64_t persistLimit_ = 0, persistCount_ = 0;   // in lines
};

} // namespace warpscope::mem
