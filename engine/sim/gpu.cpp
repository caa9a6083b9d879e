// The warp interpreter.
//
// Sections: 1. Launch set-up  2. Scheduling and control  3. SIMT bookkeeping (settle, exit,
//           barriers)  4. Faults  5. Exec: operand access and memory  6. Exec: instruction
//           families  7. issue()
#include "sim/gpu.hpp"

#include "mem/journal.hpp"
#include "sim/arith.hpp"
#include "sim/checkers.hpp"
#include "sim/tensor.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <exception>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <sstream>
#include <system_error>
#include <thread>

namespace warpscope::sim {

using ptx::StateSpace;
using ptx::Type;

namespace {
constexpr uint32_t kFull = 0xffffffffu;
constexpr uint64_t kCancelPoll = 4096;   // warp-instructions between looks at LaunchOptions::cancel
constexpr uint32_t kFrameLocal = 255;   // Operand::Special index: frame local base + imm (see compile.cpp)

template <class F>
inline void forLanes(uint32_t mask, F&& f) {
    if (mask == kFull) {
        for (int l = 0; l < 32; ++l) f(l);
    } else {
        while (mask) {
            int l = std::countr_zero(mask);
            mask &= mask - 1;
            f(l);
        }
    }
}

int64_t alignUp(int64_t v, int64_t a) { return (v + a - 1) / a * a; }
} // namespace

// ---------------------------------------------------------------- 1. Launch set-up
Gpu::Gpu(const Program& program, mem::GlobalMemory& memory, const base::LaunchConfig& config,
         const std::vector<base::ParamBytes>& params, LaunchOptions options)
    : Gpu(program, memory, config, params, options, {}, nullptr) {}

Gpu::Gpu(const Program& program, mem::GlobalMemory& memory, const base::LaunchConfig& config,
         const std::vector<base::ParamBytes>& params, LaunchOptions options, std::vector<std::unique_ptr<Block>> spares,
         const Gpu* like)
    : prog_(program), mem_(memory), cfg_(config), params_(params), opt_(options), spare_(std::move(spares)) {
    auto bad = [&](const std::string& m) {
        FaultSite s;
        s.kernel = prog_.kernelName;
        throw Error(Error::Kind::Input, "Cannot launch '" + prog_.kernelName + "': " + m, s);
    };
    const auto& b = cfg_.block;
    const auto& g = cfg_.grid;
    if (b.x == 0 || b.y == 0 || b.z == 0 || g.x == 0 || g.y == 0 || g.z == 0)
        bad("grid and block dimensions must all be at least 1.");
    if (b.x > 1024 || b.y > 1024 || b.z > 64 || b.count() > 1024)
        bad("a block may have at most 1024 threads (x, y <= 1024, z <= 64); this one has " +
            std::to_string(b.x) + "x" + std::to_string(b.y) + "x" + std::to_string(b.z) + ".");
    if (g.x > 0x7fffffffu || g.y > 65535 || g.z > 65535) bad("grid dimensions exceed the limits (2^31-1, 65535, 65535).");
    if (g.count() > opt_.maxBlocks)
        bad("the grid has " + std::to_string(g.count()) + " blocks, more than the simulator's limit of " + std::to_string(opt_.maxBlocks) +
            " blocks per launch. Simulating that many takes very long; use a smaller problem size, or raise the limit "
            "(warpscope run --max-blocks N).");
    threadsPerBlock_ = static_cast<uint32_t>(b.count());
    warpsPerBlock_ = (threadsPerBlock_ + 31) / 32;
    uint64_t shared = alignUp(prog_.staticSharedBytes, prog_.dynamicSharedAlign) + cfg_.dynamicSharedBytes;
    if (cfg_.dynamicSharedBytes == 0) shared = prog_.staticSharedBytes;
    if (shared > 227 * 1024)
        bad("it needs " + std::to_string(shared) + " bytes of shared memory per block; the limit is 227 KiB.");
    sharedBytes_ = static_cast<uint32_t>(shared);
    if (params.size() != prog_.params.size())
        bad("the kernel takes " + std::to_string(prog_.params.size()) + " parameters, but " +
            std::to_string(params.size()) + " were given.");
    int total = 0;
    for (auto& p : prog_.params) total = std::max(total, p.offset + p.size);
    kernelParams_.assign(static_cast<size_t>(total), 0);
    for (size_t i = 0; i < params.size(); ++i) {
        const auto& kp = prog_.params[i];
        if (params[i].size() != static_cast<size_t>(kp.size))
            bad("parameter " + std::to_string(i) + " ('" + kp.name + "') has " + std::to_string(kp.size) +
                " bytes, but " + std::to_string(params[i].size()) + " were given.");
        std::memcpy(kernelParams_.data() + kp.offset, params[i].data(), params[i].size());
    }
    if (opt_.maxResidentBlocks == 0) opt_.maxResidentBlocks = 1;
    opt_.endBlock = std::min<uint64_t>(opt_.endBlock, cfg_.grid.count());
    opt_.firstBlock = std::min(opt_.firstBlock, opt_.endBlock);
    nextBlock_ = static_cast<uint32_t>(opt_.firstBlock);
    if (opt_.racecheck) race_ = std::make_unique<GlobalRaceCheck>(opt_.raceTrackBytes);
    if (like) {
        zeroRegs_ = like->zeroRegs_;
        kernelOffset_ = like->kernelOffset_;
        kernelWords_ = like->kernelWords_;
        fast_ = like->fast_;
        packTried_ = like->packTried_;
        headless_ = like->headless_;
    } else {
        zeroRegs_ = registersReadBeforeWritten(prog_, 0);
        kernelOffset_ = prog_.functions[0].regOffset;
        kernelWords_ = prog_.functions[0].regWords;
        fast_ = predecode(prog_);
    }
    fastFn_ = chooseFastFn(opt_.baselineHandlers);
    fastOk_ = !opt_.initcheck && !opt_.racecheck;   // the checkers look at every access on the general path
    checkAt_ = opt_.cancel ? std::min<uint64_t>(opt_.instructionBudget, kCancelPoll) : opt_.instructionBudget;
    admitBlocks();
}

Gpu::~Gpu() = default;

std::vector<std::string> Gpu::notes() const {
    std::vector<std::string> n;
    if (race_ && race_->stoppedTracking())
        n.push_back("racecheck stopped tracking global memory after " + std::to_string(race_->trackLimit() >> 20) + " MiB in kernel '" +
                    prog_.kernelName + "': accesses beyond that were not checked for races (raise the limit with --race-track-mb N; "
                    "the shadow takes 9 bytes per byte tracked).");
    return n;
}

uint64_t Gpu::raceShadowBytes() const { return race_ ? race_->shadowBytes() : 0; }

namespace {
// A zeroed register file of exactly `words` words. One that held a bigger layout (the unpacked
// one, before packKernelRegisters) gets a block of its new size: assign() would keep the old
// capacity, and with it a power-of-two block several times too big, placed at the same offset
// in every warp (the host's caches then hold far fewer warps' registers).
void fitRegisterFile(base::HotVector<uint32_t>& regs, uint32_t words) {
    if (regs.capacity() == words) regs.assign(words, 0);
    else base::HotVector<uint32_t>(words, 0).swap(regs);
}
} // namespace

void Gpu::admitBlocks() {
    const Function& kf = prog_.functions[0];
    while (resident_.size() < opt_.maxResidentBlocks && nextBlock_ < opt_.endBlock) {
        // Retired blocks are recycled: their vectors keep their capacity, so admitting a block
        // costs clearing memory, not allocating it (grids of many small blocks are common).
        std::unique_ptr<Block> blk;
        if (!spare_.empty()) {
            blk = std::move(spare_.back());
            spare_.pop_back();
        } else {
            blk = std::make_unique<Block>();
        }
        uint32_t lin = nextBlock_++;
        blk->linear = lin;
        blk->done = false;
        std::memset(blk->barRedAccum, 0, sizeof blk->barRedAccum);
        std::memset(blk->barRedLanes, 0, sizeof blk->barRedLanes);
        for (auto& r : blk->lastRelease) r = Block::LastRelease{};
        blk->idx.x = lin % cfg_.grid.x;
        blk->idx.y = (lin / cfg_.grid.x) % cfg_.grid.y;
        blk->idx.z = lin / (cfg_.grid.x * cfg_.grid.y);
        blk->sm = lin % std::max(1u, opt_.numSMs);
        blk->shared.assign(sharedBytes_, 0);
        blk->barrierEpoch = 0;
        if (opt_.initcheck) blk->sharedInit.assign(sharedBytes_, 0);
        if (opt_.racecheck) blk->race.assign(sharedBytes_ / 4 + 1, Block::RaceCell{});
        blk->warps.resize(warpsPerBlock_);
        blk->readyWarps = warpsPerBlock_;
        for (uint32_t wi = 0; wi < warpsPerBlock_; ++wi) {
            Warp& w = blk->warps[wi];
            w.indexInBlock = wi;
            uint32_t lanes = std::min<uint32_t>(32, threadsPerBlock_ - wi * 32);
            w.validMask = lanes == 32 ? kFull : ((1u << lanes) - 1);
            w.exited = 0;
            w.syncEpoch = 0;
            w.state = WarpState::Ready;
            w.barrierId = w.barrierCount = 0;
            w.barrierPc = -1;
            w.issued = 0;
            w.carry = 0;
            w.parkedMask = 0;
            w.parkedPc = -1;
            w.frames.resize(1);
            Frame& f = w.frames[0];
            f.func = 0;
            if ((unwatched_ || headless_) && f.regWords.size() == kernelWords_) {
                for (uint32_t r : zeroRegs_) std::memset(f.narrow(kernelOffset_[r]), 0, kf.regWide[r] ? 32 * 8 : 32 * 4);
            } else {
                fitRegisterFile(f.regWords, kernelWords_);
            }
            f.preds.assign(kf.numPreds, 0);
            f.params.resize(size_t(kf.paramBytes) * 32);
            if (kf.paramBytes) {
                // Lane 0 from the launch's parameters (zero past them), then doubling copies of
                // the lanes filled so far: 5 copies instead of 32 per warp.
                const size_t pb = kf.paramBytes, n = std::min(kernelParams_.size(), pb);
                uint8_t* p = f.params.data();
                std::memcpy(p, kernelParams_.data(), n);
                if (pb > n) std::memset(p + n, 0, pb - n);
                for (size_t lanes = 1; lanes < 32; lanes *= 2) std::memcpy(p + lanes * pb, p, lanes * pb);
            }
            f.localBase = 0;
            f.stack.clear();   // the kernel's one entry is the warp's flat top
            w.top = {kf.entry, kExitPc, w.validMask};
            f.returnPc = f.callSite = -1;
            f.returned = 0;
            w.setFrame();
            w.local.resize(32);
            w.localTop = kf.localBytes;
            if (kf.localBytes) {
                for (auto& l : w.local) l.assign(kf.localBytes, 0);
            } else {
                for (auto& l : w.local) l.clear();   // a recycled warp may hold a callee's frames
            }
        }
        resident_.push_back(std::move(blk));
    }
}

bool Gpu::setResidency(uint32_t maxResidentBlocks, uint32_t numSMs) {
    opt_.numSMs = std::max(1u, numSMs);
    opt_.maxResidentBlocks = std::max(1u, maxResidentBlocks);
    bool ok = true;
    if (stats_.warpInstructions == 0) {
        // Nothing has run: blocks beyond the new limit go back (they are the last admitted).
        while (resident_.size() > opt_.maxResidentBlocks) {
            spare_.push_back(std::move(resident_.back()));
            resident_.pop_back();
            --nextBlock_;
        }
        rrBlock_ = 0;
        rrWarp_ = 0;
    } else if (resident_.size() > opt_.maxResidentBlocks) {
        ok = false;
    }
    admitBlocks();
    return ok;
}

void Gpu::setBlockSm(uint32_t residentSlot, uint32_t sm) {
    if (residentSlot < resident_.size()) resident_[residentSlot]->sm = sm;
}

// ---------------------------------------------------------------- 2. Scheduling and control
bool Gpu::pickAndIssue(int onlySlot, int onlyWarp) {
    if (state_ != LaunchState::Running) return false;
    try {
        if (onlySlot >= 0) {
            if (static_cast<size_t>(onlySlot) >= resident_.size()) return false;
            Block& b = *resident_[static_cast<size_t>(onlySlot)];
            if (static_cast<size_t>(onlyWarp) >= b.warps.size()) return false;
            Warp& w = b.warps[static_cast<size_t>(onlyWarp)];
            if (w.state != WarpState::Ready) return false;
            issue(b, w);
            if (w.state == WarpState::Done) retireIfDone(b);
            return true;
        }
        return issueNext();
    } catch (const Error& e) {
        recordFault(e);
        return false;
    }
}

// The next warp in round-robin order issues one instruction; false (launch finished) when no
// block is left. Throws the Error of a fault, a deadlock, an exceeded budget or a cancel.
bool Gpu::issueNext() {
    for (;;) {
        if (resident_.empty()) {
            state_ = LaunchState::Finished;
            return false;
        }
        // Round-robin over (block, warp) from the cursor.
        size_t nb = resident_.size();
        if (rrBlock_ >= nb) {
            rrBlock_ = 0;
            rrWarp_ = 0;
        }
        size_t totalWarps = nb * warpsPerBlock_;
        for (size_t k = 0; k < totalWarps; ++k) {
            Block& b = *resident_[rrBlock_];
            if (b.readyWarps == 0) {   // nothing to issue here: move to the next block
                k += warpsPerBlock_ - rrWarp_ - 1;
                rrWarp_ = 0;
                rrBlock_ = (rrBlock_ + 1) % nb;
                continue;
            }
            uint32_t wi = rrWarp_;
            if (++rrWarp_ >= warpsPerBlock_) {
                rrWarp_ = 0;
                rrBlock_ = (rrBlock_ + 1) % nb;
            }
            Warp& w = b.warps[wi];
            if (w.state != WarpState::Ready) continue;
            issue(b, w);
            if (w.state == WarpState::Done) retireIfDone(b);
            return true;
        }
        // Nobody could issue: every live warp of every resident block waits at a barrier
        // that cannot complete.
        reportDeadlock();
        state_ = LaunchState::Finished;
        return false;
    }
}

[[gnu::noinline]] void Gpu::reportDeadlock() {
    {
        Block& b = *resident_.front();
        for (auto& w : b.warps) {
            if (w.state == WarpState::AtBarrier) {
                const Instr* in = w.barrierPc >= 0 ? &prog_.code[static_cast<size_t>(w.barrierPc)] : nullptr;
                std::ostringstream os;
                os << "Deadlock: every warp of block (" << b.idx.x << "," << b.idx.y << "," << b.idx.z
                   << ") still running waits at a barrier that can never complete. Warp " << w.indexInBlock
                   << " waits at barrier " << w.barrierId;
                if (w.barrierCount) os << " for " << w.barrierCount << " threads";
                int arrived = 0, live = 0;
                for (auto& o : b.warps) {
                    if (o.state != WarpState::Done) ++live;
                    if (o.state == WarpState::AtBarrier && o.barrierId == w.barrierId) ++arrived;
                }
                os << "; " << arrived << " of " << live << " live warps arrived there";
                for (auto& o : b.warps)
                    if (o.state == WarpState::AtBarrier && o.barrierId != w.barrierId) {
                        os << ", warp " << o.indexInBlock << " waits at barrier " << o.barrierId << " instead";
                        break;
                    }
                // A count mismatch where the smaller count arrived first: that instance
                // completed early, and the warps expecting more now wait for nobody.
                const Block::LastRelease& last = b.lastRelease[w.barrierId & 15];
                if (last.pc >= 0 && last.count != w.barrierCount) {
                    const Instr& li = prog_.code[static_cast<size_t>(last.pc)];
                    os << ". Barrier " << w.barrierId << " last completed with a count of "
                       << (last.count ? std::to_string(last.count) + " threads" : std::string("all threads of the block"))
                       << " (warp " << last.warp << ", ";
                    if (li.line) os << "source line " << li.line << ", ";
                    os << "PTX line " << li.ptxLine << ": " << li.text
                       << "); if those warps were meant to meet this one, the warps disagree on the barrier's thread count";
                }
                raise(Error::Kind::Deadlock, os.str() + ".", b, w, std::countr_zero(w.validMask & ~w.exited), in);
            }
        }
    }
}

bool Gpu::step() { return pickAndIssue(-1, -1); }

void Gpu::runLoop() {
    // step() in a loop, with one try block for the whole run instead of one per instruction.
    if (state_ != LaunchState::Running) return;
    // A sums-only listener (the per-line statistics) gets per-pc sums at the end instead of a
    // Step per instruction; the guard hands them over and restores it however the loop ends.
    struct PcSums {
        Gpu& g;
        StepListener* listener = nullptr;
        explicit PcSums(Gpu& gpu) : g(gpu) {
            if (!g.listener_ || !g.listener_->sumsOnly()) return;
            listener = g.listener_;
            g.pcCounts_.assign(g.prog_.code.size(), PcCounts{});
            g.listener_ = nullptr;
            g.countByPc_ = true;
        }
        ~PcSums() {
            if (!listener) return;
            g.listener_ = listener;
            g.countByPc_ = false;
            listener->addCounts(g.prog_.code.data(), g.pcCounts_.data(), g.pcCounts_.size());
        }
    } sums(*this);
    // With no Step listener nobody sees a register file until the run ends (see zeroRegs_).
    struct Unwatched {
        Gpu& g;
        explicit Unwatched(Gpu& gpu) : g(gpu) { g.unwatched_ = g.listener_ == nullptr; }
        ~Unwatched() { g.unwatched_ = false; }
    } unwatched(*this);
    if (unwatched_) packKernelRegisters();
    try {
        while (issueNext()) {
        }
    } catch (const Error& e) {
        recordFault(e);
    }
}

void Gpu::packRegisterFiles() {
    headless_ = true;
    packKernelRegisters();
}

void Gpu::packKernelRegisters() {
    // Only before anything has issued (every register file is still all zero) and once.
    if (packTried_ || stats_.warpInstructions != 0 || !fastOk_) return;
    packTried_ = true;
    RegisterPacking p = packRegisters(prog_, 0, zeroRegs_);
    if (p.offset.empty()) return;
    kernelOffset_ = std::move(p.offset);
    kernelWords_ = p.words;
    fast_ = predecode(prog_, &kernelOffset_);
    for (auto& blk : resident_)
        for (auto& w : blk->warps)
            if (w.frames.size() == 1) {
                fitRegisterFile(w.frames[0].regWords, kernelWords_);
                w.setFrame();
            }
}

bool Gpu::stepWarp(uint32_t slot, uint32_t warp) {
    return pickAndIssue(static_cast<int>(slot), static_cast<int>(warp));
}

bool Gpu::issueQuiet(Block& b, Warp& w, MemoryAccess* mem) {
    if (mem) mem->valid = false;
    if (state_ != LaunchState::Running || w.state != WarpState::Ready) return false;
    StepListener* const listener = listener_;
    listener_ = nullptr;
    memTap_ = mem;
    bool ok = true;
    try {
        issue(b, w);
        if (w.state == WarpState::Done) retireIfDone(b);
    } catch (const Error& e) {
        recordFault(e);
        ok = false;
    } catch (...) {
        listener_ = listener;
        memTap_ = nullptr;
        throw;
    }
    listener_ = listener;
    memTap_ = nullptr;
    return ok;
}

IssueFootprint Gpu::issueFootprint(int32_t pc) const {
    IssueFootprint f;
    if (pc < 0 || size_t(pc) >= prog_.code.size()) return f;
    const Instr& I = prog_.code[static_cast<size_t>(pc)];
    uint32_t func = 0;
    while (func + 1 < prog_.functions.size() && !(pc >= prog_.functions[func].entry && pc < prog_.functions[func].end)) ++func;
    const Function& fn = prog_.functions[func];
    const uint32_t* offset = registerOffsets(func);   // the frame's layout (packed, for the kernel after packRegisterFiles)
    // The registers it reads, then the ones it writes (the analysis the packing uses), each once.
    auto reg = [&](uint32_t r) {
        for (int k = 0; k < f.regs; ++k)
            if (f.regOffset[k] == offset[r]) return;
        if (f.regs == IssueFootprint::kMaxRegs) return;
        f.regOffset[f.regs] = offset[r];
        f.regLines[f.regs++] = fn.regWide[r] ? 4 : 2;
    };
    const RegisterOperands ro = registerOperands(I, fn.numRegs);
    for (const auto* list : {&ro.reads, &ro.full, &ro.partial})
        for (uint32_t r : *list) reg(r);
    if (I.guard.kind == Operand::Kind::Pred) f.pred = int32_t(I.guard.index);
    else if (I.dst.kind == Operand::Kind::Pred) f.pred = int32_t(I.dst.index);
    if ((I.op == Op::Ld || I.op == Op::St) && I.space == StateSpace::Shared && I.addr.base.kind == Operand::Kind::Reg &&
        I.addr.base.index < fn.numRegs) {
        f.shared = true;
        f.sharedWideBase = fn.regWide[I.addr.base.index];
        f.sharedBase = offset[I.addr.base.index];
        f.sharedOffset = uint32_t(I.addr.offset);
    }
    return f;
}

void Gpu::keepPcCounts() {
    pcCounts_.assign(prog_.code.size(), PcCounts{});
    countByPc_ = true;
}

void Gpu::handPcCounts(StepListener& l) {
    countByPc_ = false;
    l.addCounts(prog_.code.data(), pcCounts_.data(), pcCounts_.size());
}

bool Gpu::stepLine(uint32_t slot, uint32_t warp) {
    if (slot >= resident_.size() || warp >= warpsPerBlock_) return false;
    const Block* blk = resident_[slot].get();
    auto lineOf = [&](const Warp& w) -> uint32_t {
        int32_t pc = w.pc();
        return pc >= 0 ? prog_.code[static_cast<size_t>(pc)].line : 0;
    };
    uint32_t start = lineOf(blk->warps[warp]);
    // Other warps keep running in round-robin order so barriers can complete.
    for (uint64_t guard = 0; guard < opt_.instructionBudget; ++guard) {
        if (state_ != LaunchState::Running) return false;
        bool found = false;
        for (auto& r : resident_)
            if (r.get() == blk) found = true;
        if (!found) return true;   // the block finished
        const Warp& w = blk->warps[warp];
        if (w.state == WarpState::Done) return true;
        if (w.state == WarpState::Ready) {
            size_t s = 0;
            while (resident_[s].get() != blk) ++s;
            pickAndIssue(static_cast<int>(s), static_cast<int>(warp));
            if (state_ != LaunchState::Running) return false;
            bool still = false;
            for (auto& r : resident_)
                if (r.get() == blk) still = true;
            if (!still || blk->warps[warp].state == WarpState::Done) return true;
            uint32_t now = lineOf(blk->warps[warp]);
            if (now != start && now != 0) return true;
        } else if (!step()) {
            return false;
        }
    }
    return state_ == LaunchState::Running;
}

bool Gpu::runToBarrier() {
    barrierReleased_ = false;
    while (state_ == LaunchState::Running && !barrierReleased_)
        if (!step()) break;
    return state_ == LaunchState::Running;
}

uint64_t Gpu::runFor(uint64_t maxSteps) {
    uint64_t n = 0;
    while (n < maxSteps && step()) ++n;
    return n;
}

void Gpu::run() {
    runLoop();
    if (fault_) throw *fault_;
}

std::string Gpu::serialReason() const {
    if (state_ != LaunchState::Running || stats_.warpInstructions > 0) return "the launch has already started";
    if (opt_.initcheck || opt_.racecheck) return "a checker (initcheck, racecheck) needs every access in one order";
    if (listener_ && !listener_->fork()) return "a listener (the cache model of the counters) needs one issue order";
    if (opt_.endBlock - opt_.firstBlock < 2) return "one block";
    for (const Instr& in : prog_.code) {
        const bool globalish = in.space != StateSpace::Shared && in.space != StateSpace::Local && in.space != StateSpace::Param;
        if ((in.op == Op::Atom || in.op == Op::Red) && globalish) return "the kernel uses global atomics (blocks may communicate)";
        if (in.op == Op::Membar || in.op == Op::Fence) return "the kernel uses memory fences (blocks may communicate)";
        if ((in.op == Op::Ld || in.op == Op::St) && (in.order & kOrderStrong) && globalish)
            return "the kernel uses volatile or ordered global accesses (blocks may communicate)";
        for (const Operand& o : in.src)
            if (o.kind == Operand::Kind::Special && o.index == static_cast<uint32_t>(Sreg::GlobalTimer))
                return "the kernel reads %globaltimer (it counts the whole launch's instructions)";
    }
    return "";
}

std::vector<uint64_t> Gpu::shareBounds(uint64_t blocks, uint64_t threads) {
    // Each share takes 1/(2 x threads) of the blocks still unassigned, but at least 1/(32 x
    // threads) of the grid: the first round of shares covers about half the grid, and the last
    // ones are small, so threads that finish at different times wait little for each other.
    std::vector<uint64_t> b{0};
    if (blocks == 0) return b;
    threads = std::max<uint64_t>(threads, 1);
    const uint64_t least = std::max<uint64_t>(1, blocks / (32 * threads));
    for (uint64_t at = 0; at < blocks;) {
        const uint64_t left = blocks - at;
        at += std::min(left, std::max(least, left / (2 * threads)));
        b.push_back(at);
    }
    return b;
}

void Gpu::runToEnd(uint32_t threads) {
    const uint64_t first = opt_.firstBlock, total = opt_.endBlock - opt_.firstBlock;
    const uint64_t nt = std::min<uint64_t>(threads, total);
    if (nt <= 1 || !serialReason().empty()) return run();
    // The shares take the kernel as this Gpu decoded it; packed first when their runs will pack it
    // (runLoop: a run that no Step listener watches), so no share packs or clears twice.
    if (!listener_ || listener_->sumsOnly()) packKernelRegisters();
    // Global memory as it was, for the serial re-run after a fault: each chunk is copied by the
    // first store into it (mem/journal.hpp), so only written chunks are copied, by the shares.
    mem::WriteJournal journal(mem_);
    // More shares than threads (contiguous runs of blocks, in block order, smaller towards the end:
    // shareBounds), taken in turn by the threads as they finish one, so a share that runs slower
    // (a busy core) or a thread that starts late holds up the end little. Each thread builds the
    // Gpus of the shares it takes, so nothing is built serially.
    const std::vector<uint64_t> bounds = shareBounds(total, nt);
    const uint64_t ns = bounds.size() - 1;
    std::vector<std::unique_ptr<Gpu>> parts(ns);
    std::vector<std::unique_ptr<StepListener>> forks(ns);
    for (uint64_t i = 0; i < ns; ++i) forks[i] = listener_ ? listener_->fork() : nullptr;
    std::atomic<uint64_t> nextShare{0}, finishedInstructions{0};
    // A share faulted (or could not be built), the finished shares are past the launch's budget, or
    // the user cancelled: no more shares start (the launch re-runs serially, or stops).
    std::atomic<bool> stop{false};
    auto stopped = [&] {
        return stop.load(std::memory_order_relaxed) || finishedInstructions.load(std::memory_order_relaxed) > opt_.instructionBudget ||
               (opt_.cancel && opt_.cancel->load(std::memory_order_relaxed));
    };
    auto worker = [&] {
        std::vector<std::unique_ptr<Block>> spares;   // the thread's last share's blocks, recycled
        for (uint64_t i; !stopped() && (i = nextShare.fetch_add(1)) < ns;) {
            try {
                if (opt_.beforeShare) opt_.beforeShare(i);
                LaunchOptions o = opt_;
                o.threads = 1;
                o.beforeShare = nullptr;
                o.firstBlock = first + bounds[i];
                o.endBlock = first + bounds[i + 1];
                std::unique_ptr<Gpu> g(new Gpu(prog_, mem_, cfg_, params_, o, std::move(spares), this));
                g->setListener(forks[i].get());
                g->runLoop();
                spares = std::move(g->spare_);
                if (g->fault_) stop.store(true, std::memory_order_relaxed);
                finishedInstructions.fetch_add(g->stats_.warpInstructions, std::memory_order_relaxed);
                parts[i] = std::move(g);
            } catch (...) {
                stop.store(true, std::memory_order_relaxed);   // parts[i] stays empty
            }
        }
    };
    {
        // The calling thread is one of the workers: it starts at once, while a new thread may wait
        // for its core to wake up. A thread the system will not start leaves its shares to the others.
        std::vector<std::jthread> pool;
        for (uint64_t t = 1; t < nt; ++t) {
            try {
                pool.emplace_back(worker);
            } catch (const std::system_error&) {
                break;
            }
        }
        worker();
    }
    bool redo = false;
    LaunchStats sum;
    for (auto& p : parts) {
        if (!p) {   // not run: another share faulted first, or this one could not be built
            redo = true;
            continue;
        }
        if (p->fault_) {
            // Cancelled by the user: report it at once (a serial re-run would only stop at its
            // first look at the flag, after restoring memory for nothing).
            if (opt_.cancel && opt_.cancel->load(std::memory_order_relaxed) &&
                (p->fault_->kind() == Error::Kind::Cancelled || p->fault_->kind() == Error::Kind::Budget)) {
                recordFault(*p->fault_);
                throw *fault_;
            }
            redo = true;
        }
        const LaunchStats& s = p->stats_;
        sum.warpInstructions += s.warpInstructions;
        sum.threadInstructions += s.threadInstructions;
        sum.branches += s.branches;
        sum.divergentBranches += s.divergentBranches;
        sum.barriers += s.barriers;
        sum.blocksCompleted += s.blocksCompleted;
    }
    if (redo || sum.warpInstructions > opt_.instructionBudget) {
        journal.rollBack();
        return run();
    }
    journal.close();
    for (size_t i = 0; i < parts.size(); ++i)
        if (listener_) listener_->join(*forks[i]);
    // Reports that did not stop a share (synccheck's divergent barrier after exits), in block
    // order, once per (tool, hazard, PTX line) as report() keeps them.
    for (auto& p : parts)
        for (CheckReport& r : p->reports_) keepReport(std::move(r));
    stats_ = sum;
    spare_.clear();
    resident_.clear();
    nextBlock_ = static_cast<uint32_t>(opt_.endBlock);
    state_ = LaunchState::Finished;
}

std::vector<uint64_t> registerValues(const Function& fn, const Frame& f, const uint32_t* offsets) {
    const size_t n = fn.regOffset.size();
    if (!offsets) offsets = fn.regOffset.data();
    std::vector<uint64_t> out(n * 32, 0);
    for (size_t r = 0; r < n; ++r) {
        const size_t end = offsets[r] + (fn.regWide[r] ? 64 : 32);
        if (end > f.regWords.size()) continue;
        for (uint32_t l = 0; l < 32; ++l) out[r * 32 + l] = fn.regWide[r] ? f.wide(offsets[r])[l] : f.narrow(offsets[r])[l];
    }
    return out;
}

void Gpu::recordFault(const Error& e) {
    state_ = LaunchState::Faulted;
    fault_ = e;
}

// ---------------------------------------------------------------- 3. SIMT bookkeeping
namespace {
// Pops finished SIMT entries and finished call frames; marks the warp done when nothing is left.
// The top entry lives in the Warp (Warp::top); the frame's stack holds the entries below it.
void settle(const Program& prog, Warp& w) {
    for (;;) {
        Frame& f = w.frames.back();
        // An entry that reached its reconvergence point hands its lanes back to the entry below
        // (which already holds them); nothing to merge explicitly.
        while (w.top.mask == 0 || w.top.pc == w.top.rpc) {
            if (f.stack.empty()) {
                w.top = Warp::kNoEntry;
                break;
            }
            w.top = f.stack.back();
            f.stack.pop_back();
        }
        if (w.top.mask != 0) return;
        if (w.frames.size() == 1) {
            w.state = WarpState::Done;
            return;
        }
        // Return from a call: copy results of the lanes that returned (not exited). The caller's
        // top entry (last in its stack) becomes the flat top on the next turn of the loop.
        Frame callee = std::move(w.frames.back());
        w.frames.pop_back();
        w.setFrame();
        Frame& caller = w.frames.back();
        const Function& cf = prog.functions[callee.func];
        const Function& pf = prog.functions[caller.func];
        const CallSite& cs = pf.calls[static_cast<size_t>(callee.callSite)];
        uint32_t lanes = callee.returned & ~w.exited;
        for (size_t k = 0; k < cs.retOffsets.size() && k < cf.returnOffsets.size(); ++k) {
            size_t n = static_cast<size_t>(cf.returnSizes[k]);
            forLanes(lanes, [&](int l) {
                std::memcpy(caller.params.data() + size_t(l) * pf.paramBytes + size_t(cs.retOffsets[k]),
                            callee.params.data() + size_t(l) * cf.paramBytes + size_t(cf.returnOffsets[k]), n);
            });
        }
        w.localTop = callee.localBase;
    }
}
} // namespace

void Gpu::finishLanes(Warp& w, uint32_t lanes) {
    w.exited |= lanes;
    for (auto& f : w.frames)
        for (auto& e : f.stack) e.mask &= ~lanes;
    w.top.mask &= ~lanes;
}

void Gpu::tryReleaseBarrier(Block& b) {
    // Threads that exited no longer take part (as on Volta and later).
    for (auto& w : b.warps) {
        if (w.state != WarpState::AtBarrier) continue;
        uint32_t id = w.barrierId;
        uint32_t arrivedThreads = 0, liveThreads = 0, expected = w.barrierCount;
        bool allLiveArrived = true;
        for (auto& o : b.warps) {
            if (o.state == WarpState::Done) continue;
            uint32_t live = static_cast<uint32_t>(std::popcount(o.validMask & ~o.exited));
            liveThreads += live;
            if (o.state == WarpState::AtBarrier && o.barrierId == id) arrivedThreads += 32;
            else allLiveArrived = false;
        }
        bool release = expected ? arrivedThreads >= expected : allLiveArrived;
        if (!release) continue;
        b.lastRelease[id & 15] = Block::LastRelease{w.barrierPc, expected, w.indexInBlock};
        uint32_t released = 0;
        for (auto& o : b.warps) {
            if (o.state == WarpState::AtBarrier && o.barrierId == id) {
                // bar.red (__syncthreads_count/_and/_or): every arrived lane gets the block's result.
                const Instr& bi = prog_.code[static_cast<size_t>(o.barrierPc)];
                if (bi.barRed != 0 && !o.frames.empty()) {
                    const uint32_t t = b.barRedAccum[id & 15], n = b.barRedLanes[id & 15];
                    const uint32_t lanes = o.activeMask();
                    Frame& of = o.frames.back();
                    if (bi.dst.kind == Operand::Kind::Reg) {   // .popc: a count in a register
                        const Function& ofn = prog_.functions[of.func];
                        const uint32_t off = registerOffsets(of.func)[bi.dst.index];
                        for (uint32_t m = lanes; m; m &= m - 1) {
                            if (ofn.regWide[bi.dst.index]) of.wide(off)[std::countr_zero(m)] = t;
                            else of.narrow(off)[std::countr_zero(m)] = t;
                        }
                    } else if (bi.dst.kind == Operand::Kind::Pred) {   // .and / .or: a predicate
                        const bool v = bi.barRed == 2 ? t == n : t != 0;
                        uint32_t& p = of.preds[bi.dst.index];
                        p = v ? (p | lanes) : (p & ~lanes);
                    }
                }
                o.state = WarpState::Ready;
                ++b.readyWarps;
                ++released;
                if (expected && released * 32 >= expected) break;
            }
        }
        b.barRedAccum[id & 15] = 0;
        b.barRedLanes[id & 15] = 0;
        ++stats_.barriers;
        ++b.barrierEpoch;
        for (auto& o : b.warps) ++o.syncEpoch;   // a block barrier also synchronises each warp
        barrierReleased_ = true;
        (void)liveThreads;
        return;
    }
}

void Gpu::waitAtBarrier(Block& b, Warp& w, uint32_t id, uint32_t count, int32_t pc) {
    arrival_ = {true, static_cast<uint8_t>(id), count};
    w.state = WarpState::AtBarrier;
    --b.readyWarps;
    w.barrierId = id;
    w.barrierCount = count;
    w.barrierPc = pc;
    tryReleaseBarrier(b);
}

bool Gpu::exitBound(int32_t start) {
    const Function& kf = prog_.functions[0];
    if (start < kf.entry || start >= kf.end) return false;
    if (exitBound_.empty()) exitBound_.assign(prog_.code.size(), -1);
    int8_t& known = exitBound_[static_cast<size_t>(start)];
    if (known >= 0) return known == 1;
    // Every instruction reachable from `start` in the kernel: none may be a barrier (of the block
    // or the warp) or a call (whose body might hold one).
    std::vector<uint8_t> seen(static_cast<size_t>(kf.end - kf.entry), 0);
    std::vector<int32_t> todo{start};
    bool ok = true;
    while (ok && !todo.empty()) {
        const int32_t pc = todo.back();
        todo.pop_back();
        if (pc < kf.entry || pc >= kf.end || seen[static_cast<size_t>(pc - kf.entry)]) continue;
        seen[static_cast<size_t>(pc - kf.entry)] = 1;
        const Instr& in = prog_.code[static_cast<size_t>(pc)];
        const bool guarded = in.guard.kind != Operand::Kind::None;
        switch (in.op) {
        case Op::Bar:
        case Op::Barrier:
        case Op::Call: ok = false; break;
        case Op::Ret:
        case Op::Exit:
        case Op::Trap:
            if (guarded) todo.push_back(pc + 1);
            break;
        case Op::Bra:
            todo.push_back(in.target);
            if (guarded) todo.push_back(pc + 1);
            break;
        default: todo.push_back(pc + 1); break;
        }
    }
    known = ok ? 1 : 0;
    return ok;
}

// The top entry holds the lanes that have reached a bar.sync (its pc already past it); the
// warp's other live lanes are elsewhere. The GPU (independent thread scheduling, Volta and
// later) lets those run while the arrived ones wait, and counts a thread that exits as arrived.
// Here: when the others are on the other side of the same branch, that side runs first; when
// they wait where this path reconverges and nothing from there on can reach a barrier, they run
// from there to the kernel's end. The arrived lanes then wait at the barrier (resumeParked).
// Anything else (the others could meet a barrier: which one they count at is undefined) is
// left to the caller's error.
bool Gpu::parkAtBarrier(Block& b, Warp& w, const Instr& I, uint32_t id, uint32_t count) {
    if (w.frames.size() != 1) return false;
    Frame& f = w.frames.back();
    const SimtEntry parked = w.top;
    const uint32_t live = w.validMask & ~w.exited, others = live & ~parked.mask;
    if (!f.stack.empty() && f.stack.back().rpc == parked.rpc && f.stack.back().pc != parked.rpc && (f.stack.back().mask & others)) {
        w.top = f.stack.back();   // the other side of the branch runs first
        f.stack.back() = parked;
    } else {
        if (parked.rpc < 0 || !exitBound(parked.rpc)) return false;
        // Every other live lane must wait at the reconvergence point: entries that only wait
        // there, then the entry that goes on from it with all of them.
        size_t k = f.stack.size();
        while (k > 0 && f.stack[k - 1].pc == parked.rpc && f.stack[k - 1].rpc == parked.rpc) --k;
        if (k == 0 || f.stack[k - 1].pc != parked.rpc || (f.stack[k - 1].mask & live) != live) return false;
        f.stack.push_back(parked);
        w.top = {parked.rpc, kExitPc, others};
    }
    if (!w.parkedMask) {
        std::ostringstream os;
        os << "__syncthreads() reached by lanes 0x" << std::hex << parked.mask << " of the warp while its lanes 0x" << others << std::dec
           << " were still on their way to the kernel's end (a return before the barrier). Volta and later GPUs count a thread "
              "that has exited as arrived, so the barrier completes once they exit, as it does here; but __syncthreads() in "
              "conditional code is only defined when the whole block takes the same side, and the threads that left do not "
              "write what the others may read after the barrier.";
        report("synccheck", "divergent barrier", os.str(), b, w, static_cast<int>(std::countr_zero(others)), &I, std::nullopt);
    }
    w.parkedMask = parked.mask;
    w.parkedPc = parked.pc - 1;
    w.parkedRpc = parked.rpc;
    w.parkedId = id;
    w.parkedCount = count;
    return true;
}

void Gpu::resumeParked(Block& b, Warp& w) {
    const uint32_t live = w.validMask & ~w.exited;
    const Instr& I = prog_.code[static_cast<size_t>(w.parkedPc)];
    if (w.top.mask == live) {   // the others have exited: the arrived lanes are all that is left
        w.parkedMask = 0;
        waitAtBarrier(b, w, w.parkedId, w.parkedCount, w.parkedPc);
        return;
    }
    // The other side of the branch reached the reconvergence point: it must run on to the end.
    w.parkedMask = 0;
    if (!parkAtBarrier(b, w, I, w.parkedId, w.parkedCount)) divergentBarrier(b, w, I, w.top.mask, live);
}

void Gpu::divergentBarrier(const Block& b, const Warp& w, const Instr& I, uint32_t arrived, uint32_t live) {
    std::ostringstream os;
    os << "Barrier in divergent code: only lanes 0x" << std::hex << arrived << " of the warp's live lanes 0x" << live << std::dec
       << " reached __syncthreads(); the others took another path, one that can reach a barrier again. Every thread of the "
          "block must reach the same barrier.";
    raise(Error::Kind::Deadlock, os.str(), b, w, std::countr_zero(live & ~arrived), &I);
}

void Gpu::retireIfDone(Block& b) {
    for (auto& w : b.warps)
        if (w.state != WarpState::Done) return;
    b.done = true;
    ++stats_.blocksCompleted;
    if (race_) race_->blockRetired(b.linear);
    for (size_t i = 0; i < resident_.size(); ++i) {
        if (resident_[i].get() == &b) {
            spare_.push_back(std::move(resident_[i]));
            resident_.erase(resident_.begin() + static_cast<long>(i));
            if (rrBlock_ > i) --rrBlock_;
            if (rrBlock_ >= resident_.size()) {
                rrBlock_ = 0;
                rrWarp_ = 0;
            }
            break;
        }
    }
    admitBlocks();
}

// ---------------------------------------------------------------- 4. Faults
CheckReport Gpu::locate(const std::string& what, const Block& b, const Warp& w, int lane, const Instr* in,
                        std::optional<uint64_t> address, bool describeGlobal) const {
    CheckReport r;
    FaultSite& s = r.site;
    s.kernel = prog_.kernelName;
    s.blockX = b.idx.x;
    s.blockY = b.idx.y;
    s.blockZ = b.idx.z;
    std::ostringstream os;
    os << what;
    if (lane >= 0 && lane < 32) {
        uint32_t t = w.indexInBlock * 32 + static_cast<uint32_t>(lane);
        s.threadX = t % cfg_.block.x;
        s.threadY = (t / cfg_.block.x) % cfg_.block.y;
        s.threadZ = t / (cfg_.block.x * cfg_.block.y);
        s.lane = static_cast<uint32_t>(lane);
    }
    if (address) {
        s.address = *address;
        if (describeGlobal) {
            std::string name;
            std::optional<int64_t> off;
            os << " Address " << mem::describeAddress(mem_, *address, &name, &off) << ".";
            s.allocation = name;
            s.offset = off;
        }
    }
    os << " [kernel " << prog_.kernelName << ", block (" << b.idx.x << "," << b.idx.y << "," << b.idx.z << ")";
    if (s.threadX) os << ", thread (" << *s.threadX << "," << *s.threadY << "," << *s.threadZ << "), warp "
                      << w.indexInBlock << " lane " << lane;
    if (in) {
        s.ptxLine = in->ptxLine;
        if (in->line) {
            s.sourceLine = in->line;
            os << ", source line " << in->line;
        }
        os << ", PTX line " << in->ptxLine << ": " << in->text;
    }
    os << "]";
    r.message = os.str();
    return r;
}

void Gpu::raise(Error::Kind kind, const std::string& what, const Block& b, const Warp& w, int lane, const Instr* in,
                std::optional<uint64_t> address, bool describeGlobal) {
    CheckReport r = locate(what, b, w, lane, in, address, describeGlobal);
    throw Error(kind, r.message, r.site);
}

void Gpu::report(const std::string& tool, const std::string& hazard, const std::string& what, const Block& b, const Warp& w, int lane,
                 const Instr* in, std::optional<uint64_t> address) {
    if (!reportWanted(tool, hazard, in)) return;
    CheckReport r = locate(what, b, w, lane, in, address, hazard.find("global") != std::string::npos);
    r.tool = tool;
    r.hazard = hazard;
    keepReport(std::move(r));
}

void Gpu::keepReport(CheckReport r) {
    if (reports_.size() < opt_.maxReports && reportKeys_.insert(reportKey(r.tool, r.hazard, r.site.ptxLine.value_or(0))).second)
        reports_.push_back(std::move(r));
}

// ---------------------------------------------------------------- 5. Exec: operands and memory
namespace {
// The smallest and largest of a warp's 32 addresses and the OR of all of them (alignment), for
// the whole-warp bounds check of a memory access. Baseline x86-64 has no 64-bit vector min/max,
// so an AVX2 variant is chosen once at run time; both give the same three values.
struct Span {
    uint64_t lo, hi, any;
};
Span spanScalar(const uint64_t* a) {
    Span s{~0ull, 0, 0};
    for (int l = 0; l < 32; ++l) {
        s.lo = std::min(s.lo, a[l]);
        s.hi = std::max(s.hi, a[l]);
        s.any |= a[l];
    }
    return s;
}
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx2"))) Span spanAvx2(const uint64_t* a) {
    const __m256i flip = _mm256_set1_epi64x(INT64_MIN);   // unsigned order via signed compares
    __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a));
    __m256i any = v, mn = _mm256_xor_si256(v, flip), mx = mn;
    for (int l = 4; l < 32; l += 4) {
        v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + l));
        any = _mm256_or_si256(any, v);
        const __m256i x = _mm256_xor_si256(v, flip);
        mn = _mm256_blendv_epi8(mn, x, _mm256_cmpgt_epi64(mn, x));
        mx = _mm256_blendv_epi8(mx, x, _mm256_cmpgt_epi64(x, mx));
    }
    // Across the four 64-bit lanes in registers: swap the 128-bit halves, then the 64-bit halves.
    for (int imm = 0; imm < 2; ++imm) {
        const __m256i m2 = imm == 0 ? _mm256_permute4x64_epi64(mn, 0x4e) : _mm256_shuffle_epi32(mn, 0x4e);
        const __m256i x2 = imm == 0 ? _mm256_permute4x64_epi64(mx, 0x4e) : _mm256_shuffle_epi32(mx, 0x4e);
        const __m256i o2 = imm == 0 ? _mm256_permute4x64_epi64(any, 0x4e) : _mm256_shuffle_epi32(any, 0x4e);
        mn = _mm256_blendv_epi8(mn, m2, _mm256_cmpgt_epi64(mn, m2));
        mx = _mm256_blendv_epi8(mx, x2, _mm256_cmpgt_epi64(x2, mx));
        any = _mm256_or_si256(any, o2);
    }
    return {uint64_t(_mm256_extract_epi64(mn, 0)) ^ (1ull << 63), uint64_t(_mm256_extract_epi64(mx, 0)) ^ (1ull << 63),
            uint64_t(_mm256_extract_epi64(any, 0))};
}
Span laneSpan(const uint64_t* a) {
    static const bool hasAvx2 = __builtin_cpu_supports("avx2");
    return hasAvx2 ? spanAvx2(a) : spanScalar(a);
}
#else
Span laneSpan(const uint64_t* a) { return spanScalar(a); }
#endif
} // namespace

