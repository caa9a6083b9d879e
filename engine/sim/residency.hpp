// Block admission, retirement and the round-robin pick, written once: which blocks of a launch
// are resident (in the order they were admitted), the retired ones kept for recycling, the next
// block to admit, and the scheduler's round-robin position over the resident blocks. sim::Gpu keeps its blocks in one
// (launch.cpp), and trace::replaySerialOrder (issue_order.cpp), which replays the scheduler
// without executing anything, keeps its stand-in blocks in another, so the two admit and retire
// alike by construction (tests/engine/trace/issue_order_test.cpp compares them on real runs).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace warpscope::sim {

template <class B>
class Residency {
public:
    std::vector<std::unique_ptr<B>> resident;   // admission order (the round-robin order)
    std::vector<std::unique_ptr<B>> spare;      // retired blocks, recycled by admit
    uint64_t next = 0;                          // the next block (linear index) to admit
    size_t rrBlock = 0;                         // round-robin position: resident block,
    uint32_t rrWarp = 0;                        // and warp in it

    // Admits blocks in linear order while fewer than `maxResident` are resident and blocks below
    // `end` remain. Each is a retired block recycled (its vectors keep their capacity, so admitting
    // costs clearing memory, not allocating it) or a new one; init(block, linear) fills it.
    template <class Init>
    void admit(uint64_t maxResident, uint64_t end, Init&& init) {
        while (resident.size() < maxResident && next < end) {
            std::unique_ptr<B> blk;
            if (!spare.empty()) {
                blk = std::move(spare.back());
                spare.pop_back();
            } else {
                blk = std::make_unique<B>();
            }
            init(*blk, next++);
            resident.push_back(std::move(blk));
        }
    }

    // Moves resident block `b` to the spares. The round-robin position stays on the block that
    // would have come next (back to the first block when `b` was the last).
    void retire(const B& b) {
        for (size_t i = 0; i < resident.size(); ++i) {
            if (resident[i].get() != &b) continue;
            spare.push_back(std::move(resident[i]));
            resident.erase(resident.begin() + static_cast<std::ptrdiff_t>(i));
            if (rrBlock > i) --rrBlock;
            if (rrBlock >= resident.size()) {
                rrBlock = 0;
                rrWarp = 0;
            }
            return;
        }
    }

    // The scheduler's pick: from the round-robin position, the next warp that can issue, visiting
    // the resident blocks in admission order and their warps in order, skipping a block that has
    // no ready warp (blockReady false) as a whole; the position moves past the warp picked.
    // Returns its block (null when no warp could issue) and sets `warp`.
    template <class BlockReady, class WarpReady>
    B* pick(uint32_t warpsPerBlock, BlockReady blockReady, WarpReady warpReady, uint32_t& warp) {
        const size_t nb = resident.size();
        if (rrBlock >= nb) {
            rrBlock = 0;
            rrWarp = 0;
        }
        const size_t totalWarps = nb * warpsPerBlock;
        for (size_t k = 0; k < totalWarps; ++k) {
            B& b = *resident[rrBlock];
            if (!blockReady(b)) {   // nothing to issue here: move to the next block
                k += warpsPerBlock - rrWarp - 1;
                rrWarp = 0;
                rrBlock = (rrBlock + 1) % nb;
                continue;
            }
            const uint32_t wi = rrWarp;
            if (++rrWarp >= warpsPerBlock) {
                rrWarp = 0;
                rrBlock = (rrBlock + 1) % nb;
            }
            if (!warpReady(b, wi)) continue;
            warp = wi;
            return &b;
        }
        return nullptr;
    }

    // Hands back the blocks admitted beyond `maxResident` (the last admitted first), as if they
    // had not been admitted, and restarts the round-robin: only before anything has run.
    void unadmitBeyond(uint64_t maxResident) {
        while (resident.size() > maxResident) {
            spare.push_back(std::move(resident.back()));
            resident.pop_back();
            --next;
        }
        rrBlock = 0;
        rrWarp = 0;
    }
};

} // namespace warpscope::sim
