// One body per PTX operation: the per-lane semantics that both executors are built from. The
// general executor (ops_*.cpp: any type, any modifier, any execution mask, through Exec) and the
// pre-decoded whole-warp handlers (fast_exec.cpp: the common forms, all 32 lanes, registers at
// their storage width) call the same function here for the same operation, so an operation's
// result is written once. Bodies are templates over the lane type where the width is the only
// difference (a 32-bit add in a 32-bit register, or in a 64-bit slot masked to its width by the
// general path); the handlers' AVX2 loops (fast_exec.cpp) are vectorised forms of these bodies
// and tests/engine/sim/fast_path_test.cpp compares them with the general path.
//
// Operations whose semantics need the full generality (rounding modes, .ftz, .sat, half
// precision, ...) keep their bodies in sim/arith.hpp; these are the ones both paths execute.
#pragma once
#include "sim/arith.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace warpscope::sim::ops {

// A float result as a register holds it: any NaN canonical (the GPU's encoding).
inline uint32_t canonicalF32(float v) { return v != v ? arith::kCanonicalNaNF32 : std::bit_cast<uint32_t>(v); }
inline float f32(uint32_t bits) { return std::bit_cast<float>(bits); }

// add / sub / mul / fma .f32 rounded to nearest, no .ftz or .sat: IEEE single precision (the
// host rounds as the GPU does; fma rounds once) with the GPU's NaN.
inline uint32_t addF32(uint32_t a, uint32_t b) { return canonicalF32(f32(a) + f32(b)); }
inline uint32_t subF32(uint32_t a, uint32_t b) { return canonicalF32(f32(a) - f32(b)); }
inline uint32_t mulF32(uint32_t a, uint32_t b) { return canonicalF32(f32(a) * f32(b)); }
inline uint32_t fmaF32(uint32_t a, uint32_t b, uint32_t c) {
#if defined(__GNUC__) || defined(__clang__)
    return canonicalF32(__builtin_fmaf(f32(a), f32(b), f32(c)));   // one instruction where the caller's target has FMA
#else
    return canonicalF32(std::fma(f32(a), f32(b), f32(c)));
#endif
}

// div.rn.f32 without .ftz: arith::divF32's result. For finite, nonzero a and b (subnormals
// included: without .ftz nothing is flushed) divF32 computes q = double(a) / double(b) and, when
// q is in f32's normal range, returns float(q) (its own shortcut, proved at arith.cpp's
// inF32NormalRange: double rounding is innocuous for a quotient). A zero, infinite or NaN operand
// makes q zero, infinite or NaN, which is outside that range: those, and every quotient that
// needs the remainder's sign (a subnormal or overflowing result), take divF32 itself. So the
// result is divF32's in every case; the common one costs one division and two compares.
inline bool f32NormalRange(double q) {
    const double m = std::fabs(q);
    return m >= 0x1p-126 && m < 0x1.fffffep127;   // the bounds of arith.cpp's inF32NormalRange
}
inline uint32_t divRnF32(uint32_t a, uint32_t b) {
    const double q = double(f32(a)) / double(f32(b));
    if (f32NormalRange(q)) return std::bit_cast<uint32_t>(float(q));
    return std::bit_cast<uint32_t>(arith::divF32(f32(a), f32(b), ptx::Round::RN, false));
}

// setp on f32 without .ftz, as a lane mask over 32 lanes: arith::compareF32 per lane (ordered
// comparisons false and unordered ones true when either operand is NaN).
template <class Lanes> uint32_t compareF32Lanes(arith::CmpOp op, const Lanes* a, const Lanes* b) {
    uint32_t p = 0;
    for (int l = 0; l < 32; ++l) p |= uint32_t(arith::compareF32(op, f32(uint32_t(a[l])), f32(uint32_t(b[l])), false)) << l;
    return p;
}

// Integer add / sub / mul.lo / mad.lo: wrapping, the low bits of the result at the lane type's
// width (the general path keeps them in 64-bit slots and masks to the instruction's width).
template <class U> constexpr U bitAnd(U a, U b) { return U(a & b); }
template <class U> constexpr U bitOr(U a, U b) { return U(a | b); }
template <class U> constexpr U bitXor(U a, U b) { return U(a ^ b); }
// selp: a where the lane's predicate is set, else b.
template <class U> constexpr U select(bool p, U a, U b) { return p ? a : b; }
template <class U> constexpr U add(U a, U b) { return U(a + b); }
template <class U> constexpr U sub(U a, U b) { return U(a - b); }
template <class U> constexpr U mulLo(U a, U b) { return U(a * b); }
template <class U> constexpr U madLo(U a, U b, U c) { return U(a * b + c); }