struct Exec {
    // The scratch arrays are deliberately left uninitialised: this object is built for every
    // issued instruction, and every lane an instruction reads was written first.
    Exec(Gpu& g_, Block& b_, Warp& w_, Frame& f_, const Instr& I_, uint32_t active_, uint32_t exec_)
        : g(g_), b(b_), w(w_), f(f_), I(I_), active(active_), exec(exec_) {}
    Gpu& g;
    Block& b;
    Warp& w;
    Frame& f;
    const Instr& I;
    uint32_t active;
    uint32_t exec;
    uint64_t tmp[4][32];
    uint64_t sink[32];
    uint64_t addrs[32];
    uint64_t baseScratch[32];   // a 32-bit address register, widened
    // Writes to 32-bit registers go to 64-bit staging copies of them (filled with their current
    // values, so lanes an instruction leaves alone keep them), stored back by commit().
    uint64_t stage[5][32];
    uint32_t stageOffset[5];
    uint32_t staged = 0;
    const Function& fn() const { return g.prog_.functions[f.func]; }

    // Register `index`'s 32 lanes as 64-bit values: the register itself when it is stored 64-bit,
    // else its values zero-extended into `scratch`.
    const uint64_t* readReg(uint32_t index, uint64_t* scratch) {
        const Function& F = fn();
        const uint32_t off = g.registerOffsets(f.func)[index];
        if (F.regWide[index]) return f.wide(off);
        const uint32_t* v = f.narrow(off);
        for (int l = 0; l < 32; ++l) scratch[l] = v[l];
        return scratch;
    }
    // Register `index`'s 32 lanes to write, as 64-bit values (see stage).
    uint64_t* writeReg(uint32_t index) {
        const Function& F = fn();
        const uint32_t off = g.registerOffsets(f.func)[index];
        if (F.regWide[index]) return f.wide(off);
        for (uint32_t k = 0; k < staged; ++k)
            if (stageOffset[k] == off) return stage[k];
        if (staged == 5) throw Error(Error::Kind::Unsupported, "An instruction with more than five register results.");
        stageOffset[staged] = off;
        const uint32_t* v = f.narrow(off);
        uint64_t* d = stage[staged++];
        for (int l = 0; l < 32; ++l) d[l] = v[l];
        return d;
    }
    // Stores the staged 32-bit registers (their low 32 bits: what a 32-bit register holds).
    void commit() {
        for (uint32_t k = 0; k < staged; ++k) {
            uint32_t* v = f.narrow(stageOffset[k]);
            for (int l = 0; l < 32; ++l) v[l] = static_cast<uint32_t>(stage[k][l]);
        }
        staged = 0;
    }

