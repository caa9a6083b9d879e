// The tensor-core instructions: wmma.load/store/mma, mma.sync, ldmatrix and movmatrix.
//
// What lives here, away from the warp interpreter: the decoded form of one matrix instruction
// (MatrixOp, built by sim::compile), which lane and register holds which matrix element of each
// fragment (fragmentElements: the executor and the fragment view both read it), and the H100's
// arithmetic for one dot product of a tile (dotProduct).
//
// Fragment layouts. For mma.sync they are the PTX ISA's per-lane tables (g = lane / 4,
// t = lane % 4). For wmma the ISA leaves them unspecified; these are the H100's, read off the
// hardware by tests/golden/wmma-fragments: an m16n16 wmma fragment is the m16n8 mma fragment
// of the left half of the tile followed by that of the right half (A is one m16n8 A fragment),
// and f16 A and B fragments hold their eight 32-bit registers twice (registers 4..7 repeat 0..3).
//
// Arithmetic (measured, tests/golden/wmma-gemm and mma-sync; docs/tensor-cores.md): products of
// f16/bf16/tf32 inputs are exact; each block of products plus the accumulator is aligned to the
// largest exponent among them (a product's exponent is the sum of its inputs' exponents), every
// term truncated toward zero to 25 bits below that exponent, summed exactly, and rounded toward
// zero to f32 (to nearest even for an f16 accumulator). Blocks: 16 products (f16/bf16 k16), 8
// (k8), 4 for tf32, chained through the f32 result. Integers are exact, wrapping or saturating.
#pragma once
#include "sim/program.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::sim {

enum class MatrixKind : uint8_t { WmmaLoad, WmmaStore, WmmaMma, Mma, Ldmatrix, Movmatrix };
enum class Frag : uint8_t { A, B, C, D };
enum class ElemType : uint8_t { None, F16, BF16, TF32, F32, S8, U8, S32, B16 };

std::string_view elemTypeName(ElemType t);
inline int elemBytes(ElemType t) {   // (inline: the executors' per-element loops call it)
    switch (t) {
    case ElemType::F16: case ElemType::BF16: case ElemType::B16: return 2;
    case ElemType::S8: case ElemType::U8: return 1;
    case ElemType::None: return 0;
    default: return 4;
    }
}

struct MatrixOp {
    MatrixKind kind = MatrixKind::Mma;
    Frag frag = Frag::A;               // wmma.load/store: the fragment it moves
    int m = 16, n = 8, k = 16;
    bool rowMajor = true;              // wmma.load/store: the memory layout
    bool aRow = true, bRow = false;    // wmma.mma/mma: the layouts of A and B (mma.sync: always row.col)
    ElemType atype = ElemType::None, btype = ElemType::None, ctype = ElemType::None, dtype = ElemType::None;
    bool satfinite = false;
    int count = 1;                     // ldmatrix .x1/.x2/.x4
    bool trans = false;                // ldmatrix/movmatrix .trans
    bool hasStride = false;            // wmma.load/store: a stride operand (else the matrix's width)
    // Register operands, in operand order (all 32-bit registers).
    std::vector<Operand> d, a, b, c;
    // Fragment element type of a wmma.load/store (the memory element type).
    ElemType memType() const { return atype; }
    // The registers it reads and writes, for the register analyses (predecode).
    std::vector<uint32_t> reads() const;
    std::vector<uint32_t> writes() const;
};

// One element of a fragment: register `reg` of the operand's register list holds the matrix
// element (row, col) in its sub-word `sub` (16-bit elements: 0 low half, 1 high half; 8-bit: byte).
struct FragElem {
    uint8_t reg = 0, sub = 0;
    uint8_t row = 0, col = 0;
};

// Rows and columns of operand `which` of the instruction (A: m x k, B: k x n, C/D: m x n;
// ldmatrix/movmatrix: 8 x 8 per matrix, matrices side by side for .x2/.x4).
int fragRows(const MatrixOp& op, Frag which);
int fragCols(const MatrixOp& op, Frag which);
ElemType fragType(const MatrixOp& op, Frag which);
// The elements lane `lane` holds of operand `which` (every register of the list, duplicates
// included). For ldmatrix and movmatrix the destination is D, the matrix element (row, col) of
// matrix i lies at column i * 8 + col.
std::vector<FragElem> fragmentElements(const MatrixOp& op, Frag which, int lane);

// The fragment view's data: the tile of operand `which` as a matrix, row-major, each element
// with every (lane, register, sub-word) that holds it (f16 wmma A/B: two per element, same lane).
struct FragHolder {
    uint8_t lane = 0, reg = 0, sub = 0;
};
struct FragmentMap {
    Frag which = Frag::A;
    int rows = 0, cols = 0;
    ElemType type = ElemType::None;
    std::vector<std::vector<FragHolder>> holders;   // rows * cols entries
    const std::vector<FragHolder>& at(int row, int col) const { return holders[size_t(row) * size_t(cols) + size_t(col)]; }
};
FragmentMap fragmentMap(const MatrixOp& op, Frag which);
// The operands an instruction's view shows: A, B, C, D for an mma; the loaded or stored
// fragment for wmma.load/store; D for ldmatrix; A (source) and D for movmatrix.
std::vector<Frag> fragmentsOf(const MatrixOp& op);

// One output element of a floating-point mma: D = sum_k A[k] * B[k] + C with the H100's block
// arithmetic. Inputs are raw bits in their types (atype for A and B, ctype for C); the result
// is bits in dtype (F32 or F16).
uint32_t dotProduct(const MatrixOp& op, const uint32_t* a, const uint32_t* b, int kk, uint32_t c);
// A whole tile, the executor's path: d = a x b + c with a rows x kk, b kk x cols, c and d rows x
// cols, all row-major raw bits. Bit for bit dotProduct (or dotProductInt) of every element; each
// input is unpacked once instead of once per dot product. Floating tiles up to 16 x 16 x 32.
// `vectorized`: the sums' AVX2 loops where the CPU has them (false: the scalar loops only; the
// tests compare both).
void mmaTile(const MatrixOp& op, const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d, int rows, int cols, int kk,
             bool vectorized = true);
// Whether this build and CPU run the sums' AVX2 loops.
bool tensorVectorized();
// Integer mma: s8/u8 inputs, s32 accumulator; wraps, or clamps with .satfinite.
uint32_t dotProductInt(const MatrixOp& op, const uint32_t* a, const uint32_t* b, int kk, uint32_t c);

// Cycles the instruction keeps the SM sub-partition's tensor pipe busy and its result latency,
// as measured on the H100 (scripts/tensor-probe.cu, Nsight Compute's
// smsp__pipe_tensor_cycles_active): 0 for the instructions that do not use the tensor pipe.
int tensorPipeCycles(const MatrixOp& op);
int tensorLatency(const MatrixOp& op);
// Tensor-pipe machine instructions (HMMA/IMMA) one PTX instruction becomes on sm_90, as
// Nsight Compute counts them in smsp__inst_executed_pipe_tensor.
int tensorInstructions(const MatrixOp& op);
bool tensorIsInteger(const MatrixOp& op);

// A short description for the fragment view and errors: "wmma.mma m16n16k16 f16 x f16 + f32".
std::string describe(const MatrixOp& op);

} // namespace warpscope::sim
