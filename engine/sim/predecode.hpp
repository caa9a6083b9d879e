// Work done once per program instead of once per issued warp-instruction (issue 17).
//
// Sections: 1. Registers a function may read before writing them (which parts of a recycled
//           register file block admission must clear)  2. The pre-decoded form: a fast
//           handler per instruction, chosen at launch, for whole-warp execution
#pragma once
#include "sim/program.hpp"

#include <cstdint>
#include <vector>

namespace warpscope::sim {

// ---------------------------------------------------------------- 1. Read-before-write registers
// The registers of function `func` that some lane may read before that lane has written them on
// its path through the function (a "definitely written" forward dataflow over the CFG; guarded
// writes and writes the analysis does not model count as no write), plus every register another
// lane can read (shfl's source). Only these need to start at zero for the function's results to
// be the same as with a cleared register file: the others are always written first.
std::vector<uint32_t> registersReadBeforeWritten(const Program& prog, uint32_t func);

// The registers `I` reads, the ones it writes in every lane it executes on (`full`), and the
// ones it may write in only some of them (`partial`: guarded, or a family that does not write
// every lane, or dst2), registers below `nregs` only. ld and mov-unpack write their vector
// elements; st and mov-pack read them. (The analyses here, and Gpu::issueFootprint.)
struct RegisterOperands {
    std::vector<uint32_t> reads, full, partial;
};
RegisterOperands registerOperands(const Instr& I, uint32_t nregs);

// ---------------------------------------------------------------- 1b. Packed register files
// PTX names a fresh virtual register for nearly every value, so a kernel declares far more
// registers than are ever live at once (the tiled matmul: 123, of which about 30 at a time).
// Register files nobody looks at during a run (Gpu::run with no Step listener) can give two
// registers one slot when no lane can need both at the same time: a liveness analysis over the
// function's CFG (every lane follows a path of it; a guarded or partial write keeps the old value
// and so counts as a read), and registers interfere when one is written while the other is live,
// or both in one instruction. Registers in `alone` (read before written: they must read zero;
// shfl sources: read in other lanes) keep a slot of their own. 64-bit and 32-bit registers keep
// their widths (64-bit slots first, as Function::layoutRegisters). `offset` is empty when packing
// would save nothing or the function is too big to analyse cheaply.
struct RegisterPacking {
    std::vector<uint32_t> offset;   // per register: its first 32-bit word, as Function::regOffset
    uint32_t words = 0;
};
RegisterPacking packRegisters(const Program& prog, uint32_t func, const std::vector<uint32_t>& alone);

// ---------------------------------------------------------------- 2. Pre-decoded form
// One entry per pc. `kind` names a specialised whole-warp handler (all 32 lanes execute: the
// warp is converged and the guard, if any, is true for every lane); Generic means "take the
// general interpreter path". Register operands are 32-bit word offsets into Frame::regWords
// (Function::regOffset), and each kind fixes the storage width of its registers (a 32-bit add
// reads and writes 32-bit registers; mul.wide writes a 64-bit one): an instruction whose
// registers are stored otherwise stays Generic.
enum class FastKind : uint8_t {
    Generic,
    AddF32, SubF32, MulF32, FmaF32,            // .rn (or none), no .ftz/.sat
    AddI32, SubI32, AddI64, SubI64,            // wrapping integer add/sub (no .sat/.cc)
    MulLoI32, MadLoI32, MulWideS32, MulWideU32,
    ShlB32, ShrU32, ShrS32,                    // shift by an immediate below 32
    Mov32, Mov64,                              // register or immediate source
    MovTidX, MovLaneId,                        // lane-dependent special registers
    MovUniform,                                // %ntid, %ctaid, %nctaid: one value for the warp
    Cvta,                                      // cvta / cvta.to: (a + offset) & mask
    CvtU64U32, CvtS64S32,
    SetpI32,                                   // setp on 32-bit integers, no bool op
    SetpF32,                                   // setp on f32 (any comparison), no bool op, no .ftz
    DivRnF32,                                  // div.rn.f32, no .ftz
    AndB32, OrB32, XorB32,                     // bitwise on 32-bit registers (not predicates)
    SelpB32,                                   // selp of 32-bit values; offset = the predicate's index
    BfeU32, BfeS32,                            // bfe on 32-bit registers (position and length: registers or immediates)
    AtomAddShared,                             // atom.shared.add of 32-bit integers at [reg + imm], lanes in order
    LdShared, StShared,                        // 4 or 8 bytes, [reg + imm] (32-bit offsets)
    LdGlobal, StGlobal,                        // 4 or 8 bytes, [reg + imm]
    LdParam,                                   // 4 or 8 bytes at a constant, in-range, aligned offset
    Bra,                                       // offset = target; Gpu::issue takes it when the warp does not split
    BarSync,                                   // bar.sync / barrier.sync with an immediate id (imm[0]) and no thread
                                               // count: __syncthreads(); Gpu::issue waits there for a whole warp
};

// Operands are either register word offsets into Frame::regWords or immediates: bit k of
// `imms` says source k is the immediate imm[k]. Every field a kind does not use stays zero.
struct FastOp {
    FastKind kind = FastKind::Generic;
    arith::CmpOp cmp = arith::CmpOp::Eq;   // SetpI32, normalised to Eq..Ge (Lo = Lt unsigned, ...); SetpF32 as written
    bool sgn = false;            // SetpI32: signed comparison
    uint8_t imms = 0;
    uint8_t size = 0;            // memory: bytes per lane (4 or 8)
    uint8_t sreg = 0;            // MovUniform: the Sreg
    bool wideDst = false;        // Mov*, Cvta: the destination is a 64-bit register
    bool wideBase = false;       // memory: the address register is a 64-bit register
    int32_t guard = -1;          // the guard predicate's index (-1: unguarded), so the lean path
    bool guardNegated = false;   // reads the guard without touching the (large) Instr
    uint32_t dst = 0;            // register offset; SetpI32/SetpF32: predicate index
    int32_t dst2 = -1;           // SetpI32/SetpF32: the second (negated) predicate, -1 if none
    uint32_t src[3] = {};
    uint64_t imm[3] = {};
    uint64_t mask = ~0ull;       // Mov*, MovUniform, Cvta: the result's width
    uint64_t offset = 0;         // memory: the address's constant offset; Cvta: + or - the window base; SelpB32: predicate
};

// The pre-decoded form of every instruction of `prog`; the kernel's (function 0's) register
// operands at `kernelOffsets` (a RegisterPacking) instead of Function::regOffset when given.
std::vector<FastOp> predecode(const Program& prog, const std::vector<uint32_t>* kernelOffsets = nullptr);

} // namespace warpscope::sim