// mul.wide.{s,u}{16,32}: the full product of two T's, twice T's width (sign- or zero-extended
// sources), as the 64-bit value a register of that width holds (zero above 2 x width).
template <class T> constexpr uint64_t mulWide(T a, T b) {
    static_assert(std::is_integral_v<T> && sizeof(T) <= 4);
    using W = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
    const uint64_t p = uint64_t(W(a) * W(b));
    return sizeof(T) == 4 ? p : p & ((uint64_t(1) << (16 * sizeof(T))) - 1);
}

// shl.b / shr.u / shr.s: a shift by n, n past the width clamped (shl and shr.u give 0, shr.s the
// sign fill).
template <class U> constexpr U shl(U a, uint32_t n) {
    static_assert(std::is_unsigned_v<U>);
    return n >= 8 * sizeof(U) ? U(0) : U(a << n);
}
template <class U> constexpr U shrU(U a, uint32_t n) {
    static_assert(std::is_unsigned_v<U>);
    return n >= 8 * sizeof(U) ? U(0) : U(a >> n);
}
template <class U> constexpr U shrS(U a, uint32_t n) {
    static_assert(std::is_unsigned_v<U>);
    using S = std::make_signed_t<U>;
    const uint32_t s = n >= 8 * sizeof(U) ? uint32_t(8 * sizeof(U) - 1) : n;
    return U(S(S(a) >> s));
}

// The same at a width known only at run time (the general path: 16, 32 or 64 bits in a 64-bit
// slot; the value above the width is ignored and the result zero above it).
template <class F> constexpr uint64_t atWidth(int bits, F f) {
    if (bits <= 8) return f(uint8_t{});
    if (bits <= 16) return f(uint16_t{});
    if (bits <= 32) return f(uint32_t{});
    return f(uint64_t{});
}
constexpr uint64_t shl(uint64_t a, uint32_t n, int bits) {
    return atWidth(bits, [&](auto u) { using U = decltype(u); return uint64_t(shl(U(a), n)); });
}
constexpr uint64_t shrU(uint64_t a, uint32_t n, int bits) {
    return atWidth(bits, [&](auto u) { using U = decltype(u); return uint64_t(shrU(U(a), n)); });
}
constexpr uint64_t shrS(uint64_t a, uint32_t n, int bits) {
    return atWidth(bits, [&](auto u) { using U = decltype(u); return uint64_t(shrS(U(a), n)); });
}

// cvt between integer types (no .sat): the source value of type T (sign- or zero-extended),
// which the caller cuts to the destination's width.
template <class T> constexpr uint64_t widen(T v) {
    static_assert(std::is_integral_v<T>);
    using W = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
    return uint64_t(W(v));
}

// setp on integers of type T (signed or unsigned order), one comparison chosen at compile time
// so the lane loops around it vectorise. Lo/Ls/Hi/Hs are Lt/Le/Gt/Ge on unsigned T.
template <arith::CmpOp kOp, class T> constexpr bool compare(T a, T b) {
    using arith::CmpOp;
    if constexpr (kOp == CmpOp::Eq) return a == b;
    else if constexpr (kOp == CmpOp::Ne) return a != b;
    else if constexpr (kOp == CmpOp::Lt || kOp == CmpOp::Lo) return a < b;
    else if constexpr (kOp == CmpOp::Le || kOp == CmpOp::Ls) return a <= b;
    else if constexpr (kOp == CmpOp::Gt || kOp == CmpOp::Hi) return a > b;
    else {
        static_assert(kOp == CmpOp::Ge || kOp == CmpOp::Hs);
        return a >= b;
    }
}
// The 32 lanes' comparisons as a lane mask (Lanes: 32-bit or 64-bit register slots; T the
// compared type). The scalar form of both paths' vectorised compares.
template <arith::CmpOp kOp, class T, class Lanes> uint32_t compareLanes(const Lanes* a, const Lanes* b) {
    uint32_t p = 0;
    for (int l = 0; l < 32; ++l) p |= uint32_t(compare<kOp>(T(a[l]), T(b[l]))) << l;
    return p;
}
template <class T, class Lanes> uint32_t compareLanes(arith::CmpOp op, const Lanes* a, const Lanes* b) {
    using arith::CmpOp;
    switch (op) {
    case CmpOp::Eq: return compareLanes<CmpOp::Eq, T>(a, b);
    case CmpOp::Ne: return compareLanes<CmpOp::Ne, T>(a, b);
    case CmpOp::Lt: case CmpOp::Lo: return compareLanes<CmpOp::Lt, T>(a, b);
    case CmpOp::Le: case CmpOp::Ls: return compareLanes<CmpOp::Le, T>(a, b);
    case CmpOp::Gt: case CmpOp::Hi: return compareLanes<CmpOp::Gt, T>(a, b);
    default: return compareLanes<CmpOp::Ge, T>(a, b);
    }
}

} // namespace warpscope::sim::ops
