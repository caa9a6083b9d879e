// The simulated GPU running one kernel launch: blocks made resident a few at a time, warps of
// 32 lanes with a SIMT reconvergence stack, barriers, and deterministic round-robin issue of one
// warp-instruction at a time. All state lives in the instance (two can run side by side).
#pragma once
#include "mem/memory.hpp"
#include "base/launch.hpp"
#include "base/error.hpp"
#include "base/hot_memory.hpp"
#include "sim/predecode.hpp"
#include "sim/residency.hpp"
#include "sim/program.hpp"
#include "sim/step.hpp"

#include <atomic>
#include <functional>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace warpscope::sim {

class GlobalRaceCheck;

struct LaunchOptions {
    uint64_t instructionBudget = 500'000'000;   // warp-instructions before a runaway loop is declared
    uint64_t maxBlocks = 1u << 22;              // sandbox: blocks per grid (CLI --max-blocks)
    uint64_t deviceMemoryBytes = 0;             // sandbox: total cudaMalloc bytes; 0 = half the host's RAM (SimDevice)
    // Set from another thread to stop a launch: it ends with Error(Cancelled) "Cancelled ..." within
    // a few thousand warp-instructions. Not owned; must outlive the launch.
    const std::atomic<bool>* cancel = nullptr;
    uint32_t maxResidentBlocks = 32;            // blocks in flight at once
    uint32_t numSMs = 4;                        // for %smid / %nsmid and display
    // A cooperative launch's grid-synchronisation workspace (device memory, zeroed): what
    // %envreg1 (high word) and %envreg2 (low word) hold, where nvcc's grid.sync() keeps its
    // arrival counter. 0 in other launches, as on the hardware.
    uint64_t gridWorkspace = 0;
    uint64_t maxLocalBytesPerThread = 512 * 1024;
    // Optional checkers (memcheck and synccheck are always on: they stop the launch).
    bool initcheck = false;   // loads of global or shared memory nothing has written
    bool racecheck = false;   // shared- and global-memory hazards with no happens-before between them
    uint64_t raceTrackBytes = 64ull << 20;   // racecheck: global data covered by the shadow (9 bytes of shadow each)
    uint32_t maxReports = 64; // distinct reports kept per launch
    // runToEnd: threads that may share the blocks (1 = serial). See Gpu::runToEnd for when a
    // launch still runs on one thread.
    uint32_t threads = 1;
    // The blocks this Gpu runs, [firstBlock, endBlock) in linear order (one thread's share in a
    // parallel run; the whole grid otherwise).
    uint64_t firstBlock = 0;
    uint64_t endBlock = ~0ull;
    // The baseline x86-64 build of the pre-decoded handlers even where the CPU has AVX2+FMA (tests
    // run both builds; results are the same).
    bool baselineHandlers = false;
    // Tests only: runToEnd calls it on a worker thread just before that thread runs share `share`
    // (0, 1, ... in block order). The equality tests delay shares by seeded random amounts with it,
    // so that the threads take the shares in other orders and at other times than they usually do.
    std::function<void(uint64_t share)> beforeShare;
};

// A problem a checker found that does not stop the launch (initcheck, racecheck).
struct CheckReport {
    std::string tool;        // "initcheck", "racecheck"
    std::string hazard;      // "uninitialized read", "read-after-write", ...
    std::string message;     // a complete sentence with both sides of a hazard
    FaultSite site;          // the access that revealed it
};

struct SimtEntry {
    int32_t pc = 0;
    int32_t rpc = kExitPc;     // reconvergence pc; kExitPc = never by pc, only when lanes finish
    uint32_t mask = 0;
};

// One function activation of a warp (the kernel itself is frame 0).
struct Frame {
    uint32_t func = 0;
    // The register file, laid out by Function::regOffset/regWide: a 64-bit register's 32 lanes
    // as 64-bit words, any other register's as 32-bit words (narrower values zero-extended).
    base::HotVector<uint32_t> regWords;   // (base/hot_memory.hpp: huge-page-backed)
    uint32_t* narrow(uint32_t offset) { return regWords.data() + offset; }
    const uint32_t* narrow(uint32_t offset) const { return regWords.data() + offset; }
    uint64_t* wide(uint32_t offset) { return reinterpret_cast<uint64_t*>(regWords.data() + offset); }
    const uint64_t* wide(uint32_t offset) const { return reinterpret_cast<const uint64_t*>(regWords.data() + offset); }
    base::HotVector<uint32_t> preds;  // one lane mask per predicate register
    std::vector<uint8_t> params;      // 32 lanes x paramBytes
    uint32_t localBase = 0;           // start of this frame's .local depot in each lane's stack
    std::vector<SimtEntry> stack;     // SIMT reconvergence stack
    int32_t returnPc = -1;            // caller pc to resume at
    int32_t callSite = -1;            // caller's CallSite index
    uint32_t returned = 0;            // lanes that executed ret
};