    const uint64_t* src(int k) {
        const Operand& o = I.src[k];
        switch (o.kind) {
        case Operand::Kind::Reg: return readReg(o.index, tmp[k]);
        case Operand::Kind::Imm:
            for (int l = 0; l < 32; ++l) tmp[k][l] = o.imm;
            return tmp[k];
        case Operand::Kind::Pred: {
            uint32_t m = f.preds[o.index] ^ (o.negate ? kFull : 0u);
            for (int l = 0; l < 32; ++l) tmp[k][l] = (m >> l) & 1u;
            return tmp[k];
        }
        case Operand::Kind::Special: special(o, tmp[k]); return tmp[k];
        case Operand::Kind::None:
        case Operand::Kind::Sink: break;
        }
        for (int l = 0; l < 32; ++l) tmp[k][l] = 0;
        return tmp[k];
    }
    const uint64_t* value(const Operand& o, uint64_t* scratch) {
        switch (o.kind) {
        case Operand::Kind::Reg: return readReg(o.index, scratch);
        case Operand::Kind::Imm:
            for (int l = 0; l < 32; ++l) scratch[l] = o.imm;
            return scratch;
        case Operand::Kind::Special: special(o, scratch); return scratch;
        default:
            for (int l = 0; l < 32; ++l) scratch[l] = 0;
            return scratch;
        }
    }
    uint32_t predMask(const Operand& o) {
        if (o.kind == Operand::Kind::Pred) return f.preds[o.index] ^ (o.negate ? kFull : 0u);
        if (o.kind == Operand::Kind::Imm) return o.imm ? kFull : 0u;
        return 0;
    }
    bool carryIn(int lane) const { return (w.carry >> lane) & 1u; }
    void setCarry(int lane, bool c) { w.carry = (w.carry & ~(1u << lane)) | (uint32_t(c) << lane); }
    uint64_t* dst() {
        if (I.dst.kind == Operand::Kind::Reg) return writeReg(I.dst.index);
        return sink;
    }
    uint64_t* regOut(const Operand& o) {
        if (o.kind == Operand::Kind::Reg) return writeReg(o.index);
        return sink;
    }
    void setPred(const Operand& o, uint32_t lanesTrue, uint32_t lanes) {
        if (o.kind != Operand::Kind::Pred) return;
        uint32_t& p = f.preds[o.index];
        p = (p & ~lanes) | (lanesTrue & lanes);
    }

    void special(const Operand& o, uint64_t* out) {
        const auto& cfg = g.cfg_;
        uint32_t base = w.indexInBlock * 32;
        auto tidComp = [&](int l, int c) -> uint64_t {
            uint32_t t = base + static_cast<uint32_t>(l);
            if (c == 0) return t % cfg.block.x;
            if (c == 1) return (t / cfg.block.x) % cfg.block.y;
            return t / (cfg.block.x * cfg.block.y);
        };
        if (o.index == kFrameLocal) {
            for (int l = 0; l < 32; ++l) out[l] = f.localBase + o.imm;
            return;
        }
        Sreg s = static_cast<Sreg>(o.index);
        // The per-lane registers first, with the loop inside the switch.
        if (s == Sreg::TidX || s == Sreg::LaneId) {
            if (s == Sreg::LaneId || cfg.block.x % 32 == 0) {
                const uint64_t first = s == Sreg::LaneId ? 0 : base % cfg.block.x;
                for (int l = 0; l < 32; ++l) out[l] = first + uint64_t(l);
            } else {
                for (int l = 0; l < 32; ++l) out[l] = tidComp(l, 0);
            }
            return;
        }
        // Lane-independent registers: one value for the warp.
        switch (s) {
        case Sreg::TidY: case Sreg::TidZ: case Sreg::LanemaskEq: case Sreg::LanemaskLe:
        case Sreg::LanemaskLt: case Sreg::LanemaskGe: case Sreg::LanemaskGt:
            break;
        default: {
            uint64_t v = 0;
            switch (s) {
            case Sreg::NtidX: v = cfg.block.x; break;
            case Sreg::NtidY: v = cfg.block.y; break;
            case Sreg::NtidZ: v = cfg.block.z; break;
            case Sreg::CtaidX: v = b.idx.x; break;
            case Sreg::CtaidY: v = b.idx.y; break;
            case Sreg::CtaidZ: v = b.idx.z; break;
            case Sreg::NctaidX: v = cfg.grid.x; break;
            case Sreg::NctaidY: v = cfg.grid.y; break;
            case Sreg::NctaidZ: v = cfg.grid.z; break;
            case Sreg::WarpId: v = w.indexInBlock; break;
            case Sreg::NWarpId: v = 64; break;
            case Sreg::SmId: v = b.sm; break;
            case Sreg::NSmId: v = g.opt_.numSMs; break;
            case Sreg::GridId: v = 1; break;
            // Deterministic "clocks": instructions this warp has issued (x4, a rough cycle count).
            case Sreg::Clock: v = (w.issued * 4) & 0xffffffffu; break;
            case Sreg::Clock64: v = w.issued * 4; break;
            case Sreg::GlobalTimer: v = g.stats_.warpInstructions * 4; break;
            case Sreg::DynamicSmemSize: v = g.cfg_.dynamicSharedBytes; break;
            case Sreg::TotalSmemSize: v = g.sharedBytes_; break;
            default: break;
            }
            for (int l = 0; l < 32; ++l) out[l] = v;
            return;
        }
        }
        for (int l = 0; l < 32; ++l) {   // the lane-dependent ones
            uint64_t v = 0;
            switch (s) {
            case Sreg::TidY: v = tidComp(l, 1); break;
            case Sreg::TidZ: v = tidComp(l, 2); break;
            case Sreg::LanemaskEq: v = 1u << l; break;
            case Sreg::LanemaskLe: v = l == 31 ? kFull : ((2u << l) - 1); break;
            case Sreg::LanemaskLt: v = (1u << l) - 1; break;
            case Sreg::LanemaskGe: v = ~((1u << l) - 1); break;
            case Sreg::LanemaskGt: v = l == 31 ? 0u : ~((2u << l) - 1); break;
            default: break;   // TidX and LaneId above, the rest lane-independent
            }
            out[l] = v;
        }
    }

    [[noreturn]] void fault(Error::Kind k, const std::string& what, int lane, std::optional<uint64_t> addr = std::nullopt,
                            bool global = false) {
        g.raise(k, what, b, w, lane, &I, addr, global);
    }

