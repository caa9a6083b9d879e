// The executable form of one kernel: its instructions and those of every .func it can call,
// with dense register indices, resolved branch targets, reconvergence points (immediate
// post-dominators), state-space layouts and a source-line table.
#pragma once
#include "ptx/ast.hpp"
#include "sim/arith.hpp"
#include "sim/isa.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace warpscope::sim {

struct MatrixOp;   // sim/tensor.hpp

// Special registers (%tid.x ...), readable through Operand::Kind::Special.
enum class Sreg : uint8_t {
    TidX, TidY, TidZ, NtidX, NtidY, NtidZ, CtaidX, CtaidY, CtaidZ, NctaidX, NctaidY, NctaidZ,
    LaneId, WarpId, NWarpId, SmId, NSmId, GridId,
    LanemaskEq, LanemaskLe, LanemaskLt, LanemaskGe, LanemaskGt,
    Clock, Clock64, GlobalTimer, DynamicSmemSize, TotalSmemSize,
    EnvReg1, EnvReg2,   // the grid-sync workspace of a cooperative launch (LaunchOptions::gridWorkspace)
};

struct Operand {
    enum class Kind : uint8_t { None, Reg, Pred, Imm, Special, Sink };
    Kind kind = Kind::None;
    bool negate = false;      // !%p
    uint32_t index = 0;       // register / predicate index, or Sreg
    uint64_t imm = 0;         // immediate bits (already converted to the instruction's type)
};

using arith::CmpOp;
using arith::PrmtMode;
using arith::TestpOp;
enum class BoolOp : uint8_t { None, And, Or, Xor };
enum class AtomOp : uint8_t { None, Add, Min, Max, Inc, Dec, Cas, Exch, And, Or, Xor };
enum class ShflMode : uint8_t { Up, Down, Bfly, Idx };
enum class VoteMode : uint8_t { All, Any, Uni, Ballot };
enum class MulMode : uint8_t { Lo, Hi, Wide };

// How a memory instruction finds its address: base register (or none) plus a constant offset.
// For .param and symbol-relative addresses the offset already includes the symbol's location.
struct Address {
    Operand base;             // Reg, or None for an absolute address
    int64_t offset = 0;
};

struct Instr {
    Op op = Op::Mov;
    ptx::Type type = ptx::Type::None;    // main type (destination type for cvt)
    ptx::Type type2 = ptx::Type::None;   // cvt source type, set/slct comparison type
    ptx::StateSpace space = ptx::StateSpace::None;  // ld/st/atom/cvta/isspacep
    ptx::Round rnd = ptx::Round::None;
    bool ftz = false, sat = false, approx = false, full = false, uni = false, cc = false;
    bool toSpace = false;          // cvta.to.<space>
    bool shfClamp = false, shfLeft = false;
    bool toTf32 = false;           // cvt.{rna,rn,rz}{.satfinite}.tf32.f32 (type B32, type2 F32)
    bool satfinite = false;
    bool bfindShift = false;
    MulMode mul = MulMode::Lo;
    CmpOp cmp = CmpOp::Eq;
    BoolOp boolOp = BoolOp::None;
    AtomOp atom = AtomOp::None;
    ShflMode shfl = ShflMode::Idx;
    VoteMode vote = VoteMode::All;
    TestpOp testp = TestpOp::Finite;
    PrmtMode prmtMode = PrmtMode::Default;
    uint8_t vec = 1;               // .v2/.v4 width for ld/st/mov pack
    uint8_t nsrc = 0;
    bool matchAll = false;
    bool maskSync = false;         // shfl/vote/match/bar.warp .sync: a member mask to check
    uint8_t order = 0;             // MemOrder bits from .volatile/.relaxed/.acquire/.release/.cta
    bool barArrive = false;        // bar.arrive: no wait
    bool gridSync = false;         // Bar: the grid barrier of a cooperative launch (a call of __warpscope_grid_sync)
    uint8_t barRed = 0;            // 0 none, 1 popc, 2 and, 3 or
    // red, or an atom whose old value no instruction reads: ptxas emits RED for it and Nsight
    // Compute counts it under op_red, not op_atom.
    bool reduction = false;
    // A global atomicAdd that ptxas turns into one atomic per warp by a leader lane (its address
    // is warp-uniform at compile time; sim/aggregation.hpp): counters and the cycle model see one
    // lane. Results are unaffected.
    bool aggregated = false;
    Operand guard;                 // Pred or None
    Operand dst, dst2;             // dst2: setp's second predicate, shfl/match's predicate, carry
    Operand src[4];
    Operand vecRegs[4];            // ld/st/mov vector elements
    Address addr;                  // ld/st/atom/red/prefetch
    int32_t target = -1;           // bra: target pc; call: callee index
    int32_t reconv = -1;           // bra: reconvergence pc (kExitPc for "at exit")
    int32_t callSite = -1;         // call: index into Function::calls
    // cp.async: bytes copied (4, 8 or 16); the shared destination is src[0] (base) + src[1]
    // (offset), the source size src[2] (None: all of them). cp.async.mbarrier.arrive.noinc;
    // mbarrier.test_wait/try_wait.parity.
    uint8_t asyncBytes = 0;
    bool asyncBypassL1 = false;    // cp.async.cg (LDGSTS.BYPASS: not cached in L1)
    bool noinc = false, parity = false;
    // wmma/mma/ldmatrix/movmatrix: shape, types, layouts and register lists (sim/tensor.hpp).
    std::shared_ptr<const MatrixOp> matrix;
    // Where it came from.
    uint32_t ptxLine = 0;
    uint32_t line = 0;             // CUDA source line (outermost if inlined), 0 if unknown
    uint16_t file = 0;
    uint32_t innerLine = 0;        // inlined location (e.g. a line in a CUDA header)
    uint16_t innerFile = 0;
    uint32_t func = 0;             // index of the function this instruction belongs to
    std::string text;              // the PTX text of the instruction, for display and errors
};