// Every register of `f` (a frame of function `fn`) as 64-bit values, register r's lane l at
// r * 32 + l: the form the app's register views show. `offsets`: where the frame keeps each
// register (Gpu::registerOffsets; Function::regOffset when null).
std::vector<uint64_t> registerValues(const Function& fn, const Frame& f, const uint32_t* offsets = nullptr);

enum class WarpState : uint8_t { Ready, AtBarrier, Done };
// Warp::barrierId of a warp waiting at the grid barrier (grid.sync() of warpscope's
// <cooperative_groups.h>; Instr::gridSync): not one of the block's 16 barriers, so the block's
// counters (waitingAt, ...) leave it out; Gpu::gridBarrierStall releases it.
constexpr uint32_t kGridBarrierId = 16;

struct Warp {
    // --- The current position, flat: every issue reaches it in one load from the Warp ---
    // `top` is the SIMT entry on top of the current (last) frame's stack; that frame's `stack`
    // holds only the entries below it (a frame below the current one keeps its whole stack, its
    // top last). `regs` and `preds` are frames.back()'s register and predicate words
    // (setFrame() after anything changes `frames` or those vectors' storage). Only the engine
    // writes them; clients read pc(), activeMask() and simtStack(). The fields an issue touches
    // (top, state, regs, preds, issued) share the first 64 bytes; the Warp is 128 bytes.
    static constexpr SimtEntry kNoEntry{-1, kExitPc, 0};   // not admitted yet, or done
    SimtEntry top = kNoEntry;
    WarpState state = WarpState::Ready;
    uint32_t* regs = nullptr;
    uint32_t* preds = nullptr;
    uint64_t issued = 0;

    uint32_t indexInBlock = 0;
    uint32_t syncEpoch = 0;           // bar.warp.sync count (racecheck: lockstep reliance)
    uint32_t validMask = 0;           // lanes that exist (the last warp of a block may be partial)
    uint32_t exited = 0;              // lanes that executed exit (or returned from the kernel)
    uint32_t carry = 0;               // add.cc / addc carry flag, one bit per lane
    uint32_t barrierId = 0;
    uint32_t barrierCount = 0;        // expected threads (0 = all of the block)
    int32_t barrierPc = -1;
    uint32_t localTop = 0;
    // A barrier (bar.sync) reached by some of the warp's live lanes while the others were still on
    // a path to the kernel's end (an early return before __syncthreads()). As on Volta and later,
    // the arrived lanes wait in the SIMT entry {parkedPc + 1, parkedRpc} while the others run on;
    // once those have exited, the warp waits at the barrier (Gpu::parkAtBarrier). 0: none.
    uint32_t parkedMask = 0;
    int32_t parkedPc = -1, parkedRpc = kExitPc;
    uint32_t parkedId = 0, parkedCount = 0;
    base::HotVector<Frame> frames;
    std::vector<std::vector<uint8_t>> local;   // per lane .local stack

    Warp() = default;
    // Moves keep the frames' storage (the cached pointers stay valid); a copy would not.
    Warp(Warp&&) noexcept = default;
    Warp& operator=(Warp&&) noexcept = default;
    Warp(const Warp&) = delete;
    Warp& operator=(const Warp&) = delete;

