// Counters named as Nsight Compute names them, collected from Step records, per kernel launch
// and per CUDA source line: instruction counts and warp efficiency, branches, global-memory
// requests and sectors (the coalescer), shared-memory wavefronts and bank conflicts (the bank
// model), and estimated L1/L2 hit rates and DRAM bytes (sector caches). Attach one collector per
// launch (SimDevice::onLaunch); it never changes functional results.
//
// Shared-load wavefronts and bank conflicts are counted as the SASS runs them: where ptxas merges
// neighbouring ld.shared into one LDS.64/LDS.128 (trace/shared_merge.hpp), the group is one wide
// access, as on the hardware, under Nsight Compute's names; the count for the PTX as written is
// kept beside it (MemCounters::*Ptx, metrics named ptx__...). The collector needs the launch's
// program for that (setProgram; the run API gives it): without one, both counts are the PTX's.
//
// Parallel runs (Gpu::runToEnd with threads): after enableParallel, fork() gives a collector for
// one share that adds up everything that does not depend on the issue order and records, per
// warp, the sectors of its global accesses and its schedule (trace/issue_order.hpp); join()
// merges them, and the first read afterwards replays the caches in the serial issue order. The
// numbers are those of a serial run (tests/engine/trace/issue_order_test.cpp).
#pragma once
#include "mem/access.hpp"
#include "mem/cache.hpp"
#include "sim/step.hpp"
#include "trace/issue_order.hpp"
#include "trace/shared_merge.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace warpscope::trace {

struct CacheConfig {
    uint32_t numSMs = 4;                 // L1 caches (blocks map to SMs round-robin)
    uint64_t l1Bytes = 128 * 1024;       // per SM
    uint32_t l1Ways = 4;
    uint64_t l2Bytes = 50ull << 20;
    uint32_t l2Ways = 16;
};

// One source line's share (also used for the kernel total).
struct MemCounters {
    uint64_t inst = 0, threadInst = 0, threadInstPredOn = 0;
    uint64_t branches = 0, divergentBranches = 0;
    uint64_t globalLdRequests = 0, globalLdSectors = 0, globalLdBytes = 0;
    uint64_t globalStRequests = 0, globalStSectors = 0, globalStBytes = 0;
    uint64_t globalAtomRequests = 0, globalAtomSectors = 0;
    uint64_t globalRedRequests = 0, globalRedSectors = 0;   // atomics whose result is unused (RED)
    // cp.async (LDGSTS on the hardware): its global reads, counted apart from ld as Nsight
    // Compute does (op_ldgsts), and the instructions.
    uint64_t ldgstsInst = 0, ldgstsBypassInst = 0, globalLdgstsRequests = 0, globalLdgstsSectors = 0;
    // Its shared-memory side: wavefronts and bank conflicts of its writes (ldgstsShared), all and
    // those of .cg (cache_bypass) copies.
    uint64_t sharedLdgstsWavefronts = 0, sharedLdgstsConflicts = 0, sharedLdgstsBypassWavefronts = 0, sharedLdgstsBypassConflicts = 0;
    uint64_t localLdSectors = 0, localStSectors = 0, localRequests = 0;
    // Shared loads: requests are PTX instructions; wavefronts and conflicts as the SASS has them
    // (merged loads counted once, as the wide load), with the PTX-level figures and the SASS
    // instruction count beside them.
    uint64_t sharedLdRequests = 0, sharedLdWavefronts = 0, sharedLdConflicts = 0;
    uint64_t sharedLdWavefrontsPtx = 0, sharedLdConflictsPtx = 0, sharedLdRequestsSass = 0;
    uint64_t sharedStRequests = 0, sharedStWavefronts = 0, sharedStConflicts = 0;
    // Tensor cores (sim/tensor.hpp): HMMA/IMMA machine instructions, tensor-pipe busy cycles, LDSM.
    uint64_t tensorHmma = 0, tensorImma = 0, tensorPipeCycles = 0, ldsm = 0;
    void add(const MemCounters& o);
};

