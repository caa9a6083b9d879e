// The one instruction table: every PTX opcode the simulator executes, its execution class and
// default latency in cycles. The timing model and the GUI read classes and latencies from here;
// a test checks the table is complete (every Op has a handler) and its names are unique.
#pragma once
#include <cstdint>
#include <string_view>

namespace warpscope::sim {

enum class ExecClass : uint8_t { Alu, Fma, Fp64, Sfu, Lsu, Branch, Barrier, Warp, Misc, Tensor };
std::string_view execClassName(ExecClass c);

// X(enumerator, ptx spelling, class, latency)
#define WARPSCOPE_OPCODES(X)                                   \
    X(Add, "add", Alu, 4)                                      \
    X(Sub, "sub", Alu, 4)                                      \
    X(Addc, "addc", Alu, 4)                                    \
    X(Subc, "subc", Alu, 4)                                    \
    X(Mul, "mul", Fma, 4)                                      \
    X(Mad, "mad", Fma, 4)                                      \
    X(Madc, "madc", Fma, 4)                                    \
    X(Mul24, "mul24", Fma, 4)                                  \
    X(Mad24, "mad24", Fma, 4)                                  \
    X(Sad, "sad", Alu, 4)                                      \
    X(Div, "div", Sfu, 40)                                     \
    X(Rem, "rem", Sfu, 40)                                     \
    X(Abs, "abs", Alu, 4)                                      \
    X(Neg, "neg", Alu, 4)                                      \
    X(Min, "min", Alu, 4)                                      \
    X(Max, "max", Alu, 4)                                      \
    X(Popc, "popc", Alu, 4)                                    \
    X(Clz, "clz", Alu, 4)                                      \
    X(Bfind, "bfind", Alu, 4)                                  \
    X(Fns, "fns", Alu, 4)                                      \
    X(Brev, "brev", Alu, 4)                                    \
    X(Bfe, "bfe", Alu, 4)                                      \
    X(Bfi, "bfi", Alu, 4)                                      \
    X(Prmt, "prmt", Alu, 4)                                    \
    X(And, "and", Alu, 4)                                      \
    X(Or, "or", Alu, 4)                                        \
    X(Xor, "xor", Alu, 4)                                      \
    X(Not, "not", Alu, 4)                                      \
    X(Cnot, "cnot", Alu, 4)                                    \
    X(Shl, "shl", Alu, 4)                                      \
    X(Shr, "shr", Alu, 4)                                      \
    X(Shf, "shf", Alu, 4)                                      \
    X(Fma, "fma", Fma, 4)                                      \
    X(Rcp, "rcp", Sfu, 20)                                     \
    X(Sqrt, "sqrt", Sfu, 20)                                   \
    X(Rsqrt, "rsqrt", Sfu, 20)                                 \
    X(Sin, "sin", Sfu, 20)                                     \
    X(Cos, "cos", Sfu, 20)                                     \
    X(Lg2, "lg2", Sfu, 20)                                     \
    X(Ex2, "ex2", Sfu, 20)                                     \
    X(Tanh, "tanh", Sfu, 20)                                   \
    X(Copysign, "copysign", Alu, 4)                            \
    X(Testp, "testp", Alu, 4)                                  \
    X(Setp, "setp", Alu, 4)                                    \
    X(Set, "set", Alu, 4)                                      \
    X(Selp, "selp", Alu, 4)                                    \
    X(Slct, "slct", Alu, 4)                                    \
    X(Cvt, "cvt", Alu, 6)                                      \
    X(Cvta, "cvta", Alu, 4)                                    \
    X(Isspacep, "isspacep", Alu, 4)                            \
    X(Mov, "mov", Alu, 2)                                      \
    X(Ld, "ld", Lsu, 30)                                       \
    X(Ldu, "ldu", Lsu, 30)                                     \
    X(St, "st", Lsu, 30)                                       \
    X(Atom, "atom", Lsu, 60)                                   \
    X(Red, "red", Lsu, 60)                                     \
    X(Bar, "bar", Barrier, 20)                                 \
    X(Barrier, "barrier", Barrier, 20)                         \
    X(Membar, "membar", Misc, 10)                              \
    X(Fence, "fence", Misc, 10)                                \
    X(Shfl, "shfl", Warp, 20)                                  \
    X(Vote, "vote", Warp, 4)                                   \
    X(Activemask, "activemask", Warp, 4)                       \
    X(Match, "match", Warp, 20)                                \
    X(Bra, "bra", Branch, 4)                                   \
    X(Call, "call", Branch, 10)                                \
    X(Ret, "ret", Branch, 4)                                   \
    X(Exit, "exit", Branch, 4)                                 \
    X(Trap, "trap", Branch, 4)                                 \
    X(Brkpt, "brkpt", Misc, 4)                                 \
    X(Nanosleep, "nanosleep", Misc, 4)                         \
    X(Prefetch, "prefetch", Lsu, 4)                            \
    X(Pmevent, "pmevent", Misc, 4)                             \
    /* Tensor cores (sim/tensor.hpp): PTX spells wmma's three forms as one opcode with  */ \
    /* .load/.store/.mma; the translator picks the row by that word. Latencies: H100.   */ \
    X(WmmaLoad, "wmma.load", Lsu, 30)                          \
    X(WmmaStore, "wmma.store", Lsu, 30)                        \
    X(WmmaMma, "wmma.mma", Tensor, 24)                         \
    X(Mma, "mma", Tensor, 25)                                  \
    X(Ldmatrix, "ldmatrix", Lsu, 33)                           \
    X(Movmatrix, "movmatrix", Warp, 8)

enum class Op : uint8_t {
#define WARPSCOPE_OP_ENUM(e, s, c, l) e,
    WARPSCOPE_OPCODES(WARPSCOPE_OP_ENUM)
#undef WARPSCOPE_OP_ENUM
        Count_
};

struct OpInfo {
    Op op;
    std::string_view name;
    ExecClass cls;
    int latency;
};

inline constexpr OpInfo kOpTable[] = {
#define WARPSCOPE_OP_ROW(e, s, c, l) {Op::e, s, ExecClass::c, l},
    WARPSCOPE_OPCODES(WARPSCOPE_OP_ROW)
#undef WARPSCOPE_OP_ROW
};
inline constexpr int kOpCount = static_cast<int>(Op::Count_);
static_assert(sizeof(kOpTable) / sizeof(kOpTable[0]) == kOpCount);

inline const OpInfo& opInfo(Op op) { return kOpTable[static_cast<int>(op)]; }

// The instructions that access memory through an address (ld, ldu, st, atom, red): the ones whose
// Step (and MemoryAccess) carries a space, a width and the lanes' addresses.
inline bool isMemoryOp(Op op) { return op == Op::Ld || op == Op::Ldu || op == Op::St || op == Op::Atom || op == Op::Red; }
// Looks an opcode up by its PTX spelling; returns false when the engine does not know it.
bool opFromName(std::string_view name, Op& out);

} // namespace warpscope::sim