    // Helpers for the current position (-1 and 0 before admission and once the warp is done).
    int32_t pc() const { return top.pc; }
    uint32_t activeMask() const { return top.mask; }
    // Frame `fi`'s SIMT stack, bottom first and its top entry last (the app's view).
    std::vector<SimtEntry> simtStack(size_t fi) const {
        std::vector<SimtEntry> s = frames[fi].stack;
        if (fi + 1 == frames.size() && top.pc >= 0) s.push_back(top);   // kNoEntry: no top
        return s;
    }
    void setFrame() {
        regs = frames.back().regWords.data();
        preds = frames.back().preds.data();
    }
    // The flat position agrees with `frames` (tests check it after every issue): the pointers
    // are the last frame's, and a warp that is not done has a live top entry.
    bool positionConsistent() const {
        if (frames.empty()) return regs == nullptr && preds == nullptr && top.pc == -1 && top.mask == 0;
        if (regs != frames.back().regWords.data() || preds != frames.back().preds.data()) return false;
        if (state == WarpState::Done) return top.pc == kNoEntry.pc && top.rpc == kNoEntry.rpc && top.mask == 0;
        return top.pc >= 0 && top.mask != 0 && top.pc != top.rpc;
    }
};

struct Block {
    // (Allocated where the warps' state is: base/hot_memory.hpp.)
    static void* operator new(size_t bytes) { return base::hotAllocate(bytes); }
    static void operator delete(void* p, size_t bytes) noexcept { base::hotFree(p, bytes); }
    uint32_t linear = 0;
    base::Dim3 idx;
    base::HotVector<uint8_t> shared;   // (base/hot_memory.hpp, as the warps and their registers)
    base::HotVector<Warp> warps;
    uint32_t barRedAccum[16] = {};    // bar.red: lanes whose predicate was true, per barrier id
    uint32_t barRedLanes[16] = {};    // bar.red: lanes that arrived, per barrier id
    uint32_t readyWarps = 0;          // warps in state Ready (lets the scheduler skip a block)
    // Warps in state AtBarrier, all of them and by barrier id (id & 15), the ones among them that
    // gave a thread count, and the thread count each id's waiting warps expect (a count of 0 as
    // the block's size; synccheck stops a launch whose arrivals disagree, but a warp parked before
    // the disagreement can wait later: then kMixedCounts). With readyWarps they let
    // tryReleaseBarrier and the synccheck of an arrival answer without a pass over the warps
    // (countersConsistent() checks them against the warps).
    static constexpr uint32_t kMixedCounts = ~0u;
    uint32_t waitingWarps = 0;
    uint32_t countedWaiting = 0;
    uint32_t waitingAt[16] = {};
    uint32_t waitingCount[16] = {};
    uint32_t barrierEpoch = 0;        // barrier releases so far (racecheck)
    struct LastRelease {              // synccheck: the last completed instance of each barrier id
        int32_t pc = -1;              // -1 = never completed in this block
        uint32_t count = 0;           // its thread count (0 = all of the block)
        uint32_t warp = 0;            // a warp it released
    };
    LastRelease lastRelease[16];
    std::vector<uint8_t> sharedInit;  // initcheck: 1 per written byte of shared memory
    struct RaceCell {                 // racecheck: per 4-byte word of shared memory
        uint32_t writeEpoch = ~0u, readEpoch = ~0u, readers = 0, writerSync = 0, value = 0;
        int32_t writerPc = -1;
        uint16_t writerWarp = 0;
        uint8_t writerLane = 0;
        uint32_t atomicEpoch = ~0u, atomics = 0;   // the warps (0-31) that updated it atomically since that barrier
    };
    std::vector<RaceCell> race;
    // Asynchronous copies (ops_async.cpp): per thread of the block, its cp.async copies not yet
    // written to shared memory and the groups it committed; per 4-byte word of shared memory,
    // how many pending copies will write it (racecheck reports an access before then); the
    // block's mbarrier objects by shared offset. Empty until the first cp.async or mbarrier.
    struct AsyncCopy {
        uint32_t dst = 0;              // shared offset
        uint32_t group = ~0u;          // ~0u: not committed yet; else the thread's group number
        int32_t mbar = -1;             // bound by cp.async.mbarrier.arrive to the mbarrier at this offset
        int32_t pc = -1;
        uint8_t bytes = 0;
        uint8_t data[16] = {};         // read at issue; zeros past src-size
    };
    struct ThreadAsync {
        std::vector<AsyncCopy> copies;
        uint32_t committed = 0;        // groups committed so far
    };
    std::vector<ThreadAsync> async;
    std::vector<uint16_t> asyncPending;
    struct MBarrier {
        uint32_t expected = 0, pending = 0;
        uint64_t phase = 0;
        int32_t initPc = -1;
    };
    std::vector<std::pair<uint32_t, MBarrier>> mbarriers;
    // Inspection (Grid & warps' tiles): per warp, the member masks its last warp-synchronous
    // instruction (shfl/vote/match/redux .sync, bar.warp.sync) carried, lane by lane: with
    // cooperative groups a tile's mask (0xff << 8k for tiled_partition<8>). Empty until one runs.
    struct WarpSyncMasks {
        int32_t pc = -1;               // the instruction; -1: none yet
        uint32_t exec = 0;             // the lanes that executed it
        uint32_t mask[32] = {};        // per executing lane its membermask operand (0 elsewhere)
    };
    std::vector<WarpSyncMasks> warpSync;
    bool done = false;
    uint32_t sm = 0;
    // The counters above agree with the warps' states (tests check it after every issue).
    bool countersConsistent() const {
        uint32_t ready = 0, waiting = 0, counted = 0, at[16] = {};
        for (const Warp& w : warps) {
            if (w.state == WarpState::Ready) ++ready;
            if (w.state != WarpState::AtBarrier) continue;
            ++waiting;
            if (w.barrierId == kGridBarrierId) continue;
            counted += w.barrierCount != 0;
            ++at[w.barrierId & 15];
        }
        if (ready != readyWarps || waiting != waitingWarps || counted != countedWaiting) return false;
        for (int i = 0; i < 16; ++i)
            if (at[i] != waitingAt[i]) return false;
        const uint32_t wholeBlock = static_cast<uint32_t>(warps.size()) * 32;
        for (const Warp& w : warps) {
            const uint32_t c = waitingCount[w.barrierId & 15];
            if (w.state == WarpState::AtBarrier && w.barrierId != kGridBarrierId && c != kMixedCounts && c != (w.barrierCount ? w.barrierCount : wholeBlock)) return false;
        }
        return true;
    }
};