    // Resolves one lane's access to host memory. `space` None means generic addressing.
    uint8_t* resolve(StateSpace space, uint64_t addr, uint32_t bytes, int lane, bool isStore, StateSpace* resolved) {
        if (bytes > 1 && (addr % bytes) != 0) {
            std::ostringstream os;
            os << "Misaligned address: a " << bytes << "-byte " << (isStore ? "store" : "load") << " must use an address that is a multiple of "
               << bytes << ", but lane " << lane << " used 0x" << std::hex << addr << std::dec << ".";
            fault(Error::Kind::Fault, os.str(), lane, addr, space == StateSpace::Global || space == StateSpace::None);
        }
        if (space == StateSpace::None) {
            switch (mem::windowOf(addr)) {
            case mem::Window::Shared: space = StateSpace::Shared; addr -= mem::kSharedWindow; break;
            case mem::Window::Local: space = StateSpace::Local; addr -= mem::kLocalWindow; break;
            case mem::Window::Param: space = StateSpace::Param; addr -= mem::kParamWindow; break;
            case mem::Window::Global: space = StateSpace::Global; break;
            }
        }
        if (resolved) *resolved = space;
        switch (space) {
        case StateSpace::Global:
        case StateSpace::Const: {
            mem::Allocation* a = g.mem_.find(addr, bytes, g.allocCache_);
            if (!a) {
                std::ostringstream os;
                const mem::Allocation* near = g.mem_.nearest(addr);
                if (near && near->freed && addr >= near->base && addr < near->base + near->size)
                    os << "Use after free: a " << bytes << "-byte " << (isStore ? "store" : "load") << " to '" << near->name
                       << "', which the host freed before this launch.";
                else
                    os << "Out-of-bounds " << (isStore ? "store" : "load") << " of " << bytes << " bytes in global memory.";
                fault(Error::Kind::Fault, os.str(), lane, addr, true);
            }
            if (isStore && a->readOnly)
                fault(Error::Kind::Fault, "Store to read-only constant memory ('" + a->name + "').", lane, addr, true);
            if (isStore) mem::beforeStore(*a, addr - a->base, bytes);   // the journal of a parallel run (mem/journal.hpp)
            return a->data.get() + (addr - a->base);
        }
        case StateSpace::Shared:
            if (addr + bytes > b.shared.size() || addr + bytes < addr) {
                std::ostringstream os;
                os << "Out-of-bounds shared-memory " << (isStore ? "store" : "load") << " at shared offset " << addr
                   << "; the block has " << b.shared.size() << " bytes of shared memory.";
                fault(Error::Kind::Fault, os.str(), lane, addr);
            }
            return b.shared.data() + addr;
        case StateSpace::Local: {
            auto& lm = w.local[static_cast<size_t>(lane)];
            if (addr + bytes > lm.size() || addr + bytes < addr) {
                std::ostringstream os;
                os << "Out-of-bounds local-memory access at local offset " << addr << "; the thread's stack has "
                   << lm.size() << " bytes.";
                fault(Error::Kind::Fault, os.str(), lane, addr);
            }
            return lm.data() + addr;
        }
        case StateSpace::Param: {
            const Function& fn = g.prog_.functions[f.func];
            if (addr + bytes > fn.paramBytes) fault(Error::Kind::Fault, "Access outside the parameter space.", lane, addr);
            return f.params.data() + size_t(lane) * fn.paramBytes + addr;
        }
        default: fault(Error::Kind::Fault, "Unsupported state space for a memory access.", lane, addr);
        }
    }

    // The common case inline: an aligned access to shared memory or to a global allocation in
    // an explicit state space. Everything else (generic addresses, faults) takes resolve().
    uint8_t* pointerFor(int lane, uint32_t bytes, bool isStore, StateSpace* resolved) {
        const uint64_t a = addrs[lane];
        if ((a & (bytes - 1)) == 0) {
            if (I.space == StateSpace::Shared) {
                if (a + bytes <= b.shared.size()) return b.shared.data() + a;
            } else if (I.space == StateSpace::Global) {
                mem::Allocation* al = g.mem_.find(a, bytes, g.allocCache_);
                if (al && !(isStore && al->readOnly)) {
                    if (isStore) mem::beforeStore(*al, a - al->base, bytes);
                    return al->data.get() + (a - al->base);
                }
            } else if (I.space == StateSpace::Param) {
                const uint32_t pb = g.prog_.functions[f.func].paramBytes;
                if (a + bytes <= pb) return f.params.data() + size_t(lane) * pb + a;
            }
        }
        return resolve(I.space, a, bytes, lane, isStore, resolved);
    }

    // Host pointers for every executing lane: a tight loop for the common explicit-space cases,
    // the general pointerFor() (generic addresses, faults) for any lane that needs it.
    void pointersFor(uint32_t bytes, bool isStore, StateSpace* resolved, uint8_t** ptr) {
        uint32_t slow = 0;
        const uint64_t misalign = bytes - 1;
        if (I.space == StateSpace::Shared) {
            uint8_t* base = b.shared.data();
            const uint64_t limit = b.shared.size();
            forLanes(exec, [&](int l) {
                const uint64_t a = addrs[l];
                if ((a & misalign) == 0 && a + bytes <= limit) ptr[l] = base + a;
                else slow |= 1u << l;
            });
        } else if (I.space == StateSpace::Global) {
            if (exec == kFull) {
                // The whole warp at once: one allocation lookup for the span of the 32 addresses
                // (coalesced kernels stay in one allocation), loops the compiler vectorises.
                uint64_t lo = ~0ull, hi = 0, bad = 0;
                for (int l = 0; l < 32; ++l) {
                    lo = std::min(lo, addrs[l]);
                    hi = std::max(hi, addrs[l]);
                    bad |= addrs[l] & misalign;
                }
                mem::Allocation* al = bad == 0 && hi - lo < (1ull << 40) ? g.mem_.find(lo, hi - lo + bytes, g.allocCache_) : nullptr;
                if (al && !(isStore && al->readOnly)) {
                    if (isStore) mem::beforeWarpStore(*al, addrs, lo, hi, bytes);
                    uint8_t* base = al->data.get() - al->base;
                    for (int l = 0; l < 32; ++l) ptr[l] = base + addrs[l];
                    return;
                }
            }
            forLanes(exec, [&](int l) {
                const uint64_t a = addrs[l];
                mem::Allocation* al = (a & misalign) == 0 ? g.mem_.find(a, bytes, g.allocCache_) : nullptr;
                if (al && !(isStore && al->readOnly)) {
                    if (isStore) mem::beforeStore(*al, a - al->base, bytes);
                    ptr[l] = al->data.get() + (a - al->base);
                } else {
                    slow |= 1u << l;
                }
            });
        } else {
            slow = exec;
        }
        forLanes(slow, [&](int l) { ptr[l] = pointerFor(l, bytes, isStore, resolved); });
    }

    // Whole-warp fast path of pointersFor for an explicit state space: when every lane's access
    // is aligned and inside one region, lane l's bytes start at base + l * stride + (addrs[l] - bias)
    // and no lane needs its own checks. False sends the access down the per-lane path.
    bool warpRegion(uint32_t bytes, bool isStore, uint8_t*& base, size_t& stride, uint64_t& bias) const {
        if (exec != kFull) return false;
        const auto [lo, hi, any] = laneSpan(addrs);
        if (any & (bytes - 1)) return false;
        stride = 0;
        switch (I.space) {
        case StateSpace::Shared:
            if (hi + bytes > b.shared.size()) return false;
            base = b.shared.data() + lo;
            bias = lo;
            return true;
        case StateSpace::Global: {
            if (hi - lo >= (1ull << 40)) return false;
            mem::Allocation* al = g.mem_.find(lo, hi - lo + bytes, g.allocCache_);
            if (!al || (isStore && al->readOnly)) return false;
            if (isStore) mem::beforeWarpStore(*al, addrs, lo, hi, bytes);
            base = al->data.get() + (lo - al->base);
            bias = lo;
            return true;
        }
        case StateSpace::Param: {
            const uint32_t pb = g.prog_.functions[f.func].paramBytes;
            if (hi > pb || hi + bytes > pb) return false;   // (the first test keeps a huge address from wrapping)
            base = f.params.data() + lo;
            stride = pb;
            bias = lo;
            return true;
        }
        default: return false;
        }
    }

    void computeAddresses() {
        const uint64_t* base = nullptr;
        if (I.addr.base.kind == Operand::Kind::Reg) base = readReg(I.addr.base.index, baseScratch);
        uint64_t extra = I.addr.base.kind == Operand::Kind::Special ? f.localBase : 0;
        if (exec == kFull) {   // the same arithmetic with the per-instruction tests hoisted out of the lane loop
            const uint64_t off = extra + static_cast<uint64_t>(I.addr.offset);
            const uint64_t m = I.space == StateSpace::Shared || (I.space == StateSpace::Local && base) ? 0xffffffffull : ~0ull;
            if (base)
                for (int l = 0; l < 32; ++l) addrs[l] = (base[l] + off) & m;
            else
                for (int l = 0; l < 32; ++l) addrs[l] = off & m;
            return;
        }
        forLanes(exec, [&](int l) {
            uint64_t a = (base ? base[l] : 0) + extra + static_cast<uint64_t>(I.addr.offset);
            if (I.space == StateSpace::Shared || (I.space == StateSpace::Local && base)) a &= 0xffffffffull;
            addrs[l] = a;
        });
    }
};

// ---------------------------------------------------------------- 6. Exec: instruction families
namespace {

inline uint64_t mask(int bits) { return bits >= 64 ? ~0ull : ((1ull << bits) - 1); }
inline float asF32(uint64_t v) { return std::bit_cast<float>(static_cast<uint32_t>(v)); }
inline double asF64(uint64_t v) { return std::bit_cast<double>(v); }
inline uint64_t fromF32(float f) { return std::bit_cast<uint32_t>(f); }
inline uint64_t fromF64(double d) { return std::bit_cast<uint64_t>(d); }
inline bool isNaNF16(uint16_t h) { return (h & 0x7fff) > 0x7c00; }

// Store a result of `bits` width into a register slot: signed results are kept zero-extended
// to their width; readers sign-extend as their type requires.
template <class F>
void map1(Exec& x, F fn) {
    const uint64_t* a = x.src(0);
    uint64_t* d = x.dst();
    forLanes(x.exec, [&](int l) { d[l] = fn(a[l]); });
}
template <class F>
void map2(Exec& x, F fn) {
    const uint64_t* a = x.src(0);
    const uint64_t* b = x.src(1);
    uint64_t* d = x.dst();
    forLanes(x.exec, [&](int l) { d[l] = fn(a[l], b[l]); });
}
template <class F>
void map3(Exec& x, F fn) {
    const uint64_t* a = x.src(0);
    const uint64_t* b = x.src(1);
    const uint64_t* c = x.src(2);
    uint64_t* d = x.dst();
    forLanes(x.exec, [&](int l) { d[l] = fn(a[l], b[l], c[l]); });
}

// fma.rn.f32 over a warp. The FMA3 variant is chosen once at run time: baseline x86-64 code
// would call libm's fmaf for every lane. Both are exact (IEEE fused multiply-add).
template <bool kFma3>
void fmaLanesImpl(const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* d, uint32_t mask) {
    forLanes(mask, [&](int l) {
        float v;
        if constexpr (kFma3) v = __builtin_fmaf(asF32(a[l]), asF32(b[l]), asF32(c[l]));
        else v = std::fma(asF32(a[l]), asF32(b[l]), asF32(c[l]));
        d[l] = v != v ? uint64_t(arith::kCanonicalNaNF32) : fromF32(v);
    });
}
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("fma"))) void fmaLanesFma3(const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* d, uint32_t mask) {
    fmaLanesImpl<true>(a, b, c, d, mask);
}
void fmaF32LanesRN(const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* d, uint32_t mask) {
    static const bool hasFma = __builtin_cpu_supports("fma");
    if (hasFma) fmaLanesFma3(a, b, c, d, mask);
    else fmaLanesImpl<false>(a, b, c, d, mask);
}
#else
void fmaF32LanesRN(const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* d, uint32_t mask) {
    fmaLanesImpl<false>(a, b, c, d, mask);
}
#endif

[[noreturn]] void unsupportedType(Exec& x) {
    x.fault(Error::Kind::Unsupported,
            "Unsupported: '" + x.I.text + "' with type ." + std::string(ptx::typeName(x.I.type)) + " is not implemented.", -1);
}