constexpr int32_t kExitPc = -2;

// Instr::order bits: memory-ordering qualifiers, used only by racecheck's happens-before model.
constexpr uint8_t kOrderStrong = 1;    // .volatile/.relaxed/.acquire/.release/...: never a data race with another strong access
constexpr uint8_t kOrderRelease = 2;   // .release/.acq_rel/.sc
constexpr uint8_t kOrderAcquire = 4;   // .acquire/.acq_rel/.sc
constexpr uint8_t kOrderCta = 8;       // .cta scope: orders only within the block

// A call site: the caller's .param buffers for arguments and return values.
struct CallSite {
    uint32_t callee = 0;               // direct calls; an indirect one reads its target from src[0]
    bool indirect = false;
    std::vector<int> protoArgSizes, protoRetSizes;   // indirect: the .callprototype's sizes
    std::vector<uint32_t> allowedTargets;            // indirect through a .calltargets list: its functions
    std::string targetsText;                         // that list as the PTX wrote it, for the fault
    std::vector<int64_t> argOffsets;   // offsets in the caller's param area
    std::vector<int64_t> retOffsets;
};

struct Function {
    std::string name;
    bool isKernel = false;
    int32_t entry = 0;                 // pc of the first instruction
    int32_t end = 0;                   // one past the last
    uint32_t numRegs = 0, numPreds = 0;
    uint32_t paramBytes = 0;           // per-lane param area: formals, returns, call-sequence params
    std::vector<int64_t> formalOffsets;   // offsets of the formal parameters
    std::vector<int> formalSizes;
    std::vector<int64_t> returnOffsets;
    std::vector<int> returnSizes;
    uint32_t localBytes = 0;           // per-thread .local depot
    std::vector<CallSite> calls;
    std::vector<std::string> regNames; // for display: index -> "%r3"
    std::vector<ptx::Type> regTypes;
    std::vector<std::string> predNames;
    // Register storage (Frame::regWords): a 64-bit register keeps its 32 lanes as 64-bit words,
    // every other register (32, 16 or 8 bits) as 32-bit words, so a kernel of 32-bit values
    // keeps half the host memory hot. regOffset[r] is register r's first 32-bit word; 64-bit
    // registers come first, so their offsets are even and their lanes 8-byte aligned.
    std::vector<uint32_t> regOffset;
    std::vector<uint8_t> regWide;      // 1: 64-bit storage
    uint32_t regWords = 0;             // the register file's size in 32-bit words
    void layoutRegisters();            // fills the three from regTypes
};

struct KernelParam {
    std::string name;
    ptx::Type type = ptx::Type::None;
    int size = 0, align = 1, offset = 0;
    bool isArray = false;              // .b8 name[N]: a struct passed by value
};

struct SharedVar {
    std::string name;
    uint32_t offset = 0, size = 0;
};

struct Program {
    std::string kernelName;
    std::vector<Instr> code;
    std::vector<Function> functions;   // functions[0] is the kernel
    std::vector<KernelParam> params;
    uint32_t staticSharedBytes = 0;
    uint32_t dynamicSharedAlign = 16;  // where extern shared memory starts (after static, aligned)
    std::vector<SharedVar> sharedVars;
    std::map<int, std::string> files;  // .file index -> path
    int mainFile = 0;                  // the .file of the kernel's own source (most common)
    // It reads %envreg1/%envreg2, as nvcc's grid.sync() does to find the cooperative launch's
    // workspace (a trap then most likely means grid.sync() outside a cooperative launch).
    bool readsGridWorkspace = false;
    // Function window address (mem::functionAddress) -> index in functions, for every compiled
    // function: where an indirect call goes.
    std::map<uint64_t, uint32_t> functionAt;
};

// Addresses of module-scope variables (.global/.const), chosen by whoever owns device memory.
using SymbolAddresses = std::map<std::string, uint64_t>;

// Compiles kernel `kernelName` of `module`. Throws Error(Unsupported) naming instruction, PTX
// line and kernel for anything the engine does not implement, Error(Input) for malformed PTX.
Program compile(const ptx::Module& module, const std::string& kernelName, const SymbolAddresses& symbols);

} // namespace warpscope::sim