// The shared-memory side of one LDGSTS (cp.async) warp-instruction, as an H100 counts it
// (tests/validation/ldgsts-probe.cu; docs/async-copy.md, "Counters"). The lanes go in phases as a
// store of the same width does (32 lanes of 4 bytes, 16 of 8, 8 of 16). In a phase each 4-byte
// word travels from a source bank (bits 2-6 of its global address) to a destination bank (bits 2-6
// of its shared offset); the phase takes as many wavefronts as the busiest bank, source or
// destination, has distinct words, and conflicts are the wavefronts beyond one a phase. A 16-byte
// copy with zero fill writes the bytes it read and its zeros in separate passes (twice the
// wavefronts, not counted as conflicts). `sources`: global addresses; `shared`: Step::asyncShared.
struct LdgstsShared {
    uint32_t wavefronts = 0, ideal = 0;
    uint32_t conflicts() const { return wavefronts > ideal ? wavefronts - ideal : 0; }
};
LdgstsShared ldgstsShared(const uint64_t* sources, const uint64_t* shared, uint32_t mask, uint32_t bytesPerLane);

class CounterCollector : public sim::StepListener {
public:
    explicit CounterCollector(CacheConfig cfg = {});
    void onStep(const sim::Step& s) override;
    // The launch's program: lets the counters find the shared loads ptxas merges (see above).
    void setProgram(const sim::Program& program);

    // Lets fork() give per-share collectors for a launch of this shape and program (see above).
    // Without it fork() returns nullptr and a launch with this collector runs on one thread.
    void enableParallel(const LaunchShape& shape, const sim::Program& program);
    std::unique_ptr<sim::StepListener> fork() const override;
    void join(sim::StepListener& fork) override;
    // Replays the joined shares' sectors through the caches now (any read does it otherwise), e.g.
    // on another thread while the caller rebuilds its own serial-order state.
    void resolvePending() { resolveOrder(); }
    // Sector words a share may record before it gives up (the launch then re-runs on one thread).
    static constexpr size_t kShareWordBudget = size_t(32) << 20;

    const MemCounters& total() const { return total_; }
    std::map<uint32_t, MemCounters> byLine() const;   // source line -> counters (lines that ran)
    // Every metric under its Nsight Compute name, for the whole launch. Estimated cache and DRAM
    // figures are named as Nsight names them and listed in estimatedMetrics().
    std::map<std::string, double> metrics() const;
    static const std::vector<std::string>& estimatedMetrics();

private:
    MemCounters& lineOf(uint32_t line);
    void sharedLoadAsSass(const sim::Step& s, const mem::SharedAccess& ptx, MemCounters& d);
    // One global access's sectors through L1 (loads) and L2, as a serial run sees them.
    void cacheAccess(uint32_t block, const uint64_t* sectors, uint32_t n, bool isLoad, bool isAtomic);
    // Replays the recorded sectors of joined shares in the serial order (const reads call it).
    void resolveOrder() const;
    void resolveOrderNow();
    CacheConfig cfg_;
    // Parallel runs: set by enableParallel; share_ in a fork. streams_ holds per warp (indexed
    // from schedule_.base()) its global accesses: a header word (ordinal << 32 | flags << 8 |
    // sectors) and then the sector addresses.
    bool parallel_ = false, share_ = false, pending_ = false;
    LaunchShape shape_;
    const sim::Program* program_ = nullptr;
    // Shared loads merged as ptxas merges them (setProgram), and per warp the merged group whose
    // wide load it has issued (its members count nothing more at SASS level).
    struct OpenGroup {
        int32_t leader = -1;
        uint32_t mask = 0;
        uint32_t left = 0;   // members still to come
    };
    std::shared_ptr<const SharedLoadMerges> merges_;
    std::unordered_map<uint32_t, OpenGroup> openGroups_;
    ScheduleLog schedule_;
    std::vector<std::vector<uint64_t>> streams_;
    size_t words_ = 0;
    MemCounters total_;
    std::vector<MemCounters> lines_;
    std::vector<std::unique_ptr<mem::SectorCache>> l1_;
    std::unique_ptr<mem::SectorCache> l2_;
    uint64_t l1Hits_ = 0, l1Lookups_ = 0, l2Hits_ = 0, l2Lookups_ = 0, dramReadSectors_ = 0;
};

} // namespace warpscope::trace