enum class LaunchState : uint8_t { Running, Finished, Faulted };

struct LaunchStats {
    uint64_t warpInstructions = 0;
    uint64_t threadInstructions = 0;
    uint64_t branches = 0;
    uint64_t divergentBranches = 0;
    uint64_t barriers = 0;             // barrier releases
    uint64_t blocksCompleted = 0;
};

// Gpu::issueFootprint: the host lines one instruction touches, by register-file word offset (a
// register's 32 lanes are 2 lines of 64 bytes, a 64-bit one's 4), at most kMaxRegs registers.
struct IssueFootprint {
    static constexpr int kMaxRegs = 4;
    uint32_t regOffset[kMaxRegs] = {};
    uint8_t regLines[kMaxRegs] = {};
    uint8_t regs = 0;                 // entries used
    int32_t pred = -1;                // a predicate it reads or writes (index), -1 none
    bool shared = false;              // a shared load or store: its lanes' offsets are
    bool sharedWideBase = false;      // the address register at sharedBase (32-bit, or the low
    uint32_t sharedBase = 0;          // words of a 64-bit one) plus sharedOffset
    uint32_t sharedOffset = 0;
};

struct Exec;   // one issued instruction's operands and staging (exec.hpp, the interpreter's own)

class Gpu {
public:
    Gpu(const Program& program, mem::GlobalMemory& memory, const base::LaunchConfig& config,
        const std::vector<base::ParamBytes>& params, LaunchOptions options = {});