void execArith(Exec& x) {
    const Instr& I = x.I;
    const Type t = I.type;
    const int bits = ptx::bitsOf(t);
    const bool sgn = ptx::isSigned(t);
    using namespace arith;
    const Round r = I.rnd == Round::None ? Round::RN : I.rnd;
    switch (I.op) {
    case Op::Add:
    case Op::Sub: {
        bool sub = I.op == Op::Sub;
        if (t == Type::F32) {
            if (r == Round::RN && !I.ftz && !I.sat) {
                map2(x, [&](uint64_t a, uint64_t b) {
                    float v = sub ? asF32(a) - asF32(b) : asF32(a) + asF32(b);
                    return v != v ? uint64_t(kCanonicalNaNF32) : fromF32(v);
                });
            } else {
                map2(x, [&](uint64_t a, uint64_t b) {
                    return fromF32(sub ? subF32(asF32(a), asF32(b), r, I.ftz, I.sat) : addF32(asF32(a), asF32(b), r, I.ftz, I.sat));
                });
            }
        } else if (t == Type::F64) {
            map2(x, [&](uint64_t a, uint64_t b) {
                return fromF64(sub ? subF64(asF64(a), asF64(b), r) : addF64(asF64(a), asF64(b), r));
            });
        } else if (t == Type::F16 || t == Type::F16x2) {
            auto one = [&](uint16_t a, uint16_t b) { return sub ? subF16(a, b, r, I.ftz, I.sat) : addF16(a, b, r, I.ftz, I.sat); };
            if (t == Type::F16) map2(x, [&](uint64_t a, uint64_t b) { return uint64_t(one(uint16_t(a), uint16_t(b))); });
            else map2(x, [&](uint64_t a, uint64_t b) { return uint64_t(one(uint16_t(a), uint16_t(b))) | (uint64_t(one(uint16_t(a >> 16), uint16_t(b >> 16))) << 16); });
        } else if (t == Type::BF16 || t == Type::BF16x2) {   // sm_90's add/sub.rn.bf16{x2}
            auto one = [&](uint16_t a, uint16_t b) { return sub ? arith::subBF16(a, b, r) : arith::addBF16(a, b, r); };
            if (t == Type::BF16) map2(x, [&](uint64_t a, uint64_t b) { return uint64_t(one(uint16_t(a), uint16_t(b))); });
            else map2(x, [&](uint64_t a, uint64_t b) { return uint64_t(one(uint16_t(a), uint16_t(b))) | (uint64_t(one(uint16_t(a >> 16), uint16_t(b >> 16))) << 16); });
        } else if (ptx::isInteger(t)) {
            if (I.sat && t == Type::S32) {
                map2(x, [&](uint64_t a, uint64_t b) {
                    int32_t v = sub ? subSatS32(int32_t(a), int32_t(b)) : addSatS32(int32_t(a), int32_t(b));
                    return uint64_t(uint32_t(v));
                });
            } else if (I.cc) {
                // add.cc / sub.cc: the carry goes to the warp's carry flag, kept in dst2's slot.
                const uint64_t* a = x.src(0);
                const uint64_t* b = x.src(1);
                uint64_t* d = x.dst();
                forLanes(x.exec, [&](int l) {
                    CarryResult cr = sub ? subBorrow(a[l], b[l], false, bits) : addCarry(a[l], b[l], false, bits);
                    d[l] = cr.value;
                    x.setCarry(l, cr.carry);
                });
            } else {
                const uint64_t m = mask(bits);   // captured by value: the lane loops vectorise
                if (sub) map2(x, [m](uint64_t a, uint64_t b) { return (a - b) & m; });
                else map2(x, [m](uint64_t a, uint64_t b) { return (a + b) & m; });
            }
        } else {
            unsupportedType(x);
        }
        break;
    }
    case Op::Addc:
    case Op::Subc: {
        bool sub = I.op == Op::Subc;
        const uint64_t* a = x.src(0);
        const uint64_t* b = x.src(1);
        uint64_t* d = x.dst();
        forLanes(x.exec, [&](int l) {
            bool cin = x.carryIn(l);
            CarryResult cr = sub ? subBorrow(a[l], b[l], cin, bits) : addCarry(a[l], b[l], cin, bits);
            d[l] = cr.value;
            if (I.cc) x.setCarry(l, cr.carry);
        });
        break;
    }
    case Op::Mul:
    case Op::Mad:
    case Op::Madc: {
        if (t == Type::F32) {
            if (I.op == Op::Mul && r == Round::RN && !I.ftz && !I.sat) {
                map2(x, [&](uint64_t a, uint64_t b) {
                    float v = asF32(a) * asF32(b);
                    return v != v ? uint64_t(kCanonicalNaNF32) : fromF32(v);
                });
            } else {
                map2(x, [&](uint64_t a, uint64_t b) { return fromF32(mulF32(asF32(a), asF32(b), r, I.ftz, I.sat)); });
            }
            break;
        }
        if (t == Type::F64) {
            map2(x, [&](uint64_t a, uint64_t b) { return fromF64(mulF64(asF64(a), asF64(b), r)); });
            break;
        }
        if (t == Type::F16) {
            map2(x, [&](uint64_t a, uint64_t b) { return uint64_t(mulF16(uint16_t(a), uint16_t(b), r, I.ftz, I.sat)); });
            break;
        }
        if (t == Type::F16x2) {
            map2(x, [&](uint64_t a, uint64_t b) {
                return uint64_t(mulF16(uint16_t(a), uint16_t(b), r, I.ftz, I.sat)) |
                       (uint64_t(mulF16(uint16_t(a >> 16), uint16_t(b >> 16), r, I.ftz, I.sat)) << 16);
            });
            break;
        }
        if (t == Type::BF16 || t == Type::BF16x2) {   // sm_90's mul.rn.bf16{x2}
            map2(x, [&](uint64_t a, uint64_t b) {
                uint64_t v = arith::mulBF16(uint16_t(a), uint16_t(b), r);
                if (t == Type::BF16x2) v |= uint64_t(arith::mulBF16(uint16_t(a >> 16), uint16_t(b >> 16), r)) << 16;
                return v;
            });
            break;
        }
        if (!ptx::isInteger(t)) unsupportedType(x);
        if (I.cc || I.op == Op::Madc) {
            // mad{c}.{lo,hi}{.cc}: product half + c (+ carry-in for madc), carry-out with .cc.
            const uint64_t* a = x.src(0);
            const uint64_t* b = x.src(1);
            const uint64_t* c = x.src(2);
            uint64_t* d = x.dst();
            const bool withCarry = I.op == Op::Madc;
            forLanes(x.exec, [&](int l) {
                uint64_t p = I.mul == MulMode::Hi ? mulHi(a[l], b[l], bits, sgn) : (a[l] * b[l]) & mask(bits);
                unsigned __int128 sum = (unsigned __int128)p + (c[l] & mask(bits)) + (withCarry && x.carryIn(l) ? 1 : 0);
                d[l] = uint64_t(sum) & mask(bits);
                if (I.cc) x.setCarry(l, (sum >> bits) & 1);
            });
            break;
        }
        const bool mad = I.op == Op::Mad;
        if (I.mul == MulMode::Wide) {
            if (mad) map3(x, [&](uint64_t a, uint64_t b, uint64_t c) { return madWide(a, b, c, bits, sgn); });
            else map2(x, [&](uint64_t a, uint64_t b) { return mulWide(a, b, bits, sgn); });
        } else if (I.mul == MulMode::Hi) {
            if (mad && I.sat && t == Type::S32)
                map3(x, [&](uint64_t a, uint64_t b, uint64_t c) { return uint64_t(uint32_t(madHiSatS32(int32_t(a), int32_t(b), int32_t(c)))); });
            else if (mad) map3(x, [&](uint64_t a, uint64_t b, uint64_t c) { return madHi(a, b, c, bits, sgn); });
            else map2(x, [&](uint64_t a, uint64_t b) { return mulHi(a, b, bits, sgn); });
        } else {
            const uint64_t m = mask(bits);
            if (mad) map3(x, [&](uint64_t a, uint64_t b, uint64_t c) { return (a * b + c) & m; });
            else map2(x, [&](uint64_t a, uint64_t b) { return (a * b) & m; });
        }
        break;
    }
    case Op::Mul24:
        map2(x, [&](uint64_t a, uint64_t b) { return uint64_t(mul24(uint32_t(a), uint32_t(b), I.mul == MulMode::Hi, sgn)); });
        break;
    case Op::Mad24:
        map3(x, [&](uint64_t a, uint64_t b, uint64_t c) {
            return uint64_t(mad24(uint32_t(a), uint32_t(b), uint32_t(c), I.mul == MulMode::Hi, sgn, I.sat));
        });
        break;
    case Op::Sad: map3(x, [&](uint64_t a, uint64_t b, uint64_t c) { return sadInt(a, b, c, bits, sgn); }); break;
    case Op::Fma:
        // std::fma is correctly rounded to nearest (IEEE fusedMultiplyAdd); only the NaN
        // encoding differs from the GPU, so the common case skips the software rounding core.
        if (t == Type::F32 && r == Round::RN && !I.ftz && !I.sat)
            fmaF32LanesRN(x.src(0), x.src(1), x.src(2), x.dst(), x.exec);
        else if (t == Type::F32) map3(x, [&](uint64_t a, uint64_t b, uint64_t c) { return fromF32(fmaF32(asF32(a), asF32(b), asF32(c), r, I.ftz, I.sat)); });
        else if (t == Type::F64) map3(x, [&](uint64_t a, uint64_t b, uint64_t c) { return fromF64(fmaF64(asF64(a), asF64(b), asF64(c), r)); });
        else if (t == Type::F16) map3(x, [&](uint64_t a, uint64_t b, uint64_t c) { return uint64_t(fmaF16(uint16_t(a), uint16_t(b), uint16_t(c), r, I.ftz, I.sat)); });
        else if (t == Type::F16x2)
            map3(x, [&](uint64_t a, uint64_t b, uint64_t c) {
                return uint64_t(fmaF16(uint16_t(a), uint16_t(b), uint16_t(c), r, I.ftz, I.sat)) |
                       (uint64_t(fmaF16(uint16_t(a >> 16), uint16_t(b >> 16), uint16_t(c >> 16), r, I.ftz, I.sat)) << 16);
            });
        else if (t == Type::BF16 || t == Type::BF16x2)   // fma.rn.bf16{x2} (sm_80)
            map3(x, [&](uint64_t a, uint64_t b, uint64_t c) {
                uint64_t v = arith::fmaBF16(uint16_t(a), uint16_t(b), uint16_t(c), r);
                if (t == Type::BF16x2) v |= uint64_t(arith::fmaBF16(uint16_t(a >> 16), uint16_t(b >> 16), uint16_t(c >> 16), r)) << 16;
                return v;
            });
        else unsupportedType(x);
        break;
    case Op::Div:
        if (t == Type::F32) {
            if (I.approx) map2(x, [&](uint64_t a, uint64_t b) { return fromF32(divApproxF32(asF32(a), asF32(b), I.ftz)); });
            else if (I.full) map2(x, [&](uint64_t a, uint64_t b) { return fromF32(divFullF32(asF32(a), asF32(b), I.ftz)); });
            else map2(x, [&](uint64_t a, uint64_t b) { return fromF32(divF32(asF32(a), asF32(b), r, I.ftz)); });
        } else if (t == Type::F64) {
            map2(x, [&](uint64_t a, uint64_t b) { return fromF64(divF64(asF64(a), asF64(b), r)); });
        } else if (ptx::isInteger(t)) {
            map2(x, [&](uint64_t a, uint64_t b) { return divInt(a, b, bits, sgn); });
        } else {
            unsupportedType(x);
        }
        break;
    case Op::Rem:
        if (!ptx::isInteger(t)) unsupportedType(x);
        map2(x, [&](uint64_t a, uint64_t b) { return remInt(a, b, bits, sgn); });
        break;
    case Op::Abs:
        if (t == Type::F16) map1(x, [&](uint64_t a) { return isNaNF16(uint16_t(a)) ? uint64_t(0x7fff) : (a & 0x7fff); });
        else if (t == Type::F32) map1(x, [&](uint64_t a) { return fromF32(absF32(asF32(a), I.ftz)); });
        else if (t == Type::F64) map1(x, [&](uint64_t a) { return fromF64(absF64(asF64(a))); });
        else if (ptx::isInteger(t)) map1(x, [&](uint64_t a) { return absInt(a, bits); });
        else unsupportedType(x);
        break;
    case Op::Neg:
        if (t == Type::F16) map1(x, [&](uint64_t a) { return isNaNF16(uint16_t(a)) ? uint64_t(0x7fff) : ((a ^ 0x8000) & 0xffff); });
        else if (t == Type::F32) map1(x, [&](uint64_t a) { return fromF32(negF32(asF32(a), I.ftz)); });
        else if (t == Type::F64) map1(x, [&](uint64_t a) { return fromF64(negF64(asF64(a))); });
        else if (ptx::isInteger(t)) map1(x, [&](uint64_t a) { return negInt(a, bits); });
        else unsupportedType(x);
        break;
    case Op::Min:
    case Op::Max: {
        bool mx = I.op == Op::Max;
        if (t == Type::F32) map2(x, [&](uint64_t a, uint64_t b) { return fromF32(mx ? maxF32(asF32(a), asF32(b), I.ftz) : minF32(asF32(a), asF32(b), I.ftz)); });
        else if (t == Type::F64) map2(x, [&](uint64_t a, uint64_t b) { return fromF64(mx ? maxF64(asF64(a), asF64(b)) : minF64(asF64(a), asF64(b))); });
        else if (ptx::isInteger(t)) map2(x, [&](uint64_t a, uint64_t b) { return mx ? maxInt(a, b, bits, sgn) : minInt(a, b, bits, sgn); });
        else unsupportedType(x);
        break;
    }
    case Op::Copysign:
        if (t == Type::F32) map2(x, [&](uint64_t a, uint64_t b) { return fromF32(copysignF32(asF32(a), asF32(b))); });
        else if (t == Type::F64) map2(x, [&](uint64_t a, uint64_t b) { return fromF64(copysignF64(asF64(a), asF64(b))); });
        else unsupportedType(x);
        break;
    case Op::Rcp:
        if (t == Type::F32) {
            if (I.approx) map1(x, [&](uint64_t a) { return fromF32(rcpApproxF32(asF32(a), I.ftz)); });
            else map1(x, [&](uint64_t a) { return fromF32(rcpF32(asF32(a), r, I.ftz)); });
        } else if (t == Type::F64) {
            if (I.approx) map1(x, [&](uint64_t a) { return fromF64(rcpApproxFtzF64(asF64(a))); });
            else map1(x, [&](uint64_t a) { return fromF64(rcpF64(asF64(a), r)); });
        } else {
            unsupportedType(x);
        }
        break;
    case Op::Sqrt:
        if (t == Type::F32) {
            if (I.approx) map1(x, [&](uint64_t a) { return fromF32(sqrtApproxF32(asF32(a), I.ftz)); });
            else map1(x, [&](uint64_t a) { return fromF32(sqrtF32(asF32(a), r, I.ftz)); });
        } else if (t == Type::F64) {
            map1(x, [&](uint64_t a) { return fromF64(sqrtF64(asF64(a), r)); });
        } else {
            unsupportedType(x);
        }
        break;
    case Op::Rsqrt:
        if (t == Type::F32) map1(x, [&](uint64_t a) { return fromF32(rsqrtApproxF32(asF32(a), I.ftz)); });
        else if (t == Type::F64) map1(x, [&](uint64_t a) { return fromF64(I.ftz ? rsqrtApproxFtzF64(asF64(a)) : rsqrtApproxF64(asF64(a))); });
        else unsupportedType(x);
        break;
    case Op::Sin: map1(x, [&](uint64_t a) { return fromF32(sinApproxF32(asF32(a), I.ftz)); }); break;
    case Op::Cos: map1(x, [&](uint64_t a) { return fromF32(cosApproxF32(asF32(a), I.ftz)); }); break;
    case Op::Lg2: map1(x, [&](uint64_t a) { return fromF32(lg2ApproxF32(asF32(a), I.ftz)); }); break;
    case Op::Ex2:
        // Half-precision approximations: evaluated in single precision and rounded to half.
        if (t == Type::F16) map1(x, [&](uint64_t a) { return uint64_t(f32ToF16(ex2ApproxF32(f16ToF32(uint16_t(a)), false))); });
        else map1(x, [&](uint64_t a) { return fromF32(ex2ApproxF32(asF32(a), I.ftz)); });
        break;
    case Op::Tanh:
        if (t == Type::F16) map1(x, [&](uint64_t a) { return uint64_t(f32ToF16(tanhApproxF32(f16ToF32(uint16_t(a))))); });
        else map1(x, [&](uint64_t a) { return fromF32(tanhApproxF32(asF32(a))); });
        break;
    default: break;
    }
}

void execBits(Exec& x) {
    const Instr& I = x.I;
    const Type t = I.type;
    const int bits = ptx::bitsOf(t);
    const bool sgn = ptx::isSigned(t);
    using namespace arith;
    if (t == Type::Pred) {
        // Predicate logic: and/or/xor/not/mov on predicate registers.
        uint32_t a = x.predMask(I.src[0]);
        uint32_t b = I.nsrc > 1 ? x.predMask(I.src[1]) : 0;
        uint32_t v = 0;
        switch (I.op) {
        case Op::And: v = a & b; break;
        case Op::Or: v = a | b; break;
        case Op::Xor: v = a ^ b; break;
        case Op::Not: v = ~a; break;
        case Op::Cnot: v = ~a; break;
        default: unsupportedType(x);
        }
        x.setPred(I.dst, v, x.exec);
        return;
    }
    const uint64_t m = mask(bits);
    switch (I.op) {
    case Op::And: map2(x, [&](uint64_t a, uint64_t b) { return (a & b) & m; }); break;
    case Op::Or: map2(x, [&](uint64_t a, uint64_t b) { return (a | b) & m; }); break;
    case Op::Xor: map2(x, [&](uint64_t a, uint64_t b) { return (a ^ b) & m; }); break;
    case Op::Not: map1(x, [&](uint64_t a) { return ~a & m; }); break;
    case Op::Cnot: map1(x, [&](uint64_t a) { return uint64_t((a & m) == 0); }); break;
    case Op::Shl: map2(x, [&](uint64_t a, uint64_t b) { return shl(a, uint32_t(b), bits); }); break;
    case Op::Shr: map2(x, [&](uint64_t a, uint64_t b) { return shr(a, uint32_t(b), bits, sgn); }); break;
    case Op::Shf:
        // shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: funnel shift of the 64-bit value b:a by c.
        map3(x, [&](uint64_t a, uint64_t b, uint64_t c) {
            uint32_t n = uint32_t(c);
            n = I.shfClamp ? std::min<uint32_t>(n, 32) : (n & 31);
            uint64_t v = (uint64_t(uint32_t(b)) << 32) | uint32_t(a);
            if (I.shfLeft) return uint64_t(uint32_t((v << n) >> 32));
            return uint64_t(uint32_t(v >> n));
        });
        break;
    case Op::Popc: map1(x, [&](uint64_t a) { return uint64_t(popc(a, bits)); }); break;
    case Op::Clz: map1(x, [&](uint64_t a) { return uint64_t(clz(a, bits)); }); break;
    case Op::Bfind: map1(x, [&](uint64_t a) { return uint64_t(bfind(a, bits, sgn, I.bfindShift)); }); break;
    case Op::Brev: map1(x, [&](uint64_t a) { return bits == 64 ? brev64(a) : uint64_t(brev32(uint32_t(a))); }); break;
    case Op::Bfe: map3(x, [&](uint64_t a, uint64_t b, uint64_t c) { return bfe(a, uint32_t(b), uint32_t(c), bits, sgn); }); break;
    case Op::Bfi: {
        const uint64_t* a = x.src(0);
        const uint64_t* b = x.src(1);
        const uint64_t* c = x.src(2);
        const uint64_t* d4 = x.src(3);
        uint64_t* d = x.dst();
        forLanes(x.exec, [&](int l) { d[l] = bfi(a[l], b[l], uint32_t(c[l]), uint32_t(d4[l]), bits); });
        break;
    }
    case Op::Fns: map3(x, [&](uint64_t a, uint64_t b, uint64_t c) { return uint64_t(fns(uint32_t(a), uint32_t(b), int32_t(uint32_t(c)))); }); break;
    case Op::Prmt: map3(x, [&](uint64_t a, uint64_t b, uint64_t c) { return uint64_t(prmt(uint32_t(a), uint32_t(b), uint32_t(c), I.prmtMode)); }); break;
    default: break;
    }
}

// One 32-bit integer comparison over all 32 lanes, as a lane mask.
template <class T, class C>
uint32_t laneBits(const uint64_t* a, const uint64_t* b, C cmp) {
    uint32_t p = 0;
    for (int l = 0; l < 32; ++l) p |= uint32_t(cmp(T(a[l]), T(b[l]))) << l;
    return p;
}
#if defined(__SSE2__)
// The same with SSE2 (baseline x86-64): four lanes per compare, their low 32 bits packed from
// two 64-bit register slots each; unsigned order by flipping the sign bits.
template <bool kSigned>
uint32_t compareLanes32Sse2(CmpOp op, const uint64_t* a, const uint64_t* b) {
    const __m128i flip = _mm_set1_epi32(kSigned ? 0 : int32_t(0x80000000u));
    auto low4 = [&](const uint64_t* p) {
        const __m128 x = _mm_castsi128_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
        const __m128 y = _mm_castsi128_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 2)));
        return _mm_xor_si128(_mm_castps_si128(_mm_shuffle_ps(x, y, _MM_SHUFFLE(2, 0, 2, 0))), flip);
    };
    // Lt and Ge compare (b > a), Gt and Le (a > b); Ne, Le and Ge invert.
    const bool swap = op == CmpOp::Lt || op == CmpOp::Lo || op == CmpOp::Ge || op == CmpOp::Hs;
    const bool eq = op == CmpOp::Eq || op == CmpOp::Ne;
    const bool invert = op == CmpOp::Ne || op == CmpOp::Le || op == CmpOp::Ls || op == CmpOp::Ge || op == CmpOp::Hs;
    uint32_t p = 0;
    for (int q = 0; q < 8; ++q) {
        const __m128i x = low4(a + 4 * q), y = low4(b + 4 * q);
        const __m128i c = eq ? _mm_cmpeq_epi32(x, y) : swap ? _mm_cmpgt_epi32(y, x) : _mm_cmpgt_epi32(x, y);
        p |= uint32_t(_mm_movemask_ps(_mm_castsi128_ps(c))) << (4 * q);
    }
    return invert ? ~p : p;
}
#endif

template <class T>
uint32_t compareLanes32(CmpOp op, const uint64_t* a, const uint64_t* b) {
#if defined(__SSE2__)
    return compareLanes32Sse2<std::is_signed_v<T>>(op, a, b);
#endif
    switch (op) {
    case CmpOp::Eq: return laneBits<T>(a, b, [](T u, T v) { return u == v; });
    case CmpOp::Ne: return laneBits<T>(a, b, [](T u, T v) { return u != v; });
    case CmpOp::Lt: case CmpOp::Lo: return laneBits<T>(a, b, [](T u, T v) { return u < v; });
    case CmpOp::Le: case CmpOp::Ls: return laneBits<T>(a, b, [](T u, T v) { return u <= v; });
    case CmpOp::Gt: case CmpOp::Hi: return laneBits<T>(a, b, [](T u, T v) { return u > v; });
    default: return laneBits<T>(a, b, [](T u, T v) { return u >= v; });
    }
}

bool compareLane(const Instr& I, Type t, uint64_t a, uint64_t b) {
    using namespace arith;
    if (t == Type::F32) return compareF32(I.cmp, asF32(a), asF32(b), I.ftz);
    if (t == Type::F64) return compareF64(I.cmp, asF64(a), asF64(b));
    if (t == Type::F16) return compareF32(I.cmp, f16ToF32(uint16_t(a)), f16ToF32(uint16_t(b)), I.ftz);
    return compareInt(I.cmp, a, b, ptx::bitsOf(t), ptx::isSigned(t));
}

