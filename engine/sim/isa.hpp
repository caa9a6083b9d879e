// The one instruction table: every PTX opcode the simulator executes, its execution class and
// default latency in cycles. The timing model and the GUI read classes and latencies from here;
// a test checks the table is complete (every Op has a handler) and its names are unique.
#pragma once
#include <cstdint>
#include <string_view>

namespace warpscope::sim {

enum class ExecClass : uint8_t { Alu, Fma, Fp64, Sfu, Lsu, Branch, Barrier, Warp, Misc, Tensor };
std::string_view execClassName(ExecClass c);

// X(enumerator, ptx spelling, class, latency, executor). The executor column names the function
// that runs the instruction: executor E is execE (sim/exec.hpp), reached through issue.cpp's
// table; its per-lane semantics are a body in sim/ops.hpp or sim/arith.hpp. Adding an instruction
// is a row here, its body, and a test (docs/architecture.md, "Where each kind of change goes").
#define WARPSCOPE_OPCODES(X)                                             \
    X(Add, "add", Alu, 4, Arith)                                  \
    X(Sub, "sub", Alu, 4, Arith)                                  \
    X(Addc, "addc", Alu, 4, Arith)                                \
    X(Subc, "subc", Alu, 4, Arith)                                \
    X(Mul, "mul", Fma, 4, Arith)                                  \
    X(Mad, "mad", Fma, 4, Arith)                                  \
    X(Madc, "madc", Fma, 4, Arith)                                \
    X(Mul24, "mul24", Fma, 4, Arith)                              \
    X(Mad24, "mad24", Fma, 4, Arith)                              \
    X(Sad, "sad", Alu, 4, Arith)                                  \
    X(Div, "div", Sfu, 40, Arith)                                 \
    X(Rem, "rem", Sfu, 40, Arith)                                 \
    X(Abs, "abs", Alu, 4, Arith)                                  \
    X(Neg, "neg", Alu, 4, Arith)                                  \
    X(Min, "min", Alu, 4, Arith)                                  \
    X(Max, "max", Alu, 4, Arith)                                  \
    X(Popc, "popc", Alu, 4, Bits)                                 \
    X(Clz, "clz", Alu, 4, Bits)                                   \
    X(Bfind, "bfind", Alu, 4, Bits)                               \
    X(Fns, "fns", Alu, 4, Bits)                                   \
    X(Brev, "brev", Alu, 4, Bits)                                 \
    X(Bfe, "bfe", Alu, 4, Bits)                                   \
    X(Bfi, "bfi", Alu, 4, Bits)                                   \
    X(Prmt, "prmt", Alu, 4, Bits)                                 \
    X(And, "and", Alu, 4, Bits)                                   \
    X(Or, "or", Alu, 4, Bits)                                     \
    X(Xor, "xor", Alu, 4, Bits)                                   \
    X(Not, "not", Alu, 4, Bits)                                   \
    X(Cnot, "cnot", Alu, 4, Bits)                                 \
    X(Shl, "shl", Alu, 4, Bits)                                   \
    X(Shr, "shr", Alu, 4, Bits)                                   \
    X(Shf, "shf", Alu, 4, Bits)                                   \
    X(Fma, "fma", Fma, 4, Arith)                                  \
    X(Rcp, "rcp", Sfu, 20, Arith)                                 \
    X(Sqrt, "sqrt", Sfu, 20, Arith)                               \
    X(Rsqrt, "rsqrt", Sfu, 20, Arith)                             \
    X(Sin, "sin", Sfu, 20, Arith)                                 \
    X(Cos, "cos", Sfu, 20, Arith)                                 \
    X(Lg2, "lg2", Sfu, 20, Arith)                                 \
    X(Ex2, "ex2", Sfu, 20, Arith)                                 \
    X(Tanh, "tanh", Sfu, 20, Arith)                               \
    X(Copysign, "copysign", Alu, 4, Arith)                        \
    X(Testp, "testp", Alu, 4, Compare)                            \
    X(Setp, "setp", Alu, 4, Compare)                              \
    X(Set, "set", Alu, 4, Compare)                                \
    X(Selp, "selp", Alu, 4, Compare)                              \
    X(Slct, "slct", Alu, 4, Compare)                              \
    X(Cvt, "cvt", Alu, 6, Move)                                   \
    X(Cvta, "cvta", Alu, 4, Move)                                 \
    X(Isspacep, "isspacep", Alu, 4, Move)                         \
    X(Mov, "mov", Alu, 2, Move)                                   \
    X(Ld, "ld", Lsu, 30, Memory)                                  \
    X(Ldu, "ldu", Lsu, 30, Memory)                                \
    X(St, "st", Lsu, 30, Memory)                                  \
    X(Atom, "atom", Lsu, 60, Memory)                              \
    X(Red, "red", Lsu, 60, Memory)                                \
    X(Bar, "bar", Barrier, 20, Barrier)                           \
    X(Barrier, "barrier", Barrier, 20, Barrier)                   \
    X(Membar, "membar", Misc, 10, Fence)                          \
    X(Fence, "fence", Misc, 10, Fence)                            \
    X(Shfl, "shfl", Warp, 20, Warp)                               \
    X(Vote, "vote", Warp, 4, Warp)                                \
    X(Activemask, "activemask", Warp, 4, Warp)                    \
    X(Match, "match", Warp, 20, Warp)                             \
    X(Redux, "redux", Warp, 20, Warp)                             \
    X(Bra, "bra", Branch, 4, Branch)                              \
    X(Call, "call", Branch, 10, Call)                             \
    X(Ret, "ret", Branch, 4, Exit)                                \
    X(Exit, "exit", Branch, 4, Exit)                              \
    X(Trap, "trap", Branch, 4, Trap)                              \
    X(Brkpt, "brkpt", Misc, 4, Nothing)                           \
    X(Nanosleep, "nanosleep", Misc, 4, Nothing)                   \
    X(Prefetch, "prefetch", Lsu, 4, Nothing)                      \
    X(Pmevent, "pmevent", Misc, 4, Nothing)                       \
    /* Tensor cores (sim/tensor.hpp): PTX spells wmma's three forms as one opcode with  */ \
    /* .load/.store/.mma; the translator picks the row by that word. Latencies: H100.   */ \
    X(WmmaLoad, "wmma.load", Lsu, 30, Matrix)                     \
    X(WmmaStore, "wmma.store", Lsu, 30, Matrix)                   \
    X(WmmaMma, "wmma.mma", Tensor, 24, Matrix)                    \
    X(Mma, "mma", Tensor, 25, Matrix)                             \
    X(Ldmatrix, "ldmatrix", Lsu, 33, Matrix)                      \
    X(Movmatrix, "movmatrix", Warp, 8, Matrix)                    \
    /* Asynchronous copies and mbarriers (sim/ops_async.cpp, docs/async-copy.md): the */ \
    /* translator joins cp.async's and mbarrier's leading words to find the row.      */ \
    X(CpAsync, "cp.async", Lsu, 30, Async)                        \
    X(CpAsyncCommit, "cp.async.commit_group", Misc, 4, Async)     \
    X(CpAsyncWait, "cp.async.wait_group", Misc, 4, Async)         \
    X(CpAsyncWaitAll, "cp.async.wait_all", Misc, 4, Async)        \
    X(CpAsyncArrive, "cp.async.mbarrier.arrive", Misc, 4, Async)  \
    X(MbarInit, "mbarrier.init", Misc, 4, Async)                  \
    X(MbarArrive, "mbarrier.arrive", Misc, 4, Async)              \
    X(MbarArriveDrop, "mbarrier.arrive_drop", Misc, 4, Async)     \
    X(MbarTestWait, "mbarrier.test_wait", Misc, 4, Async)         \
    X(MbarTryWait, "mbarrier.try_wait", Misc, 4, Async)           \
    X(MbarInval, "mbarrier.inval", Misc, 4, Async)

enum class Op : uint8_t {
#define WARPSCOPE_OP_ENUM(e, s, c, l, x) e,
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
#define WARPSCOPE_OP_ROW(e, s, c, l, x) {Op::e, s, ExecClass::c, l},
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
