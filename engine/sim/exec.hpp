// The warp interpreter's shared internals (not part of the engine's interface): lane helpers,
// `Exec` (one issued instruction's operand access, staging and address computation), the value
// helpers the instruction bodies share, and the executors each part of the interpreter provides.
// Included by the interpreter's files (launch, schedule, simt, faults, memory_exec, ops_*, issue).
#pragma once
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

using ptx::StateSpace;   // (the interpreter's files name these unqualified)
using ptx::Type;

inline constexpr uint32_t kFull = 0xffffffffu;
inline constexpr uint64_t kCancelPoll = 4096;   // warp-instructions between looks at LaunchOptions::cancel
inline constexpr uint32_t kFrameLocal = 255;   // Operand::Special index: frame local base + imm (see compile.cpp)

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

inline int64_t alignUp(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

// The smallest and largest of a warp's 32 addresses and the OR of all of them (memory_exec.cpp).
struct Span {
    uint64_t lo, hi, any;
};
Span laneSpan(const uint64_t* a);

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
    int32_t pc = 0;              // the instruction's pc
    sim::Step* st = nullptr;     // its Step, when a listener (or issueQuiet's memory record) wants one
    bool control = false;        // the executor set the warp's next pc itself (control flow)
    bool divergent = false;      // a branch split the warp
    uint64_t tmp[4][32];
    uint64_t sink[32];
    uint64_t addrs[32];
    uint64_t baseScratch[32];   // a 32-bit address register, widened
    uint64_t asyncShared[32];   // cp.async: Step::asyncShared
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
            case Sreg::EnvReg1: v = g.opt_.gridWorkspace >> 32; break;
            case Sreg::EnvReg2: v = g.opt_.gridWorkspace & 0xffffffffull; break;
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

    // A read of `bytes` contiguous bytes at `addr` (the instruction's space, generic resolved)
    // that lies wholly in the block's shared memory or in one global allocation; null otherwise,
    // and the caller takes resolve(), which names the fault (wmma.load reads a tile's extent at once).
    const uint8_t* extentFor(uint64_t addr, uint64_t bytes) {
        StateSpace space = I.space;
        if (space == StateSpace::None) {
            switch (mem::windowOf(addr)) {
            case mem::Window::Shared: space = StateSpace::Shared; addr -= mem::kSharedWindow; break;
            case mem::Window::Global: space = StateSpace::Global; break;
            default: return nullptr;
            }
        }
        if (space == StateSpace::Shared) return addr + bytes <= b.shared.size() && addr + bytes >= addr ? b.shared.data() + addr : nullptr;
        if (space != StateSpace::Global && space != StateSpace::Const) return nullptr;
        mem::Allocation* al = g.mem_.find(addr, bytes, g.allocCache_);
        return al ? al->data.get() + (addr - al->base) : nullptr;
    }

    // The common case inline: an aligned access to shared memory or to a global allocation in
    // an explicit state space. Everything else (generic addresses, faults) takes resolve().
    uint8_t* pointerFor(int lane, uint32_t bytes, bool isStore, StateSpace* resolved) {
        const uint64_t a = addrs[lane];
        if ((a & (bytes - 1)) == 0) {
            if (I.space == StateSpace::Shared) {
                if (a + bytes <= b.shared.size()) return b.shared.data() + a;
            } else if (I.space == StateSpace::Global || I.space == StateSpace::Const) {   // (constant memory is an allocation too)
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
        } else if (I.space == StateSpace::Global || I.space == StateSpace::Const) {
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
        case StateSpace::Global:
        case StateSpace::Const: {
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

inline uint64_t mask(int bits) { return bits >= 64 ? ~0ull : ((1ull << bits) - 1); }
inline float asF32(uint64_t v) { return std::bit_cast<float>(static_cast<uint32_t>(v)); }
inline double asF64(uint64_t v) { return std::bit_cast<double>(v); }
inline uint64_t fromF32(float f) { return std::bit_cast<uint32_t>(f); }
inline uint64_t fromF64(double d) { return std::bit_cast<uint64_t>(d); }
inline bool isNaNF16(uint16_t h) { return (h & 0x7fff) > 0x7c00; }

// Store a result of `bits` width into a register slot: signed results are kept zero-extended
// to their width; readers sign-extend as their type requires.
template <class F>
inline void map1(Exec& x, F fn) {
    const uint64_t* a = x.src(0);
    uint64_t* d = x.dst();
    forLanes(x.exec, [&](int l) { d[l] = fn(a[l]); });
}
template <class F>
inline void map2(Exec& x, F fn) {
    const uint64_t* a = x.src(0);
    const uint64_t* b = x.src(1);
    uint64_t* d = x.dst();
    forLanes(x.exec, [&](int l) { d[l] = fn(a[l], b[l]); });
}
template <class F>
inline void map3(Exec& x, F fn) {
    const uint64_t* a = x.src(0);
    const uint64_t* b = x.src(1);
    const uint64_t* c = x.src(2);
    uint64_t* d = x.dst();
    forLanes(x.exec, [&](int l) { d[l] = fn(a[l], b[l], c[l]); });
}

// The executors: every row of isa.hpp names one (its last column, X -> execX), and issue.cpp's
// kExecutors table calls it for each issued instruction the pre-decoded handlers did not run. An
// executor runs the instruction for the lanes in x.exec (only control flow and barriers are
// called with none: actsWithoutLanes) and, for control flow, sets the warp's next pc itself
// (x.control).
void execArith(Exec& x);     // ops_arith.cpp: add ... tanh
void execBits(Exec& x);      // ops_arith.cpp: popc ... shf, predicate logic
void execCompare(Exec& x);   // ops_compare.cpp: setp, set, selp, slct, testp
void execMove(Exec& x);      // ops_move.cpp: mov, cvt, cvta, isspacep
void execMemory(Exec& x);    // memory_exec.cpp: ld, ldu, st, atom, red
void execWarp(Exec& x);      // ops_warp.cpp: shfl, vote, activemask, match
void execMatrix(Exec& x);    // ops_matrix.cpp: wmma.*, mma, ldmatrix, movmatrix
void execBranch(Exec& x);    // issue.cpp: bra
void execCall(Exec& x);      // issue.cpp: call
void execExit(Exec& x);      // issue.cpp: ret, exit
void execTrap(Exec& x);      // issue.cpp: trap
void execBarrier(Exec& x);   // issue.cpp: bar, barrier (and bar.warp.sync)
void execFence(Exec& x);     // issue.cpp: membar, fence (racecheck's ordering)
void execNothing(Exec& x);   // issue.cpp: nanosleep, prefetch, pmevent, brkpt
void execAsync(Exec& x);     // ops_async.cpp: cp.async, its groups, mbarrier.*
// racecheck (memory_exec.cpp): a shared access of `bytes` at `offset` by lane `lane` of the
// issuing warp touches the destination of a cp.async that has not completed.
void checkAsyncPending(Exec& x, int lane, uint64_t offset, uint32_t bytes, bool isStore);

// A memory instruction's part of its Step or MemoryAccess (memory_exec.cpp).
void fillMemoryStep(sim::Step& st, const Instr& I, StateSpace resolved, const uint64_t* addrs);
void fillMemoryAccess(MemoryAccess& m, const Instr& I, StateSpace resolved, uint32_t execMask);
inline bool isFastMemory(FastKind k) {
    return k == FastKind::LdShared || k == FastKind::StShared || k == FastKind::LdGlobal || k == FastKind::StGlobal ||
           k == FastKind::LdParam || k == FastKind::AtomAddShared;
}

} // namespace warpscope::sim