void execCompare(Exec& x) {
    const Instr& I = x.I;
    using namespace arith;
    switch (I.op) {
    case Op::Setp: {
        const uint64_t* a = x.src(0);
        const uint64_t* b = x.src(1);
        uint32_t c = I.boolOp != BoolOp::None ? x.predMask(I.src[2]) : 0;
        uint32_t p = 0;
        const Type t = I.type;
        if ((t == Type::S32 || t == Type::U32 || t == Type::B32) &&
            (I.cmp <= CmpOp::Ge || (I.cmp >= CmpOp::Lo && I.cmp <= CmpOp::Hs))) {
            // The common integer comparisons, inline (loop counters, bounds checks).
            const bool sgn = t == Type::S32 && I.cmp <= CmpOp::Ge;
            // Every lane is compared (registers of inactive lanes hold plain data) and the
            // result masked: no per-lane test of the mask or of the comparison.
            p = (sgn ? compareLanes32<int32_t>(I.cmp, a, b) : compareLanes32<uint32_t>(I.cmp, a, b)) & x.exec;
        } else {
            forLanes(x.exec, [&](int l) {
                if (compareLane(I, t, a[l], b[l])) p |= 1u << l;
            });
        }
        uint32_t q = ~p;
        switch (I.boolOp) {
        case BoolOp::None: break;
        case BoolOp::And: p &= c; q &= c; break;
        case BoolOp::Or: p |= c; q |= c; break;
        case BoolOp::Xor: p ^= c; q ^= c; break;
        }
        x.setPred(I.dst, p, x.exec);
        x.setPred(I.dst2, q, x.exec);
        break;
    }
    case Op::Set: {
        const uint64_t* a = x.src(0);
        const uint64_t* b = x.src(1);
        uint32_t c = I.boolOp != BoolOp::None ? x.predMask(I.src[2]) : 0;
        uint64_t* d = x.dst();
        forLanes(x.exec, [&](int l) {
            bool v = compareLane(I, I.type2, a[l], b[l]);
            bool cv = (c >> l) & 1;
            if (I.boolOp == BoolOp::And) v = v && cv;
            else if (I.boolOp == BoolOp::Or) v = v || cv;
            else if (I.boolOp == BoolOp::Xor) v = v != cv;
            if (I.type == Type::F32) d[l] = v ? 0x3f800000u : 0u;
            else if (I.type == Type::F16) d[l] = v ? 0x3c00u : 0u;
            else d[l] = v ? mask(ptx::bitsOf(I.type)) : 0u;
        });
        break;
    }
    case Op::Selp: {
        const uint64_t* a = x.src(0);
        const uint64_t* b = x.src(1);
        uint32_t c = x.predMask(I.src[2]);
        if (I.type == Type::Pred) {
            uint32_t v = 0;
            forLanes(x.exec, [&](int l) { v |= uint32_t(((c >> l) & 1) ? a[l] & 1 : b[l] & 1) << l; });
            x.setPred(I.dst, v, x.exec);
            break;
        }
        uint64_t* d = x.dst();
        forLanes(x.exec, [&](int l) { d[l] = ((c >> l) & 1) ? a[l] : b[l]; });
        break;
    }
    case Op::Slct: {
        const uint64_t* a = x.src(0);
        const uint64_t* b = x.src(1);
        const uint64_t* c = x.src(2);
        uint64_t* d = x.dst();
        forLanes(x.exec, [&](int l) {
            bool ge = int32_t(c[l]) >= 0;
            if (I.type2 == Type::F32) {
                float cf = asF32(c[l]);
                if (I.ftz && arith::isSubnormalF32(cf)) cf = 0.0f;
                ge = cf >= 0.0f;   // -0.0 >= 0 is true; NaN is false
            }
            d[l] = ge ? a[l] : b[l];
        });
        break;
    }
    case Op::Testp: {
        const uint64_t* a = x.src(0);
        uint32_t v = 0;
        forLanes(x.exec, [&](int l) {
            bool r = I.type == Type::F32 ? testpF32(I.testp, asF32(a[l])) : testpF64(I.testp, asF64(a[l]));
            if (r) v |= 1u << l;
        });
        x.setPred(I.dst, v, x.exec);
        break;
    }
    default: break;
    }
}

uint64_t signExtendTo64(uint64_t v, Type t) {
    int bits = ptx::bitsOf(t);
    if (ptx::isSigned(t) && bits < 64) return uint64_t(arith::signExtend(v, bits));
    return v;
}

void execMove(Exec& x) {
    const Instr& I = x.I;
    switch (I.op) {
    case Op::Mov: {
        if (I.type == Type::Pred) {
            x.setPred(I.dst, x.predMask(I.src[0]), x.exec);
            break;
        }
        if (I.type2 == Type::B128) {   // pack {a, b(, c, d)} into one register
            int eb = ptx::bitsOf(I.type) / I.vec;
            uint64_t* d = x.dst();
            uint64_t s[4][32];
            const uint64_t* v[4];
            for (int k = 0; k < I.vec; ++k) v[k] = x.value(I.vecRegs[k], s[k]);
            forLanes(x.exec, [&](int l) {
                uint64_t r = 0;
                for (int k = 0; k < I.vec; ++k) r |= (v[k][l] & mask(eb)) << (eb * k);
                d[l] = r;
            });
            break;
        }
        if (I.type2 == Type::B8) {   // unpack one register into {a, b(, c, d)}
            int eb = ptx::bitsOf(I.type) / I.vec;
            const uint64_t* a = x.src(0);
            uint64_t copy[32];
            std::memcpy(copy, a, sizeof copy);
            for (int k = 0; k < I.vec; ++k) {
                uint64_t* d = x.regOut(I.vecRegs[k]);
                forLanes(x.exec, [&](int l) { d[l] = (copy[l] >> (eb * k)) & mask(eb); });
            }
            break;
        }
        const uint64_t m = mask(ptx::bitsOf(I.type));
        map1(x, [&](uint64_t a) { return a & m; });
        break;
    }
    case Op::Cvt: {
        const Type dt = I.type, st = I.type2;
        const int db = ptx::bitsOf(dt);
        const uint64_t m = mask(db);
        if (I.toTf32) {
            map1(x, [&](uint64_t a) { return uint64_t(arith::f32ToTf32(uint32_t(a), I.rnd, I.satfinite)); });
        } else if (I.nsrc == 2 && (dt == Type::F16x2 || dt == Type::BF16x2)) {   // cvt.rn.f16x2.f32 d, a, b: a -> upper half
            const Type half = dt == Type::F16x2 ? Type::F16 : Type::BF16;
            map2(x, [&](uint64_t a, uint64_t b) {
                return ((arith::convert(a, half, Type::F32, I.rnd, false, false) & 0xffffu) << 16) |
                       (arith::convert(b, half, Type::F32, I.rnd, false, false) & 0xffffu);
            });
        } else if (ptx::isInteger(dt) && ptx::isInteger(st) && !I.sat) {
            // Plain integer widening/narrowing (hot: cvt.u64.u32, cvt.s64.s32).
            map1(x, [&](uint64_t a) { return signExtendTo64(a & mask(ptx::bitsOf(st)), st) & m; });
        } else {
            map1(x, [&](uint64_t a) { return arith::convert(a, dt, st, I.rnd, I.ftz, I.sat) & m; });
        }
        break;
    }
    case Op::Cvta: {
        uint64_t base = 0;
        if (I.space == StateSpace::Shared) base = mem::kSharedWindow;
        else if (I.space == StateSpace::Local) base = mem::kLocalWindow;
        else if (I.space == StateSpace::Param) base = mem::kParamWindow;
        const uint64_t m = mask(ptx::bitsOf(I.type));
        if (I.toSpace) map1(x, [&](uint64_t a) { return (a - base) & m; });
        else map1(x, [&](uint64_t a) { return (a + base) & m; });
        break;
    }
    case Op::Isspacep: {
        const uint64_t* a = x.src(0);
        uint32_t v = 0;
        forLanes(x.exec, [&](int l) {
            mem::Window win = mem::windowOf(a[l]);
            bool r = false;
            switch (I.space) {
            case StateSpace::Shared: r = win == mem::Window::Shared; break;
            case StateSpace::Local: r = win == mem::Window::Local; break;
            case StateSpace::Param: r = win == mem::Window::Param; break;
            case StateSpace::Global: r = win == mem::Window::Global && a[l] >= mem::kGlobalBase; break;
            case StateSpace::Const: r = a[l] >= mem::kConstBase && a[l] < mem::kGlobalBase; break;
            default: break;
            }
            if (r) v |= 1u << l;
        });
        x.setPred(I.dst, v, x.exec);
        break;
    }
    default: break;
    }
}

// initcheck and racecheck for one memory instruction. `before` runs ahead of the access (reads
// are checked against what was there), the other pass after it (writes are recorded, and a
// write-after-write can compare the value it stored with the one it replaced).
void checkAccess(Exec& x, uint32_t bytes, bool before) {
    const Instr& I = x.I;
    Gpu& g = x.g;
    const bool isLoad = I.op == Op::Ld, isAtomic = I.op == Op::Atom || I.op == Op::Red, isStore = I.op == Op::St;
    const bool initcheck = g.options().initcheck, racecheck = g.options().racecheck;
    if (I.space == StateSpace::Global && !initcheck) {   // racecheck only: one call for the warp
        g.globalRace().accessWarp(g, x.b, x.w, I, x.addrs, x.exec, bytes, before);
        return;
    }
    forLanes(x.exec, [&](int l) {
        uint64_t addr = x.addrs[l];
        StateSpace space = I.space;
        if (space == StateSpace::None) {
            mem::Window win = mem::windowOf(addr);
            if (win == mem::Window::Shared) {
                space = StateSpace::Shared;
                addr -= mem::kSharedWindow;
            } else if (win == mem::Window::Global) {
                space = StateSpace::Global;
            } else {
                return;
            }
        }
        if (space == StateSpace::Global) {
            if (racecheck) g.globalRace().access(g, x.b, x.w, l, I, addr, bytes, before);
            if (!initcheck) return;
            mem::Allocation* a = g.memory().find(addr, bytes);
            if (!a || !a->init) return;
            uint8_t* shadow = a->init.get() + (addr - a->base);
            if (before && (isLoad || isAtomic)) {
                for (uint32_t k = 0; k < bytes; ++k)
                    if (!shadow[k]) {
                        g.report("initcheck", "uninitialized global read",
                                 "Uninitialized read: " + std::to_string(bytes) + " bytes of global memory that nothing has written.",
                                 x.b, x.w, l, &I, x.addrs[l]);
                        break;
                    }
            }
            if (!before && (isStore || isAtomic)) std::memset(shadow, 1, bytes);
            return;
        }
        if (space != StateSpace::Shared || addr + bytes > x.b.shared.size()) return;
        if (initcheck && !x.b.sharedInit.empty()) {
            uint8_t* shadow = x.b.sharedInit.data() + addr;
            if (before && (isLoad || isAtomic)) {
                for (uint32_t k = 0; k < bytes; ++k)
                    if (!shadow[k]) {
                        g.report("initcheck", "uninitialized shared read",
                                 "Uninitialized read: shared-memory offset " + std::to_string(addr) + " has not been written by any thread of the block.",
                                 x.b, x.w, l, &I, addr);
                        break;
                    }
            }
            if (!before && (isStore || isAtomic)) std::memset(shadow, 1, bytes);
        }
        if (!racecheck || x.b.race.empty() || isAtomic) return;   // atomics never race with each other
        const uint32_t epoch = x.b.barrierEpoch, me = x.w.indexInBlock;
        for (uint64_t word = addr / 4; word <= (addr + bytes - 1) / 4; ++word) {
            Block::RaceCell& c = x.b.race[word];
            auto other = [&](const char* what, const char* verb) {
                const Instr& wi = g.program().code[size_t(std::max(0, c.writerPc))];
                std::ostringstream os;
                os << what << " at shared-memory offset " << word * 4 << ": warp " << me << " lane " << l << " " << verb
                   << " what warp " << c.writerWarp << " lane " << int(c.writerLane) << " wrote (source line " << wi.line
                   << ") with no __syncthreads() between them.";
                return os.str();
            };
            if (before && isLoad) {
                if (c.writeEpoch == epoch && c.writerWarp != me) {
                    if (g.reportWanted("racecheck", "read-after-write", &I))
                        g.report("racecheck", "read-after-write", other("Read-after-write hazard", "reads"), x.b, x.w, l, &I, addr);
                } else if (c.writeEpoch == epoch && c.writerWarp == me && c.writerLane != uint8_t(l) && c.writerSync == x.w.syncEpoch &&
                           g.reportWanted("racecheck", "lockstep", &I)) {
                    std::ostringstream os;
                    os << "Warp-synchronous read at shared-memory offset " << word * 4 << ": lane " << l << " reads what lane " << int(c.writerLane)
                       << " of the same warp wrote, relying on lockstep execution.";
                    // A tile that other warps read too (a halo, a transpose) needs the block's
                    // barrier; __syncwarp() only orders lanes of one warp.
                    if (g.warpsPerBlock() > 1)
                        os << " Add __syncthreads() between the write and the read (it orders every thread of the block, this "
                              "warp's lanes too); __syncwarp() is enough only where no other warp reads these words.";
                    else
                        os << " Add __syncwarp() between the write and the read.";
                    g.report("racecheck", "lockstep", os.str(), x.b, x.w, l, &I, addr);
                }
                if (c.readEpoch != epoch) {
                    c.readEpoch = epoch;
                    c.readers = 0;
                }
                if (me < 32) c.readers |= 1u << me;
            }
            if (!before && isStore) {
                uint32_t now = 0;
                std::memcpy(&now, x.b.shared.data() + word * 4, 4);
                if (c.readEpoch == epoch && (c.readers & ~(me < 32 ? 1u << me : 0u)) && g.reportWanted("racecheck", "write-after-read", &I))
                    g.report("racecheck", "write-after-read",
                             "Write-after-read hazard at shared-memory offset " + std::to_string(word * 4) + ": warp " + std::to_string(me) +
                                 " overwrites a word other warps read since the last __syncthreads().",
                             x.b, x.w, l, &I, addr);
                if (c.writeEpoch == epoch && c.writerWarp != me &&
                    g.reportWanted("racecheck", now == c.value ? "write-after-write (same value)" : "write-after-write", &I))
                    g.report("racecheck", now == c.value ? "write-after-write (same value)" : "write-after-write",
                             other(now == c.value ? "Write-after-write of the same value (benign on hardware, still a race)" : "Write-after-write hazard",
                                   "overwrites"),
                             x.b, x.w, l, &I, addr);
                c.writeEpoch = epoch;
                c.writerWarp = uint16_t(me);
                c.writerLane = uint8_t(l);
                c.writerSync = x.w.syncEpoch;
                c.writerPc = int32_t(&I - g.program().code.data());
                c.value = now;
            }
        }
    });
}

// Whole-warp loads and stores once warpRegion has checked the lanes: a plain copy per lane,
// specialised by element type, vector width, sign fill and lane stride (only .param has one) so
// no test is left in the lane loop. Lane l's bytes are at origin + l * stride + addrs[l], with
// origin = base - bias computed in integers. Signed 8- and 16-bit loads are kept sign-extended
// to 32 bits (as the per-lane path does; for 32 bits that is the value itself).
struct WarpRegion {
    uintptr_t origin;
    size_t stride;
};
template <class E, int kVec, bool kSignFill, bool kStrided>
void loadWarp(WarpRegion r, const uint64_t* addrs, uint64_t* const* outs) {
    uint64_t* o[kVec];
    for (int k = 0; k < kVec; ++k) o[k] = outs[k];
#pragma GCC unroll 8
    for (int l = 0; l < 32; ++l) {
        const uint8_t* p = reinterpret_cast<const uint8_t*>(r.origin + (kStrided ? size_t(l) * r.stride : 0) + addrs[l]);
        for (int k = 0; k < kVec; ++k) {
            E e;
            std::memcpy(&e, p + k * sizeof(E), sizeof(E));
            if constexpr (kSignFill) o[k][l] = uint32_t(int32_t(std::make_signed_t<E>(e)));
            else o[k][l] = e;
        }
    }
}
template <class E, int kVec, bool kStrided>
void storeWarp(WarpRegion r, const uint64_t* addrs, const uint64_t* const* vals) {
    const uint64_t* v[kVec];
    for (int k = 0; k < kVec; ++k) v[k] = vals[k];
#pragma GCC unroll 8
    for (int l = 0; l < 32; ++l) {
        uint8_t* p = reinterpret_cast<uint8_t*>(r.origin + (kStrided ? size_t(l) * r.stride : 0) + addrs[l]);
        for (int k = 0; k < kVec; ++k) {
            const E e = static_cast<E>(v[k][l]);
            std::memcpy(p + k * sizeof(E), &e, sizeof(E));
        }
    }
}
template <class E, bool kSignFill>
void loadWarpAny(int vec, WarpRegion r, const uint64_t* addrs, uint64_t* const* outs) {
    const bool strided = r.stride != 0;
    if (vec == 1) strided ? loadWarp<E, 1, kSignFill, true>(r, addrs, outs) : loadWarp<E, 1, kSignFill, false>(r, addrs, outs);
    else if (vec == 2) strided ? loadWarp<E, 2, kSignFill, true>(r, addrs, outs) : loadWarp<E, 2, kSignFill, false>(r, addrs, outs);
    else strided ? loadWarp<E, 4, kSignFill, true>(r, addrs, outs) : loadWarp<E, 4, kSignFill, false>(r, addrs, outs);
}
template <class E>
void storeWarpAny(int vec, WarpRegion r, const uint64_t* addrs, const uint64_t* const* vals) {
    const bool strided = r.stride != 0;
    if (vec == 1) strided ? storeWarp<E, 1, true>(r, addrs, vals) : storeWarp<E, 1, false>(r, addrs, vals);
    else if (vec == 2) strided ? storeWarp<E, 2, true>(r, addrs, vals) : storeWarp<E, 2, false>(r, addrs, vals);
    else strided ? storeWarp<E, 4, true>(r, addrs, vals) : storeWarp<E, 4, false>(r, addrs, vals);
}

// A memory instruction's part of its Step (the general path's execMemory and the pre-decoded
// handlers fill it alike) or of a MemoryAccess (issueQuiet): the space it resolved to, bytes
// per lane, the kind.
template <class Record>
void fillMemoryKind(Record& r, const Instr& I, StateSpace resolved) {
    r.space = resolved;
    r.accessBytes = static_cast<uint8_t>(std::min<uint32_t>(static_cast<uint32_t>(ptx::sizeOf(I.type)) * I.vec, 255));
    r.isLoad = I.op == Op::Ld;
    r.isStore = I.op == Op::St;
    r.isAtomic = I.op == Op::Atom || I.op == Op::Red;
}

void fillMemoryStep(sim::Step& st, const Instr& I, StateSpace resolved, const uint64_t* addrs) {
    fillMemoryKind(st, I, resolved);
    st.addresses = addrs;
}

// (Its addresses are written in place.)
void fillMemoryAccess(MemoryAccess& m, const Instr& I, StateSpace resolved, uint32_t execMask) {
    fillMemoryKind(m, I, resolved);
    m.valid = true;
    m.execMask = execMask;
    m.instr = &I;
}

bool isFastMemory(FastKind k) {
    return k == FastKind::LdShared || k == FastKind::StShared || k == FastKind::LdGlobal || k == FastKind::StGlobal ||
           k == FastKind::LdParam;
}

