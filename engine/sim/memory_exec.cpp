// Memory instructions: ld, ldu, st, atom, red over a warp (address spaces, bounds and alignment
// faults, whole-warp copies), initcheck and racecheck per access, and the memory part of a Step.
#include "sim/exec.hpp"

namespace warpscope::sim {

// The smallest and largest of a warp's 32 addresses and the OR of all of them (alignment), for
// the whole-warp bounds check of a memory access. Baseline x86-64 has no 64-bit vector min/max,
// so an AVX2 variant is chosen once at run time; both give the same three values.
namespace {
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
} // namespace
Span laneSpan(const uint64_t* a) {
    static const bool hasAvx2 = __builtin_cpu_supports("avx2");
    return hasAvx2 ? spanAvx2(a) : spanScalar(a);
}
#else
} // namespace
Span laneSpan(const uint64_t* a) { return spanScalar(a); }
#endif

namespace {
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
        if (racecheck && !x.b.asyncPending.empty()) checkAsyncPending(x, l, addr, bytes, isStore || isAtomic);
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
        if (!racecheck || x.b.race.empty()) return;
        // Atomics never race with each other, but an atomic and a plain access of another warp
        // to the same word with no barrier between them do (a counter zeroed by one thread and
        // added to by every warp, a total read while other warps still add). The atomics of each
        // barrier interval are kept apart from the plain writer and readers, as a mask of warps.
        const uint32_t epoch = x.b.barrierEpoch, me = x.w.indexInBlock, mine = me < 32 ? 1u << me : 0u;
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
            auto atomicHazard = [&](const char* what, const char* verb) {
                return std::string(what) + " at shared-memory offset " + std::to_string(word * 4) + ": warp " + std::to_string(me) + " lane " +
                       std::to_string(l) + " " + verb +
                       ". Atomics are ordered only among themselves: the plain access may come before or after any of them.";
            };
            const bool crossWrite = c.writeEpoch == epoch && c.writerWarp != me;
            const bool othersAtomic = c.atomicEpoch == epoch && (c.atomics & ~mine);
            const bool othersRead = c.readEpoch == epoch && (c.readers & ~mine);
            if (before && isAtomic) {
                if (crossWrite && g.reportWanted("racecheck", "read-after-write", &I))
                    g.report("racecheck", "read-after-write",
                             other("Read-after-write hazard", "atomically updates") +
                                 " Atomics are ordered only among themselves: the plain write may come before or after the atomic.",
                             x.b, x.w, l, &I, addr);
                if (othersRead && g.reportWanted("racecheck", "write-after-read", &I))
                    g.report("racecheck", "write-after-read",
                             atomicHazard("Write-after-read hazard", "atomically updates a word other warps read since the last __syncthreads()"),
                             x.b, x.w, l, &I, addr);
            }
            if (!before && isAtomic) {
                if (c.atomicEpoch != epoch) {
                    c.atomicEpoch = epoch;
                    c.atomics = 0;
                }
                c.atomics |= mine;
            }
            if (before && isLoad) {
                if (crossWrite) {
                    if (g.reportWanted("racecheck", "read-after-write", &I))
                        g.report("racecheck", "read-after-write", other("Read-after-write hazard", "reads"), x.b, x.w, l, &I, addr);
                } else if (othersAtomic) {
                    if (g.reportWanted("racecheck", "read-after-write", &I))
                        g.report("racecheck", "read-after-write",
                                 atomicHazard("Read-after-write hazard", "reads a word other warps updated atomically since the last __syncthreads()"),
                                 x.b, x.w, l, &I, addr);
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
                c.readers |= mine;
            }
            if (!before && isStore) {
                uint32_t now = 0;
                std::memcpy(&now, x.b.shared.data() + word * 4, 4);
                if (othersRead && g.reportWanted("racecheck", "write-after-read", &I))
                    g.report("racecheck", "write-after-read",
                             "Write-after-read hazard at shared-memory offset " + std::to_string(word * 4) + ": warp " + std::to_string(me) +
                                 " overwrites a word other warps read since the last __syncthreads().",
                             x.b, x.w, l, &I, addr);
                if (crossWrite && g.reportWanted("racecheck", now == c.value ? "write-after-write (same value)" : "write-after-write", &I))
                    g.report("racecheck", now == c.value ? "write-after-write (same value)" : "write-after-write",
                             other(now == c.value ? "Write-after-write of the same value (benign on hardware, still a race)" : "Write-after-write hazard",
                                   "overwrites"),
                             x.b, x.w, l, &I, addr);
                else if (othersAtomic && g.reportWanted("racecheck", "write-after-write", &I))
                    g.report("racecheck", "write-after-write",
                             atomicHazard("Write-after-write hazard", "overwrites a word other warps updated atomically since the last __syncthreads()"),
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
    r.isLoad = I.op == Op::Ld || I.op == Op::CpAsync;
    r.isStore = I.op == Op::St;
    r.isAtomic = I.op == Op::Atom || I.op == Op::Red;
}
} // namespace

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

void execMemory(Exec& x) {
    sim::Step* const st = x.st;
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
            const WarpRegion r{static_cast<uintptr_t>(reinterpret_cast<uintptr_t>(wbase) - wbias), wstride};   // modular where pointers are 32-bit (WebAssembly)
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
            const WarpRegion r{static_cast<uintptr_t>(reinterpret_cast<uintptr_t>(wbase) - wbias), wstride};   // modular where pointers are 32-bit (WebAssembly)
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
    // A signed load into a 64-bit register (ld.global.s32 %rd, ...: nvcc's widening loads) fills
    // all 64 bits with the sign; the paths above keep it to 32, which is right only for a 32-bit
    // register (its readers sign-extend as their type asks; a 64-bit add reads the register whole).
    if (I.op == Op::Ld && ptx::isSigned(I.type) && es < 8) {
        for (int k = 0; k < I.vec; ++k) {
            const Operand& o = I.vec > 1 ? I.vecRegs[k] : I.dst;
            if (o.kind != Operand::Kind::Reg || !x.fn().regWide[o.index]) continue;
            uint64_t* d = x.writeReg(o.index);
            forLanes(x.exec, [&](int l) { d[l] = uint64_t(arith::signExtend(d[l] & mask(es * 8), es * 8)); });
        }
    }
    if (st) fillMemoryStep(*st, I, resolved, x.addrs);
}

} // namespace warpscope::sim
