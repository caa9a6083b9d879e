// Per-lane arithmetic semantics of PTX instructions, as pure functions.
//
// Everything here is bit-exact with NVIDIA GPUs wherever the PTX ISA defines the result exactly
// (IEEE-754 rounding of add/sub/mul/fma/div/sqrt/rcp/cvt in every rounding mode, integer
// arithmetic, bit manipulation). Where PTX leaves a value "unspecified" we return what NVIDIA
// hardware (or the code ptxas emits) is known to produce; each such choice is documented next to
// the function and collected in the "Sources and choices" block below.
//
// Build notes
//  * The functions never touch the host floating-point environment (no fesetround/fenv). Directed
//    rounding is computed explicitly: either with an exact software rounding core (128-bit integer
//    significands) or from the hardware round-to-nearest result plus the *sign* of the exact
//    residual (obtained with error-free transforms, std::fma being correctly rounded).
//  * They assume the host runs in its default state (round-to-nearest-even, no FTZ/DAZ), which is
//    how every C++ program starts.
//  * arith.cpp must be compiled without -ffast-math; compile it with -ffp-contract=off (the code
//    is written so that contraction would not change results, but the flag removes all doubt).
//
// Sources and choices (PTX ISA 9.x, sections 9.7.1 integer, 9.7.3 floating point, 9.7.9 cvt):
//  * NaN results. PTX 9.7.3: "NaN payloads are supported for double-precision instructions
//    (except for rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64, which maps input NaNs to a canonical
//    NaN). Single-precision instructions return an unspecified NaN." The NaN NVIDIA hardware
//    returns for every f32 (and f16/bf16) arithmetic instruction is the canonical NaN 0x7FFFFFFF
//    (0x7FFF for f16/bf16): the ISA itself shows it as the upper word of the rcp/rsqrt.approx.ftz.f64
//    canonical NaN 0x7fffffff00000000. We therefore return the canonical NaN for every f32/f16/bf16
//    instruction that produces a NaN, including abs/neg (PTX: "For abs.f32, NaN input yields
//    unspecified NaN"; ptxas implements them as FADD with a negated/absolute operand and -0).
//    f64: an input NaN propagates (the first NaN operand in a, b, c order, quieted); a NaN created
//    by an invalid operation (inf-inf, 0*inf, 0/0, sqrt(-x)) is 0xFFF8000000000000 (measured on
//    an H100 by tests/golden/f64-ieee). abs.f64 passes a NaN through unchanged (PTX: "For
//    abs.f64, NaN input is passed through unchanged"); neg.f64 flips the sign bit only.
//  * min/max (9.7.3.11/12): one NaN input -> the other operand; both NaN -> canonical NaN;
//    -0.0 < +0.0. .NaN variant: any NaN input -> canonical NaN.
//  * .sat (9.7.3): "clamps the result to [0.0, 1.0]. NaN results are flushed to +0.0f"; we also
//    return +0.0 for a -0.0 result.
//  * .ftz: subnormal inputs and results flushed to sign-preserving zero. A result is flushed when
//    it is subnormal after rounding (a result that rounds up to the smallest normal is kept).
//  * cvt float->int (9.7.9.21): "the result is clamped to the destination range by default";
//    NaN -> 0 if the source is not .f64 and the destination is not .s64/.u64, otherwise
//    1 << (BitWidth(dst) - 1). cvt int->int .sat clamps to MININT..MAXINT of the destination.
//  * Integer div/rem by zero (9.7.1.8/9: "unspecified, machine-specific value"): for 8..32-bit
//    types both quotient and remainder are all ones (ptxas ends its division sequence with
//    "@!P LOP3 d = ~b" when b == 0; PyTorch's CUDA tests record int32 x/0 == -1, x%0 == -1 and
//    uint8 x%0 == 255). For 64-bit types the ptxas sequence takes a 32-bit fast path when both
//    operands fit in 32 bits, giving 0x00000000FFFFFFFF, and returns all ones otherwise (PyTorch:
//    "For int64, CUDA returns all 1s for negative dividend, half 1s for positive dividend").
//    INT_MIN / -1 == INT_MIN and INT_MIN % -1 == 0 (two's-complement wrap, no trap).
//  * Shifts (9.7.7): shift amounts greater than the width are clamped to the width (shl -> 0,
//    shr.u -> 0, shr.s -> sign fill).
#pragma once
#include <bit>
#include <cstdint>
#include <optional>
#include <string_view>