void execMemory(Exec& x, sim::Step* st) {
    const Instr& I = x.I;
    const int es = ptx::sizeOf(I.type);
    const uint32_t bytes = static_cast<uint32_t>(es) * I.vec;
    x.computeAddresses();
    const bool checking = x.g.options().initcheck || x.g.options().racecheck;
    if (checking) checkAccess(x, bytes, true);
    struct After {   // runs after the access, also on early exits
        Exec& x;
        uint32_t bytes;
        bool on;
        ~After() {
            if (on && std::uncaught_exceptions() == 0) checkAccess(x, bytes, false);
        }
    } after{x, bytes, checking};
    StateSpace resolved = I.space;
    uint8_t* wbase = nullptr;
    size_t wstride = 0;
    uint64_t wbias = 0;
    if (I.op == Op::Ld) {
        const bool signFill = ptx::isSigned(I.type) && es < 8;
        uint64_t* outs[4];
        for (int k = 0; k < I.vec; ++k) outs[k] = I.vec > 1 ? x.regOut(I.vecRegs[k]) : x.dst();
        if (!checking && x.warpRegion(bytes, false, wbase, wstride, wbias)) {
            const WarpRegion r{reinterpret_cast<uintptr_t>(wbase) - wbias, wstride};
            switch (es) {
            case 1: signFill ? loadWarpAny<uint8_t, true>(I.vec, r, x.addrs, outs) : loadWarpAny<uint8_t, false>(I.vec, r, x.addrs, outs); break;
            case 2: signFill ? loadWarpAny<uint16_t, true>(I.vec, r, x.addrs, outs) : loadWarpAny<uint16_t, false>(I.vec, r, x.addrs, outs); break;
            case 4: loadWarpAny<uint32_t, false>(I.vec, r, x.addrs, outs); break;
            default: loadWarpAny<uint64_t, false>(I.vec, r, x.addrs, outs); break;
            }
            goto done;
        }
        // Fixed-size copies per element width, so the compiler emits plain moves, not memcpy calls.
        uint8_t* ptr[32];
        x.pointersFor(bytes, false, &resolved, ptr);
        auto loadAll = [&](auto elem) {
            using E = decltype(elem);
            forLanes(x.exec, [&](int l) {
                const uint8_t* p = ptr[l];
                for (int k = 0; k < I.vec; ++k) {
                    E e;
                    std::memcpy(&e, p + k * sizeof(E), sizeof(E));
                    uint64_t v = e;
                    if (signFill) v = uint64_t(arith::signExtend(v, es * 8)) & mask(std::max(32, es * 8));
                    outs[k][l] = v;
                }
            });
        };
        switch (es) {
        case 1: loadAll(uint8_t{}); break;
        case 2: loadAll(uint16_t{}); break;
        case 4: loadAll(uint32_t{}); break;
        default: loadAll(uint64_t{}); break;
        }
    } else if (I.op == Op::St) {
        uint64_t s[4][32];
        const uint64_t* vals[4];
        if (I.vec > 1)
            for (int k = 0; k < I.vec; ++k) vals[k] = x.value(I.vecRegs[k], s[k]);
        else
            vals[0] = x.src(0);
        if (!checking && x.warpRegion(bytes, true, wbase, wstride, wbias)) {
            const WarpRegion r{reinterpret_cast<uintptr_t>(wbase) - wbias, wstride};
            switch (es) {
            case 1: storeWarpAny<uint8_t>(I.vec, r, x.addrs, vals); break;
            case 2: storeWarpAny<uint16_t>(I.vec, r, x.addrs, vals); break;
            case 4: storeWarpAny<uint32_t>(I.vec, r, x.addrs, vals); break;
            default: storeWarpAny<uint64_t>(I.vec, r, x.addrs, vals); break;
            }
            goto done;
        }
        uint8_t* ptr[32];
        x.pointersFor(bytes, true, &resolved, ptr);
        auto storeAll = [&](auto elem) {
            using E = decltype(elem);
            forLanes(x.exec, [&](int l) {
                uint8_t* p = ptr[l];
                for (int k = 0; k < I.vec; ++k) {
                    E e = static_cast<E>(vals[k][l]);
                    std::memcpy(p + k * sizeof(E), &e, sizeof(E));
                }
            });
        };
        switch (es) {
        case 1: storeAll(uint8_t{}); break;
        case 2: storeAll(uint16_t{}); break;
        case 4: storeAll(uint32_t{}); break;
        default: storeAll(uint64_t{}); break;
        }
    } else {   // atom / red: lanes in order, each a read-modify-write
        const uint64_t* b = x.src(0);
        const uint64_t* c = I.nsrc > 1 ? x.src(1) : nullptr;
        uint64_t* d = I.op == Op::Atom ? x.dst() : x.sink;
        const Type t = I.type;
        const int bits = es * 8;
        const bool sgn = ptx::isSigned(t);
        forLanes(x.exec, [&](int l) {
            uint8_t* p = x.resolve(I.space, x.addrs[l], bytes, l, true, &resolved);
            uint64_t old = 0;
            std::memcpy(&old, p, static_cast<size_t>(es));
            uint64_t v = old;
            using namespace arith;
            switch (I.atom) {
            case AtomOp::Add:
                if (t == Type::F32) v = fromF32(addF32(asF32(old), asF32(b[l]), Round::RN, false, false));
                else if (t == Type::F64) v = fromF64(addF64(asF64(old), asF64(b[l]), Round::RN));
                else if (t == Type::F16) v = addF16(uint16_t(old), uint16_t(b[l]), Round::RN, false, false);
                else v = (old + b[l]) & mask(bits);
                break;
            case AtomOp::Min:
                if (t == Type::F32) v = fromF32(minF32(asF32(old), asF32(b[l])));
                else if (t == Type::F64) v = fromF64(minF64(asF64(old), asF64(b[l])));
                else v = minInt(old, b[l], bits, sgn);
                break;
            case AtomOp::Max:
                if (t == Type::F32) v = fromF32(maxF32(asF32(old), asF32(b[l])));
                else if (t == Type::F64) v = fromF64(maxF64(asF64(old), asF64(b[l])));
                else v = maxInt(old, b[l], bits, sgn);
                break;
            case AtomOp::Inc: v = (old >= (b[l] & mask(bits))) ? 0 : (old + 1) & mask(bits); break;
            case AtomOp::Dec: v = (old == 0 || old > (b[l] & mask(bits))) ? (b[l] & mask(bits)) : old - 1; break;
            case AtomOp::Cas: v = (old == (b[l] & mask(bits))) ? (c[l] & mask(bits)) : old; break;
            case AtomOp::Exch: v = b[l] & mask(bits); break;
            case AtomOp::And: v = old & b[l]; break;
            case AtomOp::Or: v = old | b[l]; break;
            case AtomOp::Xor: v = (old ^ b[l]) & mask(bits); break;
            case AtomOp::None: break;
            }
            std::memcpy(p, &v, static_cast<size_t>(es));
            d[l] = old;
        });
    }
done:
    if (st) fillMemoryStep(*st, I, resolved, x.addrs);
}

void execWarp(Exec& x) {
    const Instr& I = x.I;
    switch (I.op) {
    case Op::Shfl: {
        const uint64_t* a = x.src(0);
        const uint64_t* bb = x.src(1);
        const uint64_t* cc = x.src(2);
        uint64_t av[32];
        std::memcpy(av, a, sizeof av);   // sources are read before any lane writes
        uint64_t* d = x.dst();
        uint32_t valid = 0;
        uint64_t res[32];
        forLanes(x.exec, [&](int l) {
            uint32_t lane = uint32_t(l);
            uint32_t bval = uint32_t(bb[l]) & 31;
            uint32_t c = uint32_t(cc[l]);
            uint32_t cval = c & 31, segmask = (c >> 8) & 31;
            uint32_t maxLane = (lane & segmask) | (cval & ~segmask);
            uint32_t minLane = lane & segmask;
            int32_t j = 0;
            bool pval = false;
            switch (I.shfl) {
            case ShflMode::Up: j = int32_t(lane) - int32_t(bval); pval = j >= int32_t(maxLane); break;
            case ShflMode::Down: j = int32_t(lane + bval); pval = j <= int32_t(maxLane); break;
            case ShflMode::Bfly: j = int32_t(lane ^ bval); pval = j <= int32_t(maxLane); break;
            case ShflMode::Idx: j = int32_t(minLane | (bval & ~segmask)); pval = j <= int32_t(maxLane); break;
            }
            if (!pval) j = int32_t(lane);
            res[l] = av[j & 31] & 0xffffffffu;
            if (pval) valid |= 1u << l;
        });
        forLanes(x.exec, [&](int l) { d[l] = res[l]; });
        x.setPred(I.dst2, valid, x.exec);
        break;
    }
    case Op::Vote: {
        uint32_t p = x.predMask(I.src[0]) & x.exec;
        uint32_t members = x.exec;
        if (I.vote == VoteMode::Ballot) {
            uint64_t* d = x.dst();
            forLanes(x.exec, [&](int l) { d[l] = p; });
        } else {
            bool v = false;
            if (I.vote == VoteMode::All) v = p == members;
            else if (I.vote == VoteMode::Any) v = p != 0;
            else v = p == 0 || p == members;
            x.setPred(I.dst, v ? kFull : 0u, x.exec);
        }
        break;
    }
    case Op::Activemask: {
        uint64_t* d = x.dst();
        forLanes(x.exec, [&](int l) { d[l] = x.exec; });
        break;
    }
    case Op::Match: {
        const uint64_t* a = x.src(0);
        const uint64_t m = mask(ptx::bitsOf(I.type));
        uint64_t* d = x.dst();
        uint32_t members = x.exec;
        bool allSame = true;
        int first = std::countr_zero(members);
        forLanes(members, [&](int l) { allSame = allSame && ((a[l] & m) == (a[first] & m)); });
        forLanes(members, [&](int l) {
            if (I.matchAll) {
                d[l] = allSame ? members : 0u;
            } else {
                uint32_t same = 0;
                forLanes(members, [&](int k) {
                    if ((a[k] & m) == (a[l] & m)) same |= 1u << k;
                });
                d[l] = same;
            }
        });
        if (I.matchAll) x.setPred(I.dst2, allSame ? kFull : 0u, x.exec);
        break;
    }
    default: break;
    }
}

// Tensor-core instructions (sim/tensor.hpp): every lane's fragment elements move between its
// registers and memory (wmma.load/store, ldmatrix) or other lanes (mma, movmatrix) by the
// layout fragmentElements gives. They are warp-wide (.sync.aligned): all 32 lanes must execute
// them; the registers are written directly, not through Exec's staging (up to 16 of them).
void execMatrix(Exec& x) {
    const Instr& I = x.I;
    const MatrixOp& M = *I.matrix;
    if (x.exec != kFull) {
        const int missing = std::countr_zero(~x.exec);
        x.fault(Error::Kind::Fault,
                describe(M) + " is a warp-wide (.sync.aligned) instruction: all 32 lanes must execute it together, but lane " +
                    std::to_string(missing) + " does not (divergent code, a guard, or a partial warp). The result would be undefined.",
                missing);
    }
    const uint32_t* offsets = x.g.registerOffsets(x.f.func);
    auto regIn = [&](const Operand& o, uint32_t* out) {   // 32 lanes of a 32-bit register or immediate
        if (o.kind == Operand::Kind::Reg) {
            const uint32_t* v = x.f.narrow(offsets[o.index]);
            for (int l = 0; l < 32; ++l) out[l] = v[l];
        } else {
            for (int l = 0; l < 32; ++l) out[l] = uint32_t(o.imm);
        }
    };
    auto regOut = [&](const Operand& o, const uint32_t* in) {
        if (o.kind != Operand::Kind::Reg) return;
        uint32_t* v = x.f.narrow(offsets[o.index]);
        for (int l = 0; l < 32; ++l) v[l] = in[l];
    };
    auto readList = [&](const std::vector<Operand>& ops, std::vector<std::array<uint32_t, 32>>& out) {
        out.resize(ops.size());
        for (size_t i = 0; i < ops.size(); ++i) regIn(ops[i], out[i].data());
    };
    auto getSub = [](uint32_t word, int sub, ElemType t) -> uint32_t {
        const int eb = elemBytes(t);
        if (eb == 4) return word;
        if (eb == 2) return (word >> (16 * sub)) & 0xffffu;
        return (word >> (8 * sub)) & 0xffu;
    };
    auto putSub = [](uint32_t& word, int sub, ElemType t, uint32_t v) {
        const int eb = elemBytes(t);
        if (eb == 4) word = v;
        else if (eb == 2) word = (word & ~(0xffffu << (16 * sub))) | ((v & 0xffffu) << (16 * sub));
        else word = (word & ~(0xffu << (8 * sub))) | ((v & 0xffu) << (8 * sub));
    };

    switch (M.kind) {
    case MatrixKind::WmmaLoad:
    case MatrixKind::WmmaStore: {
        const bool store = M.kind == MatrixKind::WmmaStore;
        const Frag which = store ? Frag::D : M.frag;
        const ElemType t = M.memType();
        const int eb = elemBytes(t);
        x.computeAddresses();
        uint32_t stride[32];
        if (M.hasStride) regIn(I.src[0], stride);
        const uint32_t width = uint32_t(M.rowMajor ? fragCols(M, which) : fragRows(M, which));
        for (int l = 0; l < 32; ++l) {
            if (!M.hasStride) stride[l] = width;
            if (x.addrs[l] != x.addrs[0] || stride[l] != stride[0]) {
                std::ostringstream os;
                os << describe(M) << ": every lane must give the same address and stride, but lane " << l << " gives 0x" << std::hex << x.addrs[l]
                   << std::dec << " and " << stride[l] << " where lane 0 gives 0x" << std::hex << x.addrs[0] << std::dec << " and " << stride[0] << ".";
                x.fault(Error::Kind::Fault, os.str(), l, x.addrs[l]);
            }
        }
        // The CUDA Programming Guide asks for a 256-bit aligned pointer; the H100 runs 16-byte
        // aligned ones (tests/golden/wmma-gemm's s8 tiles), so 16 bytes is the fault line here.
        if (x.addrs[0] % 16 != 0) {
            std::ostringstream os;
            os << "Misaligned address: " << describe(M) << " needs a 16-byte aligned matrix pointer (the CUDA Programming Guide asks for 32 bytes), but the warp gave 0x" << std::hex
               << x.addrs[0] << std::dec << ".";
            x.fault(Error::Kind::Fault, os.str(), 0, x.addrs[0], I.space != StateSpace::Shared);
        }
        if ((uint64_t(stride[0]) * uint64_t(eb)) % 16 != 0 || stride[0] < width) {
            std::ostringstream os;
            os << describe(M) << ": the stride (leading dimension) is " << stride[0] << " elements; it must be at least " << width
               << " and a multiple of 16 bytes (" << 16 / eb << " elements of " << elemTypeName(t) << ").";
            x.fault(Error::Kind::Fault, os.str(), 0, x.addrs[0]);
        }
        std::vector<Operand> const& regs = store ? M.a : M.d;
        std::vector<std::array<uint32_t, 32>> vals;
        if (store) readList(regs, vals);
        else vals.assign(regs.size(), std::array<uint32_t, 32>{});
        for (int l = 0; l < 32; ++l) {
            for (const FragElem& e : fragmentElements(M, which, l)) {
                const uint64_t idx = M.rowMajor ? uint64_t(e.row) * stride[l] + e.col : uint64_t(e.col) * stride[l] + e.row;
                const uint64_t addr = x.addrs[l] + idx * uint64_t(eb);
                uint8_t* p = x.resolve(I.space, addr, uint32_t(eb), l, store, nullptr);
                if (store) {
                    const uint32_t v = getSub(vals[e.reg][size_t(l)], e.sub, t);
                    std::memcpy(p, &v, size_t(eb));
                } else {
                    uint32_t v = 0;
                    std::memcpy(&v, p, size_t(eb));
                    putSub(vals[e.reg][size_t(l)], e.sub, t, v);
                }
            }
        }
        if (!store)
            for (size_t i = 0; i < regs.size(); ++i) regOut(regs[i], vals[i].data());
        break;
    }
    case MatrixKind::WmmaMma:
    case MatrixKind::Mma: {
        std::vector<std::array<uint32_t, 32>> A, B, C;
        readList(M.a, A);
        readList(M.b, B);
        readList(M.c, C);
        const int rowsA = fragRows(M, Frag::A), colsA = fragCols(M, Frag::A), colsB = fragCols(M, Frag::B);
        // Gather the tiles: the first holder of each element (f16 wmma fragments hold theirs twice;
        // the hardware reads the first copy).
        std::vector<uint32_t> a(size_t(rowsA * colsA)), bm(size_t(colsA * colsB)), cm(size_t(rowsA * colsB));
        std::vector<uint8_t> seenA(a.size()), seenB(bm.size()), seenC(cm.size());
        for (int l = 0; l < 32; ++l) {
            for (const FragElem& e : fragmentElements(M, Frag::A, l)) {
                const size_t i = size_t(e.row) * size_t(colsA) + e.col;
                if (!seenA[i]) a[i] = getSub(A[e.reg][size_t(l)], e.sub, M.atype), seenA[i] = 1;
            }
            for (const FragElem& e : fragmentElements(M, Frag::B, l)) {
                const size_t i = size_t(e.row) * size_t(colsB) + e.col;
                if (!seenB[i]) bm[i] = getSub(B[e.reg][size_t(l)], e.sub, M.btype), seenB[i] = 1;
            }
            for (const FragElem& e : fragmentElements(M, Frag::C, l)) {
                const size_t i = size_t(e.row) * size_t(colsB) + e.col;
                if (!seenC[i]) cm[i] = getSub(C[e.reg][size_t(l)], e.sub, M.ctype), seenC[i] = 1;
            }
        }
        std::vector<uint32_t> dm(cm.size());
        std::vector<uint32_t> col(static_cast<size_t>(colsA));
        const bool integer = tensorIsInteger(M);
        for (int r = 0; r < rowsA; ++r)
            for (int c = 0; c < colsB; ++c) {
                for (int k = 0; k < colsA; ++k) col[size_t(k)] = bm[size_t(k) * size_t(colsB) + size_t(c)];
                const uint32_t* arow = a.data() + size_t(r) * size_t(colsA);
                const uint32_t cv = cm[size_t(r) * size_t(colsB) + size_t(c)];
                dm[size_t(r) * size_t(colsB) + size_t(c)] = integer ? dotProductInt(M, arow, col.data(), colsA, cv) : dotProduct(M, arow, col.data(), colsA, cv);
            }
        std::vector<std::array<uint32_t, 32>> D(M.d.size(), std::array<uint32_t, 32>{});
        for (int l = 0; l < 32; ++l)
            for (const FragElem& e : fragmentElements(M, Frag::D, l))
                putSub(D[e.reg][size_t(l)], e.sub, M.dtype, dm[size_t(e.row) * size_t(colsB) + e.col]);
        for (size_t i = 0; i < M.d.size(); ++i) regOut(M.d[i], D[i].data());
        break;
    }
    case MatrixKind::Ldmatrix: {
        // Lanes 8i..8i+7 give the row addresses of matrix i (16 bytes each, 16-byte aligned, in
        // shared memory); every lane then receives its elements of each matrix.
        x.computeAddresses();
        uint16_t rows[4][8][8];
        for (int i = 0; i < M.count; ++i)
            for (int r = 0; r < 8; ++r) {
                const int l = i * 8 + r;
                const uint64_t addr = x.addrs[l];
                if (addr % 16 != 0) {
                    std::ostringstream os;
                    os << "Misaligned address: ldmatrix reads each matrix row as 16 bytes from a 16-byte aligned shared-memory address, but lane "
                       << l << " (row " << r << " of matrix " << i << ") gave 0x" << std::hex << addr << std::dec << ".";
                    x.fault(Error::Kind::Fault, os.str(), l, addr);
                }
                StateSpace resolved = I.space;
                uint8_t* p = x.resolve(I.space, addr, 16, l, false, &resolved);
                if (resolved != StateSpace::Shared) {
                    std::ostringstream os;
                    os << "ldmatrix reads shared memory, but lane " << l << "'s row address 0x" << std::hex << addr << std::dec
                       << " is not in the shared window.";
                    x.fault(Error::Kind::Fault, os.str(), l, addr);
                }
                std::memcpy(rows[i][r], p, 16);
            }
        std::vector<std::array<uint32_t, 32>> D(M.d.size(), std::array<uint32_t, 32>{});
        for (int l = 0; l < 32; ++l)
            for (const FragElem& e : fragmentElements(M, Frag::D, l))
                putSub(D[e.reg][size_t(l)], e.sub, ElemType::B16, rows[e.col / 8][e.row][e.col % 8]);
        for (size_t i = 0; i < M.d.size(); ++i) regOut(M.d[i], D[i].data());
        break;
    }
    case MatrixKind::Movmatrix: {
        uint32_t src[32], dst[32] = {};
        regIn(M.a[0], src);
        uint16_t mat[8][8];
        for (int l = 0; l < 32; ++l)
            for (const FragElem& e : fragmentElements(M, Frag::A, l)) mat[e.row][e.col] = uint16_t(getSub(src[l], e.sub, ElemType::B16));
        // The destination holds the transpose: element (r, c) of the result is (c, r) of the source.
        for (int l = 0; l < 32; ++l)
            for (const FragElem& e : fragmentElements(M, Frag::D, l)) putSub(dst[l], e.sub, ElemType::B16, mat[e.col][e.row]);
        regOut(M.d[0], dst);
        break;
    }
    }
}

} // namespace

