// The cycle model: decides in which order warps issue and when, and what every warp waits for.
// The functional sim::Gpu still executes every instruction (through Gpu::stepWarp), so results
// are exactly those of the functional mode; this model only chooses the order and counts cycles.
//
// Model, per SM: resident blocks up to the occupancy limit, placed on SMs as slots free up;
// warp slot i of an SM belongs to scheduler i % schedulers; each scheduler issues at most one
// instruction per cycle from an eligible warp (greedy-then-oldest or loose round-robin). A
// scoreboard holds an instruction until its source (and destination) registers are written;
// latencies come from the GpuSpec and the instruction table; pipes (ALU, FMA, FP64, SFU) accept a
// warp-instruction every `interval` cycles per scheduler; memory goes through an L1/shared data
// pipe per SM and GPU-wide L2 and DRAM bandwidth queues, with sector caches deciding hit levels;
// on presets with l2DirtyBytes, DRAM writes follow the L2's evictions and a dirty budget, partial
// stores fill their sector, and the DRAM latency grows with its load (writeBackModel).
// Every warp-cycle is attributed to one stall reason named as Nsight Compute names them.
//
// Sections: 1. stall reasons  2. options and results  3. per-cycle view  4. TimedRun
#pragma once
#include "mem/access.hpp"
#include "mem/cache.hpp"
#include "sim/gpu.hpp"
#include "timing/gpu_spec.hpp"
#include "timing/occupancy.hpp"
#include "trace/counters.hpp"
#include "sim/step.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace warpscope::timing {

// ---------------------------------------------------------------- 1. stall reasons
enum class StallReason : uint8_t {
    Selected,          // issued this cycle
    NotSelected,       // eligible, but the scheduler picked another warp
    Wait,              // fixed-latency dependency (ALU/FMA result not ready yet)
    ShortScoreboard,   // MIO result (shared memory, SFU, shuffle) not ready yet
    LongScoreboard,    // L1TEX result (global/local memory) not ready yet
    Barrier,           // waiting at __syncthreads for the rest of the block
    MathPipeThrottle,  // the instruction's math pipe is busy
    MioThrottle,       // the shared-memory (MIO) queue is full
    LgThrottle,        // the local/global (LSU) queue is full
    Membar,            // waiting for a memory fence
    Count_
};
inline constexpr int kStallReasonCount = static_cast<int>(StallReason::Count_);
std::string_view stallShortName(StallReason r);    // "long_scoreboard"
std::string stallMetricName(StallReason r);        // "smsp__pcsamp_warps_issue_stalled_long_scoreboard"
using StallCounts = std::array<uint64_t, kStallReasonCount>;

// ---------------------------------------------------------------- 2. options and results
enum class SchedulerPolicy : uint8_t { GreedyThenOldest, LooseRoundRobin };

struct TimingOptions {
    SchedulerPolicy policy = SchedulerPolicy::GreedyThenOldest;
    uint32_t registersPerThread = 32;
    bool registersEstimated = true;        // no real count was given (ptxas decides it)
    uint32_t forceBlocksPerSM = 0;         // if > 0, at most this many blocks per SM (to study occupancy)
    // Warm mode: an L2 kept from launch to launch (warmL2(spec) makes one; give every launch the
    // same). Null (the default): each launch starts from a flushed L2, as a cold single launch
    // does. The L1s always start empty: they are invalidated at every kernel launch.
    std::shared_ptr<mem::SectorCache> l2;
    // L2 access management (mem/cache.hpp): the launch's stream's access policy window and the
    // persisting set-aside (cudaLimitPersistingL2CacheSize), given to the L2 at the start.
    mem::AccessWindow l2Window;
    uint64_t l2PersistingBytes = 0;
    // Mapped (zero-copy) host memory, [base, base + bytes): a kernel's accesses there skip L1 and
    // L2 and cross PCIe (spec mappedGBs, mappedLatency; docs/guide-topics.md).
    std::vector<std::pair<uint64_t, uint64_t>> mappedRanges;
};

