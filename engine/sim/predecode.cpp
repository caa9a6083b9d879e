// Work done once per program instead of once per issued warp-instruction (see predecode.hpp).
//
// Sections: 1. Read-before-write registers  2. Pre-decoded form
#include "sim/predecode.hpp"

#include "mem/memory.hpp"
#include "sim/tensor.hpp"

#include <algorithm>
#include <bit>

namespace warpscope::sim {

using ptx::StateSpace;
using ptx::Type;

// ---------------------------------------------------------------- 1. Read-before-write registers
namespace {

// Does `I`, executed unguarded, write `dst` for every lane that executes it? Only the families
// whose handlers write each executing lane's destination count; anything else (bar.red writes
// at the barrier's release, call, red, ...) is treated as no write, which can only make the
// analysis clear more registers, never fewer.
bool writesDstForEveryLane(const Instr& I) {
    switch (I.op) {
    case Op::Add: case Op::Sub: case Op::Addc: case Op::Subc: case Op::Mul: case Op::Mad: case Op::Madc:
    case Op::Mul24: case Op::Mad24: case Op::Sad: case Op::Div: case Op::Rem: case Op::Abs: case Op::Neg:
    case Op::Min: case Op::Max: case Op::Fma: case Op::Rcp: case Op::Sqrt: case Op::Rsqrt: case Op::Sin:
    case Op::Cos: case Op::Lg2: case Op::Ex2: case Op::Tanh: case Op::Copysign:
    case Op::Popc: case Op::Clz: case Op::Bfind: case Op::Fns: case Op::Brev: case Op::Bfe: case Op::Bfi:
    case Op::Prmt: case Op::And: case Op::Or: case Op::Xor: case Op::Not: case Op::Cnot: case Op::Shl:
    case Op::Shr: case Op::Shf:
    case Op::Set: case Op::Selp: case Op::Slct:
    case Op::Mov: case Op::Cvt: case Op::Cvta:
    case Op::Ld: case Op::Ldu: case Op::Atom:
    case Op::Shfl: case Op::Vote: case Op::Activemask: case Op::Match: case Op::Redux:
        return true;
    default: return false;
    }
}

} // namespace

RegisterOperands registerOperands(const Instr& I, uint32_t nregs) {
    RegisterOperands ro;
    auto isReg = [&](const Operand& o) { return o.kind == Operand::Kind::Reg && o.index < nregs; };
    for (const Operand& o : I.src)
        if (isReg(o)) ro.reads.push_back(o.index);
    if (isReg(I.addr.base)) ro.reads.push_back(I.addr.base.index);
    const bool unguarded = I.guard.kind == Operand::Kind::None;
    const bool writesVec = I.op == Op::Ld || I.op == Op::Ldu || (I.op == Op::Mov && I.type2 == Type::B8);
    for (const Operand& o : I.vecRegs)
        if (isReg(o)) (writesVec ? (unguarded ? ro.full : ro.partial) : ro.reads).push_back(o.index);
    if (isReg(I.dst)) (unguarded && writesDstForEveryLane(I) ? ro.full : ro.partial).push_back(I.dst.index);
    if (isReg(I.dst2)) ro.partial.push_back(I.dst2.index);
    if (I.matrix) {   // tensor-core instructions: their fragments' register lists
        for (uint32_t r : I.matrix->reads())
            if (r < nregs) ro.reads.push_back(r);
        for (uint32_t r : I.matrix->writes())
            if (r < nregs) (unguarded ? ro.full : ro.partial).push_back(r);
    }
    return ro;
}

std::vector<uint32_t> registersReadBeforeWritten(const Program& prog, uint32_t func) {
    const Function& fn = prog.functions[func];
    const uint32_t nregs = fn.numRegs;
    const int32_t begin = fn.entry, end = fn.end, n = end - begin;
    if (nregs == 0 || n <= 0) return {};
    const size_t words = (nregs + 63) / 64;
    auto at = [&](int32_t pc) -> const Instr& { return prog.code[static_cast<size_t>(pc)]; };
    // Registers each instruction reads and writes (definitely, for every lane it executes on).
    std::vector<std::vector<uint32_t>> reads(static_cast<size_t>(n)), writes(static_cast<size_t>(n));
    std::vector<uint8_t> needZero(nregs, 0);
    for (int32_t pc = begin; pc < end; ++pc) {
        const Instr& I = at(pc);
        // A partial write leaves some lanes' old values: it adds nothing to "definitely written".
        RegisterOperands ro = registerOperands(I, nregs);
        reads[static_cast<size_t>(pc - begin)] = std::move(ro.reads);
        writes[static_cast<size_t>(pc - begin)] = std::move(ro.full);
        // shfl reads its source in lanes other than the executing ones.
        if (I.op == Op::Shfl && I.src[0].kind == Operand::Kind::Reg && I.src[0].index < nregs) needZero[I.src[0].index] = 1;
    }
    // in[i]: registers written on every path from the entry to i (bitsets; all ones = unknown yet).
    std::vector<uint64_t> in(static_cast<size_t>(n) * words, ~0ull);
    std::fill(in.begin(), in.begin() + static_cast<long>(words), 0ull);   // nothing written at the entry
    std::vector<uint64_t> out(words);
    std::vector<uint8_t> queued(static_cast<size_t>(n), 1);
    std::vector<int32_t> work;
    for (int32_t i = n - 1; i >= 0; --i) work.push_back(i);
    auto meet = [&](int32_t succ) {   // in[succ] &= out; requeue when it shrinks
        if (succ < 0 || succ >= n) return;
        uint64_t* s = in.data() + size_t(succ) * words;
        bool changed = false;
        for (size_t k = 0; k < words; ++k) {
            const uint64_t v = s[k] & out[k];
            changed |= v != s[k];
            s[k] = v;
        }
        if (changed && !queued[size_t(succ)]) {
            queued[size_t(succ)] = 1;
            work.push_back(succ);
        }
    };
    while (!work.empty()) {
        const int32_t i = work.back();
        work.pop_back();
        queued[size_t(i)] = 0;
        std::copy_n(in.begin() + long(size_t(i) * words), words, out.begin());
        for (uint32_t r : writes[size_t(i)]) out[r / 64] |= 1ull << (r % 64);
        const Instr& I = at(begin + i);
        // Successors: the next instruction always (an extra edge only makes the result more
        // conservative) and a branch's target.
        meet(i + 1);
        if (I.op == Op::Bra && I.target >= begin && I.target < end) meet(I.target - begin);
    }
    for (int32_t i = 0; i < n; ++i) {
        const uint64_t* s = in.data() + size_t(i) * words;
        for (uint32_t r : reads[size_t(i)])
            if (!((s[r / 64] >> (r % 64)) & 1)) needZero[r] = 1;
    }
    std::vector<uint32_t> result;
    for (uint32_t r = 0; r < nregs; ++r)
        if (needZero[r]) result.push_back(r);
    return result;
}

// ---------------------------------------------------------------- 1b. Packed register files
RegisterPacking packRegisters(const Program& prog, uint32_t func, const std::vector<uint32_t>& alone) {
    const Function& fn = prog.functions[func];
    const uint32_t nregs = fn.numRegs;
    const int32_t begin = fn.entry, n = fn.end - begin;
    RegisterPacking none;
    if (nregs < 2 || n <= 0 || uint64_t(nregs) * uint64_t(n) > (uint64_t(1) << 22)) return none;
    const size_t words = (nregs + 63) / 64;
    auto at = [&](int32_t pc) -> const Instr& { return prog.code[static_cast<size_t>(pc)]; };
    // Per instruction: the registers it reads (a guarded or partial write reads its destination:
    // the lanes it does not write keep the old value) and the registers it writes.
    std::vector<std::vector<uint32_t>> uses(static_cast<size_t>(n)), defs(static_cast<size_t>(n));
    for (int32_t i = 0; i < n; ++i) {
        RegisterOperands ro = registerOperands(at(begin + i), nregs);
        auto& u = uses[size_t(i)];
        auto& d = defs[size_t(i)];
        u = std::move(ro.reads);
        u.insert(u.end(), ro.partial.begin(), ro.partial.end());
        d = std::move(ro.full);
        d.insert(d.end(), ro.partial.begin(), ro.partial.end());
    }
    // live[i]: registers live on entry to instruction i (bitsets), by backward iteration to a
    // fixed point. Successors: the next instruction always (an extra edge can only keep more
    // registers apart) and a branch's target.
    std::vector<uint64_t> live(size_t(n + 1) * words, 0);   // live[n]: past the end, nothing
    // Registers live right after instruction i: the union over its successors.
    auto liveAfter = [&](int32_t i, std::vector<uint64_t>& out) {
        const Instr& I = at(begin + i);
        const uint64_t* next = live.data() + size_t(i + 1) * words;
        for (size_t k = 0; k < words; ++k) out[k] = next[k];
        if (I.op == Op::Bra && I.target >= begin && I.target < fn.end) {
            const uint64_t* t = live.data() + size_t(I.target - begin) * words;
            for (size_t k = 0; k < words; ++k) out[k] |= t[k];
        }
    };
    std::vector<uint64_t> out(words);
    for (bool changed = true; changed;) {
        changed = false;
        for (int32_t i = n - 1; i >= 0; --i) {
            liveAfter(i, out);
            for (uint32_t r : defs[size_t(i)]) out[r / 64] &= ~(1ull << (r % 64));
            for (uint32_t r : uses[size_t(i)]) out[r / 64] |= 1ull << (r % 64);
            uint64_t* in = live.data() + size_t(i) * words;
            for (size_t k = 0; k < words; ++k)
                if (in[k] != out[k]) {
                    in[k] = out[k];
                    changed = true;
                }
        }
    }
    // Interference: a written register against everything live after the instruction and
    // against every other register the instruction reads or writes.
    std::vector<std::vector<uint32_t>> adj(nregs);
    std::vector<uint64_t> after(words);
    for (int32_t i = 0; i < n; ++i) {
        if (defs[size_t(i)].empty()) continue;
        liveAfter(i, after);
        for (uint32_t r : uses[size_t(i)]) after[r / 64] |= 1ull << (r % 64);
        for (uint32_t r : defs[size_t(i)]) after[r / 64] |= 1ull << (r % 64);
        for (uint32_t d : defs[size_t(i)])
            for (size_t k = 0; k < words; ++k)
                for (uint64_t m = after[k]; m; m &= m - 1) {
                    const uint32_t r = uint32_t(k * 64 + size_t(std::countr_zero(m)));
                    if (r == d) continue;
                    adj[d].push_back(r);
                    adj[r].push_back(d);
                }
    }
    // Greedy slots per width class; `alone` registers first, each in a slot of its own.
    std::vector<uint8_t> isAlone(nregs, 0);
    for (uint32_t r : alone)
        if (r < nregs) isAlone[r] = 1;
    for (uint32_t r = 0; r < nregs; ++r)   // live at the entry: read before written on some path
        if ((live[r / 64] >> (r % 64)) & 1) isAlone[r] = 1;
    std::vector<int32_t> slot(nregs, -1);
    uint32_t slots[2] = {0, 0};   // [narrow, wide]
    for (uint32_t r = 0; r < nregs; ++r)
        if (isAlone[r]) slot[r] = int32_t(slots[fn.regWide[r]]++);
    std::vector<uint32_t> owner[2];   // slot -> a register in it (or ~0u while a slot is alone's)
    std::vector<uint8_t> taken;
    for (int c = 0; c < 2; ++c) owner[c].assign(slots[c], ~0u);
    for (uint32_t r = 0; r < nregs; ++r) {
        if (isAlone[r]) continue;
        const int c = fn.regWide[r];
        taken.assign(slots[c], 0);
        for (uint32_t s = 0; s < slots[c]; ++s)
            if (owner[c][s] == ~0u) taken[s] = 1;   // alone's slots
        for (uint32_t o : adj[r])
            if (slot[o] >= 0 && fn.regWide[o] == c) taken[size_t(slot[o])] = 1;
        uint32_t s = 0;
        while (s < slots[c] && taken[s]) ++s;
        if (s == slots[c]) {
            ++slots[c];
            owner[c].push_back(r);
        }
        slot[r] = int32_t(s);
    }
    RegisterPacking p;
    p.words = slots[1] * 64 + slots[0] * 32;
    if (p.words >= fn.regWords) return none;
    p.offset.resize(nregs);
    for (uint32_t r = 0; r < nregs; ++r)
        p.offset[r] = fn.regWide[r] ? uint32_t(slot[r]) * 64 : slots[1] * 64 + uint32_t(slot[r]) * 32;
    return p;
}

// ---------------------------------------------------------------- 2. Pre-decoded form
namespace {

// The FastOp of one instruction, or Generic when no specialised handler covers it exactly.
FastOp decodeOne(const Program& prog, const Instr& I, const std::vector<uint32_t>* kernelOffsets) {
    FastOp f;
    const Type t = I.type;
    const int bits = ptx::bitsOf(t);
    const Function& fn = prog.functions[I.func];
    const std::vector<uint32_t>& regOffset = I.func == 0 && kernelOffsets ? *kernelOffsets : fn.regOffset;
    auto isReg = [](const Operand& o) { return o.kind == Operand::Kind::Reg; };
    auto wide = [&](const Operand& o) { return o.kind == Operand::Kind::Reg && fn.regWide[o.index] != 0; };
    // Register sources 0..n-1 stored `wideSrc` (64-bit) or not, or immediates; false when another
    // kind (special, predicate) or another storage width appears.
    auto sources = [&](int n, bool wideSrc) {
        for (int k = 0; k < n; ++k) {
            const Operand& o = I.src[k];
            if (o.kind == Operand::Kind::Reg) {
                if (wide(o) != wideSrc) return false;
                f.src[k] = regOffset[o.index];
            } else if (o.kind == Operand::Kind::Imm) {
                f.imms |= uint8_t(1u << k);
                f.imm[k] = o.imm;
            } else {
                return false;
            }
        }
        return true;
    };
    auto generic = FastOp{};
    const bool plainRound = I.rnd == ptx::Round::None || I.rnd == ptx::Round::RN;
    const bool dstReg = isReg(I.dst);
    if (dstReg) {
        f.dst = regOffset[I.dst.index];
        f.wideDst = wide(I.dst);
    }
    // The destination register is stored 64-bit exactly when `w`.
    auto dstIs = [&](bool w) { return dstReg && f.wideDst == w; };
    switch (I.op) {
    case Op::Add:
    case Op::Sub: {
        if (!dstIs(bits == 64) || !sources(2, bits == 64) || I.sat || I.cc) return generic;
        const bool sub = I.op == Op::Sub;
        if (t == Type::F32 && plainRound && !I.ftz) f.kind = sub ? FastKind::SubF32 : FastKind::AddF32;
        else if (ptx::isInteger(t) && bits == 32) f.kind = sub ? FastKind::SubI32 : FastKind::AddI32;
        else if (ptx::isInteger(t) && bits == 64) f.kind = sub ? FastKind::SubI64 : FastKind::AddI64;
        return f.kind == FastKind::Generic ? generic : f;
    }
    case Op::Mul:
        if (!dstReg || !sources(2, false) || I.sat || I.cc || bits != 32) return generic;
        if (f.wideDst != (I.mul == MulMode::Wide && t != Type::F32)) return generic;
        if (t == Type::F32) {
            if (plainRound && !I.ftz) f.kind = FastKind::MulF32;
        } else if (ptx::isInteger(t) && bits == 32) {
            if (I.mul == MulMode::Lo) f.kind = FastKind::MulLoI32;
            else if (I.mul == MulMode::Wide) f.kind = t == Type::S32 ? FastKind::MulWideS32 : FastKind::MulWideU32;
        }
        return f.kind == FastKind::Generic ? generic : f;
    case Op::Mad:
        if (!dstIs(false) || !sources(3, false) || I.sat || I.cc) return generic;
        if (ptx::isInteger(t) && bits == 32 && I.mul == MulMode::Lo) f.kind = FastKind::MadLoI32;
        return f.kind == FastKind::Generic ? generic : f;
    case Op::Fma:
        if (!dstIs(false) || !sources(3, false) || t != Type::F32 || !plainRound || I.ftz || I.sat) return generic;
        f.kind = FastKind::FmaF32;
        return f;
    case Op::Div:
        // div.rn.f32 (IEEE division; not .approx or .full, whose results differ, nor .ftz).
        if (t != Type::F32 || I.approx || I.full || I.rnd != ptx::Round::RN || I.ftz || !dstIs(false) || !sources(2, false))
            return generic;
        f.kind = FastKind::DivRnF32;
        return f;
    case Op::Shl:
    case Op::Shr:
        if (!dstIs(false) || !sources(2, false) || bits != 32 || !ptx::isInteger(t)) return generic;
        if (!(f.imms & 2) || (f.imms & 1) || uint32_t(f.imm[1]) >= 32) return generic;
        f.kind = I.op == Op::Shl ? FastKind::ShlB32 : ptx::isSigned(t) ? FastKind::ShrS32 : FastKind::ShrU32;
        return f;
    case Op::Mov: {
        if (!dstIs(bits == 64) || t == Type::Pred || I.type2 != Type::None || (bits != 32 && bits != 64)) return generic;
        f.mask = bits == 64 ? ~0ull : 0xffffffffull;
        const Operand& o = I.src[0];
        if (o.kind == Operand::Kind::Special && o.index < 255) {
            const Sreg r = static_cast<Sreg>(o.index);
            switch (r) {
            case Sreg::TidX: f.kind = FastKind::MovTidX; break;
            case Sreg::LaneId: f.kind = FastKind::MovLaneId; break;
            case Sreg::NtidX: case Sreg::NtidY: case Sreg::NtidZ: case Sreg::CtaidX: case Sreg::CtaidY: case Sreg::CtaidZ:
            case Sreg::NctaidX: case Sreg::NctaidY: case Sreg::NctaidZ:
                f.kind = FastKind::MovUniform;
                f.sreg = static_cast<uint8_t>(r);
                break;
            default: return generic;
            }
            return f;
        }
        if (!sources(1, bits == 64)) return generic;
        f.kind = bits == 64 ? FastKind::Mov64 : FastKind::Mov32;
        return f;
    }
    case Op::Cvta: {
        if (!dstIs(bits == 64) || !sources(1, bits == 64) || (bits != 32 && bits != 64)) return generic;
        uint64_t base = 0;
        if (I.space == StateSpace::Shared) base = mem::kSharedWindow;
        else if (I.space == StateSpace::Local) base = mem::kLocalWindow;
        else if (I.space == StateSpace::Param) base = mem::kParamWindow;
        f.offset = I.toSpace ? 0 - base : base;
        f.mask = bits == 64 ? ~0ull : 0xffffffffull;
        f.kind = FastKind::Cvta;
        return f;
    }
    case Op::Cvt: {
        const Type st = I.type2;
        if (!dstIs(true) || !sources(1, false) || I.sat || !ptx::isInteger(t) || !ptx::isInteger(st)) return generic;
        if (bits != 64 || ptx::bitsOf(st) != 32) return generic;
        f.kind = ptx::isSigned(st) ? FastKind::CvtS64S32 : FastKind::CvtU64U32;
        return f;
    }
    case Op::Setp: {
        if (I.dst.kind != Operand::Kind::Pred || I.boolOp != BoolOp::None || !sources(2, false)) return generic;
        if (t == Type::F32) {   // every comparison, as execCompare's compareF32 (no .ftz)
            if (I.ftz) return generic;
            f.cmp = I.cmp;
            f.dst = I.dst.index;
            if (I.dst2.kind == Operand::Kind::Pred) f.dst2 = static_cast<int32_t>(I.dst2.index);
            else if (I.dst2.kind != Operand::Kind::None && I.dst2.kind != Operand::Kind::Sink) return generic;
            f.kind = FastKind::SetpF32;
            return f;
        }
        if (t != Type::S32 && t != Type::U32 && t != Type::B32) return generic;
        switch (I.cmp) {   // the same normalisation as the interpreter's setp (signed only for .s32 and eq..ge)
        case CmpOp::Eq: f.cmp = CmpOp::Eq; break;
        case CmpOp::Ne: f.cmp = CmpOp::Ne; break;
        case CmpOp::Lt: case CmpOp::Lo: f.cmp = CmpOp::Lt; break;
        case CmpOp::Le: case CmpOp::Ls: f.cmp = CmpOp::Le; break;
        case CmpOp::Gt: case CmpOp::Hi: f.cmp = CmpOp::Gt; break;
        case CmpOp::Ge: case CmpOp::Hs: f.cmp = CmpOp::Ge; break;
        default: return generic;
        }
        f.sgn = t == Type::S32 && I.cmp <= CmpOp::Ge;
        f.dst = I.dst.index;
        if (I.dst2.kind == Operand::Kind::Pred) f.dst2 = static_cast<int32_t>(I.dst2.index);
        else if (I.dst2.kind != Operand::Kind::None && I.dst2.kind != Operand::Kind::Sink) return generic;
        f.kind = FastKind::SetpI32;
        return f;
    }
    case Op::Ld:
    case Op::Ldu:
    case Op::St: {
        const bool load = I.op != Op::St;
        const int es = ptx::sizeOf(t);
        if (I.vec != 1 || (es != 4 && es != 8)) return generic;
        if (load ? !dstIs(es == 8) : !sources(1, es == 8)) return generic;
        f.size = static_cast<uint8_t>(es);
        f.offset = static_cast<uint64_t>(I.addr.offset);
        if (I.space == StateSpace::Param) {
            // A constant address in the function's own parameter area, checked here once.
            const uint32_t pb = prog.functions[I.func].paramBytes;
            if (!load || I.addr.base.kind != Operand::Kind::None || I.addr.offset < 0 || I.addr.offset % es != 0 ||
                uint64_t(I.addr.offset) + uint64_t(es) > pb)
                return generic;
            f.kind = FastKind::LdParam;
            return f;
        }
        if (!isReg(I.addr.base)) return generic;
        f.src[1] = regOffset[I.addr.base.index];
        f.wideBase = wide(I.addr.base);
        if (I.space == StateSpace::Shared) f.kind = load ? FastKind::LdShared : FastKind::StShared;
        else if (I.space == StateSpace::Global) f.kind = load ? FastKind::LdGlobal : FastKind::StGlobal;
        else return generic;
        return f;
    }
    case Op::And:
    case Op::Or:
    case Op::Xor:
        if (t == Type::Pred || bits != 32 || !dstIs(false) || !sources(2, false)) return generic;
        f.kind = I.op == Op::And ? FastKind::AndB32 : I.op == Op::Or ? FastKind::OrB32 : FastKind::XorB32;
        return f;
    case Op::Bfe:
        if ((t != Type::U32 && t != Type::S32) || !dstIs(false) || !sources(3, false)) return generic;
        f.kind = t == Type::S32 ? FastKind::BfeS32 : FastKind::BfeU32;
        return f;
    case Op::Atom:
        // atom.shared.add.u32/s32 d, [reg + imm], b: the histogram's counter in shared memory.
        if (I.space != StateSpace::Shared || I.atom != AtomOp::Add || (t != Type::U32 && t != Type::S32) || I.vec != 1 ||
            I.nsrc != 1 || !dstIs(false) || !sources(1, false) || !isReg(I.addr.base))
            return generic;
        f.kind = FastKind::AtomAddShared;
        f.size = 4;
        f.src[1] = regOffset[I.addr.base.index];
        f.wideBase = wide(I.addr.base);
        f.offset = static_cast<uint64_t>(I.addr.offset);
        return f;
    case Op::Selp:
        if (t == Type::Pred || bits != 32 || !dstIs(false) || !sources(2, false) || I.src[2].kind != Operand::Kind::Pred || I.src[2].negate)
            return generic;
        f.kind = FastKind::SelpB32;
        f.offset = I.src[2].index;
        return f;
    case Op::Bra:
        if (I.target < 0) return generic;
        f.kind = FastKind::Bra;
        f.offset = static_cast<uint64_t>(I.target);
        return f;
    case Op::Bar:
    case Op::Barrier:
        // The block barrier of __syncthreads(): not bar.warp.sync, bar.arrive or bar.red, no count.
        if (t == Type::B8 || I.barArrive || I.barRed != 0 || I.nsrc != 1 || I.src[0].kind != Operand::Kind::Imm) return generic;
        f.kind = FastKind::BarSync;
        f.imms = 1;
        f.imm[0] = I.src[0].imm & 15;
        return f;
    default: return generic;
    }
}

} // namespace

std::vector<FastOp> predecode(const Program& prog, const std::vector<uint32_t>* kernelOffsets) {
    std::vector<FastOp> out;
    out.reserve(prog.code.size());
    for (const Instr& I : prog.code) {
        FastOp f = decodeOne(prog, I, kernelOffsets);
        if (I.guard.kind == Operand::Kind::Pred) {
            f.guard = static_cast<int32_t>(I.guard.index);
            f.guardNegated = I.guard.negate;
        }
        out.push_back(f);
    }
    return out;
}

} // namespace warpscope::sim