    // --- control (each returns false once the launch is over: finished or faulted) ---
    bool step();                                  // one warp-instruction, next warp in round-robin order
    bool stepWarp(uint32_t residentSlot, uint32_t warpInBlock);  // one instruction of that warp, if ready
    // For the cycle model, which keeps pointers to the resident blocks and their warps: one
    // instruction of warp `w` of resident block `b` (as residentBlocks() gives them), if it is
    // ready, as if no listener were attached (no Step is built or handed over), so a converged
    // warp takes the lean path. A memory instruction's accesses go to `mem` (mem->valid; the
    // fields and addresses its Step would carry). Returns as stepWarp does.
    bool issueQuiet(Block& b, Warp& w, MemoryAccess* mem);
    // What issuing the instruction at `pc` touches in a warp's register file (the registers it
    // reads and writes, registerOperands, at the frame's layout: registerOffsets), its predicates
    // and, for a shared load or store, through its address register its block's shared memory:
    // for a caller that wants those lines fetched ahead (the cycle model, whose thousands of
    // resident warps issue one instruction each in turn, so their register files are cold).
    // Before packRegisterFiles it names the unpacked offsets.
    IssueFootprint issueFootprint(int32_t pc) const;
    // Per-pc sums of the issues made with no listener, as run() keeps them for a sums-only
    // listener: keepPcCounts() starts them from zero, handPcCounts(l) gives them to
    // l.addCounts and stops.
    void keepPcCounts();
    void handPcCounts(StepListener& l);
    bool stepLine(uint32_t residentSlot, uint32_t warpInBlock);  // until that warp reaches another source line
    bool runToBarrier();                          // until a barrier releases or the launch ends
    void run();                                   // to completion; throws the fault if one happens
    // To completion like run(), with the blocks spread over `threads` threads (contiguous shares,
    // each its own Gpu; stats and listener forks merged in block order) when that gives the same
    // results: nothing has issued yet, no checker is on, the listener can fork, and the kernel has
    // no global atomics, fences, strong (volatile/relaxed/acquire/release) global accesses or
    // %globaltimer (blocks that talk to each other run serially). A fault or an exceeded budget in
    // any share restores global memory and re-runs the launch serially, so the reported fault is
    // the serial one; a cancel stops at once.
    void runToEnd(uint32_t threads);
    // runToEnd's shares of `blocks` blocks for `threads` threads: the first block of each share and,
    // last, `blocks` (contiguous, in block order, none empty, smaller towards the end).
    static std::vector<uint64_t> shareBounds(uint64_t blocks, uint64_t threads);
    // Why runToEnd would run this launch on one thread ("" when it would not).
    std::string serialReason() const;
    uint64_t runFor(uint64_t maxSteps);           // up to maxSteps instructions; returns how many ran

    void setListener(sim::StepListener* l) { listener_ = l; }
    // For a launch whose register files nobody will look at (run() with no Step listener does it
    // itself; the cycle model's headless runs call it): from now on the kernel's registers that
    // are never live at once share slots (RegisterPacking), so register files stay in the host's
    // caches, and block admission clears only the registers read before written (zeroRegs_).
    // Results, counters and Steps are the same. The packing only before the first issue.
    void packRegisterFiles();
    sim::StepListener* listener() const { return listener_; }

    // --- hooks for the timing model (timing::TimedRun); functional results do not depend on them ---
    // How many blocks may be resident at once, and how many SMs the launch sees (%nsmid). Before
    // the first instruction has issued this may also lower the residency (blocks admitted but not
    // started are handed back, in reverse order); afterwards it only raises it. Returns false when
    // it could not lower the residency because the launch has already started.
    bool setResidency(uint32_t maxResidentBlocks, uint32_t numSMs);
    // The SM a resident block runs on (%smid), so %smid agrees with the cycle model's placement.
    void setBlockSm(uint32_t residentSlot, uint32_t sm);

