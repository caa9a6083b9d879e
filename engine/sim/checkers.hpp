// Checkers beyond the always-on memcheck/synccheck of the interpreter (memory_exec.cpp, issue.cpp),
// kept out of its hot path: it calls them only when they are switched on (racecheck) or only for
// the few instructions they concern (warp-synchronous member masks).
//
// Sections: 1. Warp-synchronous member masks  2. Global-memory racecheck
#pragma once
#include "mem/memory.hpp"
#include "sim/program.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace warpscope::sim {

class Gpu;
struct Block;
struct Warp;

// ---------------------------------------------------------------- 1. Member masks
// shfl.sync, vote.sync, match.sync and bar.warp.sync (__syncwarp) take a member mask. The PTX ISA
// leaves the result undefined when an executing lane is not in its mask, or when the mask names a
// lane that has exited or does not execute the same instruction; lanes must also agree on the
// mask. Returns the first such problem (a complete sentence) and the lane it is about, if any.
struct MaskProblem {
    std::string message;
    int lane = 0;
};
std::optional<MaskProblem> findMaskProblem(const Warp& w, const Instr& I, uint32_t exec, const uint64_t* maskPerLane);

// ---------------------------------------------------------------- 2. Global-memory racecheck
// Hazards on global memory between threads with no happens-before between them. The model:
//  - within a block, a barrier release orders everything before it (per-block barrier epochs);
//    lanes of one warp are ordered by the warp's program order;
//  - between blocks, only a release/acquire pair orders: a thread that fenced (membar.gl,
//    fence.sc/acq_rel at gpu scope) or uses .release, then makes a strong write (atom, red,
//    st.volatile/relaxed/release) to a location releases its block's accesses before the fence
//    (its own, and the whole block's before the barrier that preceded it); a strong read of that
//    location (any atom, ld.volatile/relaxed/acquire) acquires them, for the acquiring thread at
//    once and for its whole block after the next barrier. Knowledge passes on transitively.
//  - kernel boundaries and stream order: each launch starts with an empty shadow.
//  - strong accesses (atomics, volatile) never race with each other; a plain store of the value
//    already there (a flag set by many threads) is benign and not reported.
// Shadow state: per 4-byte word of touched global memory, the last writer and two readers
// (block, thread, barrier epoch, instruction), 36 bytes per word in pages made on first touch.
// Tracking stops (with a note) once the shadow would cover more than `trackBytes` of data.
class GlobalRaceCheck {
public:
    explicit GlobalRaceCheck(uint64_t trackBytes) : trackBytes_(trackBytes) {}
    // One lane's access of `bytes` at global address `addr`. `before` runs ahead of the access
    // (reads are checked, the old bytes of a store remembered), the other pass after it.
    void access(Gpu& g, const Block& b, const Warp& w, int lane, const Instr& I, uint64_t addr, uint32_t bytes, bool before);
    // The same for every lane of `lanes` of an instruction on .global addresses.
    void accessWarp(Gpu& g, const Block& b, const Warp& w, const Instr& I, const uint64_t* addrs, uint32_t lanes, uint32_t bytes,
                    bool before);
    // membar/fence by `lanes` of warp w (cta-scoped fences do not order other blocks).
    void fence(const Block& b, const Warp& w, uint32_t lanes, const Instr& I);
    // The grid barrier (grid.sync() of warpscope's <cooperative_groups.h>) released: every access
    // before it happens before every access after it, as at a kernel boundary, so the shadow
    // starts again.
    void gridBarrier() {
        shadows_.clear();
        lastAlloc_ = nullptr;
        lastShadow_ = nullptr;
        pagesMade_ = 0;
    }
    // A block finished: its per-thread state goes (what it released stays with the locations).
    void blockRetired(uint32_t linear) {
        blocks_.erase(linear);
        cachedBlock_ = kNone;
    }

    uint64_t shadowBytes() const;      // memory the shadow holds now
    uint64_t trackedBytes() const { return pagesMade_ * kPageWords * 4; }
    bool stoppedTracking() const { return stopped_; }
    uint64_t trackLimit() const { return trackBytes_; }

private:
    static constexpr uint32_t kNone = ~0u;
    static constexpr uint32_t kPageWords = 1024;   // 4 KiB of data per shadow page
    static constexpr uint32_t kEpochMask = (1u << 28) - 1;
    struct Rec {                    // one access, 12 bytes
        uint32_t block = kNone;     // linear block index; kNone = no access yet
        uint32_t epoch : 28 = 0;    // the block's barrier epoch then (mod 2^28)
        uint32_t bytes : 4 = 0;     // which bytes of the word (bit mask)
        uint32_t pc : 21 = 0;       // instruction (programs of up to 2M instructions)
        uint32_t thread : 10 = 0;   // linear thread index in the block
        uint32_t strong : 1 = 0;
    };
    struct Cell {                   // the last write and up to two reads not ordered one after the other
        Rec write, read[2];
    };
    struct Shadow {                 // per allocation
        std::vector<std::unique_ptr<Cell[]>> pages;
    };
    struct ReleasePoint {           // accesses of `block` before `epoch`, and `thread`'s up to `epoch`
        uint32_t seq, epoch;
        uint16_t thread;
    };
    struct Link {                   // what the releasing thread had acquired (transitivity)
        uint32_t seq, var, varSeq;
    };
    struct SyncVar {                // a location strong writes released into
        uint32_t seq = 0;
        std::unordered_map<uint32_t, std::vector<ReleasePoint>> bySource;
        std::vector<Link> links;
    };
    struct Acquired {               // block knowledge: var's releases before seq
        uint32_t var, seq, epoch;   // acquired at this barrier epoch of the block
        uint16_t thread;            // by this thread (the rest of the block after the next barrier)
    };
    struct BlockState {
        std::vector<Acquired> acquired;
        std::unordered_map<uint16_t, uint32_t> fencedAt;   // thread -> epoch of its last gpu-scope fence
    };

    Cell* cellFor(const mem::Allocation& a, uint64_t word);
    bool ordered(const Rec& prev, uint32_t block, uint32_t epoch, uint16_t thread) const;
    const BlockState* stateOf(uint32_t block) const;   // nullptr: nothing fenced or acquired yet
    BlockState& stateFor(uint32_t block);
    bool covers(uint32_t var, uint32_t seq, const Rec& prev, int depth) const;
    void acquire(uint64_t word, uint32_t block, uint32_t epoch, uint16_t thread);
    void release(uint64_t word, uint32_t block, uint32_t epoch, uint16_t thread, bool explicitRelease);
    std::string describe(const Gpu& g, const Rec& r) const;

    uint64_t trackBytes_;
    uint64_t pagesMade_ = 0;
    bool stopped_ = false;
    std::unordered_map<const mem::Allocation*, Shadow> shadows_;
    const mem::Allocation* lastAlloc_ = nullptr;
    Shadow* lastShadow_ = nullptr;
    std::vector<SyncVar> vars_;
    std::unordered_map<uint64_t, uint32_t> varOf_;   // word address -> vars_ index
    std::unordered_map<uint32_t, BlockState> blocks_;
    mutable uint32_t cachedBlock_ = kNone;
    mutable const BlockState* cachedState_ = nullptr;
    uint8_t old_[32][16] = {};                       // bytes a store is about to replace, per lane
};

} // namespace warpscope::sim
