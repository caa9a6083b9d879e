// The one instruction table: every PTX opcode the simulator executes, its execution class and
// default latency in cycles. The timing model and the GUI read classes and latencies from here;
// a test checks the table is complete (every Op has a handler) and its names are unique.
#pragma once
#include <cstdint>
#include <string_view>

namespace warpscope::sim {

enum class ExecClass : uint8_t { Alu, Fma, Fp64, Sfu, Lsu, Branch, Barrier, Warp, Misc, Tensor };
std::string_view execClassName(ExecClass c);

// X(enumerator, ptx spelling, class, latency, executor, operands). The executor column names the
// function that runs the instruction: executor E is execE (sim/exec.hpp), reached through
// issue.cpp's table; its per-lane semantics are a body in sim/ops.hpp or sim/arith.hpp. The
// operands column says how the translator (sim/compile.cpp) lowers it: PlainN is a destination and
// N sources of the instruction's type with no modifier words but the rounding, .ftz and .sat
// (lowered from this row alone); Own is an instruction with its own operand forms, which has a case
// in compile.cpp's switch. Adding an instruction is a row here, its body, and a test (and, for an
// Own row, its lowering case): docs/architecture.md, "Where each kind of change goes".
#define WARPSCOPE_OPCODES(X)                                             \
    X(Add, "add", Alu, 4, Arith, Own)                               \
    X(Sub, "sub", Alu, 4, Arith, Own)                               \
    X(Addc, "addc", Alu, 4, Arith, Own)                             \
    X(Subc, "subc", Alu, 4, Arith, Own)                             \
    X(Mul, "mul", Fma, 4, Arith, Own)                               \
    X(Mad, "mad", Fma, 4, Arith, Own)                               \
    X(Madc, "madc", Fma, 4, Arith, Own)                             \
    X(Mul24, "mul24", Fma, 4, Arith, Own)                           \
    X(Mad24, "mad24", Fma, 4, Arith, Own)                           \
    X(Sad, "sad", Alu, 4, Arith, Plain3)                            \
    X(Div, "div", Sfu, 40, Arith, Own)                              \
    X(Rem, "rem", Sfu, 40, Arith, Own)                              \
    X(Abs, "abs", Alu, 4, Arith, Plain1)                            \
    X(Neg, "neg", Alu, 4, Arith, Plain1)                            \
    X(Min, "min", Alu, 4, Arith, Own)                               \
    X(Max, "max", Alu, 4, Arith, Own)                               \
    X(Popc, "popc", Alu, 4, Bits, Plain1)                           \
    X(Clz, "clz", Alu, 4, Bits, Plain1)                             \
    X(Bfind, "bfind", Alu, 4, Bits, Own)                            \
    X(Fns, "fns", Alu, 4, Bits, Plain3)                             \
    X(Brev, "brev", Alu, 4, Bits, Plain1)                           \
    X(Bfe, "bfe", Alu, 4, Bits, Plain3)                             \
    X(Bfi, "bfi", Alu, 4, Bits, Plain4)                             \
    X(Prmt, "prmt", Alu, 4, Bits, Own)                              \
    X(And, "and", Alu, 4, Bits, Plain2)                             \
    X(Or, "or", Alu, 4, Bits, Plain2)                               \
    X(Xor, "xor", Alu, 4, Bits, Plain2)                             \
    X(Not, "not", Alu, 4, Bits, Plain1)                             \
    X(Cnot, "cnot", Alu, 4, Bits, Plain1)                           \
    X(Shl, "shl", Alu, 4, Bits, Own)                                \
    X(Shr, "shr", Alu, 4, Bits, Own)                                \
    X(Shf, "shf", Alu, 4, Bits, Own)                                \
    X(Fma, "fma", Fma, 4, Arith, Plain3)                            \
    X(Rcp, "rcp", Sfu, 20, Arith, Plain1)                           \
    X(Sqrt, "sqrt", Sfu, 20, Arith, Plain1)                         \
    X(Rsqrt, "rsqrt", Sfu, 20, Arith, Plain1)                       \
    X(Sin, "sin", Sfu, 20, Arith, Plain1)                           \
    X(Cos, "cos", Sfu, 20, Arith, Plain1)                           \
    X(Lg2, "lg2", Sfu, 20, Arith, Plain1)                           \
    X(Ex2, "ex2", Sfu, 20, Arith, Plain1)                           \
    X(Tanh, "tanh", Sfu, 20, Arith, Plain1)                         \
    X(Copysign, "copysign", Alu, 4, Arith, Own)                     \
    X(Testp, "testp", Alu, 4, Compare, Own)                         \
    X(Setp, "setp", Alu, 4, Compare, Own)                           \
    X(Set, "set", Alu, 4, Compare, Own)                             \
    X(Selp, "selp", Alu, 4, Compare, Own)                           \
    X(Slct, "slct", Alu, 4, Compare, Own)                           \
    X(Cvt, "cvt", Alu, 6, Move, Own)                                \
    X(Cvta, "cvta", Alu, 4, Move, Own)                              \
    X(Isspacep, "isspacep", Alu, 4, Move, Own)                      \
    X(Mov, "mov", Alu, 2, Move, Own)                                \
    X(Ld, "ld", Lsu, 30, Memory, Own)                               \
    X(Ldu, "ldu", Lsu, 30, Memory, Own)                             \
    X(St, "st", Lsu, 30, Memory, Own)                               \
    X(Atom, "atom", Lsu, 60, Memory, Own)                           \
    X(Red, "red", Lsu, 60, Memory, Own)                             \
    X(Bar, "bar", Barrier, 20, Barrier, Own)                        \
    X(Barrier, "barrier", Barrier, 20, Barrier, Own)                \
    X(Membar, "membar", Misc, 10, Fence, Own)                       \
    X(Fence, "fence", Misc, 10, Fence, Own)                         \
    X(Shfl, "shfl", Warp, 20, Warp, Own)                            \
    X(Vote, "vote", Warp, 4, Warp, Own)                             \
    X(Activemask, "activemask", Warp, 4, Warp, Own)                 \
    X(Match, "match", Warp, 20, Warp, Own)                          \
    X(Redux, "redux", Warp, 20, Warp, Own)                          \
    X(Bra, "bra", Branch, 4, Branch, Own)                           \
    X(Call, "call", Branch, 10, Call, Own)                          \
    X(Ret, "ret", Branch, 4, Exit, Own)                             \
    X(Exit, "exit", Branch, 4, Exit, Own)                           \
    X(Trap, "trap", Branch, 4, Trap, Own)                           \
    X(Brkpt, "brkpt", Misc, 4, Nothing, Own)                        \
    X(Nanosleep, "nanosleep", Misc, 4, Nothing, Own)                \
    X(Prefetch, "prefetch", Lsu, 4, Nothing, Own)                   \
    X(Pmevent, "pmevent", Misc, 4, Nothing, Own)                    \
    /* Tensor cores (sim/tensor.hpp): PTX spells wmma's three forms as one opcode with  */ \
    /* .load/.store/.mma; the translator picks the row by that word. Latencies: H100.   */ \
    X(WmmaLoad, "wmma.load", Lsu, 30, Matrix, Own)                  \
    X(WmmaStore, "wmma.store", Lsu, 30, Matrix, Own)                \
    X(WmmaMma, "wmma.mma", Tensor, 24, Matrix, Own)                 \
    X(Mma, "mma", Tensor, 25, Matrix, Own)                          \
    X(Ldmatrix, "ldmatrix", Lsu, 33, Matrix, Own)                   \
    X(Movmatrix, "movmatrix", Warp, 8, Matrix, Own)                 \
    /* Asynchronous copies and mbarriers (sim/ops_async.cpp, docs/async-copy.md): the */ \
    /* translator joins cp.async's and mbarrier's leading words to find the row.      */ \
    X(CpAsync, "cp.async", Lsu, 30, Async, Own)                     \
    X(CpAsyncCommit, "cp.async.commit_group", Misc, 4, Async, Own)  \
    X(CpAsyncWait, "cp.async.wait_group", Misc, 4, Async, Own)      \
    X(CpAsyncWaitAll, "cp.async.wait_all", Misc, 4, Async, Own)     \
    X(CpAsyncArrive, "cp.async.mbarrier.arrive", Misc, 4, Async, Own)\
    X(MbarInit, "mbarrier.init", Misc, 4, Async, Own)               \
    X(MbarArrive, "mbarrier.arrive", Misc, 4, Async, Own)           \
    X(MbarArriveDrop, "mbarrier.arrive_drop", Misc, 4, Async, Own)  \
    X(MbarTestWait, "mbarrier.test_wait", Misc, 4, Async, Own)      \
    X(MbarTryWait, "mbarrier.try_wait", Misc, 4, Async, Own)        \
    X(MbarInval, "mbarrier.inval", Misc, 4, Async, Own)

enum class Op : uint8_t {
#define WARPSCOPE_OP_ENUM(e, s, c, l, x, o) e,
    WARPSCOPE_OPCODES(WARPSCOPE_OP_ENUM)
#undef WARPSCOPE_OP_ENUM
        Count_
};

// How the translator lowers an instruction (the table's operands column).
enum class Lowering : uint8_t { Own = 0, Plain1 = 1, Plain2 = 2, Plain3 = 3, Plain4 = 4 };   // PlainN: N sources

struct OpInfo {
    Op op;
    std::string_view name;
    ExecClass cls;
    int latency;
    Lowering lowering;
};

inline constexpr OpInfo kOpTable[] = {
#define WARPSCOPE_OP_ROW(e, s, c, l, x, o) {Op::e, s, ExecClass::c, l, Lowering::o},
    WARPSCOPE_OPCODES(WARPSCOPE_OP_ROW)
#undef WARPSCOPE_OP_ROW
};
inline constexpr int kOpCount = static_cast<int>(Op::Count_);
static_assert(sizeof(kOpTable) / sizeof(kOpTable[0]) == kOpCount);

inline const OpInfo& opInfo(Op op) { return kOpTable[static_cast<int>(op)]; }

// The instructions that access memory through an address (ld, ldu, st, atom, red, cp.async): the
// ones whose Step (and MemoryAccess) carries a space, a width and the lanes' addresses. For
// cp.async those are the global source addresses (what the coalescer and the counters see); the
// shared destination is written when its group completes (ops_async.cpp).
inline bool isMemoryOp(Op op) {
    return op == Op::Ld || op == Op::Ldu || op == Op::St || op == Op::Atom || op == Op::Red || op == Op::CpAsync;
}
// Looks an opcode up by its PTX spelling; returns false when the engine does not know it.
bool opFromName(std::string_view name, Op& out);

} // namespace warpscope::sim
