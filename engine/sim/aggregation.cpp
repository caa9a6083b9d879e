#include "sim/aggregation.hpp"

namespace warpscope::sim {

namespace {

bool uniformSpecial(uint32_t index) {
    switch (static_cast<Sreg>(index)) {
    case Sreg::NtidX: case Sreg::NtidY: case Sreg::NtidZ:
    case Sreg::CtaidX: case Sreg::CtaidY: case Sreg::CtaidZ:
    case Sreg::NctaidX: case Sreg::NctaidY: case Sreg::NctaidZ:
    case Sreg::GridId: case Sreg::DynamicSmemSize: case Sreg::TotalSmemSize:
        return true;
    default:
        return false;
    }
}

// An instruction whose result is the same for every lane when its operands are.
bool uniformProducer(const Instr& I, bool kernel) {
    if (I.guard.kind != Operand::Kind::None) return false;
    if (I.op == Op::Ld) return kernel && I.space == ptx::StateSpace::Param && I.vec == 1;
    if (I.op == Op::Addc || I.op == Op::Subc || I.op == Op::Madc || I.cc) return false;   // carry flag
    switch (opInfo(I.op).cls) {
    case ExecClass::Alu: case ExecClass::Fma: case ExecClass::Fp64: case ExecClass::Sfu:
        return I.op != Op::Setp && I.op != Op::Testp && I.vec == 1;
    default:
        return false;
    }
}

} // namespace

void markAggregatedAtomics(std::vector<Instr>& code, int32_t begin, int32_t end, bool kernel) {
    std::vector<uint32_t> defs;
    std::vector<int32_t> defPc;
    auto grow = [&](uint32_t r) {
        if (r >= defs.size()) {
            defs.resize(r + 1, 0);
            defPc.resize(r + 1, -1);
        }
    };
    for (int32_t pc = begin; pc < end; ++pc) {
        const Instr& I = code[static_cast<size_t>(pc)];
        for (const Operand* o : {&I.dst, &I.dst2})
            if (o->kind == Operand::Kind::Reg) {
                grow(o->index);
                ++defs[o->index];
                defPc[o->index] = pc;
            }
        if (I.op != Op::St)
            for (auto& o : I.vecRegs)
                if (o.kind == Operand::Kind::Reg) {
                    grow(o.index);
                    defs[o.index] += 2;   // a vector element: never uniform here
                }
    }
    // uniform[r]: 1 yes, 0 no, -1 being decided (a cycle through single definitions: no).
    std::vector<int8_t> uniform(defs.size(), 2);
    auto isUniform = [&](auto& self, const Operand& o) -> bool {
        switch (o.kind) {
        case Operand::Kind::Imm: return true;
        case Operand::Kind::Special: return uniformSpecial(o.index);
        case Operand::Kind::Reg: break;
        default: return false;
        }
        if (o.index >= defs.size() || defs[o.index] != 1) return false;
        int8_t& u = uniform[o.index];
        if (u != 2) return u == 1;
        u = -1;
        const Instr& D = code[static_cast<size_t>(defPc[o.index])];
        bool ok = uniformProducer(D, kernel) && D.dst.kind == Operand::Kind::Reg && D.dst.index == o.index &&
                  D.dst2.kind == Operand::Kind::None;
        for (uint8_t s = 0; ok && s < D.nsrc; ++s) ok = self(self, D.src[s]);
        if (ok && D.addr.base.kind != Operand::Kind::None) ok = self(self, D.addr.base);
        u = ok ? 1 : 0;
        return ok;
    };
    for (int32_t pc = begin; pc < end; ++pc) {
        Instr& I = code[static_cast<size_t>(pc)];
        if ((I.op != Op::Atom && I.op != Op::Red) || I.atom != AtomOp::Add) continue;
        if (I.type != ptx::Type::U32 && I.type != ptx::Type::S32) continue;
        if (I.space != ptx::StateSpace::Global && I.space != ptx::StateSpace::None) continue;
        bool ok = I.addr.base.kind == Operand::Kind::None || isUniform(isUniform, I.addr.base);
        if (ok && !I.reduction) ok = isUniform(isUniform, I.src[0]);
        I.aggregated = ok;
    }
}

} // namespace warpscope::sim