struct TimingResult {
    uint64_t cycles = 0;
    double microseconds = 0;
    Occupancy occupancy;
    uint32_t registersPerThread = 0;
    bool registersEstimated = true;
    bool warmL2 = false;                                   // began with the L2 earlier launches left
    StallCounts stalls{};                                  // warp-cycles per reason, whole kernel
    std::map<uint32_t, StallCounts> stallsByLine;          // CUDA source line -> warp-cycles
    uint64_t warpInstructions = 0;
    uint64_t l1Hits = 0, l2Hits = 0, dramSectors = 0, l1Lookups = 0;
    uint64_t l2Lookups = 0;          // sectors looked up in L2 (l2Hits of them hit)
    uint64_t mappedSectors = 0;      // sectors read or written in mapped host memory, over PCIe
    uint64_t mappedWriteSectors = 0; // of mappedSectors, those written (the rest were read)
};

// ---------------------------------------------------------------- 3. per-cycle view
enum class WarpPhase : uint8_t { Empty, Active, AtBarrier, Done };

struct WarpView {
    uint32_t block = 0;            // linear block index
    uint32_t warpInBlock = 0;
    uint32_t slot = 0;             // warp slot on the SM
    WarpPhase phase = WarpPhase::Empty;
    StallReason reason = StallReason::NotSelected;   // this cycle
    int32_t pc = -1;               // next instruction (or the one issued this cycle)
};

struct SchedulerView {
    int32_t issuedSlot = -1;       // warp slot that issued this cycle, -1 none
    int32_t issuedPc = -1;
    std::vector<uint32_t> slots;   // warp slots this scheduler owns (occupied ones)
};

struct SmView {
    std::vector<uint32_t> blocks;             // linear indices of resident blocks
    std::vector<SchedulerView> schedulers;
    std::vector<WarpView> warps;              // indexed by warp slot (maxWarpsPerSM entries)
};

// ---------------------------------------------------------------- 4. TimedRun
class TimedRun : private sim::StepListener {
public:
    // Sets the launch's residency from the occupancy (SMs x active blocks per SM) and takes the
    // Gpu's step listener slot, forwarding every Step to `downstream` (e.g. counters); a sums-only
    // downstream (sumsOnly()) gets, during run(), per-pc sums through addCounts for the issues the
    // model needs no Step of, as Gpu::run gives it. Must be created before the launch issues
    // anything. Throws Error(Input) when no block fits on an SM.
    TimedRun(sim::Gpu& gpu, const GpuSpec& spec, TimingOptions options = {}, sim::StepListener* downstream = nullptr);
    ~TimedRun() override;
    TimedRun(const TimedRun&) = delete;
    TimedRun& operator=(const TimedRun&) = delete;

    // Advances exactly one cycle (every scheduler may issue once). Returns false once the launch
    // is over (finished or faulted: see gpu().fault()).
    bool stepCycle();
    // Runs to the end, skipping cycles in which nothing can issue. Throws the launch's fault.
    void run();

