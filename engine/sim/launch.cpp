// Launch set-up and residency: the Gpu's construction (launch checks, parameters, the decoded
// kernel), block admission and retirement (recycled blocks), residency changes from the timing
// model, and packing register files for runs nobody watches.
#include "sim/exec.hpp"

namespace warpscope::sim {

// ---------------------------------------------------------------- 1. Launch set-up
Gpu::Gpu(const Program& program, mem::GlobalMemory& memory, const base::LaunchConfig& config,
         const std::vector<base::ParamBytes>& params, LaunchOptions options)
    : Gpu(program, memory, config, params, options, {}, nullptr) {}

Gpu::Gpu(const Program& program, mem::GlobalMemory& memory, const base::LaunchConfig& config,
         const std::vector<base::ParamBytes>& params, LaunchOptions options, std::vector<std::unique_ptr<Block>> spares,
         const Gpu* like)
    : prog_(program), mem_(memory), cfg_(config), params_(params), opt_(options) {
    blocks_.spare = std::move(spares);
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
    blocks_.next = static_cast<uint32_t>(opt_.firstBlock);
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
    // (Grids of many small blocks are common: Residency recycles retired blocks.)
    blocks_.admit(opt_.maxResidentBlocks, opt_.endBlock, [&](Block& blockRef, uint64_t linear) {
        Block* const blk = &blockRef;
        const uint32_t lin = static_cast<uint32_t>(linear);
        blk->linear = lin;
        blk->done = false;
        std::memset(blk->barRedAccum, 0, sizeof blk->barRedAccum);
        std::memset(blk->barRedLanes, 0, sizeof blk->barRedLanes);
        for (auto& r : blk->lastRelease) r = Block::LastRelease{};
        blk->idx = cfg_.grid.at(lin);   // 64-bit: grid.x * grid.y can pass 2^32
        blk->sm = lin % std::max(1u, opt_.numSMs);
        blk->shared.assign(sharedBytes_, 0);
        blk->barrierEpoch = 0;
        if (opt_.initcheck) blk->sharedInit.assign(sharedBytes_, 0);
        if (opt_.racecheck) blk->race.assign(sharedBytes_ / 4 + 1, Block::RaceCell{});
        blk->async.clear();
        blk->asyncPending.clear();
        blk->mbarriers.clear();
        blk->warpSync.clear();
        blk->warps.resize(warpsPerBlock_);
        blk->readyWarps = warpsPerBlock_;
        blk->waitingWarps = blk->countedWaiting = 0;
        std::memset(blk->waitingAt, 0, sizeof blk->waitingAt);
        std::memset(blk->waitingCount, 0, sizeof blk->waitingCount);
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
    });
}

bool Gpu::setResidency(uint32_t maxResidentBlocks, uint32_t numSMs) {
    opt_.numSMs = std::max(1u, numSMs);
    opt_.maxResidentBlocks = std::max(1u, maxResidentBlocks);
    bool ok = true;
    if (stats_.warpInstructions == 0) {
        // Nothing has run: blocks beyond the new limit go back (they are the last admitted).
        blocks_.unadmitBeyond(opt_.maxResidentBlocks);
    } else if (blocks_.resident.size() > opt_.maxResidentBlocks) {
        ok = false;
    }
    admitBlocks();
    return ok;
}

void Gpu::setBlockSm(uint32_t residentSlot, uint32_t sm) {
    if (residentSlot < blocks_.resident.size()) blocks_.resident[residentSlot]->sm = sm;
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
    for (auto& blk : blocks_.resident)
        for (auto& w : blk->warps)
            if (w.frames.size() == 1) {
                fitRegisterFile(w.frames[0].regWords, kernelWords_);
                w.setFrame();
            }
}

void Gpu::retireIfDone(Block& b) {
    for (auto& w : b.warps)
        if (w.state != WarpState::Done) return;
    b.done = true;
    ++stats_.blocksCompleted;
    if (race_) race_->blockRetired(b.linear);
    blocks_.retire(b);
    admitBlocks();
}

} // namespace warpscope::sim