    // --- state for clients (read-only) ---
    LaunchState state() const { return state_; }
    const std::optional<Error>& fault() const { return fault_; }
    const LaunchStats& stats() const { return stats_; }
    const std::vector<CheckReport>& reports() const { return reports_; }
    // Remarks about the run that are not findings (e.g. racecheck stopped tracking a big buffer).
    std::vector<std::string> notes() const;
    uint64_t raceShadowBytes() const;   // racecheck's global shadow now (0 when off)
    const LaunchOptions& options() const { return opt_; }
    mem::GlobalMemory& memory() { return mem_; }
    const Program& program() const { return prog_; }
    const base::LaunchConfig& config() const { return cfg_; }
    const std::vector<std::unique_ptr<Block>>& residentBlocks() const { return blocks_.resident; }
    uint32_t blocksLaunched() const { return static_cast<uint32_t>(blocks_.next); }
    uint64_t blockCount() const { return cfg_.grid.count(); }
    uint32_t warpsPerBlock() const { return warpsPerBlock_; }
    uint64_t stepCount() const { return stats_.warpInstructions; }
    // Where frames of function `func` keep each register (its first 32-bit word in
    // Frame::regWords): Function::regOffset, except for the kernel after a run with nobody
    // watching packed its register files (packRegisterFiles), where registers that are never
    // live at once share a slot: then a register that is no longer live shows whatever its slot
    // holds now.
    const uint32_t* registerOffsets(uint32_t func) const { return func == 0 ? kernelOffset_.data() : prog_.functions[func].regOffset.data(); }
    uint32_t sharedBytesPerBlock() const { return sharedBytes_; }

private:
    friend struct Exec;
    // The executors that change the scheduler's state (exec.hpp: control flow, barriers, fences,
    // the *.sync member-mask check).
    friend void execBranch(Exec&);
    friend void execCall(Exec&);
    friend void execExit(Exec&);
    friend void execTrap(Exec&);
    friend void execBarrier(Exec&);
    friend void execFence(Exec&);
    friend void execWarp(Exec&);
    friend void execAsync(Exec&);
    void admitBlocks();
    // runToEnd's shares: a Gpu that takes the launch's decoded kernel (pre-decoded instructions,
    // register packing) from `like` instead of deriving it again, and starts with another share's
    // retired blocks to recycle. (Null `like`: derive it, as the public constructor does.)
    Gpu(const Program& program, mem::GlobalMemory& memory, const base::LaunchConfig& config,
        const std::vector<base::ParamBytes>& params, LaunchOptions options, std::vector<std::unique_ptr<Block>> spares,
        const Gpu* like);
    bool pickAndIssue(int onlySlot, int onlyWarp);
    bool issueNext();
    void runLoop();   // to completion or the first fault (recorded, not thrown)
    void issue(Block& b, Warp& w);          // the lean path for pre-decoded whole-warp instructions, else issueGeneral
    void issueGeneral(Block& b, Warp& w);
    void reportDeadlock();                  // throws the deadlock fault when a warp waits at a barrier (kept out of issueNext's frame)
    // No warp can issue: when every live warp waits at the grid barrier, releases it (true) in a
    // serial run; a share of a parallel cooperative run stops there instead (gridParked_, false)
    // for runToEnd to release every share at once. Throws a deadlock when a block of the grid
    // ended without reaching it. False when no warp waits there.
    bool gridBarrierStall();
    void releaseGridBarrier();
    void runCooperative(uint32_t threads);   // runToEnd for a kernel with grid barriers
    void stopLaunch(Block& b, Warp& w, uint32_t active, const Instr& I);   // throws when over budget or cancelled
    void checkMemberMask(Block& b, Warp& w, const Instr& I, uint32_t exec, const uint64_t* masks);   // synccheck, *.sync
    void tryReleaseBarrier(Block& b);
    // bar.sync reached by the lanes `arrived` of the warp's live lanes: parks them and lets the
    // others run when those can only reach the kernel's end; false when they could meet a barrier.
    bool parkAtBarrier(Block& b, Warp& w, const Instr& I, uint32_t id, uint32_t count);
    void resumeParked(Block& b, Warp& w);   // the parked entry is on top again: wait, or park again
    [[noreturn]] void divergentBarrier(const Block& b, const Warp& w, const Instr& I, uint32_t arrived, uint32_t live);
    bool exitBound(int32_t pc);             // no barrier or call between pc and the kernel's end
    void waitAtBarrier(Block& b, Warp& w, uint32_t id, uint32_t count, int32_t pc);
    void retireIfDone(Block& b);
    void finishLanes(Warp& w, uint32_t lanes);   // exit: remove lanes from every frame
    [[noreturn]] void raise(Error::Kind kind, const std::string& what, const Block& b, const Warp& w, int lane,
                            const Instr* in, std::optional<uint64_t> address = std::nullopt, bool describeGlobal = false);
    // The site (kernel, block, thread, lane, lines, address, allocation) and full message of a
    // fault or report at this place.
    CheckReport locate(const std::string& what, const Block& b, const Warp& w, int lane, const Instr* in,
                       std::optional<uint64_t> address, bool describeGlobal) const;
    void recordFault(const Error& e);

