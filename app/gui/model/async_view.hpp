// The Async copies panel's model (panel_async.cpp draws it): the selected warp's cp.async copies
// that have not landed in shared memory yet, grouped by the commit group they belong to, and a map
// of the block's shared memory with the words those copies (and the other warps' pending copies)
// will write.
//
// What "in flight" means here (docs/async-copy.md): the simulator reads a copy's source when it
// issues and writes its bytes into shared memory when a cp.async.wait_group waits for its group
// (or its mbarrier's phase completes). Until then the copy is listed, and its destination words are
// pending: reading them is a racecheck report. In Timed mode each group also says when the cycle
// model has its data back: "arrived" once that cycle has passed, though the bytes still land only
// at the wait.
#pragma once
#include "gui/model/snapshot.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::gui {

struct AsyncGroupRow {
    uint32_t group = ~0u;          // the lanes' commit-group number; ~0u: not committed yet
    uint32_t copies = 0, bytes = 0;
    uint32_t lanes = 0;            // mask of the lanes with a copy in it
    uint64_t srcLo = 0, srcHi = 0; // global addresses [lo, hi) of the copies whose source is known
    uint32_t sourcesKnown = 0;     // copies whose source the warp's memory history still has
    uint32_t dstLo = 0, dstHi = 0; // shared offsets [lo, hi)
    std::string srcBuffer;         // the lesson buffer holding srcLo, when known
    struct Source {
        std::string buffer;        // lesson buffer ("" when the address is in none)
        uint64_t lo = 0, hi = 0;   // [lo, hi) of this group's sources in it
    };
    std::vector<Source> sources;   // per buffer, in address order
    std::vector<std::pair<uint32_t, uint32_t>> dstRuns;   // contiguous shared ranges [lo, hi), ascending
    bool timed = false;            // the cycle model knows when its data is back
    uint64_t readyCycle = 0;
    bool arrived = false;          // timed and readyCycle <= the cycle now
    std::string state;             // "open: not committed", "committed, pending", "arrived, lands at the wait", ...
};

enum class SharedWord : uint8_t { Idle, PendingOther, PendingThisWarp };

struct AsyncView {
    bool valid = false;            // a warp is selected
    std::string message;           // when !valid, or when nothing is in flight: why
    uint32_t block = 0, warp = 0;
    uint32_t copies = 0, bytes = 0;
    uint32_t committedGroups = 0;  // the most any lane of the warp has committed
    std::vector<AsyncGroupRow> groups;   // oldest first; the open (uncommitted) copies last
    std::vector<AsyncCopyView> copyList; // by group, then lane
    // Shared memory, one entry per 4-byte word of the block's shared memory.
    std::vector<SharedWord> words;
    uint32_t pendingWords = 0, pendingWordsThisWarp = 0;
    bool timed = false;
    uint64_t cycle = 0;
};

AsyncView buildAsyncView(const Snapshot& s);

// "group 3: 64 copies, 256 bytes, lanes 0-31; A[0x...] -> shared [0, 1024)" (the panel's tooltip).
std::string asyncGroupText(const AsyncGroupRow& g);
// "A [0x7f00, 0x7f40), B [0x8f00, 0x8f40)", with "(40 of the copies)" when only some sources are known.
std::string sourceText(const AsyncGroupRow& g);
// "[1024, 1152), [3072, 3200)" (at most `maxRuns`, then "+ N more").
std::string destinationText(const AsyncGroupRow& g, size_t maxRuns = 4);
// "[0x7f00, 0x7f40)" or "[0, 1024)".
std::string rangeText(uint64_t lo, uint64_t hi, bool hex);
// "0-31", "0-15, 20", "none".
std::string laneListText(uint32_t mask);

} // namespace warpscope::gui
