// PTX AST -> sim::Program.
//
// Sections: 1. Errors and small helpers  2. Layouts (shared, param, local)  3. Modifier
//           decoding  4. Operands  5. Per-opcode translation  6. CFG and post-dominators
//           7. compile()
#include "sim/program.hpp"
#include "sim/aggregation.hpp"
#include "sim/tensor.hpp"

#include "mem/memory.hpp"
#include "base/error.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <set>
#include <unordered_map>

namespace warpscope::sim {

bool opFromName(std::string_view name, Op& out) {
    for (const auto& row : kOpTable) {
        if (row.name == name) {
            out = row.op;
            return true;
        }
    }
    return false;
}

std::string_view execClassName(ExecClass c) {
    switch (c) {
    case ExecClass::Alu: return "ALU";
    case ExecClass::Fma: return "FMA";
    case ExecClass::Fp64: return "FP64";
    case ExecClass::Sfu: return "SFU";
    case ExecClass::Lsu: return "LSU";
    case ExecClass::Branch: return "branch";
    case ExecClass::Barrier: return "barrier";
    case ExecClass::Warp: return "warp";
    case ExecClass::Misc: return "misc";
    case ExecClass::Tensor: return "tensor";
    }
    return "";
}

namespace {

using ptx::StateSpace;
using ptx::Type;

// ---------------------------------------------------------------- 1. Errors and helpers
// A modifier word's value from a table of {spelling, value}: true and `out` set when the word is one.
template <class T, size_t N> bool wordValue(const std::string& w, const std::pair<const char*, T> (&table)[N], T& out) {
    for (auto& [name, v] : table)
        if (w == name) {
            out = v;
            return true;
        }
    return false;
}
// The index of function `name` in the module (its place in the function window: mem::functionAddress),
// or -1.
int64_t moduleFunctionIndex(const ptx::Module& m, const std::string& name) {
    for (size_t k = 0; k < m.functions.size(); ++k)
        if (m.functions[k].name == name) return static_cast<int64_t>(k);
    return -1;
}

struct Ctx {
    const ptx::Module& mod;
    const std::string& kernel;
    const SymbolAddresses& symbols;
    const ptx::Function* fn = nullptr;
    const ptx::Instruction* in = nullptr;
};

[[noreturn]] void unsupported(const Ctx& c, const std::string& what) {
    FaultSite site;
    site.kernel = c.kernel;
    if (c.in) {
        site.ptxLine = static_cast<uint32_t>(c.in->ptxLine);
        if (c.in->loc.line) site.sourceLine = static_cast<uint32_t>(c.in->loc.line);
    }
    std::string msg = "Unsupported PTX in kernel '" + c.kernel + "'";
    if (c.in) msg += ", PTX line " + std::to_string(c.in->ptxLine) + " (" + c.in->text() + ")";
    throw Error(Error::Kind::Unsupported, msg + ": " + what + ".", site);
}

[[noreturn]] void malformed(const Ctx& c, const std::string& what) {
    FaultSite site;
    site.kernel = c.kernel;
    if (c.in) site.ptxLine = static_cast<uint32_t>(c.in->ptxLine);
    std::string msg = "Invalid PTX in kernel '" + c.kernel + "'";
    if (c.in) msg += ", PTX line " + std::to_string(c.in->ptxLine) + " (" + c.in->text() + ")";
    throw Error(Error::Kind::Input, msg + ": " + what + ".", site);
}

int64_t alignUp(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

// Limits that keep a hostile or broken PTX file from exhausting host memory.
constexpr uint64_t kMaxRegisters = 65536;          // per function (PTX virtual registers)
constexpr uint64_t kMaxLocalBytes = 512 * 1024;    // per thread, like the hardware's limit

// ---------------------------------------------------------------- 2. Layouts
struct FuncLayout {
    std::unordered_map<std::string, uint32_t> regs;    // name -> index
    std::unordered_map<std::string, uint32_t> preds;
    std::unordered_map<std::string, Type> regType;
    std::unordered_map<std::string, int64_t> params;   // name -> offset in the param area
    std::unordered_map<std::string, int64_t> locals;   // .local name -> offset in the depot
    std::unordered_map<std::string, int32_t> labels;   // name -> pc
};

struct Layouts {
    std::unordered_map<std::string, uint32_t> shared;  // name -> offset (extern ones: dynamic base)
    std::unordered_map<std::string, uint32_t> functionIndex;
};

// ---------------------------------------------------------------- 3. Modifier decoding
struct Mods {
    std::vector<Type> types;
    ptx::Round rnd = ptx::Round::None;
    StateSpace space = StateSpace::None;
    int vec = 1;
    bool ftz = false, sat = false, approx = false, full = false, uni = false, cc = false, to = false;
    bool wide = false, lo = false, hi = false, sync = false, nc = false, volatileFlag = false;
    uint8_t order = 0;                // MemOrder bits (racecheck's release/acquire model)
    std::vector<std::string> words;   // everything else, for per-opcode interpretation
};

Mods decodeMods(const ptx::Instruction& in) {
    Mods m;
    for (const auto& w : in.modifiers) {
        if (auto t = ptx::typeFromName(w)) {
            m.types.push_back(*t);
        } else if (w == "rn") m.rnd = ptx::Round::RN;
        else if (w == "rz") m.rnd = ptx::Round::RZ;
        else if (w == "rm") m.rnd = ptx::Round::RM;
        else if (w == "rp") m.rnd = ptx::Round::RP;
        else if (w == "rna") m.rnd = ptx::Round::RNA;
        else if (w == "rni") m.rnd = ptx::Round::RNI;
        else if (w == "rzi") m.rnd = ptx::Round::RZI;
        else if (w == "rmi") m.rnd = ptx::Round::RMI;
        else if (w == "rpi") m.rnd = ptx::Round::RPI;
        else if (w == "global") m.space = StateSpace::Global;
        else if (w == "shared") m.space = StateSpace::Shared;
        else if (w == "local") m.space = StateSpace::Local;
        else if (w == "param") m.space = StateSpace::Param;
        else if (w == "const") m.space = StateSpace::Const;
        else if (w == "v2") m.vec = 2;
        else if (w == "v4") m.vec = 4;
        else if (w == "ftz") m.ftz = true;
        else if (w == "sat") m.sat = true;
        else if (w == "approx") m.approx = true;
        else if (w == "full") m.full = true;
        else if (w == "uni") m.uni = true;
        else if (w == "cc") m.cc = true;
        else if (w == "to") m.to = true;
        else if (w == "wide") m.wide = true;
        else if (w == "sync") m.sync = true;
        else if (w == "nc") m.nc = true;
        else if (w == "volatile") {
            m.volatileFlag = true;
            m.order |= kOrderStrong;
        }
        // Only racecheck looks at ordering: strong accesses never race with each other, and a
        // release/acquire pair orders the plain accesses around it.
        else if (w == "relaxed") m.order |= kOrderStrong;
        else if (w == "acquire") m.order |= kOrderStrong | kOrderAcquire;
        else if (w == "release") m.order |= kOrderStrong | kOrderRelease;
        else if (w == "acq_rel" || w == "sc") m.order |= kOrderStrong | kOrderAcquire | kOrderRelease;
        else if (w == "cta") m.order |= kOrderCta;
        // Memory-ordering, scope and cache-policy qualifiers change nothing in a sequentially
        // consistent, cache-less functional model.
        else if (w == "weak" || w == "mmio" || w == "gpu" || w == "sys" || w == "cluster" ||
                 w == "ca" || w == "cg" || w == "cs" || w == "lu" || w == "cv" || w == "wb" || w == "wt" ||
                 w == "aligned" || w.rfind("L1::", 0) == 0 || w.rfind("L2::", 0) == 0)
            continue;
        else m.words.push_back(w);
    }
    return m;
}

bool has(const Mods& m, std::string_view w) {
    return std::find(m.words.begin(), m.words.end(), w) != m.words.end();
}

// ---------------------------------------------------------------- 4. Operands
class Translator {
public:
    Translator(Ctx& c, const FuncLayout& fl, const Layouts& lay, Function& fout, Program& prog)
        : c_(c), fl_(fl), lay_(lay), f_(fout), prog_(prog) {}

    Instr translate(const ptx::Instruction& in, uint32_t funcIndex);

private:
    void matrix(const ptx::Instruction& in, const Mods& m, Instr& I);

    std::optional<Sreg> special(const std::string& n) {
        static const std::unordered_map<std::string, Sreg> k = {
            {"%tid.x", Sreg::TidX}, {"%tid.y", Sreg::TidY}, {"%tid.z", Sreg::TidZ},
            {"%ntid.x", Sreg::NtidX}, {"%ntid.y", Sreg::NtidY}, {"%ntid.z", Sreg::NtidZ},
            {"%ctaid.x", Sreg::CtaidX}, {"%ctaid.y", Sreg::CtaidY}, {"%ctaid.z", Sreg::CtaidZ},
            {"%nctaid.x", Sreg::NctaidX}, {"%nctaid.y", Sreg::NctaidY}, {"%nctaid.z", Sreg::NctaidZ},
            {"%laneid", Sreg::LaneId}, {"%warpid", Sreg::WarpId}, {"%nwarpid", Sreg::NWarpId},
            {"%smid", Sreg::SmId}, {"%nsmid", Sreg::NSmId}, {"%gridid", Sreg::GridId},
            {"%lanemask_eq", Sreg::LanemaskEq}, {"%lanemask_le", Sreg::LanemaskLe},
            {"%lanemask_lt", Sreg::LanemaskLt}, {"%lanemask_ge", Sreg::LanemaskGe},
            {"%lanemask_gt", Sreg::LanemaskGt}, {"%clock", Sreg::Clock}, {"%clock64", Sreg::Clock64},
            {"%globaltimer", Sreg::GlobalTimer}, {"%dynamic_smem_size", Sreg::DynamicSmemSize},
            {"%total_smem_size", Sreg::TotalSmemSize},
            {"%tid", Sreg::TidX}, {"%ntid", Sreg::NtidX}, {"%ctaid", Sreg::CtaidX}, {"%nctaid", Sreg::NctaidX},
        };
        auto it = k.find(n);
        if (it == k.end()) return std::nullopt;
        return it->second;
    }

    bool isRegisterName(const std::string& n) const { return fl_.regs.count(n) || fl_.preds.count(n); }

    Operand reg(const ptx::Operand& o, bool wantPred) {
        Operand r;
        if (o.kind == ptx::Operand::Kind::Sink) {
            r.kind = Operand::Kind::Sink;
            return r;
        }
        // Registers declared in inline-asm scopes may be named without '%' (".reg .f16 low;").
        if (o.kind != ptx::Operand::Kind::Register && !(o.kind == ptx::Operand::Kind::Symbol && isRegisterName(o.name)))
            malformed(c_, "expected a register operand");
        if (auto p = fl_.preds.find(o.name); p != fl_.preds.end()) {
            r.kind = Operand::Kind::Pred;
            r.index = p->second;
            r.negate = o.negated;
            if (!wantPred) malformed(c_, "predicate " + o.name + " used where a value register is expected");
            return r;
        }
        if (auto g = fl_.regs.find(o.name); g != fl_.regs.end()) {
            r.kind = Operand::Kind::Reg;
            r.index = g->second;
            if (wantPred) malformed(c_, o.name + " is not a predicate register");
            return r;
        }
        if (auto s = special(o.name)) {
            r.kind = Operand::Kind::Special;
            r.index = static_cast<uint32_t>(*s);
            return r;
        }
        if (o.name == "%envreg1" || o.name == "%envreg2") {
            r.kind = Operand::Kind::Special;
            r.index = static_cast<uint32_t>(o.name == "%envreg1" ? Sreg::EnvReg1 : Sreg::EnvReg2);
            prog_.readsGridWorkspace = true;
            return r;
        }
        if (o.name.rfind("%envreg", 0) == 0 || o.name.rfind("%pm", 0) == 0) {
            r.kind = Operand::Kind::Imm;   // environment / perf-monitor registers read as zero
            return r;
        }
        malformed(c_, "register " + o.name + " is not declared");
    }

    static uint64_t floatBitsFor(Type t, const ptx::Operand& o) {
        if (t == Type::F64) {
            if (o.isDouble) return o.bits;
            float f;
            uint32_t u = static_cast<uint32_t>(o.bits);
            std::memcpy(&f, &u, 4);
            double d = f;
            uint64_t b;
            std::memcpy(&b, &d, 8);
            return b;
        }
        if (!o.isDouble) return o.bits;
        double d;
        std::memcpy(&d, &o.bits, 8);
        float f = static_cast<float>(d);
        uint32_t u;
        std::memcpy(&u, &f, 4);
        return u;
    }

    // Symbol operand (mov %rd, sym / cvta ... sym): its address in its own state space.
    Operand symbolValue(const ptx::Operand& o) {
        Operand r;
        r.kind = Operand::Kind::Imm;
        const std::string& n = o.name;
        if (auto p = fl_.params.find(n); p != fl_.params.end()) {
            r.imm = static_cast<uint64_t>(p->second + o.value);
            return r;
        }
        if (auto s = lay_.shared.find(n); s != lay_.shared.end()) {
            r.imm = s->second + static_cast<uint64_t>(o.value);
            return r;
        }
        if (auto l = fl_.locals.find(n); l != fl_.locals.end()) {
            r.kind = Operand::Kind::Special;   // frame-relative: resolved by the executor
            r.index = kFrameLocal;
            r.imm = static_cast<uint64_t>(l->second + o.value);
            return r;
        }
        if (auto g = c_.symbols.find(n); g != c_.symbols.end()) {
            r.imm = g->second + static_cast<uint64_t>(o.value);
            return r;
        }
        if (auto k = moduleFunctionIndex(c_.mod, n); k >= 0) {
            // A function's address (function pointers): its slot in the function window.
            r.imm = mem::functionAddress(static_cast<size_t>(k)) + static_cast<uint64_t>(o.value);
            return r;
        }
        malformed(c_, "unknown symbol '" + n + "'");
    }

public:
    static constexpr uint32_t kFrameLocal = 255;   // Operand::Special index meaning "frame local base + imm"

private:
    Operand value(const ptx::Operand& o, Type t) {
        Operand r;
        switch (o.kind) {
        case ptx::Operand::Kind::Register: return reg(o, t == Type::Pred);
        case ptx::Operand::Kind::Integer:
            r.kind = Operand::Kind::Imm;
            if (t == Type::F32 || t == Type::F64) {
                // Integer literal where a float is expected: PTX treats it as the value.
                double d = static_cast<double>(o.value);
                if (t == Type::F32) {
                    float f = static_cast<float>(d);
                    uint32_t u;
                    std::memcpy(&u, &f, 4);
                    r.imm = u;
                } else {
                    std::memcpy(&r.imm, &d, 8);
                }
            } else {
                r.imm = static_cast<uint64_t>(o.value);
            }
            return r;
        case ptx::Operand::Kind::Float:
            r.kind = Operand::Kind::Imm;
            if (t == Type::F32 || t == Type::F64) r.imm = floatBitsFor(t, o);
            else r.imm = o.bits;   // mov.b32 %r, 0f3F800000: the bits
            return r;
        case ptx::Operand::Kind::Symbol:
            if (isRegisterName(o.name)) return reg(o, t == Type::Pred);
            if (o.name == "WARP_SZ") {
                r.kind = Operand::Kind::Imm;
                r.imm = 32;
                return r;
            }
            return symbolValue(o);
        case ptx::Operand::Kind::Sink: r.kind = Operand::Kind::Sink; return r;
        default: malformed(c_, "unexpected operand kind");
        }
    }

    // The predicate after '|' in a destination ("%r25|%p12"): shfl's "in range", setp's second
    // result, match's "all equal". None when absent.
    Operand pipePredicate(const ptx::Operand& dst) {
        if (dst.pipePredicate.empty()) return {};
        ptx::Operand q;
        q.kind = ptx::Operand::Kind::Register;
        q.name = dst.pipePredicate;
        return reg(q, true);
    }

    Address address(const ptx::Operand& o, StateSpace space) {
        Address a;
        if (o.kind != ptx::Operand::Kind::Address) malformed(c_, "expected an address operand [..]");
        a.offset = o.value;
        if (o.name.empty()) return a;
        if (o.baseIsRegister || isRegisterName(o.name)) {
            ptx::Operand r;
            r.kind = ptx::Operand::Kind::Register;
            r.name = o.name;
            a.base = reg(r, false);
            if (a.base.kind == Operand::Kind::Special) malformed(c_, "special register used as an address");
            return a;
        }
        ptx::Operand sym;
        sym.kind = ptx::Operand::Kind::Symbol;
        sym.name = o.name;
        Operand v = symbolValue(sym);
        if (v.kind == Operand::Kind::Special) {   // a .local variable: frame-relative
            a.base = v;
            a.offset += static_cast<int64_t>(v.imm);
            a.base.imm = 0;
            return a;
        }
        // Symbol in another space than the instruction's: generic access to a named variable.
        bool isParam = fl_.params.count(o.name) > 0;
        bool isShared = lay_.shared.count(o.name) > 0;
        if (space == StateSpace::None) {
            if (isParam) a.offset += static_cast<int64_t>(mem::kParamWindow);
            else if (isShared) a.offset += static_cast<int64_t>(mem::kSharedWindow);
        }
        a.offset += static_cast<int64_t>(v.imm);
        return a;
    }

    Type mainType(const Mods& m) {
        if (m.types.empty()) malformed(c_, "the instruction needs a type such as .u32 or .f32");
        return m.types.back();
    }

    CmpOp cmpFrom(const Mods& m) {
        static const std::pair<const char*, CmpOp> k[] = {
            {"eq", CmpOp::Eq}, {"ne", CmpOp::Ne}, {"lt", CmpOp::Lt}, {"le", CmpOp::Le}, {"gt", CmpOp::Gt},
            {"ge", CmpOp::Ge}, {"lo", CmpOp::Lo}, {"ls", CmpOp::Ls}, {"hi", CmpOp::Hi}, {"hs", CmpOp::Hs},
            {"equ", CmpOp::Equ}, {"neu", CmpOp::Neu}, {"ltu", CmpOp::Ltu}, {"leu", CmpOp::Leu},
            {"gtu", CmpOp::Gtu}, {"geu", CmpOp::Geu}, {"num", CmpOp::Num}, {"nan", CmpOp::Nan}};
        for (auto& w : m.words)
            for (auto& [n, op] : k)
                if (w == n) return op;
        malformed(c_, "missing comparison operator");
    }

    void onlyWords(const Mods& m, std::initializer_list<std::string_view> allowed) {
        for (auto& w : m.words) {
            bool ok = false;
            for (auto a : allowed) ok = ok || (w == a);
            if (!ok) unsupported(c_, "modifier ." + w + " on " + c_.in->opcode);
        }
    }

    void needOperands(const ptx::Instruction& in, size_t n) {
        if (in.operands.size() != n)
            malformed(c_, "expected " + std::to_string(n) + " operands, found " + std::to_string(in.operands.size()));
    }

    Ctx& c_;
    const FuncLayout& fl_;
    const Layouts& lay_;
    Function& f_;
    Program& prog_;
};

// ---------------------------------------------------------------- 5. Per-opcode translation
Instr Translator::translate(const ptx::Instruction& in, uint32_t funcIndex) {
    c_.in = &in;
    Instr I;
    I.ptxLine = static_cast<uint32_t>(in.ptxLine);
    I.line = static_cast<uint32_t>(std::max(0, in.loc.line));
    I.file = static_cast<uint16_t>(in.loc.file);
    I.innerLine = static_cast<uint32_t>(std::max(0, in.loc.innerLine));
    I.innerFile = static_cast<uint16_t>(in.loc.innerFile);
    I.func = funcIndex;
    I.text = in.text();
    if (!in.guard.empty()) {
        auto p = fl_.preds.find(in.guard);
        if (p == fl_.preds.end()) malformed(c_, "guard " + in.guard + " is not a declared predicate");
        I.guard.kind = Operand::Kind::Pred;
        I.guard.index = p->second;
        I.guard.negate = in.guardNegated;
    }
    // wmma's three forms share one opcode; the table has a row for each (wmma.load/store/mma).
    std::string opName = in.opcode == "wmma" && !in.modifiers.empty() ? "wmma." + in.modifiers[0] : in.opcode;
    // cp.async and mbarrier: the longest run of leading words that names a row
    // (cp.async.wait_group, cp.async.mbarrier.arrive, mbarrier.try_wait ...).
    if (in.opcode == "cp" || in.opcode == "mbarrier") {
        std::string joined = in.opcode, best;
        for (const auto& w : in.modifiers) {
            joined += "." + w;
            Op probe;
            if (opFromName(joined, probe)) best = joined;
        }
        if (!best.empty()) opName = best;
        else if (!in.modifiers.empty()) opName = in.opcode + "." + in.modifiers[0];
    }
    if (!opFromName(opName, I.op)) unsupported(c_, "instruction '" + opName + "' is not implemented");
    Mods m = decodeMods(in);
    I.rnd = m.rnd;
    I.ftz = m.ftz;
    I.sat = m.sat;
    I.approx = m.approx;
    I.full = m.full;
    I.uni = m.uni;
    I.cc = m.cc;
    I.space = m.space;
    I.vec = static_cast<uint8_t>(m.vec);
    I.order = m.order;
    const auto& ops = in.operands;

    auto simple = [&](size_t nsrc) {
        needOperands(in, nsrc + 1);
        I.type = mainType(m);
        I.dst = reg(ops[0], I.type == Type::Pred);
        I.nsrc = static_cast<uint8_t>(nsrc);
        for (size_t i = 0; i < nsrc; ++i) I.src[i] = value(ops[i + 1], I.type);
    };
    // setp and set: the comparison, an optional .and/.or/.xor with a predicate as the last operand.
    auto comparison = [&](Type srcType, bool predDst) {
        I.cmp = cmpFrom(m);
        for (auto& w : m.words) {
            if (w == "and") I.boolOp = BoolOp::And;
            else if (w == "or") I.boolOp = BoolOp::Or;
            else if (w == "xor") I.boolOp = BoolOp::Xor;
        }
        const size_t want = I.boolOp == BoolOp::None ? 3 : 4;
        needOperands(in, want);
        I.dst = reg(ops[0], predDst);
        I.nsrc = static_cast<uint8_t>(want - 1);
        I.src[0] = value(ops[1], srcType);
        I.src[1] = value(ops[2], srcType);
        if (want == 4) I.src[2] = value(ops[3], Type::Pred);
    };

    switch (I.op) {
    case Op::Add:
    case Op::Sub:
    case Op::Addc:
    case Op::Subc:
    case Op::Min:
    case Op::Max:
    case Op::Copysign:
        onlyWords(m, {"relu", "NaN"});
        if (has(m, "relu") || has(m, "NaN")) unsupported(c_, "min/max .relu and .NaN");
        simple(2);
        break;
    case Op::Mul:
    case Op::Mad:
    case Op::Madc:
    case Op::Mul24:
    case Op::Mad24: {
        bool isMad = I.op == Op::Mad || I.op == Op::Mad24 || I.op == Op::Madc;
        for (auto& w : m.words) {
            if (w == "lo") I.mul = MulMode::Lo;
            else if (w == "hi") I.mul = MulMode::Hi;
            else unsupported(c_, "modifier ." + w);
        }
        if (m.wide) I.mul = MulMode::Wide;
        needOperands(in, isMad ? 4 : 3);
        I.type = mainType(m);   // source type; for .wide the destination is twice as wide
        Type dt = I.type;
        if (I.mul == MulMode::Wide) {
            if (I.type == Type::S16) dt = Type::S32;
            else if (I.type == Type::U16) dt = Type::U32;
            else if (I.type == Type::S32) dt = Type::S64;
            else if (I.type == Type::U32) dt = Type::U64;
            else malformed(c_, ".wide needs a 16- or 32-bit integer type");
        }
        I.type2 = dt;
        I.dst = reg(ops[0], false);
        I.nsrc = isMad ? 3 : 2;
        I.src[0] = value(ops[1], I.type);
        I.src[1] = value(ops[2], I.type);
        if (isMad) I.src[2] = value(ops[3], dt);
        if (I.op == Op::Mad && ptx::isFloat(I.type)) I.op = Op::Fma;   // mad.rn.f32 == fma.rn.f32
        break;
    }
    case Op::Div:
    case Op::Rem:
        onlyWords(m, {});
        simple(2);
        if (I.op == Op::Div && I.type == Type::F32 && !m.approx && !m.full && m.rnd == ptx::Round::None)
            malformed(c_, "div.f32 needs .approx, .full or a rounding mode");
        break;
    case Op::Bfind:
        I.bfindShift = has(m, "shiftamt");
        onlyWords(m, {"shiftamt"});
        simple(1);
        break;
    case Op::Prmt: {
        static const char* modes[] = {"", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
        for (auto& w : m.words) {
            bool found = false;
            for (int k = 1; k < 7; ++k)
                if (w == modes[k]) {
                    I.prmtMode = static_cast<PrmtMode>(k);
                    found = true;
                }
            if (!found) unsupported(c_, "prmt mode ." + w);
        }
        simple(3);
        break;
    }
    case Op::Shl:
    case Op::Shr:
        onlyWords(m, {});
        needOperands(in, 3);
        I.type = mainType(m);
        I.dst = reg(ops[0], false);
        I.nsrc = 2;
        I.src[0] = value(ops[1], I.type);
        I.src[1] = value(ops[2], Type::U32);
        break;
    case Op::Shf:
        for (auto& w : m.words) {
            if (w == "l") I.shfLeft = true;
            else if (w == "r") I.shfLeft = false;
            else if (w == "clamp") I.shfClamp = true;
            else if (w == "wrap") I.shfClamp = false;
            else unsupported(c_, "shf modifier ." + w);
        }
        simple(3);
        break;
    case Op::Testp: {
        static const std::pair<const char*, TestpOp> k[] = {
            {"finite", TestpOp::Finite}, {"infinite", TestpOp::Infinite}, {"number", TestpOp::Number},
            {"notanumber", TestpOp::NotANumber}, {"normal", TestpOp::Normal}, {"subnormal", TestpOp::Subnormal}};
        bool found = false;
        for (auto& w : m.words) found |= wordValue(w, k, I.testp);
        if (!found) malformed(c_, "testp needs an operation such as .finite");
        needOperands(in, 2);
        I.type = mainType(m);
        I.dst = reg(ops[0], true);
        I.nsrc = 1;
        I.src[0] = value(ops[1], I.type);
        break;
    }
    case Op::Setp:
        I.type = mainType(m);
        comparison(I.type, true);
        I.dst2 = pipePredicate(ops[0]);
        break;
    case Op::Set:
        if (m.types.size() != 2) malformed(c_, "set needs a destination and a source type");
        I.type = m.types[0];
        I.type2 = m.types[1];
        comparison(I.type2, false);
        break;
    case Op::Selp:
        needOperands(in, 4);
        I.type = mainType(m);
        I.dst = reg(ops[0], false);
        I.nsrc = 3;
        I.src[0] = value(ops[1], I.type);
        I.src[1] = value(ops[2], I.type);
        I.src[2] = value(ops[3], Type::Pred);
        break;
    case Op::Slct:
        needOperands(in, 4);
        if (m.types.size() != 2) malformed(c_, "slct needs two types");
        I.type = m.types[0];
        I.type2 = m.types[1];
        I.dst = reg(ops[0], false);
        I.nsrc = 3;
        I.src[0] = value(ops[1], I.type);
        I.src[1] = value(ops[2], I.type);
        I.src[2] = value(ops[3], I.type2);
        break;
    case Op::Cvt:
        if (has(m, "tf32")) {   // cvt.rna.tf32.f32: an f32 rounded to tf32's 10 mantissa bits, kept in a .b32
            onlyWords(m, {"tf32", "satfinite"});
            if (m.types.size() != 1 || m.types[0] != Type::F32) unsupported(c_, "cvt to .tf32 from other than .f32");
            if (m.rnd != ptx::Round::RNA && m.rnd != ptx::Round::RN && m.rnd != ptx::Round::RZ)
                unsupported(c_, "cvt.tf32.f32 rounding other than .rna, .rn or .rz");
            needOperands(in, 2);
            I.toTf32 = true;
            I.satfinite = has(m, "satfinite");
            I.type = Type::B32;
            I.type2 = Type::F32;
            I.dst = reg(ops[0], false);
            I.nsrc = 1;
            I.src[0] = value(ops[1], Type::F32);
            break;
        }
        onlyWords(m, {"satfinite", "relu"});
        if (has(m, "satfinite") || has(m, "relu")) unsupported(c_, "cvt .satfinite/.relu");
        if (m.types.size() != 2) malformed(c_, "cvt needs a destination and a source type");
        // cvt.rn.f16x2.f32 d, a, b (and .bf16x2): two f32s rounded and packed, a in the upper half.
        if ((m.types[0] == Type::F16x2 || m.types[0] == Type::BF16x2) && m.types[1] == Type::F32) {
            if (has(m, "satfinite") || has(m, "relu")) unsupported(c_, "cvt .satfinite/.relu");
            if (m.rnd != ptx::Round::RN && m.rnd != ptx::Round::RZ) unsupported(c_, "cvt to f16x2/bf16x2 rounding other than .rn or .rz");
            needOperands(in, 3);
            I.type = m.types[0];
            I.type2 = Type::F32;
            I.dst = reg(ops[0], false);
            I.nsrc = 2;
            I.src[0] = value(ops[1], Type::F32);
            I.src[1] = value(ops[2], Type::F32);
            break;
        }
        needOperands(in, 2);
        I.type = m.types[0];
        I.type2 = m.types[1];
        I.dst = reg(ops[0], false);
        I.nsrc = 1;
        I.src[0] = value(ops[1], I.type2);
        break;
    case Op::Cvta:
    case Op::Isspacep:
        onlyWords(m, {});
        if (I.space == StateSpace::None) malformed(c_, "needs a state space");
        I.toSpace = m.to;
        needOperands(in, 2);
        I.type = I.op == Op::Cvta ? mainType(m) : Type::Pred;
        I.dst = reg(ops[0], I.op == Op::Isspacep);
        I.nsrc = 1;
        I.src[0] = value(ops[1], Type::U64);
        break;
    case Op::Mov:
        needOperands(in, 2);
        I.type = mainType(m);
        if (ops[1].kind == ptx::Operand::Kind::Vector) {   // mov.b64 %rd, {%r1, %r2}: pack
            I.vec = static_cast<uint8_t>(ops[1].elems.size());
            if (I.vec != 2 && I.vec != 4) malformed(c_, "vector operand must have 2 or 4 elements");
            I.dst = reg(ops[0], false);
            for (size_t k = 0; k < ops[1].elems.size(); ++k) I.vecRegs[k] = value(ops[1].elems[k], Type::B32);
            I.nsrc = 0;
            I.type2 = Type::B128;   // marks "pack"
        } else if (ops[0].kind == ptx::Operand::Kind::Vector) {   // mov.b64 {%r1, %r2}, %rd: unpack
            I.vec = static_cast<uint8_t>(ops[0].elems.size());
            if (I.vec != 2 && I.vec != 4) malformed(c_, "vector operand must have 2 or 4 elements");
            for (size_t k = 0; k < ops[0].elems.size(); ++k) I.vecRegs[k] = reg(ops[0].elems[k], false);
            I.src[0] = value(ops[1], I.type);
            I.nsrc = 1;
            I.type2 = Type::B8;     // marks "unpack"
        } else {
            I.dst = reg(ops[0], I.type == Type::Pred);
            I.nsrc = 1;
            I.src[0] = value(ops[1], I.type);
        }
        break;
    case Op::Ld:
    case Op::Ldu:
    case Op::St: {
        onlyWords(m, {});
        bool isStore = I.op == Op::St;
        needOperands(in, 2);
        I.type = mainType(m);
        const ptx::Operand& a = isStore ? ops[0] : ops[1];
        const ptx::Operand& v = isStore ? ops[1] : ops[0];
        I.addr = address(a, I.space);
        if (I.vec > 1) {
            if (v.kind != ptx::Operand::Kind::Vector || v.elems.size() != I.vec)
                malformed(c_, "a .v" + std::to_string(I.vec) + " access needs a {..} operand with that many elements");
            for (size_t k = 0; k < I.vec; ++k)
                I.vecRegs[k] = isStore ? value(v.elems[k], I.type) : reg(v.elems[k], false);
        } else if (isStore) {
            I.src[0] = value(v, I.type);
            I.nsrc = 1;
        } else {
            I.dst = reg(v, false);
        }
        if (I.op == Op::Ldu) I.op = Op::Ld;
        break;
    }
    case Op::Atom:
    case Op::Red: {
        static const std::pair<const char*, AtomOp> k[] = {
            {"add", AtomOp::Add}, {"min", AtomOp::Min}, {"max", AtomOp::Max}, {"inc", AtomOp::Inc},
            {"dec", AtomOp::Dec}, {"cas", AtomOp::Cas}, {"exch", AtomOp::Exch}, {"and", AtomOp::And},
            {"or", AtomOp::Or}, {"xor", AtomOp::Xor}};
        for (auto& w : m.words)
            if (!wordValue(w, k, I.atom) && w != "noftz") unsupported(c_, "atomic modifier ." + w);
        if (I.atom == AtomOp::None) malformed(c_, "atomic operation missing (.add, .cas, ...)");
        if (m.vec > 1) unsupported(c_, "vector atomics");
        I.type = mainType(m);
        bool isRed = I.op == Op::Red;
        size_t nsrc = I.atom == AtomOp::Cas ? 2 : 1;
        needOperands(in, (isRed ? 1 : 2) + nsrc);
        size_t i = 0;
        if (!isRed) I.dst = reg(ops[i++], false);
        I.addr = address(ops[i++], I.space);
        I.nsrc = static_cast<uint8_t>(nsrc);
        for (size_t s = 0; s < nsrc; ++s) I.src[s] = value(ops[i++], I.type);
        break;
    }
    case Op::Bar:
    case Op::Barrier: {
        // bar.sync a{, b}; barrier.sync; bar.arrive a, b; bar.red.popc.u32 d, a{, b}, {!}p
        bool red = has(m, "red");
        I.barArrive = has(m, "arrive");
        if (has(m, "warp")) {   // bar.warp.sync membermask (__syncwarp)
            needOperands(in, 1);
            I.op = Op::Bar;
            I.type = Type::B8;   // marks warp-level
            I.maskSync = true;
            I.nsrc = 1;
            I.src[0] = value(ops[0], Type::U32);
            break;
        }
        if (red) {
            if (has(m, "popc")) I.barRed = 1;
            else if (has(m, "and")) I.barRed = 2;
            else if (has(m, "or")) I.barRed = 3;
            else malformed(c_, "bar.red needs .popc, .and or .or");
            I.type = I.barRed == 1 ? Type::U32 : Type::Pred;
            if (ops.size() != 3 && ops.size() != 4) malformed(c_, "bar.red takes 3 or 4 operands");
            I.dst = reg(ops[0], I.barRed != 1);
            I.src[0] = value(ops[1], Type::U32);
            if (ops.size() == 4) {
                I.src[1] = value(ops[2], Type::U32);
                I.src[2] = value(ops[3], Type::Pred);
            } else {
                I.src[2] = value(ops[2], Type::Pred);
            }
            I.nsrc = 3;
        } else {
            // A plain "bar 0" is the same as bar.sync 0.
            if (ops.empty() && I.op == Op::Barrier) {
                I.src[0].kind = Operand::Kind::Imm;   // barrier.sync with no operand: barrier 0
            } else {
                if (ops.empty() || ops.size() > 2) malformed(c_, "bar.sync takes a barrier id and an optional count");
                I.src[0] = value(ops[0], Type::U32);
                if (ops.size() == 2) I.src[1] = value(ops[1], Type::U32);
            }
            I.nsrc = static_cast<uint8_t>(ops.size());
        }
        I.op = Op::Bar;
        break;
    }
    case Op::Membar:
    case Op::Fence:
    case Op::Nanosleep:
    case Op::Prefetch:
    case Op::Pmevent:
    case Op::Brkpt:
        break;   // no functional effect in this model
    case Op::Shfl: {
        if (has(m, "up")) I.shfl = ShflMode::Up;
        else if (has(m, "down")) I.shfl = ShflMode::Down;
        else if (has(m, "bfly")) I.shfl = ShflMode::Bfly;
        else if (has(m, "idx")) I.shfl = ShflMode::Idx;
        else malformed(c_, "shfl needs .up, .down, .bfly or .idx");
        I.type = Type::B32;
        size_t want = m.sync ? 5 : 4;
        needOperands(in, want);
        I.dst = reg(ops[0], false);
        I.dst2 = pipePredicate(ops[0]);
        I.nsrc = static_cast<uint8_t>(want - 1);
        for (size_t i = 1; i < want; ++i) I.src[i - 1] = value(ops[i], Type::B32);
        if (!m.sync) I.src[3] = Operand{Operand::Kind::Imm, false, 0, 0xffffffffull};
        I.maskSync = m.sync;
        break;
    }
    case Op::Vote: {
        if (has(m, "all")) I.vote = VoteMode::All;
        else if (has(m, "any")) I.vote = VoteMode::Any;
        else if (m.uni) I.vote = VoteMode::Uni;   // ".uni" is decoded as the uniform-branch flag
        else if (has(m, "ballot")) I.vote = VoteMode::Ballot;
        else malformed(c_, "vote needs .all, .any, .uni or .ballot");
        size_t want = m.sync ? 3 : 2;
        needOperands(in, want);
        I.type = I.vote == VoteMode::Ballot ? Type::B32 : Type::Pred;
        I.dst = reg(ops[0], I.vote != VoteMode::Ballot);
        I.src[0] = value(ops[1], Type::Pred);
        I.src[1] = m.sync ? value(ops[2], Type::U32) : Operand{Operand::Kind::Imm, false, 0, 0xffffffffull};
        I.maskSync = m.sync;
        I.nsrc = 2;
        break;
    }
    case Op::Activemask:
        needOperands(in, 1);
        I.type = Type::B32;
        I.dst = reg(ops[0], false);
        break;
    case Op::Match:
        I.matchAll = has(m, "all");
        if (!I.matchAll && !has(m, "any")) malformed(c_, "match needs .any or .all");
        needOperands(in, 3);
        I.type = mainType(m);
        I.dst = reg(ops[0], false);
        I.dst2 = pipePredicate(ops[0]);
        I.src[0] = value(ops[1], I.type);
        I.src[1] = value(ops[2], Type::U32);
        I.maskSync = true;   // match exists only as match.sync
        I.nsrc = 2;
        break;
    case Op::Redux: {
        // redux.sync.{add,min,max}.{u32,s32} / redux.sync.{and,or,xor}.b32 d, a, membermask
        // (sm_80). The f32 forms (.abs, .NaN; sm_100a) are not implemented.
        static const std::pair<const char*, AtomOp> k[] = {{"add", AtomOp::Add}, {"min", AtomOp::Min}, {"max", AtomOp::Max},
                                                           {"and", AtomOp::And}, {"or", AtomOp::Or}, {"xor", AtomOp::Xor}};
        for (auto& w : m.words)
            if (!wordValue(w, k, I.atom)) unsupported(c_, "modifier ." + w + " on redux.sync");
        if (!m.sync) malformed(c_, "redux exists only as redux.sync");
        if (I.atom == AtomOp::None) malformed(c_, "redux.sync needs .add, .min, .max, .and, .or or .xor");
        I.type = mainType(m);
        if (I.type != Type::U32 && I.type != Type::S32 && I.type != Type::B32)
            unsupported(c_, "redux.sync on type ." + std::string(ptx::typeName(I.type)) + " (the engine has .u32, .s32 and .b32)");
        needOperands(in, 3);
        I.dst = reg(ops[0], false);
        I.src[0] = value(ops[1], I.type);
        I.src[1] = value(ops[2], Type::U32);
        I.maskSync = true;
        I.nsrc = 2;
        break;
    }
    case Op::CpAsync: {
        // cp.async.{ca,cg}.shared{::cta}.global{.L2::cache_hint ...} [dst], [src], cp-size{, src-size}
        for (auto& w : m.words)
            if (w != "async" && w != "shared::cta" && w.rfind("L2::", 0) != 0)
                unsupported(c_, "modifier ." + w + " on cp.async");
        if (ops.size() < 3 || ops.size() > 4) malformed(c_, "cp.async takes [dst], [src], cp-size and an optional src-size");
        if (ops[2].kind != ptx::Operand::Kind::Integer || (ops[2].value != 4 && ops[2].value != 8 && ops[2].value != 16))
            malformed(c_, "cp.async's copy size must be the constant 4, 8 or 16");
        I.asyncBytes = static_cast<uint8_t>(ops[2].value);
        bool cg = false;
        for (auto& w : in.modifiers) cg = cg || w == "cg";
        if (cg && I.asyncBytes != 16) malformed(c_, "cp.async.cg copies 16 bytes only");
        I.asyncBypassL1 = cg;
        I.space = StateSpace::Global;
        I.type = I.asyncBytes == 16 ? Type::B128 : I.asyncBytes == 8 ? Type::B64 : Type::B32;
        const Address dst = address(ops[0], StateSpace::Shared);
        I.src[0] = dst.base;
        I.src[1] = Operand{Operand::Kind::Imm, false, 0, static_cast<uint64_t>(dst.offset)};
        I.addr = address(ops[1], StateSpace::Global);
        if (ops.size() == 4) I.src[2] = value(ops[3], Type::U32);
        I.nsrc = 3;
        break;
    }
    case Op::CpAsyncCommit:
    case Op::CpAsyncWaitAll:
        needOperands(in, 0);
        break;
    case Op::CpAsyncWait:
        needOperands(in, 1);
        if (ops[0].kind != ptx::Operand::Kind::Integer) malformed(c_, "cp.async.wait_group takes a constant group count");
        I.src[0] = value(ops[0], Type::U32);
        I.nsrc = 1;
        break;
    case Op::CpAsyncArrive:
    case Op::MbarInit:
    case Op::MbarArrive:
    case Op::MbarArriveDrop:
    case Op::MbarTestWait:
    case Op::MbarTryWait:
    case Op::MbarInval: {
        // mbarrier objects live in shared memory: .shared{::cta} addresses, or generic ones that
        // point there. The .b64 object's layout is the engine's own (a side table per block).
        I.space = StateSpace::None;
        for (auto& w : in.modifiers) {
            if (w == "shared" || w == "shared::cta") I.space = StateSpace::Shared;
            else if (w == "noinc") I.noinc = true;
            else if (w == "parity") I.parity = true;
            else if (w == "shared::cluster" || w == "expect_tx" || w == "complete_tx" || w.rfind("release", 0) == 0 ||
                     w.rfind("acquire", 0) == 0 || w == "cluster")
                unsupported(c_, "modifier ." + w + " on " + opName + " (the engine has the sm_80 forms at CTA scope)");
        }
        I.type = Type::B64;
        switch (I.op) {
        case Op::CpAsyncArrive:   // cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr]
            needOperands(in, 1);
            I.addr = address(ops[0], I.space);
            break;
        case Op::MbarInit:   // mbarrier.init{.shared{::cta}}.b64 [addr], count
            needOperands(in, 2);
            I.addr = address(ops[0], I.space);
            I.src[0] = value(ops[1], Type::U32);
            I.nsrc = 1;
            break;
        case Op::MbarArrive:       // mbarrier.arrive{.shared{::cta}}.b64 state, [addr]{, count}
        case Op::MbarArriveDrop:
            if (ops.size() != 2 && ops.size() != 3) malformed(c_, opName + " takes a state register, an address and an optional count");
            I.dst = reg(ops[0], false);
            I.addr = address(ops[1], I.space);
            I.src[0] = ops.size() == 3 ? value(ops[2], Type::U32) : Operand{Operand::Kind::Imm, false, 0, 1};
            I.nsrc = 1;
            break;
        case Op::MbarTestWait:   // mbarrier.test_wait{.parity}{.shared{::cta}}.b64 p, [addr], state|parity
        case Op::MbarTryWait:    // (try_wait's optional suspend-time hint is accepted and ignored)
            if (ops.size() != 3 && !(I.op == Op::MbarTryWait && ops.size() == 4))
                malformed(c_, opName + " takes a predicate, an address and a state (or phase parity)");
            I.dst = reg(ops[0], true);
            I.addr = address(ops[1], I.space);
            I.src[0] = value(ops[2], I.parity ? Type::U32 : Type::B64);
            I.nsrc = 1;
            break;
        default:   // mbarrier.inval{.shared{::cta}}.b64 [addr]
            needOperands(in, 1);
            I.addr = address(ops[0], I.space);
            break;
        }
        break;
    }
    case Op::Bra: {
        needOperands(in, 1);
        if (ops[0].kind != ptx::Operand::Kind::Symbol) unsupported(c_, "indirect branches");
        auto l = fl_.labels.find(ops[0].name);
        if (l == fl_.labels.end()) malformed(c_, "branch to unknown label '" + ops[0].name + "'");
        I.target = l->second;
        break;
    }
    case Op::Call: {
        // call{.uni} (ret...), func, (args...);  — the return and argument lists are optional
        size_t i = 0;
        std::vector<const ptx::Operand*> rets, args;
        if (i < ops.size() && ops[i].kind == ptx::Operand::Kind::Vector) {
            for (auto& e : ops[i].elems) rets.push_back(&e);
            ++i;
        }
        if (i >= ops.size() || (ops[i].kind != ptx::Operand::Kind::Symbol && ops[i].kind != ptx::Operand::Kind::Register))
            malformed(c_, "call needs a function name or a register holding a function's address");
        // warpscope's <cooperative_groups.h> implements grid.sync() as a call of the bodiless
        // __warpscope_grid_sync: the grid barrier, one instruction (Gpu::gridBarrierStall).
        if (ops[i].kind == ptx::Operand::Kind::Symbol && ops[i].name == "__warpscope_grid_sync") {
            const ptx::Function* pf = c_.mod.findFunction(ops[i].name);
            if (!pf || pf->hasBody || !rets.empty() ||
                (i + 1 < ops.size() && !(ops[i + 1].kind == ptx::Operand::Kind::Vector && ops[i + 1].elems.empty() && i + 2 == ops.size())))
                malformed(c_, "__warpscope_grid_sync is warpscope's grid barrier: declared without a body, called with no arguments and no result");
            I.op = Op::Bar;
            I.gridSync = true;
            I.nsrc = 0;
            break;
        }
        CallSite cs;
        if (ops[i].kind == ptx::Operand::Kind::Register) {
            // call (rets), %rd, (args), prototype;  the target is each lane's register value.
            cs.indirect = true;
            I.src[0] = value(ops[i], Type::B64);
            I.nsrc = 1;
            ++i;
            if (i < ops.size() && ops[i].kind == ptx::Operand::Kind::Vector) {
                for (auto& e : ops[i].elems) args.push_back(&e);
                ++i;
            }
            if (i >= ops.size() || ops[i].kind != ptx::Operand::Kind::Symbol)
                malformed(c_, "an indirect call needs a .callprototype after its arguments");
            const ptx::CallPrototype* proto = nullptr;
            for (auto& cp : c_.fn->prototypes)
                if (cp.name == ops[i].name) proto = &cp;
            if (!proto) malformed(c_, "'" + ops[i].name + "' is not a .callprototype or .calltargets list declared in this function");
            if (proto->isTargets) {
                // .calltargets f, g: the call reaches only those functions, which must take the
                // call's arguments (their sizes are the prototype each target is held to).
                for (size_t t = 0; t < proto->targets.size(); ++t) {
                    const std::string& name = proto->targets[t];
                    const ptx::Function* pf = c_.mod.findFunction(name);
                    auto fi = lay_.functionIndex.find(name);
                    if (!pf || !pf->hasBody || fi == lay_.functionIndex.end())
                        malformed(c_, "the .calltargets list '" + proto->name + "' names '" + name + "', which is not a function with a body in this module");
                    if (pf->params.size() != args.size() || pf->returns.size() != rets.size())
                        malformed(c_, "'" + name + "' in the .calltargets list '" + proto->name + "' takes " + std::to_string(pf->params.size()) +
                                          " arguments and returns " + std::to_string(pf->returns.size()) + " values; the call passes " +
                                          std::to_string(args.size()) + " and takes " + std::to_string(rets.size()));
                    std::vector<int> argSizes, retSizes;
                    for (auto& v : pf->params) argSizes.push_back(static_cast<int>(v.sizeInBytes()));
                    for (auto& v : pf->returns) retSizes.push_back(static_cast<int>(v.sizeInBytes()));
                    if (t == 0) {
                        cs.protoArgSizes = argSizes;
                        cs.protoRetSizes = retSizes;
                    } else if (argSizes != cs.protoArgSizes || retSizes != cs.protoRetSizes) {
                        malformed(c_, "the functions of the .calltargets list '" + proto->name + "' have different parameters ('" + name + "' and '" +
                                          proto->targets[0] + "')");
                    }
                    cs.allowedTargets.push_back(fi->second);
                    cs.targetsText += (t ? ", " : "") + name;
                }
            } else {
                if (proto->params.size() != args.size() || proto->returns.size() != rets.size())
                    malformed(c_, "the call's argument or result count differs from its .callprototype '" + proto->name + "'");
                for (auto& v : proto->params) cs.protoArgSizes.push_back(static_cast<int>(v.sizeInBytes()));
                for (auto& v : proto->returns) cs.protoRetSizes.push_back(static_cast<int>(v.sizeInBytes()));
            }
            ++i;
            if (i < ops.size()) malformed(c_, "unexpected operands after the call's prototype");
        } else {
            const std::string& callee = ops[i].name;
            ++i;
            if (i < ops.size() && ops[i].kind == ptx::Operand::Kind::Vector) {
                for (auto& e : ops[i].elems) args.push_back(&e);
                ++i;
            }
            if (i < ops.size()) unsupported(c_, "a direct call with a .calltargets or prototype operand");
            auto fi = lay_.functionIndex.find(callee);
            if (fi == lay_.functionIndex.end()) {
                const ptx::Function* pf = c_.mod.findFunction(callee);
                if (pf && !pf->hasBody)
                    unsupported(c_, "call to external function '" + callee + "' (for example printf/vprintf), which has no body in this PTX");
                malformed(c_, "call to unknown function '" + callee + "'");
            }
            cs.callee = fi->second;
        }
        for (auto* a : args) {
            if (a->kind != ptx::Operand::Kind::Symbol) unsupported(c_, "call arguments that are not .param variables");
            auto p = fl_.params.find(a->name);
            if (p == fl_.params.end()) malformed(c_, "call argument '" + a->name + "' is not a .param variable");
            cs.argOffsets.push_back(p->second);
        }
        for (auto* r : rets) {
            if (r->kind != ptx::Operand::Kind::Symbol) unsupported(c_, "call results that are not .param variables");
            auto p = fl_.params.find(r->name);
            if (p == fl_.params.end()) malformed(c_, "call result '" + r->name + "' is not a .param variable");
            cs.retOffsets.push_back(p->second);
        }
        I.target = cs.indirect ? -1 : static_cast<int32_t>(cs.callee);
        I.callSite = static_cast<int32_t>(f_.calls.size());
        f_.calls.push_back(std::move(cs));
        break;
    }
    case Op::Ret:
    case Op::Exit:
    case Op::Trap:
        break;
    case Op::WmmaLoad:
    case Op::WmmaStore:
    case Op::WmmaMma:
    case Op::Mma:
    case Op::Ldmatrix:
    case Op::Movmatrix:
        matrix(in, m, I);
        break;
    case Op::Count_:
        malformed(c_, "bad opcode");
        break;
    default: {
        // The Plain rows of sim/isa.hpp: a destination and N sources of the instruction's type, no
        // modifier words; lowered from the table alone, with no case of their own here.
        const Lowering low = opInfo(I.op).lowering;
        if (low == Lowering::Own) unsupported(c_, "instruction '" + opName + "' has an Own row in sim/isa.hpp but no lowering case in sim/compile.cpp");
        onlyWords(m, {});
        simple(static_cast<size_t>(low));
        break;
    }
    }
    (void)prog_;
    return I;
}

// ---------------------------------------------------------------- 5b. Tensor-core instructions
// wmma.load/store/mma, mma.sync, ldmatrix, movmatrix: decoded into a MatrixOp (sim/tensor.hpp).
// Shapes and types the engine does not model are an error naming them, never a guess.
void Translator::matrix(const ptx::Instruction& in, const Mods& m, Instr& I) {
    auto op = std::make_shared<MatrixOp>();
    MatrixOp& M = *op;
    const auto& ops = in.operands;
    std::vector<ElemType> types;
    std::vector<bool> layouts;   // true = row
    std::string shape;
    bool sawFrag = false;
    for (const auto& w : in.modifiers) {
        if (w == "f16") types.push_back(ElemType::F16);
        else if (w == "bf16") types.push_back(ElemType::BF16);
        else if (w == "tf32") types.push_back(ElemType::TF32);
        else if (w == "f32") types.push_back(ElemType::F32);
        else if (w == "s8") types.push_back(ElemType::S8);
        else if (w == "u8") types.push_back(ElemType::U8);
        else if (w == "s32") types.push_back(ElemType::S32);
        else if (w == "b16") types.push_back(ElemType::B16);
        else if (w == "row") layouts.push_back(true);
        else if (w == "col") layouts.push_back(false);
        else if (w == "satfinite") M.satfinite = true;
        else if (w == "trans") M.trans = true;
        else if (w == "x1" || w == "x2" || w == "x4") M.count = w[1] - '0';
        else if (w.size() > 3 && w[0] == 'm' && w.find('n') != std::string::npos) shape = w;
        else if ((w == "a" || w == "b" || w == "c" || w == "d") && !sawFrag) {
            sawFrag = true;
            M.frag = w == "a" ? Frag::A : w == "b" ? Frag::B : w == "c" ? Frag::C : Frag::D;
        } else if (w == "load" || w == "store" || w == "mma" || w == "sync" || w == "aligned" || w == "global" || w == "shared" ||
                   w == "generic")
            continue;
        else unsupported(c_, "." + w + " on " + in.opcode + " (the engine models wmma/mma for f16, bf16, tf32, s8 and u8)");
    }
    if (!m.types.empty() && types.empty()) unsupported(c_, in.opcode + " with type ." + std::string(ptx::typeName(m.types[0])));
    auto parseShape = [&](const std::string& sh) {
        int mm = 0, nn = 0, kk = 0;
        if (std::sscanf(sh.c_str(), "m%dn%dk%d", &mm, &nn, &kk) != 3) malformed(c_, "bad shape ." + sh);
        M.m = mm, M.n = nn, M.k = kk;
    };
    auto regList = [&](const ptx::Operand& o, size_t want, const char* what) {
        if (o.kind != ptx::Operand::Kind::Vector) malformed(c_, std::string("the ") + what + " fragment must be a {..} register list");
        if (o.elems.size() != want)
            malformed(c_, std::string("the ") + what + " fragment of " + describe(M) + " has " + std::to_string(want) + " registers, found " +
                              std::to_string(o.elems.size()));
        std::vector<Operand> r;
        for (const auto& e : o.elems) {
            Operand x = value(e, Type::B32);
            if (auto t = fl_.regType.find(e.name); x.kind == Operand::Kind::Reg && t != fl_.regType.end() && ptx::sizeOf(t->second) != 4)
                malformed(c_, std::string("the ") + what + " fragment needs 32-bit registers (" + e.name + " is not)");
            if (x.kind == Operand::Kind::Pred || x.kind == Operand::Kind::Special) malformed(c_, std::string("bad register in the ") + what + " fragment");
            r.push_back(x);
        }
        return r;
    };
    auto regsOf = [&](Frag f) {
        int n = 0;
        for (const FragElem& e : fragmentElements(M, f, 0)) n = std::max(n, int(e.reg) + 1);
        return size_t(n);
    };
    auto isFloat16 = [](ElemType t) { return t == ElemType::F16 || t == ElemType::BF16; };
    auto isInt8 = [](ElemType t) { return t == ElemType::S8 || t == ElemType::U8; };
    I.type = Type::B32;
    switch (I.op) {
    case Op::WmmaLoad:
    case Op::WmmaStore: {
        M.kind = I.op == Op::WmmaLoad ? MatrixKind::WmmaLoad : MatrixKind::WmmaStore;
        parseShape(shape);
        if (layouts.size() != 1) malformed(c_, "wmma.load/store needs one layout, .row or .col");
        M.rowMajor = layouts[0];
        if (types.size() != 1) malformed(c_, "wmma.load/store needs one element type");
        M.atype = types[0];
        if (I.op == Op::WmmaStore && M.frag != Frag::D) malformed(c_, "wmma.store stores the .d fragment");
        if (I.op == Op::WmmaLoad && M.frag == Frag::D) malformed(c_, "wmma.load loads .a, .b or .c");
        const bool acc = M.frag == Frag::C || M.frag == Frag::D;
        const bool okType = acc ? (M.atype == ElemType::F16 || M.atype == ElemType::F32 || M.atype == ElemType::S32)
                                : (isFloat16(M.atype) || M.atype == ElemType::TF32 || isInt8(M.atype));
        const bool okShape = M.m == 16 && M.n == 16 && (M.k == 16 || (M.k == 8 && (M.atype == ElemType::TF32 || (acc && M.atype == ElemType::F32))));
        if (!okType || !okShape || (!acc && M.atype == ElemType::TF32 && M.k != 8) || (!acc && M.atype != ElemType::TF32 && M.k != 16))
            unsupported(c_, describe(M) + " (the engine models wmma m16n16k16 for f16, bf16, s8, u8 and m16n16k8 for tf32)");
        if (acc) M.ctype = M.dtype = M.atype;
        else if (M.frag == Frag::B) M.btype = M.atype;
        const bool store = I.op == Op::WmmaStore;
        if (ops.size() != 2 && ops.size() != 3) malformed(c_, "wmma.load/store takes a fragment, an address and an optional stride");
        const ptx::Operand& addr = store ? ops[0] : ops[1];
        const ptx::Operand& frag = store ? ops[1] : ops[0];
        I.addr = address(addr, I.space);
        if (store) M.a = regList(frag, regsOf(Frag::D), "stored");
        else M.d = regList(frag, regsOf(M.frag), "loaded");
        if (ops.size() == 3) {
            M.hasStride = true;
            I.src[0] = value(ops[2], Type::U32);
            I.nsrc = 1;
        }
        break;
    }
    case Op::WmmaMma:
    case Op::Mma: {
        M.kind = I.op == Op::WmmaMma ? MatrixKind::WmmaMma : MatrixKind::Mma;
        parseShape(shape);
        if (layouts.size() != 2) malformed(c_, in.opcode + " needs two layouts (.row/.col for A and B)");
        M.aRow = layouts[0];
        M.bRow = layouts[1];
        // Types: d.a.b.c, or for wmma f16 only d.c.
        if (types.size() == 4) {
            M.dtype = types[0], M.atype = types[1], M.btype = types[2], M.ctype = types[3];
        } else if (types.size() == 2 && M.kind == MatrixKind::WmmaMma) {
            M.dtype = types[0], M.ctype = types[1], M.atype = M.btype = ElemType::F16;
        } else if (types.size() == 2 && M.kind == MatrixKind::Mma && types[0] == ElemType::F16) {
            // mma.sync ... .f16.f16 is not a PTX form; the four-type spelling is.
            malformed(c_, "mma.sync needs .dtype.atype.btype.ctype");
        } else {
            malformed(c_, in.opcode + " needs .dtype.atype.btype.ctype");
        }
        bool ok;
        if (isFloat16(M.atype)) {
            ok = M.btype == M.atype && (M.dtype == ElemType::F32 || (M.atype == ElemType::F16 && M.dtype == ElemType::F16)) &&
                 (M.ctype == ElemType::F32 || (M.atype == ElemType::F16 && M.ctype == ElemType::F16)) && !M.satfinite;
            ok = ok && (M.kind == MatrixKind::WmmaMma ? (M.m == 16 && M.n == 16 && M.k == 16) : (M.m == 16 && M.n == 8 && (M.k == 16 || M.k == 8)));
        } else if (M.atype == ElemType::TF32) {
            ok = M.btype == ElemType::TF32 && M.dtype == ElemType::F32 && M.ctype == ElemType::F32 && !M.satfinite;
            ok = ok && (M.kind == MatrixKind::WmmaMma ? (M.m == 16 && M.n == 16 && M.k == 8) : (M.m == 16 && M.n == 8 && (M.k == 8 || M.k == 4)));
        } else if (isInt8(M.atype)) {
            ok = isInt8(M.btype) && M.dtype == ElemType::S32 && M.ctype == ElemType::S32;
            ok = ok && (M.kind == MatrixKind::WmmaMma ? (M.m == 16 && M.n == 16 && M.k == 16) : (M.m == 16 && M.n == 8 && (M.k == 16 || M.k == 32)));
        } else {
            ok = false;
        }
        if (!ok)
            unsupported(c_, describe(M) + " (the engine models wmma m16n16k16 f16/bf16/s8/u8, m16n16k8 tf32; mma.sync m16n8k16 and m16n8k8 "
                                          "f16/bf16, m16n8k8 and m16n8k4 tf32, m16n8k16 and m16n8k32 s8/u8)");
        if (M.kind == MatrixKind::Mma && !(M.aRow && !M.bRow)) malformed(c_, "mma.sync of this shape needs the .row.col layouts");
        needOperands(in, 4);
        M.d = regList(ops[0], regsOf(Frag::D), "D");
        M.a = regList(ops[1], regsOf(Frag::A), "A");
        M.b = regList(ops[2], regsOf(Frag::B), "B");
        M.c = regList(ops[3], regsOf(Frag::C), "C");
        break;
    }
    case Op::Ldmatrix: {
        M.kind = MatrixKind::Ldmatrix;
        if (shape != "m8n8" || types.size() != 1 || types[0] != ElemType::B16)
            unsupported(c_, "ldmatrix ." + shape + " (the engine models ldmatrix.m8n8 .x1/.x2/.x4 .b16, with or without .trans)");
        if (I.space != StateSpace::None && I.space != StateSpace::Shared) malformed(c_, "ldmatrix reads shared memory");
        M.atype = M.dtype = ElemType::B16;
        needOperands(in, 2);
        M.d = regList(ops[0], size_t(M.count), "ldmatrix destination");
        I.addr = address(ops[1], I.space);
        break;
    }
    case Op::Movmatrix: {
        M.kind = MatrixKind::Movmatrix;
        if (shape != "m8n8" || !M.trans || types.size() != 1 || types[0] != ElemType::B16)
            unsupported(c_, "movmatrix ." + shape + " (the engine models movmatrix.sync.aligned.m8n8.trans.b16)");
        M.atype = M.dtype = ElemType::B16;
        needOperands(in, 2);
        ptx::Operand dv, av;
        dv.kind = av.kind = ptx::Operand::Kind::Vector;
        dv.elems = {ops[0]};
        av.elems = {ops[1]};
        M.d = regList(dv, 1, "movmatrix destination");
        M.a = regList(av, 1, "movmatrix source");
        break;
    }
    default: break;
    }
    I.matrix = std::move(op);
}

// ---------------------------------------------------------------- 6. CFG and post-dominators
// Computes, for every conditional branch of one function, the pc where its two paths meet again:
// the first instruction of the branch block's immediate post-dominator (kExitPc when the paths
// only meet at the function's end).
void computeReconvergence(std::vector<Instr>& code, int32_t begin, int32_t end) {
    const int n = end - begin;
    if (n <= 0) return;
    // Basic-block leaders.
    std::vector<char> leader(static_cast<size_t>(n) + 1, 0);
    leader[0] = 1;
    for (int i = 0; i < n; ++i) {
        const Instr& I = code[static_cast<size_t>(begin + i)];
        bool ends = I.op == Op::Bra || I.op == Op::Ret || I.op == Op::Exit || I.op == Op::Trap;
        if (ends && i + 1 <= n) leader[static_cast<size_t>(i + 1)] = 1;
        if (I.op == Op::Bra) leader[static_cast<size_t>(I.target - begin)] = 1;
    }
    std::vector<int> blockOf(static_cast<size_t>(n));
    std::vector<int> blockStart;
    for (int i = 0; i < n; ++i) {
        if (leader[static_cast<size_t>(i)]) blockStart.push_back(i);
        blockOf[static_cast<size_t>(i)] = static_cast<int>(blockStart.size()) - 1;
    }
    const int nb = static_cast<int>(blockStart.size());
    const int exitNode = nb;   // virtual exit
    std::vector<std::vector<int>> succ(static_cast<size_t>(nb) + 1), pred(static_cast<size_t>(nb) + 1);
    for (int b = 0; b < nb; ++b) {
        int last = (b + 1 < nb ? blockStart[static_cast<size_t>(b + 1)] : n) - 1;
        const Instr& I = code[static_cast<size_t>(begin + last)];
        auto add = [&](int s) {
            succ[static_cast<size_t>(b)].push_back(s);
            pred[static_cast<size_t>(s)].push_back(b);
        };
        if (I.op == Op::Ret || I.op == Op::Exit || I.op == Op::Trap) {
            if (I.guard.kind == Operand::Kind::Pred) add(last + 1 < n ? blockOf[static_cast<size_t>(last + 1)] : exitNode);
            add(exitNode);
        } else if (I.op == Op::Bra) {
            add(blockOf[static_cast<size_t>(I.target - begin)]);
            if (I.guard.kind == Operand::Kind::Pred) add(last + 1 < n ? blockOf[static_cast<size_t>(last + 1)] : exitNode);
        } else {
            add(last + 1 < n ? blockOf[static_cast<size_t>(last + 1)] : exitNode);
        }
    }
    // Post-dominators by the iterative data-flow algorithm (Cooper, Harvey, Kennedy) on the
    // reverse CFG, numbering nodes in reverse post-order from the exit.
    std::vector<int> order;   // post-order of the reverse graph
    std::vector<char> seen(static_cast<size_t>(nb) + 1, 0);
    {
        std::vector<std::pair<int, size_t>> stack{{exitNode, 0}};
        seen[static_cast<size_t>(exitNode)] = 1;
        while (!stack.empty()) {
            auto& [node, idx] = stack.back();
            auto& ps = pred[static_cast<size_t>(node)];
            if (idx < ps.size()) {
                int p = ps[idx++];
                if (!seen[static_cast<size_t>(p)]) {
                    seen[static_cast<size_t>(p)] = 1;
                    stack.emplace_back(p, 0);
                }
            } else {
                order.push_back(node);
                stack.pop_back();
            }
        }
    }
    std::vector<int> rpoIndex(static_cast<size_t>(nb) + 1, -1);
    for (size_t k = 0; k < order.size(); ++k) rpoIndex[static_cast<size_t>(order[k])] = static_cast<int>(k);
    std::vector<int> ipdom(static_cast<size_t>(nb) + 1, -1);
    ipdom[static_cast<size_t>(exitNode)] = exitNode;
    auto intersect = [&](int a, int b) {
        while (a != b) {
            while (rpoIndex[static_cast<size_t>(a)] < rpoIndex[static_cast<size_t>(b)]) a = ipdom[static_cast<size_t>(a)];
            while (rpoIndex[static_cast<size_t>(b)] < rpoIndex[static_cast<size_t>(a)]) b = ipdom[static_cast<size_t>(b)];
        }
        return a;
    };
    bool changed = true;
    while (changed) {
        changed = false;
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            int b = *it;
            if (b == exitNode) continue;
            int nd = -1;
            for (int s : succ[static_cast<size_t>(b)]) {
                if (ipdom[static_cast<size_t>(s)] == -1) continue;
                nd = nd == -1 ? s : intersect(s, nd);
            }
            if (nd != -1 && ipdom[static_cast<size_t>(b)] != nd) {
                ipdom[static_cast<size_t>(b)] = nd;
                changed = true;
            }
        }
    }
    for (int i = 0; i < n; ++i) {
        Instr& I = code[static_cast<size_t>(begin + i)];
        if (I.op != Op::Bra) continue;
        int b = blockOf[static_cast<size_t>(i)];
        int pd = ipdom[static_cast<size_t>(b)];
        // Blocks that cannot reach the exit (infinite loops) have no post-dominator: paths never
        // meet, so reconverge only when lanes exit.
        I.reconv = (pd < 0 || pd == exitNode) ? kExitPc : begin + blockStart[static_cast<size_t>(pd)];
    }
}

// ---------------------------------------------------------------- 7. compile()
void layoutParams(const std::vector<ptx::VariableDecl>& decls, int64_t& cursor, FuncLayout& fl,
                  std::vector<int64_t>* offsets, std::vector<int>* sizes) {
    for (auto& d : decls) {
        cursor = alignUp(cursor, d.alignment());
        fl.params[d.name] = cursor;
        if (offsets) offsets->push_back(cursor);
        if (sizes) sizes->push_back(static_cast<int>(d.sizeInBytes()));
        cursor += d.sizeInBytes();
    }
}

} // namespace

// An atom whose destination register no other instruction of its function mentions returns a
// value nobody reads: ptxas compiles it to RED (the hardware's "result unused" form), so the
// counters report it as a reduction. Any mention of the register (source, address, vector
// element, or another write) keeps it an ATOM: conservative, and exact for nvcc's PTX, where an
// atom's result register is written once.
static void markReductions(std::vector<Instr>& code, int32_t begin, int32_t end) {
    std::vector<uint32_t> mentions;
    auto note = [&](const Operand& o) {
        if (o.kind != Operand::Kind::Reg) return;
        if (o.index >= mentions.size()) mentions.resize(o.index + 1, 0);
        ++mentions[o.index];
    };
    for (int32_t pc = begin; pc < end; ++pc) {
        const Instr& I = code[static_cast<size_t>(pc)];
        note(I.dst);
        note(I.dst2);
        for (auto& o : I.src) note(o);
        for (auto& o : I.vecRegs) note(o);
        note(I.addr.base);
    }
    for (int32_t pc = begin; pc < end; ++pc) {
        Instr& I = code[static_cast<size_t>(pc)];
        if (I.op == Op::Red) I.reduction = true;
        else if (I.op == Op::Atom)
            I.reduction = I.dst.kind == Operand::Kind::Sink || (I.dst.kind == Operand::Kind::Reg && mentions[I.dst.index] == 1);
    }
}

Program compile(const ptx::Module& module, const std::string& kernelName, const SymbolAddresses& symbols) {
    Ctx ctx{module, kernelName, symbols};
    const ptx::Function* kernel = module.findFunction(kernelName);
    if (!kernel || !kernel->isEntry) {
        std::string list;
        for (auto* k : module.kernels()) list += (list.empty() ? "" : ", ") + k->name;
        throw Error(Error::Kind::Input, "No kernel named '" + kernelName + "' in the PTX (kernels: " +
                                            (list.empty() ? "none" : list) + ").");
    }
    if (!kernel->hasBody) throw Error(Error::Kind::Input, "Kernel '" + kernelName + "' has no body.");

    // Reachable functions, kernel first. A function whose address is taken anywhere in the module
    // (a `mov` of its name, a vtable or function-pointer table's initialiser) is reachable from
    // any indirect call, so once the kernel can make one, those functions (and what they call)
    // are compiled too.
    Layouts lay;
    std::vector<const ptx::Function*> funcs{kernel};
    lay.functionIndex[kernel->name] = 0;
    auto addFunction = [&](const ptx::Function* callee) {
        if (callee && callee->hasBody && !lay.functionIndex.count(callee->name)) {
            lay.functionIndex[callee->name] = static_cast<uint32_t>(funcs.size());
            funcs.push_back(callee);
        }
    };
    bool indirect = false;
    for (size_t k = 0; k < funcs.size(); ++k) {
        for (auto& s : funcs[k]->body) {
            if (s.kind != ptx::Statement::Kind::Instruction) continue;
            if (s.instr.opcode != "call") {
                if (indirect)
                    for (auto& o : s.instr.operands)
                        if (o.kind == ptx::Operand::Kind::Symbol) addFunction(module.findFunction(o.name));
                continue;
            }
            for (auto& o : s.instr.operands) {
                if (o.kind == ptx::Operand::Kind::Register) indirect = true;
                if (o.kind != ptx::Operand::Kind::Symbol) continue;
                addFunction(module.findFunction(o.name));
                for (auto& cp : funcs[k]->prototypes)   // a .calltargets list: its functions are reachable
                    if (cp.isTargets && cp.name == o.name)
                        for (auto& t : cp.targets) addFunction(module.findFunction(t));
            }
        }
        if (indirect && k + 1 == funcs.size()) {
            const size_t before = funcs.size();
            for (auto& v : module.variables)
                for (auto& [off, sym] : v.initSymbols) addFunction(module.findFunction(sym));
            for (auto* f : std::vector<const ptx::Function*>(funcs))
                for (auto& s : f->body)
                    if (s.kind == ptx::Statement::Kind::Instruction)
                        for (auto& o : s.instr.operands)
                            if (o.kind == ptx::Operand::Kind::Symbol) addFunction(module.findFunction(o.name));
            (void)before;
        }
    }

    Program prog;
    prog.kernelName = kernelName;
    prog.files = module.files;

    // Shared memory: module-scope variables and the functions' own (demoted) ones; extern
    // (dynamic) shared arrays all start after the static part.
    int64_t sharedCursor = 0;
    int dynAlign = 16;
    std::vector<const ptx::VariableDecl*> externShared;
    auto placeShared = [&](const ptx::VariableDecl& v) {
        if (v.isExtern || v.arrayCount == 0) {
            externShared.push_back(&v);
            dynAlign = std::max(dynAlign, v.alignment());
            return;
        }
        sharedCursor = alignUp(sharedCursor, v.alignment());
        lay.shared[v.name] = static_cast<uint32_t>(sharedCursor);
        prog.sharedVars.push_back({v.name, static_cast<uint32_t>(sharedCursor), static_cast<uint32_t>(v.sizeInBytes())});
        sharedCursor += v.sizeInBytes();
    };
    for (auto& v : module.variables)
        if (v.space == StateSpace::Shared) placeShared(v);
    for (auto* f : funcs)
        for (auto& v : f->locals)
            if (v.space == StateSpace::Shared) placeShared(v);
    if (sharedCursor > 227 * 1024)
        throw Error(Error::Kind::Input, "Kernel '" + kernelName + "' declares " + std::to_string(sharedCursor) +
                                            " bytes of static shared memory; a block can have at most 227 KiB.");
    prog.staticSharedBytes = static_cast<uint32_t>(sharedCursor);
    prog.dynamicSharedAlign = static_cast<uint32_t>(dynAlign);
    uint32_t dynBase = static_cast<uint32_t>(alignUp(sharedCursor, dynAlign));
    for (auto* v : externShared) {
        lay.shared[v->name] = dynBase;
        prog.sharedVars.push_back({v->name, dynBase, 0});
    }

    // Kernel parameters as the host marshals them.
    {
        int64_t off = 0;
        for (auto& p : kernel->params) {
            KernelParam kp;
            kp.name = p.name;
            kp.type = p.type;
            kp.size = static_cast<int>(p.sizeInBytes());
            kp.align = p.alignment();
            kp.isArray = p.arrayCount >= 0;
            off = alignUp(off, kp.align);
            kp.offset = static_cast<int>(off);
            off += kp.size;
            prog.params.push_back(kp);
        }
    }

    for (uint32_t fi = 0; fi < funcs.size(); ++fi) {
        const ptx::Function& pf = *funcs[fi];
        ctx.fn = &pf;
        ctx.in = nullptr;
        Function fn;
        fn.name = pf.name;
        fn.isKernel = pf.isEntry;
        FuncLayout fl;
        // Registers.
        for (auto& r : pf.registers) {
            auto add = [&](const std::string& name) {
                if (r.type == Type::Pred) {
                    fl.preds[name] = fn.numPreds++;
                    fn.predNames.push_back(name);
                } else {
                    if (r.type == Type::B128) ctx.in = nullptr, unsupported(ctx, "128-bit registers");
                    fl.regs[name] = fn.numRegs++;
                    fl.regType[name] = r.type;
                    fn.regNames.push_back(name.substr(0, name.find('@')));
                    fn.regTypes.push_back(r.type);
                }
            };
            if (uint64_t(fn.numRegs) + fn.numPreds + uint64_t(r.count) > kMaxRegisters)
                unsupported(ctx, "function '" + pf.name + "' declares more than " + std::to_string(kMaxRegisters) + " registers");
            if (r.count > 0) {
                for (int k = 0; k < r.count; ++k) add(r.name + std::to_string(k));
            } else {
                add(r.name);
            }
        }
        // Param area: formals, returns, then call-sequence params.
        int64_t pcur = 0;
        layoutParams(pf.params, pcur, fl, &fn.formalOffsets, &fn.formalSizes);
        layoutParams(pf.returns, pcur, fl, &fn.returnOffsets, &fn.returnSizes);
        std::vector<ptx::VariableDecl> callParams;
        for (auto& v : pf.locals)
            if (v.space == StateSpace::Param) callParams.push_back(v);
        layoutParams(callParams, pcur, fl, nullptr, nullptr);
        fn.paramBytes = static_cast<uint32_t>(alignUp(pcur, 8));
        // Local depot.
        int64_t lcur = 0;
        for (auto& v : pf.locals) {
            if (v.space != StateSpace::Local) continue;
            lcur = alignUp(lcur, v.alignment());
            fl.locals[v.name] = lcur;
            lcur += v.sizeInBytes();
        }
        if (lcur > int64_t(kMaxLocalBytes))
            unsupported(ctx, "function '" + pf.name + "' needs " + std::to_string(lcur) + " bytes of local memory per thread (the simulator allows " +
                                 std::to_string(kMaxLocalBytes) + ")");
        fn.localBytes = static_cast<uint32_t>(alignUp(lcur, 16));
        for (auto& v : pf.locals)
            if (v.space == StateSpace::Global || v.space == StateSpace::Const)
                unsupported(ctx, "function-scope ." + std::string(ptx::spaceName(v.space)) + " variable '" + v.name + "'");
        // Labels.
        int32_t pc = static_cast<int32_t>(prog.code.size());
        fn.entry = pc;
        for (auto& s : pf.body) {
            if (s.kind == ptx::Statement::Kind::Label) {
                if (fl.labels.count(s.label)) {
                    FaultSite site;
                    site.ptxLine = static_cast<uint32_t>(s.ptxLine);
                    throw Error(Error::Kind::Input, "Label '" + s.label + "' defined twice in '" + pf.name + "'.", site);
                }
                fl.labels[s.label] = pc;
            } else if (s.kind == ptx::Statement::Kind::Instruction) {
                ++pc;
            }
        }
        fn.layoutRegisters();
        prog.functions.push_back(fn);
        Function& fref = prog.functions.back();
        Translator tr(ctx, fl, lay, fref, prog);
        for (auto& s : pf.body)
            if (s.kind == ptx::Statement::Kind::Instruction) prog.code.push_back(tr.translate(s.instr, fi));
        fref.end = static_cast<int32_t>(prog.code.size());
        // A function whose last instruction can fall through gets an implicit return, so control
        // never runs into the next function.
        if (fref.end == fref.entry || (prog.code.back().op != Op::Ret && prog.code.back().op != Op::Exit &&
                                       !(prog.code.back().op == Op::Bra && prog.code.back().guard.kind == Operand::Kind::None))) {
            Instr r;
            r.op = Op::Ret;
            r.ptxLine = static_cast<uint32_t>(pf.ptxLine);
            r.func = fi;
            r.text = "ret (implicit, end of function)";
            if (!prog.code.empty() && fref.end != fref.entry) {
                r.line = prog.code.back().line;
                r.file = prog.code.back().file;
            }
            prog.code.push_back(r);
            fref.end = static_cast<int32_t>(prog.code.size());
        }
        computeReconvergence(prog.code, fref.entry, fref.end);
        markReductions(prog.code, fref.entry, fref.end);
        markAggregatedAtomics(prog.code, fref.entry, fref.end, fref.isKernel);
    }
    // Where each compiled function lives in the function window (indirect calls look it up).
    for (uint32_t fi = 0; fi < funcs.size(); ++fi)
        if (auto k = moduleFunctionIndex(module, funcs[fi]->name); k >= 0) prog.functionAt[mem::functionAddress(static_cast<size_t>(k))] = fi;
    // The kernel's own source file: the most common .file among its instructions.
    std::map<int, int> fileCount;
    for (auto& I : prog.code)
        if (I.file) ++fileCount[I.file];
    int best = 0;
    for (auto& [f, c] : fileCount)
        if (best == 0 || c > fileCount[best]) best = f;
    prog.mainFile = best;
    return prog;
}

void Function::layoutRegisters() {
    const size_t n = regTypes.size();
    regOffset.assign(n, 0);
    regWide.assign(n, 0);
    uint32_t words = 0;
    for (size_t r = 0; r < n; ++r)
        if (ptx::bitsOf(regTypes[r]) == 64) {
            regWide[r] = 1;
            regOffset[r] = words;
            words += 64;
        }
    for (size_t r = 0; r < n; ++r)
        if (!regWide[r]) {
            regOffset[r] = words;
            words += 32;
        }
    regWords = words;
}

} // namespace warpscope::sim
