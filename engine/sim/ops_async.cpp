// Asynchronous copies into shared memory (sm_80): cp.async, cp.async.commit_group,
// cp.async.wait_group / wait_all, cp.async.mbarrier.arrive, and the mbarrier objects
// (init, arrive, arrive_drop, test_wait, try_wait, inval) as nvcc lowers __pipeline_memcpy_async,
// cuda::memcpy_async, cuda::pipeline and cuda::barrier to them (docs/async-copy.md).
//
// The model: a cp.async reads its global source when it issues and keeps the bytes in the
// thread's list of pending copies (Block::async); they land in shared memory only when the copy
// completes: when cp.async.wait_group (or wait_all) waits for its group, or when the phase of an
// mbarrier it was bound to (cp.async.mbarrier.arrive) completes. That is one order the hardware
// may show; racecheck reports any access to a destination before then (checkAsyncPending).
// mbarrier objects are kept per block by shared offset; the 8 bytes in shared memory are not
// written (programs only use them through mbarrier instructions).
//
// Sections: 1. Pending copies  2. cp.async and its groups  3. mbarrier
#include "sim/exec.hpp"

namespace warpscope::sim {

// ---------------------------------------------------------------- 1. Pending copies
namespace {
constexpr uint32_t kOpenGroup = ~0u;

Block::ThreadAsync& threadAsync(Block& b, uint32_t thread, uint32_t threads) {
    if (b.async.size() < threads) b.async.resize(threads);
    return b.async[thread];
}

// Writes one copy's bytes into shared memory, as the thread that issued it (initcheck and
// racecheck then see that thread's write at this point).
void land(Gpu& g, Block& b, uint32_t thread, const Block::AsyncCopy& c) {
    std::memcpy(b.shared.data() + c.dst, c.data, c.bytes);
    if (!b.sharedInit.empty()) std::memset(b.sharedInit.data() + c.dst, 1, c.bytes);
    for (uint32_t word = c.dst / 4; word <= (c.dst + c.bytes - 1) / 4; ++word) {
        if (word < b.asyncPending.size() && b.asyncPending[word]) --b.asyncPending[word];
        if (word < b.race.size()) {
            Block::RaceCell& r = b.race[word];
            r.writeEpoch = b.barrierEpoch;
            r.writerWarp = static_cast<uint16_t>(thread / 32);
            r.writerLane = static_cast<uint8_t>(thread % 32);
            r.writerSync = b.warps[thread / 32].syncEpoch;
            r.writerPc = c.pc;
            std::memcpy(&r.value, b.shared.data() + word * 4, 4);
        }
    }
    (void)g;
}

// Completes (lands) the copies of `thread` that `done` selects, keeping the rest in order.
template <class Pred>
void completeCopies(Gpu& g, Block& b, uint32_t thread, Pred done) {
    if (thread >= b.async.size()) return;
    auto& v = b.async[thread].copies;
    size_t keep = 0;
    for (size_t k = 0; k < v.size(); ++k) {
        if (done(v[k])) land(g, b, thread, v[k]);
        else v[keep++] = v[k];
    }
    v.resize(keep);
}

std::string describeWait(const Instr& I) {
    return I.op == Op::CpAsyncWaitAll ? "cp.async.wait_all" : "cp.async.wait_group " + std::to_string(I.src[0].imm);
}
} // namespace

void checkAsyncPending(Exec& x, int lane, uint64_t offset, uint32_t bytes, bool isStore) {
    Block& b = x.b;
    for (uint64_t word = offset / 4; word <= (offset + bytes - 1) / 4 && word < b.asyncPending.size(); ++word) {
        if (!b.asyncPending[word]) continue;
        const char* hazard = isStore ? "write before cp.async completes" : "read before cp.async completes";
        if (!x.g.reportWanted("racecheck", hazard, &x.I)) return;
        // Whose copy is it?
        std::ostringstream os;
        os << (isStore ? "Write to" : "Read of") << " shared-memory offset " << word * 4
           << ", the destination of a cp.async that has not completed";
        for (size_t t = 0; t < b.async.size(); ++t)
            for (const auto& c : b.async[t].copies)
                if (c.dst < (word + 1) * 4 && c.dst + c.bytes > word * 4) {
                    const Instr& ci = x.g.program().code[size_t(std::max(0, c.pc))];
                    os << " (issued by warp " << t / 32 << " lane " << t % 32 << " at source line " << ci.line << ", "
                       << (c.group == kOpenGroup ? "not committed yet" : "group " + std::to_string(c.group)) << ")";
                    t = b.async.size() - 1;
                    break;
                }
        os << ": the copy lands only when its group is waited for (cp.async.wait_group / __pipeline_wait_prior / "
              "pipeline.consumer_wait) or its mbarrier phase completes; "
           << (isStore ? "this store may be overwritten by it." : "this read may see the old bytes.")
           << " Wait first, then __syncthreads() before other threads read the tile.";
        x.g.report("racecheck", hazard, os.str(), x.b, x.w, lane, &x.I, offset);
        return;
    }
}

namespace {
// ---------------------------------------------------------------- 2. cp.async and its groups
void cpAsync(Exec& x) {
    const Instr& I = x.I;
    Block& b = x.b;
    x.computeAddresses();   // the global sources (I.addr)
    const uint64_t* dbase = x.src(0);
    const uint64_t doff = I.src[1].imm;
    const uint64_t* srcSize = I.src[2].kind == Operand::Kind::None ? nullptr : x.src(2);
    const uint32_t threads = x.g.warpsPerBlock() * 32;
    if (b.asyncPending.empty()) b.asyncPending.assign(b.shared.size() / 4 + 1, 0);
    const bool racecheck = x.g.options().racecheck;
    forLanes(x.exec, [&](int l) {
        const uint32_t n = I.asyncBytes;
        const uint64_t dst = (dbase[l] + doff) & 0xffffffffull;   // a .shared address is 32 bits
        if (dst % n != 0) {
            std::ostringstream os;
            os << "Misaligned cp.async: a " << n << "-byte copy needs a shared destination that is a multiple of " << n << ", but lane "
               << l << " used shared offset " << dst << ".";
            x.fault(Error::Kind::Fault, os.str(), l, dst);
        }
        if (dst + n > b.shared.size()) {
            std::ostringstream os;
            os << "Out-of-bounds cp.async: " << n << " bytes to shared offset " << dst << "; the block has " << b.shared.size()
               << " bytes of shared memory.";
            x.fault(Error::Kind::Fault, os.str(), l, dst);
        }
        const uint64_t src = x.addrs[l];
        if (src % n != 0) {
            std::ostringstream os;
            os << "Misaligned cp.async: a " << n << "-byte copy needs a global source address that is a multiple of " << n
               << ", but lane " << l << " used 0x" << std::hex << src << std::dec << ".";
            x.fault(Error::Kind::Fault, os.str(), l, src, true);
        }
        const uint64_t want = srcSize ? srcSize[l] & 0xffffffffull : n;
        if (want > n) {
            std::ostringstream os;
            os << "cp.async with a source size of " << want << " bytes, more than the " << n
               << " it copies: the PTX ISA leaves that undefined.";
            x.fault(Error::Kind::Fault, os.str(), l, src, true);
        }
        x.asyncShared[l] = dst | want << 32;
        Block::AsyncCopy c;
        c.dst = static_cast<uint32_t>(dst);
        c.bytes = static_cast<uint8_t>(n);
        c.pc = x.pc;
        if (want > 0) {   // the bytes past the source size are zeros (zero fill)
            StateSpace resolved = StateSpace::Global;
            const uint8_t* first = x.resolve(StateSpace::Global, src, 1, l, false, &resolved);
            const uint8_t* last = x.resolve(StateSpace::Global, src + want - 1, 1, l, false, &resolved);
            if (last != first + (want - 1)) x.fault(Error::Kind::Fault, "Out-of-bounds cp.async source: its bytes span two allocations.", l, src, true);
            std::memcpy(c.data, first, want);
            if (racecheck) x.g.globalRace().access(x.g, b, x.w, l, I, src, static_cast<uint32_t>(want), true);
        }
        for (uint32_t word = c.dst / 4; word <= (c.dst + n - 1) / 4; ++word)
            if (b.asyncPending[word] < 0xffff) ++b.asyncPending[word];
        threadAsync(b, x.w.indexInBlock * 32 + uint32_t(l), threads).copies.push_back(c);
    });
    if (x.st) {
        fillMemoryStep(*x.st, I, StateSpace::Global, x.addrs);
        x.st->asyncShared = x.asyncShared;
    }
}

void commitGroup(Exec& x, uint32_t thread) {
    auto& ta = threadAsync(x.b, thread, x.g.warpsPerBlock() * 32);
    for (auto& c : ta.copies)
        if (c.group == kOpenGroup) c.group = ta.committed;
    ++ta.committed;
}

void waitGroup(Exec& x) {
    const Instr& I = x.I;
    const uint32_t threads = x.g.warpsPerBlock() * 32;
    const bool all = I.op == Op::CpAsyncWaitAll;
    const uint32_t n = all ? 0 : static_cast<uint32_t>(I.src[0].imm);
    forLanes(x.exec, [&](int l) {
        const uint32_t thread = x.w.indexInBlock * 32 + uint32_t(l);
        if (all) commitGroup(x, thread);
        auto& ta = threadAsync(x.b, thread, threads);
        // Groups below `limit` must be complete once this returns (all but the n most recent).
        const uint32_t limit = ta.committed > n ? ta.committed - n : 0;
        bool committed = false, open = false;
        for (auto& c : ta.copies) {
            committed = committed || c.group != kOpenGroup;
            open = open || c.group == kOpenGroup;
        }
        if (open && !committed) {
            std::ostringstream os;
            os << describeWait(I) << " waits only for committed groups, and this thread's cp.async copies were never committed "
               << "(no cp.async.commit_group / __pipeline_commit() after them): the wait does not cover them, so their data is not "
               << "in shared memory after it. Commit the copies before waiting.";
            x.fault(Error::Kind::Fault, os.str(), l);
        }
        completeCopies(x.g, x.b, thread, [limit](const Block::AsyncCopy& c) { return c.group != kOpenGroup && c.group < limit; });
    });
}

// ---------------------------------------------------------------- 3. mbarrier
// The shared offset of lane l's mbarrier operand (a .shared address, or a generic one into the
// shared window), checked for alignment and bounds.
uint32_t mbarrierOffset(Exec& x, int l) {
    uint64_t a = x.addrs[l];
    if (x.I.space != StateSpace::Shared) {
        if (mem::windowOf(a) != mem::Window::Shared) {
            std::ostringstream os;
            os << "An mbarrier object must be in shared memory, but lane " << l << " names 0x" << std::hex << a << std::dec
               << ", which is not a shared address.";
            x.fault(Error::Kind::Fault, os.str(), l, a, true);
        }
        a -= mem::kSharedWindow;
    }
    if (a % 8 != 0 || a + 8 > x.b.shared.size()) {
        std::ostringstream os;
        os << "An mbarrier object is 8 bytes at an 8-byte aligned shared offset; lane " << l << " names shared offset " << a
           << " (the block has " << x.b.shared.size() << " bytes).";
        x.fault(Error::Kind::Fault, os.str(), l, a);
    }
    return static_cast<uint32_t>(a);
}

Block::MBarrier* findBarrier(Block& b, uint32_t off) {
    for (auto& [o, m] : b.mbarriers)
        if (o == off) return &m;
    return nullptr;
}

Block::MBarrier& barrierAt(Exec& x, int l, uint32_t off) {
    Block::MBarrier* m = findBarrier(x.b, off);
    if (!m) {
        std::ostringstream os;
        os << x.I.text.substr(0, x.I.text.find(' ')) << " on shared offset " << off
           << ", where no mbarrier was initialised (mbarrier.init; cuda::barrier's init(), or a pipeline's shared state, "
              "must run first, and a __syncthreads() must order it before other threads use the barrier).";
        x.fault(Error::Kind::Fault, os.str(), l, off);
    }
    return *m;
}

// `count` arrivals on the barrier at `off`; completes the phase (landing the copies bound to it)
// when none is pending any more. Returns the phase the arrivals belong to.
uint64_t arrive(Exec& x, int l, uint32_t off, uint32_t count, bool drop) {
    Block::MBarrier& m = barrierAt(x, l, off);
    if (count == 0 || count > m.pending) {
        std::ostringstream os;
        os << "Barrier phase mismatch: " << count << " arrival" << (count == 1 ? "" : "s") << " on the mbarrier at shared offset " << off
           << ", whose current phase (" << m.phase << ") expects only " << m.pending << " more of the " << m.expected
           << " it was initialised for: more threads arrive than the barrier counts (the PTX ISA leaves this undefined).";
        x.fault(Error::Kind::Fault, os.str(), l, off);
    }
    const uint64_t phase = m.phase;
    m.pending -= count;
    if (drop) m.expected -= count;
    if (m.pending == 0) {
        for (uint32_t t = 0; t < x.b.async.size(); ++t)
            completeCopies(x.g, x.b, t, [off](const Block::AsyncCopy& c) { return c.mbar == int32_t(off); });
        ++m.phase;
        m.pending = m.expected;
        // For racecheck a completed phase orders what its participants did before arriving
        // (the copies just landed included) before what they do after waiting, as a block
        // barrier's release does: a new epoch. (Lenient for a barrier of fewer threads than the
        // block, which then orders the others too.)
        ++x.b.barrierEpoch;
    }
    return phase;
}

void mbarrierOp(Exec& x) {
    const Instr& I = x.I;
    x.computeAddresses();
    const uint64_t* s0 = I.nsrc ? x.src(0) : nullptr;
    uint64_t* d = (I.op == Op::MbarArrive || I.op == Op::MbarArriveDrop) ? x.dst() : nullptr;
    uint32_t waitTrue = 0;
    forLanes(x.exec, [&](int l) {
        const uint32_t off = mbarrierOffset(x, l);
        switch (I.op) {
        case Op::MbarInit: {
            const uint64_t count = s0[l] & 0xffffffffull;
            if (count < 1 || count > (1u << 20) - 1) {
                std::ostringstream os;
                os << "mbarrier.init with an expected count of " << count << ": the PTX ISA allows 1 to " << (1u << 20) - 1 << ".";
                x.fault(Error::Kind::Fault, os.str(), l, off);
            }
            Block::MBarrier* m = findBarrier(x.b, off);
            if (!m) {
                x.b.mbarriers.emplace_back(off, Block::MBarrier{});
                m = &x.b.mbarriers.back().second;
            }
            m->expected = m->pending = static_cast<uint32_t>(count);
            m->phase = 0;
            m->initPc = x.pc;
            break;
        }
        case Op::MbarArrive:
        case Op::MbarArriveDrop:
            d[l] = arrive(x, l, off, static_cast<uint32_t>(s0[l]), I.op == Op::MbarArriveDrop);
            break;
        case Op::MbarTestWait:
        case Op::MbarTryWait: {
            const Block::MBarrier& m = barrierAt(x, l, off);
            // With a state from mbarrier.arrive: has that phase completed? With .parity: has the
            // phase of that parity (the current one or the one before) completed?
            const bool done = I.parity ? (m.phase & 1) != (s0[l] & 1) : m.phase > s0[l];
            if (done) waitTrue |= 1u << l;
            break;
        }
        case Op::CpAsyncArrive: {
            // Binds every earlier cp.async of this thread to the barrier: they land when its
            // phase completes. Without .noinc the pending count goes up by one first, so the
            // arrival itself changes nothing; with .noinc it is one of the expected arrivals.
            barrierAt(x, l, off);
            const uint32_t thread = x.w.indexInBlock * 32 + uint32_t(l);
            if (thread < x.b.async.size())
                for (auto& c : x.b.async[thread].copies)
                    if (c.mbar < 0) c.mbar = int32_t(off);
            if (I.noinc) arrive(x, l, off, 1, false);
            break;
        }
        default: {   // mbarrier.inval
            auto& v = x.b.mbarriers;
            for (size_t k = 0; k < v.size(); ++k)
                if (v[k].first == off) {
                    v.erase(v.begin() + static_cast<std::ptrdiff_t>(k));
                    break;
                }
            break;
        }
        }
    });
    if (I.op == Op::MbarTestWait || I.op == Op::MbarTryWait) x.setPred(I.dst, waitTrue, x.exec);
}
} // namespace

void execAsync(Exec& x) {
    const Instr& I = x.I;
    switch (I.op) {
    case Op::CpAsync: cpAsync(x); break;
    case Op::CpAsyncCommit:
        forLanes(x.exec, [&](int l) { commitGroup(x, x.w.indexInBlock * 32 + uint32_t(l)); });
        break;
    case Op::CpAsyncWait:
    case Op::CpAsyncWaitAll: waitGroup(x); break;
    default: mbarrierOp(x); break;
    }
}

} // namespace warpscope::sim