    bool finished() const { return finished_; }
    uint64_t cycle() const { return now_; }
    const GpuSpec& spec() const { return spec_; }
    const Occupancy& occupancy() const { return occ_; }
    sim::Gpu& gpu() { return gpu_; }
    // The state of one SM in the cycle last stepped (cheap: reads the model's own arrays).
    SmView smView(uint32_t sm) const;
    // Results so far (final after run()).
    TimingResult result() const;
    // cp.async: when the copies of a resident warp land, as the model has them (the async-copy
    // panel). `committed`: the completion cycles of its newest committed groups, oldest first (at
    // most 8; 0 for an empty group); `open`: of the copies not committed yet (0: none). Empty when
    // the block is not resident.
    struct AsyncGroupTimes {
        bool resident = false;
        std::vector<uint64_t> committed;
        uint64_t open = 0;
    };
    AsyncGroupTimes asyncGroupTimes(uint32_t block, uint32_t warpInBlock) const;

private:
    struct TWarp;
    struct TBlock;
    struct Scheduler;
    struct Sm;
    struct PcInfo;
    struct OperandReady;
    void onStep(const sim::Step& s) override;
    void processCycle();
    void prefetchLooks(size_t sm);
    TWarp* likelyPick(const Scheduler& sc, uint64_t t) const;
    bool issueOne(Sm& sm, Scheduler& sc, TWarp& w);
    void syncResidency(size_t from = 0);
    TWarp* newWarp(Sm& sm, uint32_t slot);
    void placeBlock(sim::Block& b, uint32_t slot);
    void evaluateNext(TWarp& w, uint64_t earliest);
    void rescanBlock(TBlock& tb, TWarp* issued);
    void setReason(TWarp& w, StallReason r, uint64_t at);
    void markReason(TWarp& w, StallReason r);
    void enqueueWaiting(Scheduler& sc, TWarp& w);
    void recomputeMinWake(Scheduler& sc);
    void addReady(Scheduler& sc, TWarp& w);
    void removeReady(Scheduler& sc, TWarp& w);
    void dropRank(Scheduler& sc, TWarp& w);
    void leaveQueues(TWarp& w);
    void lowerCheck(Sm& sm, Scheduler& sc, uint64_t at);
    uint64_t lsuQueueOpens(const Sm& sm) const;
    void finishWarp(TWarp& w);
    uint64_t memoryCompletion(Sm& sm, bool shared, bool store, bool atomic, uint64_t issueAt, uint32_t sharedBytes = 0);
    double l2AtomicTurn(double arrive);
    uint64_t writeBackModel(Sm& sm, bool store, bool atomic, const mem::GlobalAccess& g, double leave, double done);
    // A global load's sector looked up in the SM's L1 (counted); stores and atomics never hit
    // there (L1 is write-through), so they always go on to L2.
    bool l1LoadHit(Sm& sm, uint64_t sector, bool atomic);
    double l2AtomicsDone(double arrive);
    double dramTurn(double arrive, double now, uint32_t reads, uint32_t writes);
    double dramRandomWait() const;
    bool isMapped(uint64_t sector) const;
    double mappedTurn(double arrive, uint32_t sectors, bool write);   // when `sectors` over PCIe are done
    void findFusedSharedLoads();
    uint64_t sharedLoadReady(Sm& sm, TWarp& w, int32_t pc);
    uint64_t cpAsyncSharedWrite(Sm& sm, uint64_t dataBack);   // cp.async's write into shared memory
    int pipeOf(const sim::Instr& in) const;
    void cacheNext(TWarp& w) const;
    void setNext(TWarp& w, int32_t pc) const;
    void decodeProgram();
    const sim::Warp& gpuWarp(const TWarp& w) const;