#include "ptx/types.hpp"

namespace warpscope::sim::arith {

using ptx::Round;
using ptx::Type;

// ------------------------------------------------------------------------------------------------
// Bit helpers
// ------------------------------------------------------------------------------------------------
inline uint32_t toBits(float f) { return std::bit_cast<uint32_t>(f); }
inline uint64_t toBits(double d) { return std::bit_cast<uint64_t>(d); }
inline float f32FromBits(uint32_t b) { return std::bit_cast<float>(b); }
inline double f64FromBits(uint64_t b) { return std::bit_cast<double>(b); }

constexpr uint32_t kCanonicalNaNF32 = 0x7FFFFFFFu;
// The NaN an invalid f64 operation (inf-inf, 0*inf, 0/0, sqrt(-x)) produces: measured on an
// H100 (tests/golden/f64-ieee) as 0xFFF8000000000000, the IEEE default quiet NaN with the sign set.
constexpr uint64_t kCanonicalNaNF64 = 0xFFF8000000000000ull;
constexpr uint16_t kCanonicalNaNF16 = 0x7FFF;
constexpr uint16_t kCanonicalNaNBF16 = 0x7FFF;
inline float canonicalNaNF32() { return f32FromBits(kCanonicalNaNF32); }
inline double canonicalNaNF64() { return f64FromBits(kCanonicalNaNF64); }

inline bool isNaNF32(float f) { return (toBits(f) & 0x7FFFFFFFu) > 0x7F800000u; }
inline bool isNaNF64(double d) { return (toBits(d) & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull; }
inline bool isSubnormalF32(float f) {
    uint32_t b = toBits(f);
    return (b & 0x7F800000u) == 0 && (b & 0x007FFFFFu) != 0;
}
// Sign-preserving flush of a subnormal f32 to zero.
inline float flushF32(float f) { return isSubnormalF32(f) ? f32FromBits(toBits(f) & 0x80000000u) : f; }
inline float ftzF32(float f, bool ftz) { return ftz ? flushF32(f) : f; }
// .sat: clamp to [+0.0, 1.0]; NaN -> +0.0.
inline float satF32(float f) {
    if (!(f > 0.0f)) return 0.0f; // NaN, negatives, -0.0
    return f > 1.0f ? 1.0f : f;
}
inline double satF64(double d) {
    if (!(d > 0.0)) return 0.0;
    return d > 1.0 ? 1.0 : d;
}

// Masks / sign extension for integer widths 1..64.
constexpr uint64_t maskBits(int bits) { return bits >= 64 ? ~0ull : ((1ull << bits) - 1); }
constexpr uint64_t truncBits(uint64_t v, int bits) { return v & maskBits(bits); }
constexpr int64_t signExtend(uint64_t v, int bits) {
    if (bits >= 64) return static_cast<int64_t>(v);
    uint64_t m = 1ull << (bits - 1);
    v &= maskBits(bits);
    return static_cast<int64_t>((v ^ m) - m);
}

// ------------------------------------------------------------------------------------------------
// Floating point: f32 (.rn .rz .rm .rp; Round::None means .rn; RNI..RPI are accepted as RN..RP)
// ------------------------------------------------------------------------------------------------
float addF32(float a, float b, Round r = Round::RN, bool ftz = false, bool sat = false);
float subF32(float a, float b, Round r = Round::RN, bool ftz = false, bool sat = false);
float mulF32(float a, float b, Round r = Round::RN, bool ftz = false, bool sat = false);
// fma.f32 == mad.rnd.f32 (sm_20+): a*b+c with a single rounding.
float fmaF32(float a, float b, float c, Round r = Round::RN, bool ftz = false, bool sat = false);
float divF32(float a, float b, Round r = Round::RN, bool ftz = false); // IEEE div.rnd.f32
float sqrtF32(float a, Round r = Round::RN, bool ftz = false);          // IEEE sqrt.rnd.f32
float rcpF32(float a, Round r = Round::RN, bool ftz = false);           // IEEE rcp.rnd.f32
float minF32(float a, float b, bool ftz = false, bool nanMode = false);
float maxF32(float a, float b, bool ftz = false, bool nanMode = false);
float absF32(float a, bool ftz = false); // NaN -> canonical NaN
float negF32(float a, bool ftz = false); // NaN -> canonical NaN
// copysign.f32 d, a, b: d = b with the sign bit of a (pure bit operation).
inline float copysignF32(float a, float b) {
    return f32FromBits((toBits(b) & 0x7FFFFFFFu) | (toBits(a) & 0x80000000u));
}

// Approximate f32 instructions. They return the correctly rounded (RN) value of a double-precision
// reference, which always satisfies the bound the ISA documents (see approxBound()), with the
// special cases of the ISA tables applied exactly.
float divApproxF32(float a, float b, bool ftz = false); // a * (1/b); |b| > 2^126 -> 0 (inf if a inf -> NaN)
float divFullF32(float a, float b, bool ftz = false);
float sqrtApproxF32(float a, bool ftz = false);
float rcpApproxF32(float a, bool ftz = false);
float rsqrtApproxF32(float a, bool ftz = false);
float ex2ApproxF32(float a, bool ftz = false);
float lg2ApproxF32(float a, bool ftz = false);
float sinApproxF32(float a, bool ftz = false);
float cosApproxF32(float a, bool ftz = false);
float tanhApproxF32(float a); // subnormals pass through (no .ftz form)

// ------------------------------------------------------------------------------------------------
// Floating point: f64 (no ftz / sat)
// ------------------------------------------------------------------------------------------------
double addF64(double a, double b, Round r = Round::RN);
double subF64(double a, double b, Round r = Round::RN);
double mulF64(double a, double b, Round r = Round::RN);
double fmaF64(double a, double b, double c, Round r = Round::RN);
double divF64(double a, double b, Round r = Round::RN);
double sqrtF64(double a, Round r = Round::RN);
double rcpF64(double a, Round r = Round::RN);
double minF64(double a, double b);
double maxF64(double a, double b);
inline double absF64(double a) {
    return isNaNF64(a) ? a : f64FromBits(toBits(a) & 0x7FFFFFFFFFFFFFFFull);
}
inline double negF64(double a) { return f64FromBits(toBits(a) ^ 0x8000000000000000ull); }
inline double copysignF64(double a, double b) {
    return f64FromBits((toBits(b) & 0x7FFFFFFFFFFFFFFFull) | (toBits(a) & 0x8000000000000000ull));
}
// rcp.approx.ftz.f64 / rsqrt.approx.ftz.f64: computed from the upper 32 bits of a (1.11.20
// format), result rounded to 1.11.20 and placed in the upper word, lower word zero. Subnormal
// inputs/results flush to zero; NaN inputs -> 0x7fffffff00000000.
double rcpApproxFtzF64(double a);
double rsqrtApproxFtzF64(double a);
double rsqrtApproxF64(double a); // rsqrt.approx.f64 (software-emulated on hardware)

// ------------------------------------------------------------------------------------------------
// Approximation bounds (for the golden-test comparer)
// ------------------------------------------------------------------------------------------------
enum class ApproxFn : uint8_t {
    Ex2F32, Lg2F32, SinF32, CosF32, TanhF32, RsqrtF32, SqrtApproxF32, RcpApproxF32,
    DivApproxF32, DivFullF32, RsqrtF64, RcpApproxFtzF64, RsqrtApproxFtzF64,
};
// A hardware result `got` for input x with exact value `ref` is acceptable when it satisfies ANY
// of the bounds that are non-zero and apply:
//   maxUlp      |got - ref| <= maxUlp * ulp(ref) in the result format (everywhere unless a domain
//               is given: DivApproxF32 applies it for |b| in [domainLo, domainHi]).
//   maxAbs      |got - ref| <= maxAbs for x in [domainLo, domainHi].
//   maxAbsWide  |got - ref| <= maxAbsWide for x in [wideLo, wideHi] (sin/cos second tier).
//   maxRelLog2  |got - ref| <= 2^maxRelLog2 * |ref|  (everywhere, or outside [domainLo, domainHi]
//               when maxAbs is also given, as for lg2).
// documented == false: PTX documents no bound; the numbers are our own conservative choice.
struct ApproxBound {
    double maxUlp;
    double maxAbs;
    double domainLo, domainHi;
    double maxAbsWide;
    double wideLo, wideHi;
    double maxRelLog2;
    bool documented;
};
constexpr ApproxBound approxBound(ApproxFn fn) {
    constexpr double pi = 3.14159265358979323846;
    //              maxUlp maxAbs  domainLo domainHi  maxAbsWide wideLo wideHi  relLog2 documented
    switch (fn) {
    case ApproxFn::Ex2F32: return {2, 0, 0, 0, 0, 0, 0, 0, true};      // 2 ulp, full range
    case ApproxFn::Lg2F32: return {0, 0x1p-22, 0.5, 2.0, 0, 0, 0, -22, true}; // abs 2^-22 on (0.5,2), rel 2^-22 elsewhere
    case ApproxFn::SinF32:
    case ApproxFn::CosF32: // abs 2^-20.5 on [-2pi, 2pi]; 2^-14.7 on [-100pi, 100pi]; best effort beyond
        return {0, 6.743495761743046e-07, -2 * pi, 2 * pi, 3.7571545817410796e-05, -100 * pi, 100 * pi, 0, true};
    case ApproxFn::TanhF32: return {0, 0, 0, 0, 0, 0, 0, -11, true};   // rel 2^-11
    case ApproxFn::RsqrtF32: return {0, 0, 0, 0, 0, 0, 0, -22.9, true}; // rel 2^-22.9
    case ApproxFn::SqrtApproxF32: return {0, 0, 0, 0, 0, 0, 0, -23, true}; // rel 2^-23
    case ApproxFn::RcpApproxF32: return {1, 0, 0, 0, 0, 0, 0, 0, true};    // 1 ulp
    case ApproxFn::DivApproxF32: return {2, 0, 0x1p-126, 0x1p126, 0, 0, 0, 0, true}; // 2 ulp for |b| in [2^-126, 2^126]
    case ApproxFn::DivFullF32: return {2, 0, 0, 0, 0, 0, 0, 0, true};      // 2 ulp, full range
    case ApproxFn::RsqrtF64: return {2, 0, 0, 0, 0, 0, 0, 0, false};       // not documented
    case ApproxFn::RcpApproxFtzF64:                                         // "gross approximation",
    case ApproxFn::RsqrtApproxFtzF64: return {0, 0, 0, 0, 0, 0, 0, -18, false}; // 20-bit result
    }
    return {0, 0, 0, 0, 0, 0, 0, 0, false};
}
// Convenience check implementing the rule above (x = the input that selects the domain: the
// argument, or the divisor b for DivApproxF32). ulp is taken in f32 for *F32 functions and f64
// otherwise; special values (NaN/inf) must match exactly (both NaN, or equal).
bool withinApproxBound(ApproxFn fn, double x, double ref, double got);

// ------------------------------------------------------------------------------------------------
// testp and comparisons
// ------------------------------------------------------------------------------------------------
enum class TestpOp : uint8_t { Finite, Infinite, Number, NotANumber, Normal, Subnormal };
bool testpF32(TestpOp op, float a);  // zero counts as normal (PTX 9.7.3.1)
bool testpF64(TestpOp op, double a);

// setp/set/selp comparison operators. Ordered float compares (Eq..Ge) are false when either input
// is NaN (Ne included); unordered ones (Equ..Geu) are true when either is NaN; Num = neither NaN,
// Nan = either NaN. Lo/Ls/Hi/Hs are unsigned integer compares (for floats they behave as Lt/Le/
// Gt/Ge). For integers, Equ..Geu behave as Eq..Ge and Num/Nan are true/false.
enum class CmpOp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan };
std::optional<CmpOp> cmpOpFromName(std::string_view s); // "lt" or ".lt"
std::string_view cmpOpName(CmpOp op);

bool compareF32(CmpOp op, float a, float b, bool ftz = false);
bool compareF64(CmpOp op, double a, double b);
// a and b hold `bits`-wide integers (higher bits ignored). isSigned selects signed Lt..Ge.
bool compareInt(CmpOp op, uint64_t a, uint64_t b, int bits, bool isSigned);

// ------------------------------------------------------------------------------------------------
// Conversion (cvt)
// ------------------------------------------------------------------------------------------------
// Converts srcBits (the source value, zero-extended into 64 bits; only the low bitsOf(src) bits are
// read) from `src` to `dst`. Types: S8..S64, U8..U64, B8..B64 (bit types act as unsigned of that
// width), F16, BF16, F32, F64. The result is returned in the low bitsOf(dst) bits with the upper
// bits ZERO (not sign-extended): a caller writing a signed result into a wider register must
// sign-extend it itself (PTX: "sign-extended to the destination register width for signed
// integers").
//  * int->int: truncate / sign- or zero-extend; .sat clamps to the destination range.
//  * int->float: rounded with r (.rn default); exact 64-bit conversions in all modes.
//  * float->int: r must be .rni/.rzi/.rmi/.rpi (RN/RZ/RM/RP and None are accepted as RNI/RZI/RMI/
//    RPI, None = RZI); always saturates; NaN -> 0 or 1<<(w-1) (see header comment). ftz flushes
//    subnormal f32 inputs.
//  * float->float: widening is exact; narrowing rounds with r (.rn default); same-type with an
//    integer rounding mode rounds to an integral value; .ftz flushes f32 inputs and results;
//    .sat clamps to [0,1] (NaN -> +0); .satfinite (f16/bf16 destinations) turns results whose
//    input magnitude exceeds MAX_NORM (or infinities) into sign-preserved MAX_NORM and keeps NaN;
//    .relu clamps negative results to +0 and NaN to the canonical NaN.
//  * NaN results are canonical in the destination format when narrowing or rounding
//    (0x7FFFFFFF/0x7FFF); widening conversions keep the payload (IEEE style, quiet bit set).
uint64_t convert(uint64_t srcBits, Type dst, Type src, Round r, bool ftz, bool sat,
                 bool satfinite = false, bool relu = false);

// Half-precision helpers.
float f16ToF32(uint16_t h);                                      // exact; NaN payload kept
uint16_t f32ToF16(float f, Round r = Round::RN, bool satfinite = false);
float bf16ToF32(uint16_t h);                                     // exact (bit shift)
uint16_t f32ToBF16(float f, Round r = Round::RN, bool satfinite = false);
// cvt.{rna,rn,rz}{.satfinite}.tf32.f32: the f32 rounded to 10 mantissa bits (the low 13 bits of the
// result are zero). NaN gives the canonical NaN; .satfinite turns infinities and overflow into
// the largest finite tf32 of that sign.
uint32_t f32ToTf32(uint32_t bits, Round r, bool satfinite);
// f16 arithmetic (add/sub/mul/fma.rn{.ftz}{.sat}.f16): exact core + one final rounding.
uint16_t addF16(uint16_t a, uint16_t b, Round r = Round::RN, bool ftz = false, bool sat = false);
uint16_t subF16(uint16_t a, uint16_t b, Round r = Round::RN, bool ftz = false, bool sat = false);
uint16_t mulF16(uint16_t a, uint16_t b, Round r = Round::RN, bool ftz = false, bool sat = false);
uint16_t fmaF16(uint16_t a, uint16_t b, uint16_t c, Round r = Round::RN, bool ftz = false, bool sat = false);
// bf16 add/sub/mul/fma (sm_90's add/sub/mul.rn.bf16, sm_80's fma.rn{.relu}.bf16): one rounding;
// NaN results are the canonical 0x7FFF.
uint16_t addBF16(uint16_t a, uint16_t b, Round r = Round::RN);
uint16_t subBF16(uint16_t a, uint16_t b, Round r = Round::RN);
uint16_t mulBF16(uint16_t a, uint16_t b, Round r = Round::RN);
uint16_t fmaBF16(uint16_t a, uint16_t b, uint16_t c, Round r = Round::RN, bool relu = false);

// ------------------------------------------------------------------------------------------------
// Integer arithmetic. Operands hold `bits`-wide values in the low bits of uint64_t (higher bits are
// ignored); results are returned truncated to the operation width (zero above) unless stated.
// ------------------------------------------------------------------------------------------------
inline uint64_t addInt(uint64_t a, uint64_t b, int bits) { return truncBits(a + b, bits); }
inline uint64_t subInt(uint64_t a, uint64_t b, int bits) { return truncBits(a - b, bits); }
inline int32_t addSatS32(int32_t a, int32_t b) {
    int64_t s = int64_t(a) + int64_t(b);
    return s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : int32_t(s);
}
inline int32_t subSatS32(int32_t a, int32_t b) {
    int64_t s = int64_t(a) - int64_t(b);
    return s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : int32_t(s);
}
// add.cc/addc and sub.cc/subc: result and carry/borrow out (PTX: sub.cc writes the borrow-out,
// subc computes a - (b + borrow-in)).
struct CarryResult {
    uint64_t value;
    bool carry;
};
inline CarryResult addCarry(uint64_t a, uint64_t b, bool carryIn, int bits) {
    a = truncBits(a, bits);
    b = truncBits(b, bits);
    unsigned __int128 s = (unsigned __int128)a + b + (carryIn ? 1 : 0);
    return {truncBits(uint64_t(s), bits), ((s >> bits) & 1) != 0};
}
inline CarryResult subBorrow(uint64_t a, uint64_t b, bool borrowIn, int bits) {
    a = truncBits(a, bits);
    b = truncBits(b, bits);
    unsigned __int128 sub = (unsigned __int128)b + (borrowIn ? 1 : 0);
    return {truncBits(a - uint64_t(sub), bits), (unsigned __int128)a < sub};
}

// mul.lo / mul.hi / mul.wide (bits = 16, 32 or 64; wide only for 16/32 -> 32/64-bit result).
inline uint64_t mulLo(uint64_t a, uint64_t b, int bits) { return truncBits(a * b, bits); }
inline uint64_t mulHi(uint64_t a, uint64_t b, int bits, bool isSigned) {
    if (isSigned) {
        __int128 p = (__int128)signExtend(a, bits) * (__int128)signExtend(b, bits);
        return truncBits(uint64_t((unsigned __int128)p >> bits), bits);
    }
    unsigned __int128 p = (unsigned __int128)truncBits(a, bits) * truncBits(b, bits);
    return truncBits(uint64_t(p >> bits), bits);
}
inline uint64_t mulWide(uint64_t a, uint64_t b, int bits, bool isSigned) {
    if (isSigned) {
        __int128 p = (__int128)signExtend(a, bits) * (__int128)signExtend(b, bits);
        return truncBits(uint64_t((unsigned __int128)p), 2 * bits);
    }
    return truncBits(uint64_t((unsigned __int128)truncBits(a, bits) * truncBits(b, bits)), 2 * bits);
}
inline uint64_t madLo(uint64_t a, uint64_t b, uint64_t c, int bits) { return truncBits(a * b + c, bits); }
inline uint64_t madHi(uint64_t a, uint64_t b, uint64_t c, int bits, bool isSigned) {
    return truncBits(mulHi(a, b, bits, isSigned) + c, bits);
}
inline uint64_t madWide(uint64_t a, uint64_t b, uint64_t c, int bits, bool isSigned) {
    return truncBits(mulWide(a, b, bits, isSigned) + c, 2 * bits);
}
// mad.hi.sat.s32: saturate hi(a*b) + c to the s32 range.
inline int32_t madHiSatS32(int32_t a, int32_t b, int32_t c) {
    int64_t hi = (int64_t(a) * int64_t(b)) >> 32;
    int64_t s = hi + c;
    return s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : int32_t(s);
}
// mul24.lo/hi and mad24.lo/hi (.u32/.s32): 24x24-bit product (operands sign/zero-extended from
// bit 23); .lo = bits 31..0 of the 48-bit product, .hi = bits 47..16. mad24.hi.sat.s32 saturates.
uint32_t mul24(uint32_t a, uint32_t b, bool hi, bool isSigned);
uint32_t mad24(uint32_t a, uint32_t b, uint32_t c, bool hi, bool isSigned, bool sat = false);

uint64_t divInt(uint64_t a, uint64_t b, int bits, bool isSigned);
uint64_t remInt(uint64_t a, uint64_t b, int bits, bool isSigned);

inline uint64_t negInt(uint64_t a, int bits) { return truncBits(0 - a, bits); }
inline uint64_t absInt(uint64_t a, int bits) { // abs(INT_MIN) == INT_MIN
    return signExtend(a, bits) < 0 ? negInt(a, bits) : truncBits(a, bits);
}
inline uint64_t minInt(uint64_t a, uint64_t b, int bits, bool isSigned, bool relu = false) {
    uint64_t r;
    if (isSigned) r = signExtend(a, bits) < signExtend(b, bits) ? a : b;
    else r = truncBits(a, bits) < truncBits(b, bits) ? a : b;
    if (relu && signExtend(r, bits) < 0) r = 0;
    return truncBits(r, bits);
}
inline uint64_t maxInt(uint64_t a, uint64_t b, int bits, bool isSigned, bool relu = false) {
    uint64_t r;
    if (isSigned) r = signExtend(a, bits) > signExtend(b, bits) ? a : b;
    else r = truncBits(a, bits) > truncBits(b, bits) ? a : b;
    if (relu && signExtend(r, bits) < 0) r = 0;
    return truncBits(r, bits);
}
// sad: c + |a - b| (the comparison is signed or unsigned, the sum wraps).
inline uint64_t sadInt(uint64_t a, uint64_t b, uint64_t c, int bits, bool isSigned) {
    bool lt = isSigned ? signExtend(a, bits) < signExtend(b, bits) : truncBits(a, bits) < truncBits(b, bits);
    return truncBits(c + (lt ? b - a : a - b), bits);
}
// shl/shr: sim/ops.hpp (one body for both executors).

// Bit manipulation (bits = 32 or 64).
uint64_t bfe(uint64_t a, uint32_t pos, uint32_t len, int bits, bool isSigned);
uint64_t bfi(uint64_t a, uint64_t b, uint32_t pos, uint32_t len, int bits); // insert a into b
inline uint32_t brev32(uint32_t a) {
    a = ((a >> 1) & 0x55555555u) | ((a & 0x55555555u) << 1);
    a = ((a >> 2) & 0x33333333u) | ((a & 0x33333333u) << 2);
    a = ((a >> 4) & 0x0F0F0F0Fu) | ((a & 0x0F0F0F0Fu) << 4);
    return __builtin_bswap32(a);
}
inline uint64_t brev64(uint64_t a) { return (uint64_t(brev32(uint32_t(a))) << 32) | brev32(uint32_t(a >> 32)); }
inline uint32_t popc(uint64_t a, int bits) { return uint32_t(std::popcount(truncBits(a, bits))); }
inline uint32_t clz(uint64_t a, int bits) {
    return bits >= 64 ? uint32_t(std::countl_zero(a)) : uint32_t(std::countl_zero(uint32_t(a)));
}
// bfind{.shiftamt}: 0xFFFFFFFF when no non-sign bit is found.
inline uint32_t bfind(uint64_t a, int bits, bool isSigned, bool shiftAmt) {
    a = truncBits(a, bits);
    if (isSigned && ((a >> (bits - 1)) & 1)) a = truncBits(~a, bits);
    if (a == 0) return 0xFFFFFFFFu;
    uint32_t d = uint32_t(63 - std::countl_zero(a));
    return shiftAmt ? uint32_t(bits - 1) - d : d;
}
// fns.b32: position of the n-th set bit from base (0xFFFFFFFF if none). base must be <= 31.
uint32_t fns(uint32_t mask, uint32_t base, int32_t offset);

enum class PrmtMode : uint8_t { Default, F4E, B4E, RC8, ECL, ECR, RC16 };
uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, PrmtMode mode = PrmtMode::Default);

} // namespace warpscope::sim::arith
