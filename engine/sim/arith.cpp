// Per-lane PTX arithmetic. See arith.hpp for the rules and their sources.
//
// Compile without -ffast-math, preferably with -ffp-contract=off. No expression below relies on a
// multiply-add being (or not being) fused: every fused operation is an explicit std::fma, and the
// error-free transforms used (TwoSum) contain no products.
#include "sim/arith.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace warpscope::sim::arith {
namespace {

using u128 = unsigned __int128;

// ---------------------------------------------------------------------------------------------
// Exact rounding core
// ---------------------------------------------------------------------------------------------
enum class RMode : uint8_t { NearestEven, NearestAway, TowardZero, Down, Up };

RMode toRMode(Round r) {
    switch (r) {
    case Round::RZ: case Round::RZI: return RMode::TowardZero;
    case Round::RM: case Round::RMI: return RMode::Down;
    case Round::RP: case Round::RPI: return RMode::Up;
    case Round::RNA: return RMode::NearestAway;
    case Round::None: case Round::RN: case Round::RNI: return RMode::NearestEven;
    }
    return RMode::NearestEven;
}

// Binary interchange format: fraction bits and exponent bits (sign bit implied).
struct Fmt {
    int fracBits;
    int expBits;
};
constexpr Fmt kF16{10, 5};
constexpr Fmt kBF16{7, 8};
constexpr Fmt kF32{23, 8};
constexpr Fmt kF64{52, 11};
constexpr Fmt kF64Hi{20, 11}; // the 1.11.20 upper word used by rcp/rsqrt.approx.ftz.f64

constexpr int biasOf(Fmt f) { return (1 << (f.expBits - 1)) - 1; }
constexpr uint64_t signBitOf(Fmt f) { return 1ull << (f.fracBits + f.expBits); }
constexpr uint64_t infBitsOf(Fmt f) { return uint64_t((1 << f.expBits) - 1) << f.fracBits; }
constexpr uint64_t maxFiniteBitsOf(Fmt f) { return infBitsOf(f) - 1; }
constexpr uint64_t fracMaskOf(Fmt f) { return (1ull << f.fracBits) - 1; }

inline int msb128(u128 x) { // x != 0
    uint64_t hi = uint64_t(x >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(uint64_t(x));
}

// Rounds the exact magnitude (sig + t) * 2^exp, where t = 0 if !sticky and 0 < t < 1 otherwise, to
// format f with mode m, and returns the encoding (sign included). Handles subnormal results,
// overflow (to infinity or the largest finite number depending on the mode) and signed zeros.
uint64_t roundPack(bool neg, u128 sig, int exp, bool sticky, Fmt f, RMode m) {
    const int F = f.fracBits;
    const int bias = biasOf(f);
    const int emin = 1 - bias;
    const int emax = bias;
    const uint64_t sign = neg ? signBitOf(f) : 0;
    const bool awayWhenInexact = (m == RMode::Up && !neg) || (m == RMode::Down && neg);
    const bool nearest = m == RMode::NearestEven || m == RMode::NearestAway;
    const uint64_t overflowBits = (nearest || awayWhenInexact) ? infBitsOf(f) : maxFiniteBitsOf(f);

    if (sig == 0) {
        // Only a tiny positive remainder is left: below half the smallest subnormal by contract.
        if (sticky && awayWhenInexact) return sign | 1;
        return sign;
    }
    const int E = msb128(sig) + exp; // floor(log2(magnitude))
    if (E > emax) return sign | overflowBits;

    const int qe = std::max(E - F, emin - F); // exponent of the result's last place
    const int shift = qe - exp;
    u128 kept;
    bool guard = false;
    bool lower = sticky;
    if (shift <= 0) {
        kept = sig << (-shift); // E - qe <= F, so kept < 2^(F+1)
    } else if (shift > 128) {
        kept = 0;
        lower = true;
    } else if (shift == 128) {
        kept = 0;
        guard = (sig >> 127) & 1;
        lower = lower || (sig << 1) != 0;
    } else {
        kept = sig >> shift;
        guard = (sig >> (shift - 1)) & 1;
        lower = lower || (sig & ((u128(1) << (shift - 1)) - 1)) != 0;
    }
    bool inc;
    switch (m) {
    case RMode::NearestEven: inc = guard && (lower || (kept & 1)); break;
    case RMode::NearestAway: inc = guard; break;
    default: inc = (guard || lower) && awayWhenInexact; break;
    }
    kept += inc ? 1 : 0;
    // Field (qe + F + bias - 1) plus kept: kept carries the implicit bit into the exponent field,
    // and a rounding carry to 2^(F+1) moves to the next binade automatically.
    const uint64_t bits = (uint64_t(qe + F + bias - 1) << F) + uint64_t(kept);
    if (bits >= infBitsOf(f)) return sign | overflowBits;
    return sign | bits;
}

// A finite value of format f: magnitude sig * 2^exp.
struct Unpacked {
    bool neg;
    uint64_t sig;
    int exp;
};
Unpacked unpackFinite(uint64_t bits, Fmt f) {
    const int F = f.fracBits;
    const int bias = biasOf(f);
    const bool neg = (bits >> (F + f.expBits)) & 1;
    const uint64_t field = (bits >> F) & ((1ull << f.expBits) - 1);
    const uint64_t frac = bits & fracMaskOf(f);
    if (field == 0) return {neg, frac, 1 - bias - F};
    return {neg, frac | (1ull << F), int(field) - bias - F};
}

inline int sgn(double x) { return x > 0 ? 1 : (x < 0 ? -1 : 0); }

// Rounds exact = s + d to format f, where s is a finite double, resSign = sign(d), and |d| is below
// half an ulp of s (as for s = RN(exact)). Valid for formats narrower than f64: no result boundary
// or midpoint lies strictly between s and exact, so s -/+ "a tiny bit" stands in for exact.
uint64_t roundDoubleRes(double s, int resSign, Fmt f, RMode m) {
    const Unpacked u = unpackFinite(toBits(s), kF64);
    if (resSign == 0 || u.sig == 0) return roundPack(u.neg, u.sig, u.exp, false, f, m);
    const int magSign = u.neg ? -resSign : resSign;
    const u128 sig = u128(u.sig) << 2;
    return roundPack(u.neg, magSign > 0 ? sig : sig - 1, u.exp - 2, true, f, m);
}

inline u128 shiftRightJam(u128 x, int d) {
    if (d <= 0) return x;
    if (d >= 128) return x != 0 ? 1 : 0;
    return (x >> d) | (((x << (128 - d)) != 0) ? 1 : 0);
}

// Exact a*b + c (finite doubles, no NaN/inf) rounded once to format f.
uint64_t fmaFinite(double a, double b, double c, Fmt f, RMode m) {
    const Unpacked A = unpackFinite(toBits(a), kF64);
    const Unpacked B = unpackFinite(toBits(b), kF64);
    const Unpacked C = unpackFinite(toBits(c), kF64);
    const bool pneg = A.neg != B.neg;
    const uint64_t negZero = signBitOf(f);
    if (A.sig == 0 || B.sig == 0) {
        if (C.sig == 0) { // (+-0) + (+-0)
            bool neg = (pneg == C.neg) ? pneg : (m == RMode::Down);
            return neg ? negZero : 0;
        }
        return roundPack(C.neg, C.sig, C.exp, false, f, m);
    }
    const u128 P = u128(A.sig) * B.sig;
    const int pe = A.exp + B.exp;
    if (C.sig == 0) return roundPack(pneg, P, pe, false, f, m);
    // Normalize both addends so that their top bit is bit 125, then align with a sticky jam. The
    // low 19 (product) / 72 (addend) bits are zero, so any shift that can lead to cancellation is
    // exact; when jamming happens the result keeps >= 70 bits below the rounding position.
    const int ps = 125 - msb128(P);
    const int cs = 125 - msb128(C.sig);
    u128 Ps = P << ps;
    u128 Cs = u128(C.sig) << cs;
    const int pes = pe - ps;
    const int ces = C.exp - cs;
    const int e = std::max(pes, ces);
    Ps = shiftRightJam(Ps, e - pes);
    Cs = shiftRightJam(Cs, e - ces);
    if (pneg == C.neg) return roundPack(pneg, Ps + Cs, e, false, f, m);
    if (Ps == Cs) return m == RMode::Down ? negZero : 0;
    if (Ps > Cs) return roundPack(pneg, Ps - Cs, e, false, f, m);
    return roundPack(C.neg, Cs - Ps, e, false, f, m);
}

// TwoSum error: a + b == s + err exactly (s = RN(a + b), no overflow).
inline double twoSumErr(double a, double b, double s) {
    const double bb = s - a;
    return (a - (s - bb)) + (b - bb);
}

// Given s = RN(exact) and resSign = sign(exact - s), returns exact rounded with mode m.
double stepDirected(double s, int resSign, RMode m) {
    if (resSign == 0) return s;
    constexpr double inf = std::numeric_limits<double>::infinity();
    switch (m) {
    case RMode::NearestEven: case RMode::NearestAway: return s;
    case RMode::TowardZero:
        if ((s > 0 && resSign < 0) || (s < 0 && resSign > 0)) return std::nextafter(s, 0.0);
        return s;
    case RMode::Down: return resSign < 0 ? std::nextafter(s, -inf) : s;
    case RMode::Up: return resSign > 0 ? std::nextafter(s, inf) : s;
    }
    return s;
}

inline double quietF64(double a) { return f64FromBits(toBits(a) | 0x0008000000000000ull); }
inline double propagateNaN(double a, double b) { return isNaNF64(a) ? quietF64(a) : quietF64(b); }
inline double propagateNaN(double a, double b, double c) {
    return isNaNF64(a) ? quietF64(a) : isNaNF64(b) ? quietF64(b) : quietF64(c);
}

// IEEE sign of an exact zero sum x + y: -0 if both are -0, or (mode RM) unless both are +0.
inline bool zeroSumNegative(bool negX, bool negY, bool xyBothZero, RMode m) {
    if (xyBothZero && negX && negY) return true;
    return m == RMode::Down && !(xyBothZero && !negX && !negY);
}

inline float finishF32(float r, bool ftz, bool sat) {
    if (ftz) r = flushF32(r);
    if (sat) r = satF32(r);
    return r;
}

inline float f32FromCore(uint64_t bits) { return f32FromBits(uint32_t(bits)); }

// A double whose rounding to f32 is a normal, finite number: there the host's conversion (round to
// nearest even, which warpscope never changes) is IEEE's, and the host's flush-to-zero and
// denormals-are-zero flags (a program built with -ffast-math sets them) play no part. For a
// quotient or square root of f32 operands computed in double (q = RN64(exact)), RN32(q) is
// RN32(exact): double rounding is innocuous when 53 >= 2 * 24 + 2 (Figueroa, "When is double
// rounding innocuous?", 1995), so no correction by the remainder's sign is needed.
inline bool inF32NormalRange(double x) {
    const double a = std::fabs(x);
    return a >= 0x1p-126 && a < 0x1.fffffep127;
}

// What every two-operand f32 operation with .ftz/.sat shares: subnormal inputs flushed under .ftz,
// a NaN input gives the canonical NaN, else the operation's own rounding (core); then the result
// flushed and saturated.
template <class Core> inline float binaryF32(float a, float b, bool ftz, bool sat, Core core) {
    if (ftz) {
        a = flushF32(a);
        b = flushF32(b);
    }
    const float res = isNaNF32(a) || isNaNF32(b) ? canonicalNaNF32() : core(a, b);
    return finishF32(res, ftz, sat);
}

// ---------------------------------------------------------------------------------------------
// Format helpers for cvt
// ---------------------------------------------------------------------------------------------
Fmt fmtOf(Type t) {
    switch (t) {
    case Type::F16: return kF16;
    case Type::BF16: return kBF16;
    case Type::F64: return kF64;
    default: return kF32;
    }
}
inline bool isNaNBits(uint64_t bits, Fmt f) {
    return (bits & infBitsOf(f)) == infBitsOf(f) && (bits & fracMaskOf(f)) != 0;
}
inline bool isInfBits(uint64_t bits, Fmt f) { return (bits & (signBitOf(f) - 1)) == infBitsOf(f); }
inline bool isSubnormalBits(uint64_t bits, Fmt f) {
    return (bits & infBitsOf(f)) == 0 && (bits & fracMaskOf(f)) != 0;
}
inline uint64_t canonicalNaNBits(Fmt f) { return infBitsOf(f) | fracMaskOf(f); }

// Exact value of a finite float encoding as a double.
double decodeToDouble(uint64_t bits, Fmt f) {
    const Unpacked u = unpackFinite(bits, f);
    double v = std::ldexp(double(u.sig), u.exp);
    return u.neg ? -v : v;
}

// Rounds a double to an integral double (sign of zero preserved).
double roundIntegral(double v, RMode m) {
    switch (m) {
    case RMode::TowardZero: return std::trunc(v);
    case RMode::Down: return std::floor(v);
    case RMode::Up: return std::ceil(v);
    case RMode::NearestEven: {
        if (!(std::fabs(v) < 4503599627370496.0)) return v; // >= 2^52, inf, NaN: already integral
        const double fl = std::floor(v);
        const double d = v - fl; // exact
        double r = fl;
        if (d > 0.5 || (d == 0.5 && std::fmod(fl, 2.0) != 0.0)) r = fl + 1.0;
        return std::copysign(r, v);
    }
    case RMode::NearestAway: {
        if (!(std::fabs(v) < 4503599627370496.0)) return v;
        const double a = std::fabs(v);
        const double fl = std::floor(a);
        const double r = (a - fl) >= 0.5 ? fl + 1.0 : fl;
        return std::copysign(r, v);
    }
    }
    return v;
}

// ftz / satfinite / relu / sat applied to a float result encoded in format f.
uint64_t finishFloatBits(uint64_t bits, Type dst, bool ftz, bool sat, bool satfinite, bool relu) {
    const Fmt f = fmtOf(dst);
    if (ftz && dst == Type::F32 && isSubnormalBits(bits, f)) bits &= signBitOf(f);
    const bool nan = isNaNBits(bits, f);
    if (satfinite && !nan && isInfBits(bits, f)) bits = (bits & signBitOf(f)) | maxFiniteBitsOf(f);
    if (relu) {
        if (nan) bits = canonicalNaNBits(f);
        else if (bits & signBitOf(f)) bits = 0;
    }
    if (sat) {
        if (nan || (bits & signBitOf(f))) return 0;
        const uint64_t one = uint64_t(biasOf(f)) << f.fracBits;
        if (bits > one) return one; // positive encodings order like their values
    }
    return bits;
}

} // namespace

// =================================================================================================
// f32
// =================================================================================================
float addF32(float a, float b, Round r, bool ftz, bool sat) {
    return binaryF32(a, b, ftz, sat, [r](float x, float y) {
        const double da = x, db = y;
        const double s = da + db; // finite floats cannot overflow a double
        const RMode m = toRMode(r);
        if (std::isnan(s)) return canonicalNaNF32(); // inf - inf
        if (std::isinf(s)) return float(s);
        if (s == 0.0) { // a sum of doubles that rounds to zero is exactly zero
            const bool bothZero = da == 0.0 && db == 0.0;
            return zeroSumNegative(std::signbit(da), std::signbit(db), bothZero, m) ? -0.0f : 0.0f;
        }
        const double e = twoSumErr(da, db, s);
        if (e == 0.0 && m == RMode::NearestEven) return float(s); // exact in double: one rounding
        return f32FromCore(roundDoubleRes(s, sgn(e), kF32, m));
    });
}

float subF32(float a, float b, Round r, bool ftz, bool sat) {
    return addF32(a, f32FromBits(toBits(b) ^ 0x80000000u), r, ftz, sat);
}

float mulF32(float a, float b, Round r, bool ftz, bool sat) {
    return binaryF32(a, b, ftz, sat, [r](float x, float y) {
        const double p = double(x) * double(y); // exact: 48-bit product, exponent within range
        const RMode m = toRMode(r);
        if (std::isnan(p)) return canonicalNaNF32(); // 0 * inf
        if (std::isinf(p) || m == RMode::NearestEven) return float(p);
        return f32FromCore(roundDoubleRes(p, 0, kF32, m));
    });
}

float fmaF32(float a, float b, float c, Round r, bool ftz, bool sat) {
    if (ftz) {
        a = flushF32(a);
        b = flushF32(b);
        c = flushF32(c);
    }
    float res;
    if (isNaNF32(a) || isNaNF32(b) || isNaNF32(c)) {
        res = canonicalNaNF32();
    } else if (std::isinf(a) || std::isinf(b) || std::isinf(c)) {
        const double s = double(a) * double(b) + double(c); // inf/NaN arithmetic only: exact
        res = std::isnan(s) ? canonicalNaNF32() : float(s);
    } else {
        res = f32FromCore(fmaFinite(a, b, c, kF32, toRMode(r)));
    }
    return finishF32(res, ftz, sat);
}

float divF32(float a, float b, Round r, bool ftz) {
    if (ftz) {
        a = flushF32(a);
        b = flushF32(b);
    }
    float res;
    if (isNaNF32(a) || isNaNF32(b) || (std::isinf(a) && std::isinf(b)) || (a == 0.0f && b == 0.0f)) {
        res = canonicalNaNF32();
    } else if (std::isinf(a) || std::isinf(b) || a == 0.0f || b == 0.0f) {
        res = float(double(a) / double(b)); // +-inf or +-0, exact
    } else {
        const double da = a, db = b;
        const double q = da / db; // |q| in [2^-277, 2^277]: no overflow/underflow in double
        const double rem = std::fma(-q, db, da); // sign(rem) == sign(a - q*b) exactly
        const int resSign = sgn(rem) * (db < 0 ? -1 : 1);
        const RMode m = toRMode(r);
        if (m == RMode::NearestEven && (resSign == 0 || inF32NormalRange(q))) res = float(q);   // (see inF32NormalRange)
        else res = f32FromCore(roundDoubleRes(q, resSign, kF32, m));
    }
    return finishF32(res, ftz, false);
}

float sqrtF32(float a, Round r, bool ftz) {
    if (ftz) a = flushF32(a);
    float res;
    if (isNaNF32(a) || a < 0.0f) {
        res = canonicalNaNF32();
    } else if (a == 0.0f || std::isinf(a)) {
        res = a; // sqrt(-0) = -0
    } else {
        const double da = a;
        const double s = std::sqrt(da); // correctly rounded
        const double rem = std::fma(-s, s, da); // sign(a - s^2) == sign(sqrt(a) - s)
        const RMode m = toRMode(r);
        if (m == RMode::NearestEven && (rem == 0.0 || inF32NormalRange(s))) res = float(s);
        else res = f32FromCore(roundDoubleRes(s, sgn(rem), kF32, m));
    }
    return finishF32(res, ftz, false);
}

float rcpF32(float a, Round r, bool ftz) { return divF32(1.0f, a, r, ftz); }

// min and max: a NaN operand gives the other one (both NaN, or .NaN: the canonical NaN); -0 counts
// as below +0.
static float minMaxF32(float a, float b, bool ftz, bool nanMode, bool isMax) {
    if (ftz) {
        a = flushF32(a);
        b = flushF32(b);
    }
    const bool an = isNaNF32(a), bn = isNaNF32(b);
    if (an || bn) {
        if (nanMode || (an && bn)) return canonicalNaNF32();
        return an ? b : a;
    }
    if (a == b) return std::signbit(a) == isMax ? b : a;
    return (a < b) != isMax ? a : b;
}

float minF32(float a, float b, bool ftz, bool nanMode) { return minMaxF32(a, b, ftz, nanMode, false); }

float maxF32(float a, float b, bool ftz, bool nanMode) { return minMaxF32(a, b, ftz, nanMode, true); }

float absF32(float a, bool ftz) {
    if (ftz) a = flushF32(a);
    if (isNaNF32(a)) return canonicalNaNF32();
    return f32FromBits(toBits(a) & 0x7FFFFFFFu);
}

float negF32(float a, bool ftz) {
    if (ftz) a = flushF32(a);
    if (isNaNF32(a)) return canonicalNaNF32();
    return f32FromBits(toBits(a) ^ 0x80000000u);
}

// ---------------------------------------------------------------------------------------------
// Approximate f32
// ---------------------------------------------------------------------------------------------
float divApproxF32(float a, float b, bool ftz) {
    if (ftz) {
        a = flushF32(a);
        b = flushF32(b);
    }
    if (isNaNF32(a) || isNaNF32(b)) return canonicalNaNF32();
    // Computed as a * (1/b): for 2^126 < |b| < 2^128 the reciprocal flushes to zero.
    if (std::isfinite(b) && std::fabs(b) > 0x1p126f) {
        if (std::isinf(a)) return canonicalNaNF32();
        return ((toBits(a) ^ toBits(b)) & 0x80000000u) ? -0.0f : 0.0f;
    }
    return divF32(a, b, Round::RN, ftz);
}

float divFullF32(float a, float b, bool ftz) { return divF32(a, b, Round::RN, ftz); }
float sqrtApproxF32(float a, bool ftz) { return sqrtF32(a, Round::RN, ftz); }
float rcpApproxF32(float a, bool ftz) { return rcpF32(a, Round::RN, ftz); }

float rsqrtApproxF32(float a, bool ftz) {
    if (ftz) a = flushF32(a);
    if (isNaNF32(a) || a < 0.0f) return canonicalNaNF32(); // -inf, -normal: NaN
    if (a == 0.0f) return std::signbit(a) ? -std::numeric_limits<float>::infinity()
                                          : std::numeric_limits<float>::infinity();
    if (std::isinf(a)) return 0.0f;
    return finishF32(float(1.0 / std::sqrt(double(a))), ftz, false);
}

float ex2ApproxF32(float a, bool ftz) {
    if (ftz) a = flushF32(a);
    if (isNaNF32(a)) return canonicalNaNF32();
    return finishF32(float(std::exp2(double(a))), ftz, false); // ex2(-inf) = +0, ex2(+-0) = 1
}

float lg2ApproxF32(float a, bool ftz) {
    if (ftz) a = flushF32(a);
    if (isNaNF32(a) || a < 0.0f) return canonicalNaNF32();
    if (a == 0.0f) return -std::numeric_limits<float>::infinity(); // both zeros -> -inf
    return finishF32(float(std::log2(double(a))), ftz, false);
}

float sinApproxF32(float a, bool ftz) {
    if (ftz) a = flushF32(a);
    if (isNaNF32(a) || std::isinf(a)) return canonicalNaNF32();
    return finishF32(float(std::sin(double(a))), ftz, false);
}

float cosApproxF32(float a, bool ftz) {
    if (ftz) a = flushF32(a);
    if (isNaNF32(a) || std::isinf(a)) return canonicalNaNF32();
    return finishF32(float(std::cos(double(a))), ftz, false);
}

float tanhApproxF32(float a) {
    if (isNaNF32(a)) return canonicalNaNF32();
    return float(std::tanh(double(a)));
}

// =================================================================================================
// f64
// =================================================================================================
double addF64(double a, double b, Round r) {
    if (isNaNF64(a) || isNaNF64(b)) return propagateNaN(a, b);
    const double s = a + b;
    if (std::isnan(s)) return canonicalNaNF64();
    const RMode m = toRMode(r);
    if (m == RMode::NearestEven || m == RMode::NearestAway) return s;
    if (std::isinf(s)) {
        if (std::isinf(a) || std::isinf(b)) return s;
        return stepDirected(s, s > 0 ? -1 : 1, m); // overflow
    }
    if (s == 0.0) {
        const bool bothZero = a == 0.0 && b == 0.0;
        return zeroSumNegative(std::signbit(a), std::signbit(b), bothZero, m) ? -0.0 : 0.0;
    }
    return stepDirected(s, sgn(twoSumErr(a, b, s)), m);
}

// A NaN operand propagates with its own sign: measured on an H100 (tests/golden/f64-ieee), the
// subtrahend's NaN is not negated.
double subF64(double a, double b, Round r) {
    if (isNaNF64(a) || isNaNF64(b)) return propagateNaN(a, b);
    return addF64(a, negF64(b), r);
}

double mulF64(double a, double b, Round r) {
    if (isNaNF64(a) || isNaNF64(b)) return propagateNaN(a, b);
    const double p = a * b;
    if (std::isnan(p)) return canonicalNaNF64();
    const RMode m = toRMode(r);
    if (m == RMode::NearestEven || m == RMode::NearestAway) return p;
    if (std::isinf(a) || std::isinf(b) || a == 0.0 || b == 0.0) return p; // exact
    if (std::isinf(p)) return stepDirected(p, p > 0 ? -1 : 1, m);
    // Residual sign in a scaled domain where nothing can underflow: a*b = ma*mb * 2^(ea+eb).
    int ea, eb;
    const double ma = std::frexp(a, &ea);
    const double mb = std::frexp(b, &eb);
    const double P = std::ldexp(p, -(ea + eb)); // exact (P ~ ma*mb, normal) or 0 on underflow
    return stepDirected(p, sgn(std::fma(ma, mb, -P)), m);
}

double fmaF64(double a, double b, double c, Round r) {
    if (isNaNF64(a) || isNaNF64(b) || isNaNF64(c)) return propagateNaN(a, b, c);
    if (std::isinf(a) || std::isinf(b)) {
        if (a == 0.0 || b == 0.0) return canonicalNaNF64();
        const bool pneg = std::signbit(a) != std::signbit(b);
        if (std::isinf(c) && std::signbit(c) != pneg) return canonicalNaNF64();
        return pneg ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    }
    if (std::isinf(c)) return c;
    const RMode m = toRMode(r);
    if (m == RMode::NearestEven) return std::fma(a, b, c);
    return f64FromBits(fmaFinite(a, b, c, kF64, m));
}

double divF64(double a, double b, Round r) {
    if (isNaNF64(a) || isNaNF64(b)) return propagateNaN(a, b);
    if ((std::isinf(a) && std::isinf(b)) || (a == 0.0 && b == 0.0)) return canonicalNaNF64();
    const double q = a / b;
    const RMode m = toRMode(r);
    if (m == RMode::NearestEven || m == RMode::NearestAway) return q;
    if (std::isinf(a) || std::isinf(b) || a == 0.0 || b == 0.0) return q; // exact
    if (std::isinf(q)) return stepDirected(q, q > 0 ? -1 : 1, m);
    int ea, eb;
    const double ma = std::frexp(a, &ea);
    const double mb = std::frexp(b, &eb);
    const double Q = std::ldexp(q, -(ea - eb)); // exact (Q ~ ma/mb) or 0 on underflow
    const double rem = std::fma(-Q, mb, ma);    // sign(ma - Q*mb)
    return stepDirected(q, sgn(rem) * (mb < 0 ? -1 : 1), m);
}

double sqrtF64(double a, Round r) {
    if (isNaNF64(a)) return quietF64(a);
    if (a < 0.0) return canonicalNaNF64();
    if (a == 0.0 || std::isinf(a)) return a;
    const double s = std::sqrt(a);
    const RMode m = toRMode(r);
    if (m == RMode::NearestEven || m == RMode::NearestAway) return s;
    int e;
    double mant = std::frexp(a, &e);
    if (e & 1) {
        mant *= 2.0;
        e -= 1;
    }
    const double S = std::ldexp(s, -e / 2); // sqrt(a) = sqrt(mant) * 2^(e/2), S ~ sqrt(mant)
    return stepDirected(s, sgn(std::fma(-S, S, mant)), m);
}

double rcpF64(double a, Round r) { return divF64(1.0, a, r); }

double minF64(double a, double b) {
    const bool an = isNaNF64(a), bn = isNaNF64(b);
    // Two NaNs: the first one, quieted (measured on an H100, tests/golden/f64-ieee).
    if (an || bn) return (an && bn) ? quietF64(a) : (an ? b : a);
    if (a == b) return std::signbit(a) ? a : b;
    return a < b ? a : b;
}

double maxF64(double a, double b) {
    const bool an = isNaNF64(a), bn = isNaNF64(b);
    // Two NaNs: the first one, quieted (measured on an H100, tests/golden/f64-ieee).
    if (an || bn) return (an && bn) ? quietF64(a) : (an ? b : a);
    if (a == b) return std::signbit(a) ? b : a;
    return a > b ? a : b;
}

namespace {
constexpr uint64_t kCanonicalNaNF64Hi = 0x7FFFFFFF00000000ull;

// Rounds a positive/negative finite double to the 1.11.20 upper-word format, flushing subnormal
// results, and returns the f64 with a zero lower word.
double packHi20(double v) {
    uint64_t hi = roundDoubleRes(v, 0, kF64Hi, RMode::NearestEven);
    if (isSubnormalBits(hi, kF64Hi)) hi &= signBitOf(kF64Hi);
    return f64FromBits(hi << 32);
}
} // namespace

double rcpApproxFtzF64(double a) {
    const uint64_t hi = toBits(a) & 0xFFFFFFFF00000000ull;
    const double t = f64FromBits(hi);
    const bool neg = (hi >> 63) != 0;
    constexpr double inf = std::numeric_limits<double>::infinity();
    if (isNaNF64(t)) return f64FromBits(kCanonicalNaNF64Hi);
    if ((hi & 0x7FF0000000000000ull) == 0) return neg ? -inf : inf; // zero or subnormal
    if (std::isinf(t)) return neg ? -0.0 : 0.0;
    return packHi20(1.0 / t);
}

double rsqrtApproxFtzF64(double a) {
    const uint64_t hi = toBits(a) & 0xFFFFFFFF00000000ull;
    const double t = f64FromBits(hi);
    const bool neg = (hi >> 63) != 0;
    constexpr double inf = std::numeric_limits<double>::infinity();
    if (isNaNF64(t)) return f64FromBits(kCanonicalNaNF64Hi);
    if ((hi & 0x7FF0000000000000ull) == 0) return neg ? -inf : inf; // +-0, +-subnormal
    if (neg) return f64FromBits(kCanonicalNaNF64Hi);                 // -normal, -inf
    if (std::isinf(t)) return 0.0;
    return packHi20(1.0 / std::sqrt(t));
}

double rsqrtApproxF64(double a) {
    if (isNaNF64(a)) return quietF64(a);
    constexpr double inf = std::numeric_limits<double>::infinity();
    if (a == 0.0) return std::signbit(a) ? -inf : inf;
    if (a < 0.0) return canonicalNaNF64();
    if (std::isinf(a)) return 0.0;
    return 1.0 / std::sqrt(a);
}

// =================================================================================================
// Approximation bounds
// =================================================================================================
bool withinApproxBound(ApproxFn fn, double x, double ref, double got) {
    if (std::isnan(ref) || std::isnan(got)) return std::isnan(ref) && std::isnan(got);
    const bool isF32 = fn != ApproxFn::RsqrtF64 && fn != ApproxFn::RcpApproxFtzF64 &&
                       fn != ApproxFn::RsqrtApproxFtzF64;
    const ApproxBound b = approxBound(fn);
    // The correctly rounded result (including overflow to infinity / underflow to zero in the result
    // format) is always acceptable.
    if ((isF32 ? double(float(ref)) : ref) == got) return true;
    const double xd = fn == ApproxFn::DivApproxF32 ? std::fabs(x) : x;
    const bool hasDomain = b.domainLo != 0 || b.domainHi != 0;
    const bool inDomain = hasDomain && xd >= b.domainLo && xd <= b.domainHi;
    if (fn == ApproxFn::DivApproxF32 && !inDomain) return true; // no accuracy guarantee there
    if (std::isinf(ref) || std::isinf(got)) {
        // An infinity must match, except that a finite result within the bound of a reference that
        // overflows the format is accepted through the ulp rule below.
        if (ref == got) return true;
    }
    // Reference rounded to the result format (ulp bounds are "from the correctly rounded result").
    const double rn = isF32 ? double(float(ref)) : ref;
    const double err = std::fabs(got - rn);
    if (b.maxUlp > 0 && std::isfinite(rn) && std::isfinite(got)) {
        double ulp;
        const double arn = std::fabs(rn);
        if (isF32) ulp = arn < 0x1p-126 ? 0x1p-149 : std::ldexp(1.0, std::ilogb(arn) - 23);
        else ulp = arn < 0x1p-1022 ? 0x1p-1074 : std::ldexp(1.0, std::ilogb(arn) - 52);
        if (err <= b.maxUlp * ulp) return true;
    }
    if (!std::isfinite(ref) || !std::isfinite(got)) return false;
    const double errExact = std::fabs(got - ref);
    if (b.maxAbs > 0 && inDomain && errExact <= b.maxAbs) return true;
    if (b.maxAbsWide > 0) {
        if (x >= b.wideLo && x <= b.wideHi) {
            if (errExact <= b.maxAbsWide) return true;
        } else {
            return true; // outside [-100pi, 100pi]: best effort only
        }
    }
    if (b.maxRelLog2 != 0 && !(b.maxAbs > 0 && inDomain) &&
        errExact <= std::fabs(ref) * std::exp2(b.maxRelLog2))
        return true;
    return false;
}

// =================================================================================================
// testp and compare
// =================================================================================================
namespace {
// testp on an IEEE value's bits `b`: ExpBits exponent bits (all ones: infinity or NaN) above
// FracBits fraction bits.
template <int ExpBits, int FracBits, class U>
bool testpBits(TestpOp op, U b) {
    const U ones = (U(1) << ExpBits) - 1;
    const U e = (b >> FracBits) & ones, f = b & ((U(1) << FracBits) - 1);
    switch (op) {
    case TestpOp::Finite: return e != ones;
    case TestpOp::Infinite: return e == ones && f == 0;
    case TestpOp::Number: return !(e == ones && f != 0);
    case TestpOp::NotANumber: return e == ones && f != 0;
    case TestpOp::Normal: return (e != 0 && e != ones) || (e == 0 && f == 0);
    case TestpOp::Subnormal: return e == 0 && f != 0;
    }
    return false;
}
} // namespace

bool testpF32(TestpOp op, float a) { return testpBits<8, 23>(op, toBits(a)); }
bool testpF64(TestpOp op, double a) { return testpBits<11, 52>(op, toBits(a)); }

namespace {
constexpr std::string_view kCmpNames[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",  "lo",  "ls",  "hi",
                                          "hs",  "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};

template <class T> bool compareFloat(CmpOp op, T a, T b, bool unord) {
    switch (op) {
    case CmpOp::Eq: return !unord && a == b;
    case CmpOp::Ne: return !unord && a != b;
    case CmpOp::Lt: case CmpOp::Lo: return !unord && a < b;
    case CmpOp::Le: case CmpOp::Ls: return !unord && a <= b;
    case CmpOp::Gt: case CmpOp::Hi: return !unord && a > b;
    case CmpOp::Ge: case CmpOp::Hs: return !unord && a >= b;
    case CmpOp::Equ: return unord || a == b;
    case CmpOp::Neu: return unord || a != b;
    case CmpOp::Ltu: return unord || a < b;
    case CmpOp::Leu: return unord || a <= b;
    case CmpOp::Gtu: return unord || a > b;
    case CmpOp::Geu: return unord || a >= b;
    case CmpOp::Num: return !unord;
    case CmpOp::Nan: return unord;
    }
    return false;
}
} // namespace

std::optional<CmpOp> cmpOpFromName(std::string_view s) {
    if (!s.empty() && s.front() == '.') s.remove_prefix(1);
    for (size_t i = 0; i < std::size(kCmpNames); ++i)
        if (kCmpNames[i] == s) return static_cast<CmpOp>(i);
    return std::nullopt;
}

std::string_view cmpOpName(CmpOp op) {
    const auto i = static_cast<size_t>(op);
    return i < std::size(kCmpNames) ? kCmpNames[i] : std::string_view{};
}

bool compareF32(CmpOp op, float a, float b, bool ftz) {
    if (ftz) {
        a = flushF32(a);
        b = flushF32(b);
    }
    return compareFloat(op, a, b, isNaNF32(a) || isNaNF32(b));
}

bool compareF64(CmpOp op, double a, double b) { return compareFloat(op, a, b, isNaNF64(a) || isNaNF64(b)); }

bool compareInt(CmpOp op, uint64_t a, uint64_t b, int bits, bool isSigned) {
    const uint64_t ua = truncBits(a, bits), ub = truncBits(b, bits);
    const int64_t sa = signExtend(a, bits), sb = signExtend(b, bits);
    switch (op) {
    case CmpOp::Eq: case CmpOp::Equ: return ua == ub;
    case CmpOp::Ne: case CmpOp::Neu: return ua != ub;
    case CmpOp::Lt: case CmpOp::Ltu: return isSigned ? sa < sb : ua < ub;
    case CmpOp::Le: case CmpOp::Leu: return isSigned ? sa <= sb : ua <= ub;
    case CmpOp::Gt: case CmpOp::Gtu: return isSigned ? sa > sb : ua > ub;
    case CmpOp::Ge: case CmpOp::Geu: return isSigned ? sa >= sb : ua >= ub;
    case CmpOp::Lo: return ua < ub;
    case CmpOp::Ls: return ua <= ub;
    case CmpOp::Hi: return ua > ub;
    case CmpOp::Hs: return ua >= ub;
    case CmpOp::Num: return true;
    case CmpOp::Nan: return false;
    }
    return false;
}

// =================================================================================================
// cvt
// =================================================================================================
uint64_t convert(uint64_t srcBits, Type dst, Type src, Round r, bool ftz, bool sat, bool satfinite,
                 bool relu) {
    const int ws = ptx::bitsOf(src), wd = ptx::bitsOf(dst);
    if (ws <= 0 || ws > 64 || wd <= 0 || wd > 64) return 0; // Pred/B128/packed: not handled here
    srcBits = truncBits(srcBits, ws);
    const bool srcInt = ptx::isInteger(src), dstInt = ptx::isInteger(dst);
    const bool srcSigned = ptx::isSigned(src), dstSigned = ptx::isSigned(dst);

    if (srcInt && dstInt) {
        __int128 v = srcSigned ? __int128(signExtend(srcBits, ws)) : __int128(srcBits);
        if (sat) {
            const __int128 lo = dstSigned ? -(__int128(1) << (wd - 1)) : 0;
            const __int128 hi = dstSigned ? (__int128(1) << (wd - 1)) - 1 : (__int128(1) << wd) - 1;
            v = std::clamp(v, lo, hi);
        }
        return truncBits(uint64_t(v), wd);
    }

    if (srcInt) { // int -> float
        bool neg = false;
        uint64_t mag = srcBits;
        if (srcSigned) {
            const int64_t v = signExtend(srcBits, ws);
            neg = v < 0;
            mag = neg ? 0 - uint64_t(v) : uint64_t(v);
        }
        const uint64_t bits = roundPack(neg, mag, 0, false, fmtOf(dst), toRMode(r));
        return finishFloatBits(bits, dst, ftz, sat, satfinite, relu);
    }

    const Fmt sf = fmtOf(src);
    if (ftz && src == Type::F32 && isSubnormalBits(srcBits, sf)) srcBits &= signBitOf(sf);
    const bool srcNaN = isNaNBits(srcBits, sf);

    if (dstInt) { // float -> int: always saturating
        if (srcNaN) return (src == Type::F64 || wd == 64) ? (1ull << (wd - 1)) : 0;
        RMode m = r == Round::None ? RMode::TowardZero : toRMode(r);
        const double v = isInfBits(srcBits, sf) ? ((srcBits & signBitOf(sf)) ? -INFINITY : INFINITY)
                                                : decodeToDouble(srcBits, sf);
        const double t = roundIntegral(v, m);
        if (dstSigned) {
            const double lim = std::ldexp(1.0, wd - 1);
            if (t < -lim) return truncBits(uint64_t(1) << (wd - 1), wd);
            if (t >= lim) return maskBits(wd - 1);
            return truncBits(uint64_t(int64_t(t)), wd);
        }
        if (!(t > 0.0)) return 0;
        if (t >= std::ldexp(1.0, wd)) return maskBits(wd);
        return uint64_t(t);
    }

    // float -> float. The common widening and narrowing between f32 and f64 (to nearest, no
    // modifiers) of normal numbers first: exact bit arithmetic, and the host's conversion where its
    // result is a normal f32 (inF32NormalRange: then it is IEEE's rounding, whatever the host's
    // flush-to-zero flags).
    if (!sat && !satfinite && !relu && r != Round::RNI && r != Round::RZI && r != Round::RMI && r != Round::RPI) {
        if (src == Type::F32 && dst == Type::F64) {
            const uint64_t e = (srcBits >> 23) & 0xff;
            if (e != 0 && e != 0xff)
                return (srcBits & 0x80000000u) << 32 | (e - 127 + 1023) << 52 | (srcBits & 0x7fffffu) << 29;
        } else if (src == Type::F64 && dst == Type::F32 && toRMode(r) == RMode::NearestEven) {
            const double d = f64FromBits(srcBits);
            if (inF32NormalRange(d)) return toBits(float(d));   // a normal result: .ftz changes nothing
        }
    }
    const Fmt df = fmtOf(dst);
    const bool intRound = r == Round::RNI || r == Round::RZI || r == Round::RMI || r == Round::RPI;
    uint64_t bits;
    if (srcNaN) {
        if (dst == Type::F32) {
            // Measured on an H100 (tests/golden/conversions): cvt.f32.f16 of any NaN gives the
            // canonical 0x7FFFFFFF, like every other f32 result.
            bits = canonicalNaNBits(df);
        } else if (df.fracBits > sf.fracBits && df.expBits >= sf.expBits && !intRound) {
            // widening to f64 keeps the payload (IEEE style), quiet bit set
            const uint64_t frac = (srcBits & fracMaskOf(sf)) << (df.fracBits - sf.fracBits);
            bits = ((srcBits & signBitOf(sf)) ? signBitOf(df) : 0) | infBitsOf(df) | frac |
                   (1ull << (df.fracBits - 1));
        } else if (src == Type::F64 && dst == Type::F64) {
            bits = srcBits | (1ull << 51);
        } else {
            bits = canonicalNaNBits(df);
        }
    } else if (isInfBits(srcBits, sf)) {
        bits = ((srcBits & signBitOf(sf)) ? signBitOf(df) : 0) | infBitsOf(df);
    } else if (intRound) {
        const double t = roundIntegral(decodeToDouble(srcBits, sf), toRMode(r));
        bits = roundDoubleRes(t, 0, df, RMode::NearestEven);
    } else {
        const Unpacked u = unpackFinite(srcBits, sf);
        bits = roundPack(u.neg, u.sig, u.exp, false, df, toRMode(r));
    }
    return finishFloatBits(bits, dst, ftz, sat, satfinite, relu);
}

float f16ToF32(uint16_t h) { return f32FromBits(uint32_t(convert(h, Type::F32, Type::F16, Round::RN, false, false))); }
uint16_t f32ToF16(float f, Round r, bool satfinite) {
    return uint16_t(convert(toBits(f), Type::F16, Type::F32, r, false, false, satfinite));
}
uint32_t f32ToTf32(uint32_t bits, Round r, bool satfinite) {
    const uint32_t sign = bits & 0x80000000u, mag = bits & 0x7fffffffu;
    const uint32_t maxFinite = 0x7f7fe000u;
    if (mag > 0x7f800000u) return kCanonicalNaNF32;
    if (mag == 0x7f800000u) return satfinite ? (sign | maxFinite) : bits;
    uint32_t out = mag & 0xffffe000u;
    const uint32_t rest = mag & 0x1fffu;
    if (r == Round::RNA) {
        if (rest >= 0x1000u) out += 0x2000u;
    } else if (r == Round::RN) {
        if (rest > 0x1000u || (rest == 0x1000u && (out & 0x2000u))) out += 0x2000u;
    }
    if (out >= 0x7f800000u) out = satfinite ? maxFinite : 0x7f800000u;
    return sign | out;
}

float bf16ToF32(uint16_t h) { return f32FromBits(uint32_t(h) << 16); }
uint16_t f32ToBF16(float f, Round r, bool satfinite) {
    return uint16_t(convert(toBits(f), Type::BF16, Type::F32, r, false, false, satfinite));
}

namespace {
enum class HOp { Add, Mul, Fma };
// add/mul/fma of one 16-bit format (f16 or bf16): operands widened exactly to double, the
// result rounded once. bf16 sums of exponents more than 45 apart lose their sticky bits in the
// double (only directed rounding could see it; .rn cannot).
uint16_t halfOp(const Fmt& F, HOp op, uint16_t a, uint16_t b, uint16_t c, Round r, bool ftz, bool sat) {
    const uint16_t canonicalNaN = F.expBits == 5 ? kCanonicalNaNF16 : kCanonicalNaNBF16;
    const uint16_t posInf = uint16_t(((1u << F.expBits) - 1) << F.fracBits), negInf = uint16_t(posInf | 0x8000u);
    const uint16_t one = uint16_t(uint32_t(biasOf(F)) << F.fracBits);
    auto flush = [&](uint16_t h) -> uint16_t {
        return (ftz && isSubnormalBits(h, F)) ? uint16_t(h & 0x8000) : h;
    };
    a = flush(a);
    b = flush(b);
    c = flush(c);
    uint64_t bits;
    const bool anyNaN = isNaNBits(a, F) || isNaNBits(b, F) || (op == HOp::Fma && isNaNBits(c, F));
    const RMode m = toRMode(r);
    if (anyNaN) {
        bits = canonicalNaN;
    } else {
        auto dec = [&](uint16_t h) { return F.expBits == 5 ? double(f16ToF32(h)) : double(bf16ToF32(h)); };   // exact, infinities too
        const double da = dec(a), db = dec(b), dc = dec(c);
        double s;
        switch (op) {
        case HOp::Add: s = da + db; break; // exact: f16 values span < 2^41
        case HOp::Mul: s = da * db; break; // exact: 22-bit product
        default: s = 0.0; break;
        }
        if (op == HOp::Fma) {
            if (std::isinf(da) || std::isinf(db) || std::isinf(dc)) {
                const double t = da * db + dc; // inf/NaN arithmetic only: exact
                bits = std::isnan(t) ? canonicalNaN : (t < 0 ? negInf : posInf);
            } else {
                bits = fmaFinite(da, db, dc, F, m);
            }
        } else if (std::isnan(s)) {
            bits = canonicalNaN;
        } else if (std::isinf(s)) {
            bits = s < 0 ? negInf : posInf;
        } else if (op == HOp::Add && s == 0.0) {
            const bool bothZero = da == 0.0 && db == 0.0;
            bits = zeroSumNegative(std::signbit(da), std::signbit(db), bothZero, m) ? 0x8000 : 0;
        } else {
            bits = roundDoubleRes(s, 0, F, m);
        }
    }
    if (ftz && isSubnormalBits(bits, F)) bits &= 0x8000;
    if (sat) {
        if (isNaNBits(bits, F) || (bits & 0x8000)) bits = 0;
        else if (bits > one) bits = one;
    }
    return uint16_t(bits);
}
uint16_t f16Op(HOp op, uint16_t a, uint16_t b, uint16_t c, Round r, bool ftz, bool sat) { return halfOp(kF16, op, a, b, c, r, ftz, sat); }
} // namespace

uint16_t addF16(uint16_t a, uint16_t b, Round r, bool ftz, bool sat) { return f16Op(HOp::Add, a, b, 0, r, ftz, sat); }
uint16_t addBF16(uint16_t a, uint16_t b, Round r) { return halfOp(kBF16, HOp::Add, a, b, 0, r, false, false); }
uint16_t subBF16(uint16_t a, uint16_t b, Round r) { return halfOp(kBF16, HOp::Add, a, uint16_t(b ^ 0x8000), 0, r, false, false); }
uint16_t mulBF16(uint16_t a, uint16_t b, Round r) { return halfOp(kBF16, HOp::Mul, a, b, 0, r, false, false); }
uint16_t fmaBF16(uint16_t a, uint16_t b, uint16_t c, Round r, bool relu) {
    uint16_t v = halfOp(kBF16, HOp::Fma, a, b, c, r, false, false);
    if (relu && (v & 0x8000u)) v = (v & 0x7fffu) > 0x7f80u ? kCanonicalNaNBF16 : 0;
    return v;
}
uint16_t subF16(uint16_t a, uint16_t b, Round r, bool ftz, bool sat) {
    return f16Op(HOp::Add, a, uint16_t(b ^ 0x8000), 0, r, ftz, sat);
}
uint16_t mulF16(uint16_t a, uint16_t b, Round r, bool ftz, bool sat) { return f16Op(HOp::Mul, a, b, 0, r, ftz, sat); }
uint16_t fmaF16(uint16_t a, uint16_t b, uint16_t c, Round r, bool ftz, bool sat) {
    return f16Op(HOp::Fma, a, b, c, r, ftz, sat);
}

// =================================================================================================
// Integer
// =================================================================================================
uint32_t mul24(uint32_t a, uint32_t b, bool hi, bool isSigned) {
    int64_t p;
    if (isSigned) p = signExtend(a, 24) * signExtend(b, 24);
    else p = int64_t(uint64_t(a & 0xFFFFFFu) * uint64_t(b & 0xFFFFFFu));
    return hi ? uint32_t(uint64_t(p) >> 16) : uint32_t(uint64_t(p));
}

uint32_t mad24(uint32_t a, uint32_t b, uint32_t c, bool hi, bool isSigned, bool sat) {
    const uint32_t t = mul24(a, b, hi, isSigned);
    if (sat && hi && isSigned) {
        const int64_t s = int64_t(int32_t(t)) + int64_t(int32_t(c));
        return uint32_t(int32_t(std::clamp<int64_t>(s, INT32_MIN, INT32_MAX)));
    }
    return t + c;
}

namespace {
// Division by zero: see the header ("unspecified, machine-specific value" in PTX).
inline uint64_t divByZeroValue(uint64_t a, int bits) {
    if (bits <= 32) return maskBits(bits);
    return (a >> 32) == 0 ? 0xFFFFFFFFull : ~0ull;
}
} // namespace

uint64_t divInt(uint64_t a, uint64_t b, int bits, bool isSigned) {
    a = truncBits(a, bits);
    b = truncBits(b, bits);
    if (b == 0) return divByZeroValue(a, bits);
    if (isSigned) {
        const int64_t sa = signExtend(a, bits), sb = signExtend(b, bits);
        if (sb == -1) return negInt(a, bits); // INT_MIN / -1 wraps to INT_MIN
        return truncBits(uint64_t(sa / sb), bits);
    }
    return a / b;
}

uint64_t remInt(uint64_t a, uint64_t b, int bits, bool isSigned) {
    a = truncBits(a, bits);
    b = truncBits(b, bits);
    if (b == 0) return divByZeroValue(a, bits);
    if (isSigned) {
        const int64_t sa = signExtend(a, bits), sb = signExtend(b, bits);
        if (sb == -1) return 0;
        return truncBits(uint64_t(sa % sb), bits); // sign follows the dividend (C semantics)
    }
    return a % b;
}

uint64_t bfe(uint64_t a, uint32_t pos, uint32_t len, int bits, bool isSigned) {
    const uint32_t msb = uint32_t(bits - 1);
    pos &= 0xFF;
    len &= 0xFF;
    a = truncBits(a, bits);
    bool sbit = false;
    if (isSigned && len != 0) sbit = (a >> std::min(pos + len - 1, msb)) & 1;
    uint64_t field = 0;
    uint32_t n = 0; // number of bits taken from a
    if (pos <= msb) {
        n = std::min(len, uint32_t(bits) - pos);
        field = (a >> pos) & maskBits(int(n));
    }
    if (sbit) field |= ~maskBits(int(n));
    return truncBits(field, bits);
}

uint64_t bfi(uint64_t a, uint64_t b, uint32_t pos, uint32_t len, int bits) {
    pos &= 0xFF;
    len &= 0xFF;
    uint64_t f = b;
    if (pos < uint32_t(bits) && len != 0) {
        const uint32_t n = std::min(len, uint32_t(bits) - pos);
        const uint64_t m = maskBits(int(n)) << pos;
        f = (b & ~m) | ((a << pos) & m);
    }
    return truncBits(f, bits);
}

uint32_t fns(uint32_t mask, uint32_t base, int32_t offset) {
    if (base > 31) return 0xFFFFFFFFu; // undefined in PTX; report "not found"
    if (offset == 0) return ((mask >> base) & 1) ? base : 0xFFFFFFFFu;
    int64_t count = (offset > 0 ? int64_t(offset) : -int64_t(offset)) - 1;
    const int inc = offset > 0 ? 1 : -1;
    for (int pos = int(base); pos >= 0 && pos < 32; pos += inc) {
        if ((mask >> pos) & 1) {
            if (count == 0) return uint32_t(pos);
            --count;
        }
    }
    return 0xFFFFFFFFu;
}

uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, PrmtMode mode) {
    const uint64_t tmp = (uint64_t(b) << 32) | a;
    auto byteAt = [&](uint32_t i) { return uint32_t(tmp >> (8 * (i & 7))) & 0xFFu; };
    uint32_t d = 0;
    if (mode == PrmtMode::Default) {
        for (int i = 0; i < 4; ++i) {
            const uint32_t sel = (c >> (4 * i)) & 0xF;
            uint32_t v = byteAt(sel & 7);
            if (sel & 8) v = (v & 0x80) ? 0xFF : 0x00; // replicate the sign bit of the byte
            d |= v << (8 * i);
        }
        return d;
    }
    // Byte indices for result bytes d.b0..d.b3, per mode and selector c[1:0] (PTX prmt table).
    static constexpr uint8_t kTable[6][4][4] = {
        /* f4e  */ {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},
        /* b4e  */ {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
        /* rc8  */ {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
        /* ecl  */ {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
        /* ecr  */ {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},
        /* rc16 */ {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},
    };
    const auto& row = kTable[static_cast<int>(mode) - 1][c & 3];
    for (int i = 0; i < 4; ++i) d |= byteAt(row[i]) << (8 * i);
    return d;
}

} // namespace warpscope::sim::arith