// ---------------------------------------------------------------- 7. issue()
void Gpu::stopLaunch(Block& b, Warp& w, uint32_t active, const Instr& I) {
    std::ostringstream os;
    if (opt_.cancel && opt_.cancel->load(std::memory_order_relaxed)) {
        os << "Cancelled by the user after " << stats_.warpInstructions << " warp-instructions.";
        raise(Error::Kind::Cancelled, os.str(), b, w, std::countr_zero(active), &I);
    }
    if (stats_.warpInstructions >= opt_.instructionBudget) {
        os << "Stopped after " << stats_.warpInstructions
           << " warp-instructions: the launch exceeded its instruction budget, which usually means a loop that never ends. "
              "If the kernel is just long, raise the budget (warpscope run --budget N).";
        raise(Error::Kind::Budget, os.str(), b, w, std::countr_zero(active), &I);
    }
    checkAt_ = std::min(opt_.instructionBudget, stats_.warpInstructions + kCancelPoll);
}

void Gpu::checkMemberMask(Block& b, Warp& w, const Instr& I, uint32_t exec, const uint64_t* masks) {
    if (auto p = findMaskProblem(w, I, exec, masks)) raise(Error::Kind::Fault, p->message, b, w, p->lane, &I);
}

void Gpu::issue(Block& b, Warp& w) {
    // Every issue ends with settle(), so a Ready warp always has a live SIMT entry on top
    // (Warp::top: the position and the current frame's words are one load from the Warp).
    // The lean path: a converged warp, no Step listener, no checker, and a pre-decoded handler
    // for the instruction. It does what the general path below does for such an instruction
    // (counts, handler, next pc, settle, per-pc sums), without the Step and the decoding.
    if (listener_ == nullptr && fastOk_) {
        SimtEntry& top = w.top;
        const int32_t pc = top.pc;
        const FastOp& fo = fast_[static_cast<size_t>(pc)];
        if (top.mask == kFull && fo.kind != FastKind::Generic && stats_.warpInstructions < checkAt_) {
            const uint32_t exec = fo.guard < 0 ? kFull : w.preds[fo.guard] ^ (fo.guardNegated ? kFull : 0u);
            // The general path's bookkeeping for an instruction that keeps the warp converged.
            auto done = [&](uint32_t lanes, bool branch, int32_t nextPc) __attribute__((always_inline)) {
                ++stats_.warpInstructions;
                stats_.threadInstructions += lanes;
                ++w.issued;
                stats_.branches += branch;
                if (countByPc_) {
                    PcCounts& c = pcCounts_[static_cast<size_t>(pc)];
                    ++c.warpInstructions;
                    c.threadInstructions += lanes;
                    c.activeLanes += 32;
                    c.branches += branch;
                }
                top.pc = nextPc;
                if (nextPc == top.rpc) {   // reconverged: as the general path's tail
                    settle(prog_, w);
                    if (w.state == WarpState::Done) {
                        --b.readyWarps;
                        tryReleaseBarrier(b);
                    }
                }
            };
            if (exec == kFull && fastFn_(*this, fo, b, w, memTap_ ? memTap_->addresses : nullptr)) {
                if (memTap_ && isFastMemory(fo.kind)) {
                    const Instr& I = prog_.code[static_cast<size_t>(pc)];
                    fillMemoryAccess(*memTap_, I, I.space, kFull);
                }
                done(32, false, pc + 1);
                return;
            }
            // A branch every lane takes or no lane takes: the warp stays converged (no SIMT entry).
            if (fo.kind == FastKind::Bra && (exec == 0 || exec == kFull)) {
                done(exec ? 32 : 0, true, exec ? static_cast<int32_t>(fo.offset) : pc + 1);
                return;
            }
        }
    }
    issueGeneral(b, w);
}

[[gnu::noinline]] void Gpu::issueGeneral(Block& b, Warp& w) {
    Frame& f = w.frames.back();
    const int32_t pc = w.top.pc;
    const Instr& I = prog_.code[static_cast<size_t>(pc)];
    const uint32_t active = w.top.mask;
    uint32_t execMask = active;
    if (I.guard.kind == Operand::Kind::Pred) execMask &= f.preds[I.guard.index] ^ (I.guard.negate ? kFull : 0u);

    if (stats_.warpInstructions >= checkAt_) stopLaunch(b, w, active, I);   // one compare on the hot path
    ++stats_.warpInstructions;
    stats_.threadInstructions += laneCount(execMask);
    ++w.issued;

    sim::Step step;
    arrival_.arrived = false;
    // A Step for the listener, or for issueQuiet's memory record (nobody else sees it).
    sim::Step* st = listener_ || (memTap_ && isMemoryOp(I.op)) ? &step : nullptr;
    Exec x(*this, b, w, f, I, active, execMask);
    int32_t nextPc = pc + 1;
    bool control = false;
    bool divergent = false;

    // A converged warp (and a guard true in every lane) takes the pre-decoded handler if there is one.
    // With a Step to fill, a pre-decoded load or store also gives its lanes' addresses (the
    // cycle model reads them), so memory instructions need not take the general path for it.
    uint64_t fastAddrs[32];
    const bool fastDone = execMask == kFull && fastOk_ && fastFn_(*this, fast_[static_cast<size_t>(pc)], b, w, st ? fastAddrs : nullptr);
    if (fastDone && st && isMemoryOp(I.op)) fillMemoryStep(*st, I, I.space, fastAddrs);
    if (!fastDone) switch (I.op) {
    case Op::Add: case Op::Sub: case Op::Addc: case Op::Subc: case Op::Mul: case Op::Mad: case Op::Madc: case Op::Mul24:
    case Op::Mad24: case Op::Sad: case Op::Div: case Op::Rem: case Op::Abs: case Op::Neg: case Op::Min:
    case Op::Max: case Op::Fma: case Op::Rcp: case Op::Sqrt: case Op::Rsqrt: case Op::Sin: case Op::Cos:
    case Op::Lg2: case Op::Ex2: case Op::Tanh: case Op::Copysign:
        if (execMask) execArith(x);
        break;
    case Op::Popc: case Op::Clz: case Op::Bfind: case Op::Fns: case Op::Brev: case Op::Bfe: case Op::Bfi: case Op::Prmt:
    case Op::And: case Op::Or: case Op::Xor: case Op::Not: case Op::Cnot: case Op::Shl: case Op::Shr: case Op::Shf:
        if (execMask) execBits(x);
        break;
    case Op::Setp: case Op::Set: case Op::Selp: case Op::Slct: case Op::Testp:
        if (execMask) execCompare(x);
        break;
    case Op::Mov: case Op::Cvt: case Op::Cvta: case Op::Isspacep:
        if (execMask) execMove(x);
        break;
    case Op::Ld: case Op::Ldu: case Op::St: case Op::Atom: case Op::Red:
        if (execMask) execMemory(x, st);
        break;
    case Op::Shfl: case Op::Vote: case Op::Activemask: case Op::Match:
        if (execMask) {
            if (I.maskSync) checkMemberMask(b, w, I, execMask, x.src(I.op == Op::Shfl ? 3 : 1));
            execWarp(x);
        }
        break;
    case Op::Membar: case Op::Fence:
        if (race_ && execMask) race_->fence(b, w, execMask, I);
        break;
    case Op::Nanosleep: case Op::Prefetch: case Op::Pmevent: case Op::Brkpt:
        break;
    case Op::WmmaLoad: case Op::WmmaStore: case Op::WmmaMma: case Op::Mma: case Op::Ldmatrix: case Op::Movmatrix:
        if (execMask) execMatrix(x);
        break;
    case Op::Bra: {
        control = true;
        ++stats_.branches;
        if (st) st->branch = true;
        const uint32_t taken = execMask;
        const uint32_t notTaken = active & ~taken;
        SimtEntry& top = w.top;   // the stack's top; f.stack holds the entries below it
        if (taken == 0) {
            top.pc = pc + 1;
        } else if (notTaken == 0 || I.target == pc + 1) {
            top.pc = I.target;
        } else {
            ++stats_.divergentBranches;
            divergent = true;
            if (st) st->divergent = true;
            const int32_t rpc = I.reconv;
            // The stack becomes [.., waiting entry, taken, not taken (top)]. When the current
            // entry would only wait at the same point as the one below, the taken entry replaces it.
            if (top.rpc != rpc) {
                top.pc = rpc;
                f.stack.push_back(top);
            }
            f.stack.push_back({I.target, rpc, taken});
            top = {pc + 1, rpc, notTaken};
        }
        break;
    }
    case Op::Call: {
        control = true;
        if (execMask == 0) {
            w.top.pc = pc + 1;
            break;
        }
        if (w.frames.size() >= 256) raise(Error::Kind::Fault, "Call stack overflow: more than 255 nested calls (runaway recursion?).", b, w, std::countr_zero(execMask), &I);
        const Function& caller = prog_.functions[f.func];
        const CallSite& cs = caller.calls[static_cast<size_t>(I.callSite)];
        const Function& callee = prog_.functions[cs.callee];
        w.top.pc = pc + 1;   // where the caller resumes (lanes that did not call wait there)
        Frame nf;
        nf.func = cs.callee;
        nf.regWords.assign(callee.regWords, 0);
        nf.preds.assign(callee.numPreds, 0);
        nf.params.assign(size_t(callee.paramBytes) * 32, 0);
        for (size_t k = 0; k < cs.argOffsets.size() && k < callee.formalOffsets.size(); ++k) {
            size_t n = static_cast<size_t>(callee.formalSizes[k]);
            forLanes(execMask, [&](int l) {
                std::memcpy(nf.params.data() + size_t(l) * callee.paramBytes + size_t(callee.formalOffsets[k]),
                            f.params.data() + size_t(l) * caller.paramBytes + size_t(cs.argOffsets[k]), n);
            });
        }
        nf.localBase = w.localTop;
        uint64_t top = uint64_t(w.localTop) + callee.localBytes;
        if (top > opt_.maxLocalBytesPerThread)
            raise(Error::Kind::Fault, "Local memory stack overflow (" + std::to_string(top) + " bytes per thread).", b, w, std::countr_zero(execMask), &I);
        w.localTop = static_cast<uint32_t>(top);
        for (auto& lm : w.local)
            if (lm.size() < top) lm.resize(top, 0);
        // The caller's top goes onto its stack; the callee's one entry is the new flat top.
        f.stack.push_back(w.top);
        w.top = {callee.entry, kExitPc, execMask};
        nf.returnPc = pc + 1;
        nf.callSite = I.callSite;
        w.frames.push_back(std::move(nf));
        w.setFrame();
        break;
    }
    case Op::Ret:
    case Op::Exit: {
        control = true;
        if (I.op == Op::Exit || w.frames.size() == 1) {
            finishLanes(w, execMask);
        } else {
            f.returned |= execMask;
            for (auto& e : f.stack) e.mask &= ~execMask;
            w.top.mask &= ~execMask;
        }
        if (execMask != active) w.top.pc = pc + 1;
        break;
    }
    case Op::Trap:
        if (execMask) raise(Error::Kind::Fault, "The kernel executed trap (for example a failed assert).", b, w, std::countr_zero(execMask), &I);
        break;
    case Op::Bar:
    case Op::Barrier: {
        if (I.type == Type::B8) {   // bar.warp.sync: lanes run in lockstep here; racecheck notes the sync
            if (execMask) checkMemberMask(b, w, I, execMask, x.src(0));
            ++w.syncEpoch;
            break;
        }
        if (execMask == 0) break;
        const uint32_t live = w.validMask & ~w.exited;
        // Some live lanes of the warp are elsewhere. Where they can only run to the kernel's end
        // (an early return before __syncthreads()), they go on and the arrived lanes wait: exited
        // threads count as arrived on Volta and later (parkAtBarrier). Otherwise: an error.
        const bool partial = active != live && !(w.parkedMask && (active | w.parkedMask) == live);
        auto divergent = [&] { divergentBarrier(b, w, I, active, live); };
        if (partial && (I.barArrive || w.frames.size() != 1 || w.parkedMask)) divergent();
        const uint64_t* idv = x.src(0);
        uint32_t id = static_cast<uint32_t>(idv[std::countr_zero(execMask)]) & 15;
        uint32_t count = 0;
        if (I.barRed == 0 && I.nsrc >= 2) count = static_cast<uint32_t>(x.src(1)[std::countr_zero(execMask)]);
        if (I.barRed != 0 && I.src[1].kind != Operand::Kind::None) count = static_cast<uint32_t>(x.src(1)[std::countr_zero(execMask)]);
        if (count % 32 != 0) raise(Error::Kind::Fault, "Barrier thread count " + std::to_string(count) + " is not a multiple of 32.", b, w, 0, &I);
        // synccheck: every warp arriving at one instance of a barrier must give the same thread
        // count (none = the whole block). The warps waiting there now make up the open instance;
        // on hardware a disagreement leaves the barrier never completing, or completing early.
        {
            const uint32_t wholeBlock = warpsPerBlock_ * 32;
            const uint32_t mine = count ? count : wholeBlock;
            for (const Warp& o : b.warps) {
                if (&o == &w || o.state != WarpState::AtBarrier || o.barrierId != id) continue;
                const uint32_t theirs = o.barrierCount ? o.barrierCount : wholeBlock;
                if (theirs == mine) continue;
                auto says = [](uint32_t c) { return c ? std::to_string(c) + " threads" : std::string("all threads of the block"); };
                const Instr* oi = o.barrierPc >= 0 ? &prog_.code[static_cast<size_t>(o.barrierPc)] : nullptr;
                std::ostringstream os;
                os << "Mismatched barrier thread counts at barrier " << id << ": warp " << w.indexInBlock << " lane "
                   << std::countr_zero(execMask) << " arrives expecting " << says(count) << ", but warp " << o.indexInBlock << " lane "
                   << std::countr_zero(o.validMask & ~o.exited) << " already waits there expecting " << says(o.barrierCount);
                if (oi) {
                    os << " (";
                    if (oi->line) os << "source line " << oi->line << ", ";
                    os << "PTX line " << oi->ptxLine << ": " << oi->text << ")";
                }
                os << ". Every warp that arrives at one barrier must give the same count; on hardware the barrier never "
                      "completes (the launch hangs) or releases the wrong warps.";
                raise(Error::Kind::Fault, os.str(), b, w, std::countr_zero(execMask), &I);
            }
        }
        if (I.barRed != 0) {   // count this warp's lanes and true predicates for the release
            b.barRedAccum[id] += static_cast<uint32_t>(std::popcount(x.predMask(I.src[2]) & execMask));
            b.barRedLanes[id] += static_cast<uint32_t>(std::popcount(execMask));
        }
        w.top.pc = pc + 1;
        control = true;
        if (I.barArrive) break;
        if (w.parkedMask && !partial && w.parkedPc == pc) {
            w.parkedMask = 0;   // the other lanes came to the same barrier: an ordinary wait
        } else if (w.parkedMask && !partial) {
            // The rest of the warp is parked at another barrier instruction: both sides of a
            // branch wait at a barrier of their own. Every live lane has arrived somewhere, and
            // the GPU counts them all at the barrier; the Programming Guide does not promise it.
            report("synccheck", "divergent barrier",
                   "Lanes of one warp wait at two different __syncthreads() (the two sides of a branch, PTX lines " +
                       std::to_string(prog_.code[static_cast<size_t>(w.parkedPc)].ptxLine) + " and " + std::to_string(I.ptxLine) +
                       "): Volta and later GPUs count both as the same barrier, but __syncthreads() in conditional code is only "
                       "defined when the whole block takes the same side.",
                   b, w, static_cast<int>(std::countr_zero(active)), &I, std::nullopt);
            w.parkedMask = 0;   // the parked entry runs on as an ordinary one after the release
        } else if (partial) {
            if (!parkAtBarrier(b, w, I, id, count)) {
                w.top.pc = pc;
                divergent();
            }
            break;
        }
        waitAtBarrier(b, w, id, count, pc);
        break;
    }
    case Op::Count_: break;
    }
    x.commit();
    if (!control) w.top.pc = nextPc;
    (void)x.active;

    if (st) {
        step.index = stats_.warpInstructions - 1;
        step.block = b.linear;
        step.warpInBlock = w.indexInBlock;
        step.warp = b.linear * warpsPerBlock_ + w.indexInBlock;
        step.pc = pc;
        step.instr = &I;
        step.activeMask = active;
        step.execMask = execMask;
    }
    const WarpState before = w.state;
    settle(prog_, w);
    if (w.state == WarpState::Done) {
        if (before == WarpState::Ready) --b.readyWarps;
        tryReleaseBarrier(b);
    } else if (w.parkedMask && w.state == WarpState::Ready && w.top.pc == w.parkedPc + 1 && w.top.rpc == w.parkedRpc &&
               (w.top.mask & ~w.parkedMask) == 0) {
        resumeParked(b, w);   // the lanes that ran on have exited (or reconverged): the parked ones wait now
    }
    if (memTap_ && (step.isLoad || step.isStore || step.isAtomic)) {
        fillMemoryAccess(*memTap_, I, step.space, step.addresses ? execMask : 0);
        if (step.addresses && step.addresses != memTap_->addresses) std::memcpy(memTap_->addresses, step.addresses, sizeof memTap_->addresses);
    }
    if (st && listener_) {
        step.maskAfter = w.state == WarpState::Done ? 0 : w.activeMask();
        step.barrierArrival = arrival_.arrived;
        step.barrierId = arrival_.id;
        step.barrierCount = arrival_.count;
        listener_->onStep(step);
    } else if (countByPc_) {
        PcCounts& c = pcCounts_[static_cast<size_t>(pc)];
        ++c.warpInstructions;
        c.threadInstructions += laneCount(execMask);
        c.activeLanes += laneCount(active);
        if (I.op == Op::Bra) {
            ++c.branches;
            c.divergentBranches += divergent;
        }
    }
}

} // namespace warpscope::sim