    sim::Gpu& gpu_;
    GpuSpec spec_;
    TimingOptions opt_;
    Occupancy occ_;
    sim::StepListener* downstream_ = nullptr;
    sim::StepListener* previousListener_ = nullptr;
    // When no downstream listener wants Steps, every instruction issues through Gpu::issueQuiet,
    // so the Gpu builds no Step and takes its lean path (a memory instruction's accesses, which
    // the model reads, come in last_): with no downstream always; with a sums-only downstream
    // (per-line statistics) inside run(), its per-pc sums kept by the Gpu (keepPcCounts) and
    // handed over at the end.
    bool stepless_ = false, steplessSums_ = false;
    uint64_t now_ = 0;
    bool finished_ = false;
    bool started_ = false;             // the cycle now_ has been processed
    uint64_t lastActivity_ = 0;        // last issue or memory completion
    std::vector<std::unique_ptr<Sm>> sms_;
    // Per SM, the minimum of its schedulers' next checks: kept apart from the SM records so that
    // each cycle's walk over the SMs (most of which do not look) reads one array, not 132 records.
    std::vector<uint64_t> smCheck_;
    std::unordered_map<uint32_t, std::unique_ptr<TBlock>> blocks_;   // by linear index
    std::vector<TBlock*> slotToBlock_;  // Gpu resident slot -> block
    uint64_t blocksCompletedSeen_ = 0;
    uint64_t ageCounter_ = 0;
    uint32_t numRegs_ = 0, numPreds_ = 0;
    bool registerFilesPooled_ = false;   // every frame's register file comes from the hot pool's chunks (prefetchLooks)
    // ptxas merges runs of 32-bit shared loads from one base register at offsets o, o+4, o+8,
    // o+12 (o a multiple of 16) into one LDS.128 (or two into an LDS.64) when it can prove the
    // alignment; the model charges such a group as one wide access (by pc: the group's first
    // load, its width in bytes; members point to their leader).
    std::vector<int32_t> fuseLeader_;     // per pc: the leader's pc, or -1
    std::vector<uint8_t> fuseBytes_;      // per leader pc: 8 or 16
    std::vector<PcInfo> pcInfo_;          // per pc (decodeProgram)
    std::vector<uint32_t> operandSlots_;  // the PcInfo lists of operands read and written
    // The memory accesses of the instruction being issued (valid: it was ld/ldu/st/atom/red):
    // from its Step (onStep) or, when nobody downstream wants Steps, from Gpu::issueQuiet.
    sim::MemoryAccess last_;
    // Memory system
    std::shared_ptr<mem::SectorCache> l2_;
    double l2FreeAt_ = 0, dramFreeAt_ = 0;
    double pcieFreeAt_[2] = {0, 0};   // mapped memory: reads and writes (PCIe is full duplex)
    double dramBusy_ = 0, dramBusyAt_ = 0;   // DRAM busy cycles, decayed over dramLoadWindow (its load)
    std::unordered_map<uint64_t, double> atomicFreeAt_;   // by 4-byte word (or region, with l2AtomicOpCycles):
                                                          // when its L2 atomic unit is free
    uint64_t l1Hits_ = 0, l1Lookups_ = 0, l2Hits_ = 0, dramSectors_ = 0, l2Lookups_ = 0, mappedSectors_ = 0, mappedWriteSectors_ = 0;
    // Accounting
    StallCounts stalls_{};
    std::vector<StallCounts> lineStalls_;
};

// The sector caches of a launch on a preset, as the cycle model sizes them: one L1 per SM holding
// what the unified L1/shared memory leaves after the resident blocks' shared memory (at least
// 16 KiB), 4-way; the preset's L2, 16-way. The counters (--metrics, the Metrics panel) use the
// same sizes so that hit rates agree between the functional and the timed run.
trace::CacheConfig cacheConfigFor(const GpuSpec& spec, const Occupancy& occupancy);
// An empty L2 of the preset's size, to share between launches (TimingOptions::l2).
std::shared_ptr<mem::SectorCache> warmL2(const GpuSpec& spec);
trace::CacheConfig cacheConfigFor(const GpuSpec& spec, const sim::Gpu& gpu, uint32_t registersPerThread = 32);

// The launch's predicted time as a measurement of back-to-back launches would see it: the cycle
// model's time plus the preset's gap between queued kernels, in microseconds. Runs the launch to
// the end with `downstream` listening; 0 (and a plain functional run) when a block does not fit
// the preset. Used by the compare views, next to the time measured on a GPU.
double predictLaunchUs(sim::Gpu& gpu, const GpuSpec& spec, std::optional<uint32_t> registersPerThread,
                       sim::StepListener* downstream);

// Convenience: the timed equivalent of Gpu::run() for one launch (used by the CLI and tests).
TimingResult runTimed(sim::Gpu& gpu, const GpuSpec& spec, TimingOptions options = {}, sim::StepListener* downstream = nullptr);

} // namespace warpscope::timing