    const Program& prog_;
    mem::GlobalMemory& mem_;
    mem::Allocation* allocCache_ = nullptr;   // this Gpu's one-entry cache of GlobalMemory::find
    base::LaunchConfig cfg_;
    std::vector<base::ParamBytes> params_;
    std::vector<uint8_t> kernelParams_;
    LaunchOptions opt_;
    uint32_t threadsPerBlock_ = 0, warpsPerBlock_ = 0, sharedBytes_ = 0;
    Residency<Block> blocks_;   // resident and retired blocks, the next to admit, the round-robin position
    LaunchState state_ = LaunchState::Running;
    std::optional<Error> fault_;
    LaunchStats stats_;
    sim::StepListener* listener_ = nullptr;
    // runLoop with a sums-only listener: per-pc sums kept here instead of Steps (see StepListener::sumsOnly).
    bool countByPc_ = false;
    std::vector<PcCounts> pcCounts_;
    bool barrierReleased_ = false;
    // The grid barrier (kGridBarrierId): warps waiting there; a share of a parallel cooperative run
    // (runCooperative) stops when all its blocks' live warps wait there (gridParked_).
    uint32_t gridWaiting_ = 0;
    bool gridShare_ = false, gridParked_ = false;
    struct Arrival {
        bool arrived = false;
        uint8_t id = 0;
        uint32_t count = 0;
    } arrival_;                       // the issue in progress made its warp arrive at a barrier (Step::barrierArrival)
    std::vector<int8_t> exitBound_;   // per pc: -1 not known yet, 0 a barrier or call can follow, 1 only the end
    std::vector<CheckReport> reports_;
    std::set<std::string> reportKeys_;   // one report per (tool, hazard, PTX line)
    std::unique_ptr<GlobalRaceCheck> race_;   // only with racecheck
    uint64_t checkAt_ = 0;                // next instruction count at which to look at the budget and cancel flag
    // Block admission inside runLoop with no Step listener (nobody can look at a register file
    // mid-run) clears only these kernel registers of a recycled register file: the others are
    // always written before they are read (registersReadBeforeWritten). Elsewhere (stepping, the
    // app, the cycle model) register files start all zero, as the register display expects.
    std::vector<uint32_t> zeroRegs_;
    bool unwatched_ = false;
    // The kernel's register layout (registerOffsets): Function::regOffset, or a RegisterPacking
    // chosen by packRegisterFiles at the start of a run nobody watches (smaller register files
    // stay in the host's caches; results are the same).
    std::vector<uint32_t> kernelOffset_;
    uint32_t kernelWords_ = 0;
    bool packTried_ = false;
    bool headless_ = false;   // packRegisterFiles: nobody will look at a register file in this launch
    void packKernelRegisters();
    // The pre-decoded form (predecode.hpp), used for whole-warp issues when no checker is on.
    std::vector<FastOp> fast_;
    bool fastOk_ = false;
    // Runs `op` for all 32 lanes of the warp's current frame (Warp::regs, Warp::preds;
    // fast_exec.cpp); false when the general path must run it (nothing has changed then).
    // `stepAddrs`: null when nobody wants this instruction's Step; else a memory handler writes
    // its lanes' addresses there (as Step::addresses gives them: computeAddresses' arithmetic).
    using FastFn = bool (*)(Gpu&, const FastOp&, Block&, Warp&, uint64_t* stepAddrs);
    MemoryAccess* memTap_ = nullptr;   // issueQuiet's `mem` while it issues
    static FastFn chooseFastFn(bool baseline);   // the AVX2+FMA build of the handlers where the CPU has them, unless `baseline`
    FastFn fastFn_ = nullptr;
    friend struct FastExec;
public:
    ~Gpu();
    GlobalRaceCheck& globalRace() { return *race_; }   // only when options().racecheck
    // False when a report of this (tool, hazard, instruction) would be dropped as a duplicate or
    // past the cap: callers skip composing its message (hazards repeat in loops).
    bool reportWanted(const std::string& tool, const std::string& hazard, const Instr* in) const {
        return reports_.size() < opt_.maxReports && !reportKeys_.count(reportKey(tool, hazard, in ? in->ptxLine : 0));
    }
    static std::string reportKey(const std::string& tool, const std::string& hazard, uint32_t ptxLine) {
        return tool + "|" + hazard + "|" + std::to_string(ptxLine);
    }
    void keepReport(CheckReport r);   // once per (tool, hazard, PTX line), up to the cap
    // Adds a report (deduplicated, capped at LaunchOptions::maxReports).
    void report(const std::string& tool, const std::string& hazard, const std::string& what, const Block& b, const Warp& w, int lane,
                const Instr* in, std::optional<uint64_t> address);
};

} // namespace warpscope::sim
