// Tests for engine/sim/arith: directed cases with known IEEE/hardware answers (hex bit patterns)
// and randomized cross-checks against references computed a different way: the defining property
// of each rounding mode checked with exact big-integer arithmetic on significands, and the host's
// own IEEE float/double arithmetic for round-to-nearest.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <cstdio>

#include "sim/arith.hpp"
#include "sim/ops.hpp"

using namespace warpscope::sim::arith;
namespace ops = warpscope::sim::ops;
using warpscope::ptx::Round;
using warpscope::ptx::Type;

namespace {

using u128 = unsigned __int128;

float F(uint32_t b) { return f32FromBits(b); }
double D(uint64_t b) { return f64FromBits(b); }
uint32_t B(float f) { return toBits(f); }
uint64_t B(double d) { return toBits(d); }

constexpr Round kModes[] = {Round::RN, Round::RZ, Round::RM, Round::RP};

// ------------------------------------------------------------------------------------------------
// Exact reference machinery
// ------------------------------------------------------------------------------------------------
// Two's-complement fixed-point integer wide enough for every product used below:
// value = raw * 2^-kOffset.
constexpr int kLimbs = 72;    // 4608 bits
constexpr int kOffset = 2300; // covers exponents down to -2300 (f64 subnormal products)
struct Big {
    std::array<uint64_t, kLimbs> w{};
};
Big bigAdd(const Big& a, const Big& b) {
    Big r;
    unsigned carry = 0;
    for (int i = 0; i < kLimbs; ++i) {
        u128 s = (u128)a.w[i] + b.w[i] + carry;
        r.w[i] = uint64_t(s);
        carry = unsigned(s >> 64);
    }
    return r;
}
Big bigNeg(const Big& a) {
    Big r;
    unsigned carry = 1;
    for (int i = 0; i < kLimbs; ++i) {
        u128 s = (u128)(~a.w[i]) + carry;
        r.w[i] = uint64_t(s);
        carry = unsigned(s >> 64);
    }
    return r;
}
int bigSign(const Big& a) {
    if (a.w[kLimbs - 1] >> 63) return -1;
    for (auto x : a.w)
        if (x) return 1;
    return 0;
}

// Exact dyadic rational: (-1)^neg * sig * 2^exp.
struct Dy {
    bool neg = false;
    u128 sig = 0;
    int exp = 0;
};
Big toBig(const Dy& d) {
    Big r;
    if (d.sig == 0) return r;
    int p = d.exp + kOffset;
    REQUIRE(p >= 0);
    int limb = p / 64, bit = p % 64;
    u128 lo = d.sig << bit;
    u128 hi = bit ? (d.sig >> (128 - bit)) : 0;
    REQUIRE(limb + 3 < kLimbs);
    r.w[limb] = uint64_t(lo);
    r.w[limb + 1] = uint64_t(lo >> 64);
    r.w[limb + 2] = uint64_t(hi);
    return d.neg ? bigNeg(r) : r;
}
Dy dmul(const Dy& a, const Dy& b) {
    if (a.sig) REQUIRE(b.sig <= (~u128(0)) / a.sig);
    return {a.neg != b.neg, a.sig * b.sig, a.exp + b.exp};
}
// a + b for values whose exponents are close (adjacent floats, or one of them zero).
Dy dadd(Dy a, Dy b) {
    if (a.sig == 0) return b;
    if (b.sig == 0) return a;
    int e = std::min(a.exp, b.exp);
    REQUIRE(a.exp - e < 8);
    REQUIRE(b.exp - e < 8);
    __int128 x = (__int128)(a.sig << (a.exp - e)) * (a.neg ? -1 : 1);
    __int128 y = (__int128)(b.sig << (b.exp - e)) * (b.neg ? -1 : 1);
    __int128 s = x + y;
    return {s < 0, u128(s < 0 ? -s : s), e};
}
Dy dhalf(Dy a) { return {a.neg, a.sig, a.exp - 1}; }

// Test-side description of a binary format (independent of the implementation's).
struct Fm {
    int frac;
    int ex;
};
constexpr Fm kH{10, 5}, kBH{7, 8}, kS{23, 8}, kDd{52, 11};
uint64_t signOf(Fm f) { return 1ull << (f.frac + f.ex); }
uint64_t infOf(Fm f) { return ((1ull << f.ex) - 1) << f.frac; }
bool isNaNb(uint64_t b, Fm f) { return (b & (signOf(f) - 1)) > infOf(f); }
bool isInfb(uint64_t b, Fm f) { return (b & (signOf(f) - 1)) == infOf(f); }
Dy dyOf(uint64_t b, Fm f) { // finite only
    int bias = (1 << (f.ex - 1)) - 1;
    uint64_t field = (b >> f.frac) & ((1ull << f.ex) - 1);
    uint64_t frac = b & ((1ull << f.frac) - 1);
    bool neg = (b & signOf(f)) != 0;
    if (field == 0) return {neg, frac, 1 - bias - f.frac};
    return {neg, frac | (1ull << f.frac), int(field) - bias - f.frac};
}
// Order-preserving integer view of an encoding (both zeros -> 0).
int64_t ordOf(uint64_t b, Fm f) {
    uint64_t mag = b & (signOf(f) - 1);
    return (b & signOf(f)) ? -int64_t(mag) : int64_t(mag);
}
uint64_t fromOrd(int64_t o, Fm f) { return o < 0 ? (uint64_t(-o) | signOf(f)) : uint64_t(o); }

// Checks that encoding r is exact value X rounded with mode m, where cmpX(y) = sign(X - y).
template <class Cmp> bool checkRounded(uint64_t r, Fm f, Round m, Cmp cmpX) {
    if (isNaNb(r, f)) return false;
    const uint64_t maxB = infOf(f) - 1;
    const Dy maxV = dyOf(maxB, f);
    const Dy overflowMid = {false, maxV.sig * 2 + 1, maxV.exp - 1}; // MAX + ulp/2
    if (isInfb(r, f)) {
        bool neg = (r & signOf(f)) != 0;
        Dy mx = maxV, om = overflowMid;
        mx.neg = om.neg = neg;
        int s = neg ? -1 : 1;
        switch (m) {
        case Round::RN: return cmpX(om) * s >= 0;
        case Round::RP: return !neg && cmpX(mx) > 0;
        case Round::RM: return neg && cmpX(mx) < 0;
        default: return false;
        }
    }
    const int64_t o = ordOf(r, f);
    const Dy rv = dyOf(r, f);
    std::optional<Dy> lo, hi;
    if (fromOrd(o - 1, f) != (infOf(f) | signOf(f))) lo = dyOf(fromOrd(o - 1, f), f);
    if (fromOrd(o + 1, f) != infOf(f)) hi = dyOf(fromOrd(o + 1, f), f);
    switch (m) {
    case Round::RM: return cmpX(rv) >= 0 && (!hi || cmpX(*hi) < 0);
    case Round::RP: return cmpX(rv) <= 0 && (!lo || cmpX(*lo) > 0);
    case Round::RZ: {
        Dy zero{};
        if (cmpX(zero) >= 0) return cmpX(rv) >= 0 && (!hi || cmpX(*hi) < 0) && !(r & signOf(f) && rv.sig);
        return cmpX(rv) <= 0 && (!lo || cmpX(*lo) > 0) && !(!(r & signOf(f)) && rv.sig);
    }
    default: {
        Dy midLo = lo ? dhalf(dadd(*lo, rv)) : Dy{};
        Dy midHi = hi ? dhalf(dadd(rv, *hi)) : Dy{};
        if (!hi) midHi = overflowMid;
        if (!lo) midLo = {true, overflowMid.sig, overflowMid.exp};
        const bool even = (std::llabs(o) & 1) == 0;
        int cl = cmpX(midLo), ch = cmpX(midHi);
        if (cl < 0 || ch > 0) return false;
        if ((cl == 0 || ch == 0) && !even) return false;
        return true;
    }
    }
}

// Random values -------------------------------------------------------------------------------
std::mt19937_64 rng(12345);
uint64_t rnd() { return rng(); }
int rndInt(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

// Random finite f32 with exponent field in [eLo, eHi] (0 = subnormal); random sign/mantissa, with a
// bias towards short mantissas so that exact ties and exact results occur often.
uint32_t rndF32Bits(int eLo = 0, int eHi = 254) {
    uint32_t mant = uint32_t(rnd()) & 0x7FFFFF;
    if (rndInt(0, 3) == 0) mant &= ~((1u << rndInt(0, 23)) - 1);
    uint32_t e = uint32_t(rndInt(eLo, eHi));
    uint32_t s = uint32_t(rnd() & 1) << 31;
    return s | (e << 23) | mant;
}
uint64_t rndF64Bits(int eLo = 0, int eHi = 2046) {
    uint64_t mant = rnd() & 0xFFFFFFFFFFFFFull;
    if (rndInt(0, 3) == 0) mant &= ~((1ull << rndInt(0, 52)) - 1);
    uint64_t e = uint64_t(rndInt(eLo, eHi));
    uint64_t s = (rnd() & 1) << 63;
    return s | (e << 52) | mant;
}

Big bigOf(uint64_t b, Fm f) { return toBig(dyOf(b, f)); }

} // namespace

// =================================================================================================
// Directed tests: f32
// =================================================================================================
TEST_CASE("f32 add: rounding modes, ties, signed zeros", "[arith][f32]") {
    const float one = 1.0f, tie = F(0x33800000); // 2^-24: exactly half an ulp of 1.0
    CHECK(B(addF32(one, tie, Round::RN)) == 0x3F800000u); // tie to even
    CHECK(B(addF32(one, tie, Round::RZ)) == 0x3F800000u);
    CHECK(B(addF32(one, tie, Round::RM)) == 0x3F800000u);
    CHECK(B(addF32(one, tie, Round::RP)) == 0x3F800001u);
    CHECK(B(addF32(F(0x3F800001), tie, Round::RN)) == 0x3F800002u); // tie to even (up)
    const float tiny = F(0x33000000); // 2^-25
    CHECK(B(addF32(one, -tiny, Round::RN)) == 0x3F800000u);
    CHECK(B(addF32(one, -tiny, Round::RZ)) == 0x3F7FFFFFu);
    CHECK(B(addF32(one, -tiny, Round::RM)) == 0x3F7FFFFFu);
    CHECK(B(addF32(one, -tiny, Round::RP)) == 0x3F800000u);
    CHECK(B(addF32(-one, tiny, Round::RZ)) == 0xBF7FFFFFu);
    CHECK(B(addF32(-one, tiny, Round::RP)) == 0xBF7FFFFFu);
    CHECK(B(addF32(-one, tiny, Round::RM)) == 0xBF800000u);
    // Far-apart operands: the exact sum is not representable in a double.
    CHECK(B(addF32(one, F(0x00000001), Round::RP)) == 0x3F800001u);
    CHECK(B(addF32(one, F(0x80000001), Round::RZ)) == 0x3F7FFFFFu);
    CHECK(B(addF32(one, F(0x80000001), Round::RN)) == 0x3F800000u);
    // x + (-x): +0, except -0 when rounding toward -inf.
    CHECK(B(addF32(1.5f, -1.5f, Round::RN)) == 0x00000000u);
    CHECK(B(addF32(1.5f, -1.5f, Round::RZ)) == 0x00000000u);
    CHECK(B(addF32(1.5f, -1.5f, Round::RP)) == 0x00000000u);
    CHECK(B(addF32(1.5f, -1.5f, Round::RM)) == 0x80000000u);
    CHECK(B(addF32(-0.0f, -0.0f, Round::RN)) == 0x80000000u);
    CHECK(B(addF32(0.0f, -0.0f, Round::RN)) == 0x00000000u);
    CHECK(B(addF32(0.0f, -0.0f, Round::RM)) == 0x80000000u);
    CHECK(B(addF32(0.0f, 0.0f, Round::RM)) == 0x00000000u);
    CHECK(B(subF32(1.0f, 1.0f, Round::RM)) == 0x80000000u);
    CHECK(B(subF32(3.0f, 1.0f)) == B(2.0f));
}

TEST_CASE("f32 overflow and underflow per rounding mode", "[arith][f32]") {
    const float mx = F(0x7F7FFFFF);
    CHECK(B(mulF32(mx, 2.0f, Round::RN)) == 0x7F800000u);
    CHECK(B(mulF32(mx, 2.0f, Round::RZ)) == 0x7F7FFFFFu);
    CHECK(B(mulF32(mx, 2.0f, Round::RM)) == 0x7F7FFFFFu);
    CHECK(B(mulF32(mx, 2.0f, Round::RP)) == 0x7F800000u);
    CHECK(B(mulF32(-mx, 2.0f, Round::RZ)) == 0xFF7FFFFFu);
    CHECK(B(mulF32(-mx, 2.0f, Round::RM)) == 0xFF800000u);
    CHECK(B(mulF32(-mx, 2.0f, Round::RP)) == 0xFF7FFFFFu);
    CHECK(B(addF32(mx, F(0x73000000), Round::RN)) == 0x7F800000u); // MAX + ulp/2 ties to even -> inf
    CHECK(B(addF32(mx, F(0x72800000), Round::RN)) == 0x7F7FFFFFu); // MAX + ulp/4
    CHECK(B(addF32(mx, F(0x72800000), Round::RP)) == 0x7F800000u);
    const float small = F(0x0D800000); // 2^-100
    CHECK(B(mulF32(small, small, Round::RN)) == 0x00000000u);
    CHECK(B(mulF32(small, small, Round::RZ)) == 0x00000000u);
    CHECK(B(mulF32(small, small, Round::RM)) == 0x00000000u);
    CHECK(B(mulF32(small, small, Round::RP)) == 0x00000001u);
    CHECK(B(mulF32(-small, small, Round::RM)) == 0x80000001u);
    CHECK(B(mulF32(-small, small, Round::RN)) == 0x80000000u);
    CHECK(B(mulF32(F(0x00000001), 0.5f, Round::RN)) == 0x00000000u); // tie -> even (0)
    CHECK(B(mulF32(F(0x00000003), 0.5f, Round::RN)) == 0x00000002u); // 1.5 ulp -> 2
    CHECK(B(mulF32(F(0x00800000), 0.5f, Round::RN)) == 0x00400000u); // exact subnormal
}

TEST_CASE("f32 ftz, sat and NaN results", "[arith][f32]") {
    const float sub = F(0x00400000), nsub = F(0x80400000);
    CHECK(B(mulF32(sub, 1.0f)) == 0x00400000u);
    CHECK(B(mulF32(sub, 1.0f, Round::RN, true)) == 0x00000000u);
    CHECK(B(addF32(nsub, 0.0f, Round::RN, true)) == 0x00000000u); // -0 + +0 = +0
    CHECK(B(mulF32(nsub, 1.0f, Round::RN, true)) == 0x80000000u);
    CHECK(B(mulF32(F(0x0D800000), F(0x30800000), Round::RN, true)) == 0x00000000u); // 2^-130 flushed
    CHECK(B(mulF32(F(0x0D800000), F(0x30800000), Round::RN, false)) == 0x00080000u);
    CHECK(B(addF32(0.75f, 0.5f, Round::RN, false, true)) == B(1.0f));
    CHECK(B(addF32(-1.0f, 0.5f, Round::RN, false, true)) == 0x00000000u);
    CHECK(B(mulF32(-0.0f, 1.0f, Round::RN, false, true)) == 0x00000000u);
    CHECK(B(addF32(0.25f, 0.5f, Round::RN, false, true)) == B(0.75f));
    const float inf = std::numeric_limits<float>::infinity();
    CHECK(B(addF32(inf, -inf, Round::RN, false, true)) == 0x00000000u); // NaN -> +0 under .sat
    CHECK(B(addF32(inf, -inf)) == kCanonicalNaNF32);
    CHECK(B(mulF32(0.0f, inf)) == kCanonicalNaNF32);
    CHECK(B(addF32(F(0x7FC00001), 1.0f)) == kCanonicalNaNF32);
    CHECK(B(addF32(F(0xFF800001), 1.0f)) == kCanonicalNaNF32);
    CHECK(B(fmaF32(inf, 0.0f, 1.0f)) == kCanonicalNaNF32);
    CHECK(B(fmaF32(inf, 1.0f, -inf)) == kCanonicalNaNF32);
    CHECK(B(fmaF32(inf, -1.0f, 1.0f)) == 0xFF800000u);
    CHECK(B(fmaF32(2.0f, 3.0f, 1.0f, Round::RN, false, true)) == B(1.0f));
    CHECK(B(sqrtF32(-1.0f)) == kCanonicalNaNF32);
    CHECK(B(sqrtF32(-0.0f)) == 0x80000000u);
    CHECK(B(divF32(0.0f, 0.0f)) == kCanonicalNaNF32);
    CHECK(B(divF32(inf, inf)) == kCanonicalNaNF32);
    CHECK(B(divF32(1.0f, -0.0f)) == 0xFF800000u);
    CHECK(B(divF32(-1.0f, inf)) == 0x80000000u);
    CHECK(B(absF32(F(0xFFC00001))) == kCanonicalNaNF32);
    CHECK(B(negF32(F(0x7FC00000))) == kCanonicalNaNF32);
    CHECK(B(negF32(0.0f)) == 0x80000000u);
    CHECK(B(absF32(-0.0f)) == 0x00000000u);
    CHECK(B(absF32(nsub, true)) == 0x00000000u);
    CHECK(B(copysignF32(-1.0f, 2.0f)) == B(-2.0f));
    CHECK(B(copysignF32(1.0f, F(0xFFC00001))) == 0x7FC00001u);
}

TEST_CASE("f32 fma single rounding (double rounding trap)", "[arith][f32]") {
    // exact = 1 + 2^-24 + 2^-70: just above the midpoint between 1 and 1+2^-23. A double fma
    // followed by a float conversion would round to the midpoint and then to even (1.0).
    const float a = F(0x3F800001), b = F(0xB37FFFFE), c = F(0x3F800001);
    CHECK(B(fmaF32(a, b, c, Round::RN)) == 0x3F800001u);
    CHECK(B(fmaF32(a, b, c, Round::RZ)) == 0x3F800000u);
    CHECK(B(fmaF32(a, b, c, Round::RM)) == 0x3F800000u);
    CHECK(B(fmaF32(a, b, c, Round::RP)) == 0x3F800001u);
    CHECK(B(fmaF32(2.0f, 3.0f, -6.0f, Round::RM)) == 0x80000000u);
    CHECK(B(fmaF32(2.0f, 3.0f, -6.0f, Round::RN)) == 0x00000000u);
    CHECK(B(fmaF32(0.0f, -3.0f, 0.0f, Round::RN)) == 0x00000000u);
    CHECK(B(fmaF32(-0.0f, 3.0f, -0.0f, Round::RN)) == 0x80000000u);
    CHECK(B(fmaF32(F(0x1F800000), F(0x1F800000), 0.0f, Round::RP)) == 0x00200000u); // 2^-128 exact
    CHECK(B(fmaF32(F(0x1F800000), F(0x0A800000), 0.0f, Round::RP)) == 0x00000001u); // 2^-170: tiny
    CHECK(B(fmaF32(F(0x1F800000), F(0x0A800000), -0.0f, Round::RN)) == 0x00000000u);
}

TEST_CASE("f32 div/sqrt/rcp directed rounding", "[arith][f32]") {
    CHECK(B(divF32(1.0f, 3.0f, Round::RN)) == 0x3EAAAAABu);
    CHECK(B(divF32(1.0f, 3.0f, Round::RZ)) == 0x3EAAAAAAu);
    CHECK(B(divF32(1.0f, 3.0f, Round::RM)) == 0x3EAAAAAAu);
    CHECK(B(divF32(1.0f, 3.0f, Round::RP)) == 0x3EAAAAABu);
    CHECK(B(divF32(-1.0f, 3.0f, Round::RM)) == 0xBEAAAAABu);
    CHECK(B(divF32(-1.0f, 3.0f, Round::RZ)) == 0xBEAAAAAAu);
    CHECK(B(rcpF32(3.0f, Round::RN)) == 0x3EAAAAABu);
    CHECK(B(rcpF32(3.0f, Round::RZ)) == 0x3EAAAAAAu);
    CHECK(B(sqrtF32(2.0f, Round::RN)) == 0x3FB504F3u);
    CHECK(B(sqrtF32(2.0f, Round::RZ)) == 0x3FB504F3u);
    CHECK(B(sqrtF32(2.0f, Round::RM)) == 0x3FB504F3u);
    CHECK(B(sqrtF32(2.0f, Round::RP)) == 0x3FB504F4u);
    CHECK(B(sqrtF32(4.0f, Round::RP)) == B(2.0f));
    CHECK(B(divF32(6.0f, 3.0f, Round::RP)) == B(2.0f));
    CHECK(B(divF32(F(0x00000001), 2.0f, Round::RN)) == 0x00000000u);
    CHECK(B(divF32(F(0x00000001), 2.0f, Round::RP)) == 0x00000001u);
    CHECK(B(divF32(F(0x7F7FFFFF), 0.5f, Round::RZ)) == 0x7F7FFFFFu);
    CHECK(B(divF32(F(0x7F7FFFFF), 0.5f, Round::RN)) == 0x7F800000u);
}

TEST_CASE("f32/f64 min, max, testp", "[arith][f32][f64]") {
    CHECK(B(minF32(-0.0f, 0.0f)) == 0x80000000u);
    CHECK(B(minF32(0.0f, -0.0f)) == 0x80000000u);
    CHECK(B(maxF32(-0.0f, 0.0f)) == 0x00000000u);
    CHECK(B(maxF32(0.0f, -0.0f)) == 0x00000000u);
    CHECK(B(minF32(F(0x7FC00001), 2.0f)) == B(2.0f));
    CHECK(B(maxF32(-3.0f, F(0xFFC00000))) == B(-3.0f));
    CHECK(B(minF32(F(0x7FC00001), F(0x7FC00002))) == kCanonicalNaNF32);
    CHECK(B(minF32(1.0f, F(0x7FC00001), false, true)) == kCanonicalNaNF32);
    CHECK(B(maxF32(1.0f, 2.0f, false, true)) == B(2.0f));
    CHECK(B(minF32(F(0x00000005), F(0x80000003), true)) == 0x80000000u);
    CHECK(B(minF64(-0.0, 0.0)) == 0x8000000000000000ull);
    CHECK(B(maxF64(-0.0, 0.0)) == 0);
    CHECK(B(maxF64(D(0x7FF8000000000001ull), 1.0)) == B(1.0));
    CHECK(B(maxF64(D(0x7FF8000000000001ull), D(0x7FF8000000000001ull))) == 0x7FF8000000000001ull);   // first NaN, as the H100 does
    CHECK(testpF32(TestpOp::Normal, 0.0f));
    CHECK(testpF32(TestpOp::Normal, -0.0f));
    CHECK(!testpF32(TestpOp::Subnormal, 0.0f));
    CHECK(testpF32(TestpOp::Subnormal, F(0x80000001)));
    CHECK(!testpF32(TestpOp::Normal, F(0x80000001)));
    CHECK(testpF32(TestpOp::Infinite, F(0xFF800000)));
    CHECK(!testpF32(TestpOp::Finite, F(0xFF800000)));
    CHECK(testpF32(TestpOp::NotANumber, F(0x7F800001)));
    CHECK(!testpF32(TestpOp::Number, F(0x7F800001)));
    CHECK(!testpF32(TestpOp::Normal, F(0x7F800001)));
    CHECK(testpF32(TestpOp::Finite, F(0x7F7FFFFF)));
    CHECK(testpF64(TestpOp::Subnormal, D(1)));
    CHECK(testpF64(TestpOp::Normal, 0.0));
    CHECK(testpF64(TestpOp::Infinite, -std::numeric_limits<double>::infinity()));
    CHECK(testpF64(TestpOp::NotANumber, D(0x7FF0000000000001ull)));
}

TEST_CASE("comparisons", "[arith][cmp]") {
    const float nan = F(0x7FC00000);
    CHECK(!compareF32(CmpOp::Eq, nan, nan));
    CHECK(!compareF32(CmpOp::Ne, nan, 1.0f)); // ordered ne is false with NaN
    CHECK(compareF32(CmpOp::Neu, nan, 1.0f));
    CHECK(compareF32(CmpOp::Equ, nan, 1.0f));
    CHECK(!compareF32(CmpOp::Lt, nan, 1.0f));
    CHECK(compareF32(CmpOp::Ltu, nan, 1.0f));
    CHECK(compareF32(CmpOp::Geu, 1.0f, nan));
    CHECK(!compareF32(CmpOp::Num, 1.0f, nan));
    CHECK(compareF32(CmpOp::Num, 1.0f, 2.0f));
    CHECK(compareF32(CmpOp::Nan, nan, 2.0f));
    CHECK(!compareF32(CmpOp::Nan, 1.0f, 2.0f));
    CHECK(compareF32(CmpOp::Eq, 0.0f, -0.0f));
    CHECK(compareF32(CmpOp::Ne, 1.0f, 2.0f));
    CHECK(!compareF32(CmpOp::Neu, 1.0f, 1.0f));
    CHECK(compareF32(CmpOp::Le, 1.0f, 1.0f));
    CHECK(compareF32(CmpOp::Gt, 2.0f, 1.0f));
    CHECK(!compareF32(CmpOp::Gtu, 1.0f, 2.0f));
    CHECK(compareF32(CmpOp::Lt, F(0x00000001), F(0x00000002)));
    CHECK(!compareF32(CmpOp::Lt, F(0x00000001), F(0x00000002), true)); // both flush to 0
    CHECK(compareF32(CmpOp::Eq, F(0x00000001), 0.0f, true));
    CHECK(compareF64(CmpOp::Ge, 2.0, 2.0));
    CHECK(!compareF64(CmpOp::Ne, 2.0, D(0x7FF8000000000000ull)));
    CHECK(compareF64(CmpOp::Leu, 3.0, D(0x7FF8000000000000ull)));
    // integers
    CHECK(compareInt(CmpOp::Lt, 0xFFFFFFFF, 1, 32, true));   // -1 < 1
    CHECK(!compareInt(CmpOp::Lt, 0xFFFFFFFF, 1, 32, false)); // 0xFFFFFFFF > 1
    CHECK(!compareInt(CmpOp::Lo, 0xFFFFFFFF, 1, 32, true));  // lo is always unsigned
    CHECK(compareInt(CmpOp::Hi, 0xFFFFFFFF, 1, 32, true));
    CHECK(compareInt(CmpOp::Hs, 5, 5, 32, false));
    CHECK(compareInt(CmpOp::Ls, 5, 5, 32, false));
    CHECK(compareInt(CmpOp::Ge, 0x8000, 0x7FFF, 16, false));
    CHECK(!compareInt(CmpOp::Ge, 0x8000, 0x7FFF, 16, true));
    CHECK(compareInt(CmpOp::Eq, 0x1FF, 0xFF, 8, false)); // high bits ignored
    CHECK(compareInt(CmpOp::Lt, 0x8000000000000000ull, 0, 64, true));
    CHECK(compareInt(CmpOp::Ne, 1, 2, 64, true));
    CHECK(compareInt(CmpOp::Le, 0x80, 0x7F, 8, true));
    CHECK(compareInt(CmpOp::Gt, 0x80, 0x7F, 8, false));
    CHECK(cmpOpFromName(".geu") == CmpOp::Geu);
    CHECK(cmpOpFromName("nan") == CmpOp::Nan);
    CHECK(!cmpOpFromName("xx"));
    CHECK(cmpOpName(CmpOp::Hs) == "hs");
}

// =================================================================================================
// Directed tests: f64
// =================================================================================================
TEST_CASE("f64 arithmetic rounding modes", "[arith][f64]") {
    CHECK(B(divF64(1.0, 3.0, Round::RN)) == 0x3FD5555555555555ull);
    CHECK(B(divF64(1.0, 3.0, Round::RZ)) == 0x3FD5555555555555ull);
    CHECK(B(divF64(1.0, 3.0, Round::RM)) == 0x3FD5555555555555ull);
    CHECK(B(divF64(1.0, 3.0, Round::RP)) == 0x3FD5555555555556ull);
    CHECK(B(divF64(2.0, 3.0, Round::RN)) == 0x3FE5555555555555ull);
    CHECK(B(divF64(2.0, 3.0, Round::RP)) == 0x3FE5555555555556ull);
    CHECK(B(divF64(-2.0, 3.0, Round::RM)) == 0xBFE5555555555556ull);
    CHECK(B(rcpF64(3.0, Round::RP)) == 0x3FD5555555555556ull);
    CHECK(B(addF64(1.0, 0x1p-53, Round::RN)) == 0x3FF0000000000000ull);
    CHECK(B(addF64(1.0, 0x1p-53, Round::RP)) == 0x3FF0000000000001ull);
    CHECK(B(addF64(1.0, -0x1p-80, Round::RZ)) == 0x3FEFFFFFFFFFFFFFull);
    CHECK(B(addF64(1.0, -0x1p-80, Round::RM)) == 0x3FEFFFFFFFFFFFFFull);
    CHECK(B(addF64(1.0, -0x1p-80, Round::RP)) == 0x3FF0000000000000ull);
    CHECK(B(addF64(2.5, -2.5, Round::RM)) == 0x8000000000000000ull);
    CHECK(B(addF64(2.5, -2.5, Round::RZ)) == 0);
    CHECK(B(sqrtF64(2.0, Round::RN)) == 0x3FF6A09E667F3BCDull);
    CHECK(B(sqrtF64(2.0, Round::RZ)) == 0x3FF6A09E667F3BCCull);
    CHECK(B(sqrtF64(2.0, Round::RM)) == 0x3FF6A09E667F3BCCull);
    CHECK(B(sqrtF64(2.0, Round::RP)) == 0x3FF6A09E667F3BCDull);
    CHECK(B(sqrtF64(D(1), Round::RN)) == 0x1E60000000000000ull); // sqrt(2^-1074) = 2^-537
    const double mx = std::numeric_limits<double>::max();
    CHECK(B(mulF64(mx, 2.0, Round::RZ)) == B(mx));
    CHECK(B(mulF64(mx, 2.0, Round::RM)) == B(mx));
    CHECK(B(mulF64(mx, 2.0, Round::RP)) == 0x7FF0000000000000ull);
    CHECK(B(mulF64(-mx, 2.0, Round::RP)) == B(-mx));
    CHECK(B(addF64(mx, mx, Round::RZ)) == B(mx));
    CHECK(B(divF64(mx, 0.5, Round::RM)) == B(mx));
    CHECK(B(mulF64(D(1), 0.5, Round::RN)) == 0);
    CHECK(B(mulF64(D(1), 0.5, Round::RP)) == 1);
    CHECK(B(mulF64(D(1), -0.5, Round::RM)) == 0x8000000000000001ull);
    CHECK(B(mulF64(D(3), 0.5, Round::RZ)) == 1);
    CHECK(B(mulF64(0x1p-600, 0x1p-600, Round::RP)) == 1);
    CHECK(B(mulF64(0x1p-600, -0x1p-600, Round::RZ)) == 0x8000000000000000ull);
    CHECK(B(divF64(D(1), 3.0, Round::RP)) == 1);
    CHECK(B(divF64(D(1), 3.0, Round::RN)) == 0);
    CHECK(B(fmaF64(1.0 + 0x1p-52, 1.0 - 0x1p-53, -1.0, Round::RN)) == B(0x1p-53 - 0x1p-105));
    // (1+2^-52)(1-2^-52) - 1 = -2^-104 exactly
    CHECK(B(fmaF64(1.0 + 0x1p-52, 1.0 - 0x1p-52, -1.0, Round::RZ)) == B(-0x1p-104));
    CHECK(B(fmaF64(1.0 + 0x1p-52, 1.0 - 0x1p-52, 1.0, Round::RZ)) == 0x3FFFFFFFFFFFFFFFull);
    CHECK(B(fmaF64(1.0 + 0x1p-52, 1.0 - 0x1p-52, 1.0, Round::RN)) == B(2.0));
    CHECK(B(fmaF64(1.0 + 0x1p-52, 1.0 - 0x1p-52, 1.0, Round::RP)) == B(2.0));
    CHECK(B(fmaF64(2.0, 3.0, -6.0, Round::RM)) == 0x8000000000000000ull);
    CHECK(B(fmaF64(mx, 2.0, -mx, Round::RZ)) == B(mx));
}

TEST_CASE("f64 NaN rules", "[arith][f64]") {
    const double inf = std::numeric_limits<double>::infinity();
    const double pay = D(0x7FF0000000001234ull); // signaling NaN with payload
    CHECK(B(addF64(pay, 1.0)) == 0x7FF8000000001234ull);
    CHECK(B(addF64(1.0, D(0xFFF8000000000042ull))) == 0xFFF8000000000042ull);
    CHECK(B(mulF64(D(0x7FF8000000000001ull), D(0x7FF8000000000002ull))) == 0x7FF8000000000001ull);
    CHECK(B(fmaF64(1.0, 2.0, D(0x7FF8000000000005ull), Round::RZ)) == 0x7FF8000000000005ull);
    CHECK(B(addF64(inf, -inf)) == kCanonicalNaNF64);
    CHECK(B(mulF64(0.0, inf, Round::RP)) == kCanonicalNaNF64);
    CHECK(B(divF64(0.0, 0.0)) == kCanonicalNaNF64);
    CHECK(B(sqrtF64(-2.0, Round::RM)) == kCanonicalNaNF64);
    CHECK(B(fmaF64(inf, 0.0, 1.0)) == kCanonicalNaNF64);
    CHECK(B(absF64(D(0xFFF8000000000001ull))) == 0xFFF8000000000001ull); // passed through unchanged
    CHECK(B(negF64(D(0x7FF8000000000001ull))) == 0xFFF8000000000001ull);
    CHECK(B(absF64(-2.0)) == B(2.0));
    CHECK(B(copysignF64(-1.0, 3.0)) == B(-3.0));
}

// =================================================================================================
// Approximate functions
// =================================================================================================
TEST_CASE("approximate functions: special values", "[arith][approx]") {
    const float inf = std::numeric_limits<float>::infinity();
    CHECK(B(ex2ApproxF32(-inf)) == 0x00000000u);
    CHECK(B(ex2ApproxF32(inf)) == 0x7F800000u);
    CHECK(B(ex2ApproxF32(-0.0f)) == B(1.0f));
    CHECK(B(ex2ApproxF32(10.0f)) == B(1024.0f));
    CHECK(B(ex2ApproxF32(-149.0f)) == 0x00000001u);
    CHECK(B(ex2ApproxF32(-149.0f, true)) == 0x00000000u);
    CHECK(B(ex2ApproxF32(F(0x00000001), true)) == B(1.0f));
    CHECK(B(ex2ApproxF32(F(0x7FC00000))) == kCanonicalNaNF32);
    CHECK(B(lg2ApproxF32(0.0f)) == 0xFF800000u);
    CHECK(B(lg2ApproxF32(-0.0f)) == 0xFF800000u);
    CHECK(B(lg2ApproxF32(-1.0f)) == kCanonicalNaNF32);
    CHECK(B(lg2ApproxF32(-inf)) == kCanonicalNaNF32);
    CHECK(B(lg2ApproxF32(inf)) == 0x7F800000u);
    CHECK(B(lg2ApproxF32(8.0f)) == B(3.0f));
    CHECK(B(lg2ApproxF32(F(0x00000001))) == B(-149.0f));
    CHECK(B(lg2ApproxF32(F(0x00000001), true)) == 0xFF800000u);
    CHECK(B(sinApproxF32(inf)) == kCanonicalNaNF32);
    CHECK(B(cosApproxF32(-inf)) == kCanonicalNaNF32);
    CHECK(B(sinApproxF32(-0.0f)) == 0x80000000u);
    CHECK(B(cosApproxF32(-0.0f)) == B(1.0f));
    CHECK(B(sinApproxF32(F(0x80000001))) == 0x80000001u);
    CHECK(B(sinApproxF32(F(0x80000001), true)) == 0x80000000u);
    CHECK(B(tanhApproxF32(inf)) == B(1.0f));
    CHECK(B(tanhApproxF32(-inf)) == B(-1.0f));
    CHECK(B(tanhApproxF32(-0.0f)) == 0x80000000u);
    CHECK(B(tanhApproxF32(F(0x00000123))) == 0x00000123u); // subnormals pass through
    CHECK(B(rsqrtApproxF32(-0.0f)) == 0xFF800000u);
    CHECK(B(rsqrtApproxF32(0.0f)) == 0x7F800000u);
    CHECK(B(rsqrtApproxF32(inf)) == 0x00000000u);
    CHECK(B(rsqrtApproxF32(-1.0f)) == kCanonicalNaNF32);
    CHECK(B(rsqrtApproxF32(-inf)) == kCanonicalNaNF32);
    CHECK(B(rsqrtApproxF32(4.0f)) == B(0.5f));
    CHECK(B(sqrtApproxF32(-0.0f)) == 0x80000000u);
    CHECK(B(sqrtApproxF32(-inf)) == kCanonicalNaNF32);
    CHECK(B(rcpApproxF32(-inf)) == 0x80000000u);
    CHECK(B(rcpApproxF32(-0.0f)) == 0xFF800000u);
    CHECK(B(rcpApproxF32(F(0x00000001), true)) == 0x7F800000u);
    CHECK(B(divApproxF32(1.0f, 0x1p127f)) == 0x00000000u);
    CHECK(B(divApproxF32(-1.0f, 0x1p127f)) == 0x80000000u);
    CHECK(B(divApproxF32(inf, 0x1p127f)) == kCanonicalNaNF32);
    CHECK(B(divApproxF32(3.0f, 2.0f)) == B(1.5f));
    CHECK(B(divFullF32(1.0f, 3.0f)) == 0x3EAAAAABu);
    // f64 approximations
    CHECK(B(rcpApproxFtzF64(2.0)) == B(0.5));
    CHECK(B(rcpApproxFtzF64(-4.0)) == B(-0.25));
    CHECK(B(rcpApproxFtzF64(D(0x7FF8000000000000ull))) == 0x7FFFFFFF00000000ull);
    CHECK(B(rcpApproxFtzF64(D(0x000FFFFF00000000ull))) == 0x7FF0000000000000ull); // subnormal -> inf
    CHECK(B(rcpApproxFtzF64(-0.0)) == 0xFFF0000000000000ull);
    CHECK(B(rcpApproxFtzF64(std::numeric_limits<double>::infinity())) == 0);
    CHECK(B(rcpApproxFtzF64(0x1p1023)) == 0); // 2^-1023 is subnormal: flushed
    {
        const double r = rcpApproxFtzF64(3.0);
        CHECK((B(r) & 0xFFFFFFFFull) == 0);
        CHECK(std::fabs(r * 3.0 - 1.0) < 0x1p-20);
    }
    CHECK(B(rcpApproxFtzF64(D(0x4000000012345678ull))) == B(0.5)); // low word ignored
    CHECK(B(rsqrtApproxFtzF64(4.0)) == B(0.5));
    CHECK(B(rsqrtApproxFtzF64(-4.0)) == 0x7FFFFFFF00000000ull);
    CHECK(B(rsqrtApproxFtzF64(D(0x8000000100000000ull))) == 0xFFF0000000000000ull); // -subnormal
    CHECK(B(rsqrtApproxFtzF64(std::numeric_limits<double>::infinity())) == 0);
    CHECK(B(rsqrtApproxF64(4.0)) == B(0.5));
    CHECK(B(rsqrtApproxF64(-0.0)) == 0xFFF0000000000000ull);
    CHECK(B(rsqrtApproxF64(D(0x7FF8000000000009ull))) == 0x7FF8000000000009ull);
}

TEST_CASE("approximate functions stay within the documented bounds", "[arith][approx]") {
    // References in long double (x87 80-bit on x86-64) from the C library: independent of the
    // double-based implementation.
    int checked = 0;
    for (int i = 0; i < 4000; ++i) {
        const float x = F(rndF32Bits(100, 140)); // |x| roughly in [2^-27, 2^13]
        const float ax = std::fabs(x);
        CHECK(withinApproxBound(ApproxFn::Ex2F32, x, double(std::exp2((long double)x)), ex2ApproxF32(x)));
        CHECK(withinApproxBound(ApproxFn::Lg2F32, ax, double(std::log2((long double)ax)), lg2ApproxF32(ax)));
        CHECK(withinApproxBound(ApproxFn::SinF32, x, double(std::sin((long double)x)), sinApproxF32(x)));
        CHECK(withinApproxBound(ApproxFn::CosF32, x, double(std::cos((long double)x)), cosApproxF32(x)));
        CHECK(withinApproxBound(ApproxFn::TanhF32, x, double(std::tanh((long double)x)), tanhApproxF32(x)));
        CHECK(withinApproxBound(ApproxFn::RsqrtF32, ax, double(1.0L / std::sqrt((long double)ax)), rsqrtApproxF32(ax)));
        CHECK(withinApproxBound(ApproxFn::SqrtApproxF32, ax, double(std::sqrt((long double)ax)), sqrtApproxF32(ax)));
        CHECK(withinApproxBound(ApproxFn::RcpApproxF32, x, double(1.0L / x), rcpApproxF32(x)));
        const float y = F(rndF32Bits(1, 254));
        CHECK(withinApproxBound(ApproxFn::DivApproxF32, y, double((long double)x / y), divApproxF32(x, y)));
        CHECK(withinApproxBound(ApproxFn::DivFullF32, y, double((long double)x / y), divFullF32(x, y)));
        const double d = D(rndF64Bits(1, 2046)) ;
        const double ad = std::fabs(d);
        CHECK(withinApproxBound(ApproxFn::RsqrtF64, ad, double(1.0L / std::sqrt((long double)ad)), rsqrtApproxF64(ad)));
        if (ad > 0x1p-1000 && ad < 0x1p1000) {
            CHECK(withinApproxBound(ApproxFn::RcpApproxFtzF64, d, double(1.0L / d), rcpApproxFtzF64(d)));
            CHECK(withinApproxBound(ApproxFn::RsqrtApproxFtzF64, ad, double(1.0L / std::sqrt((long double)ad)),
                                    rsqrtApproxFtzF64(ad)));
        }
        ++checked;
    }
    CHECK(checked == 4000);
    // The comparer rejects clearly wrong answers.
    CHECK(!withinApproxBound(ApproxFn::Ex2F32, 1.0, 2.0, 2.0 + 4 * 0x1p-22));
    CHECK(!withinApproxBound(ApproxFn::SinF32, 1.0, std::sin(1.0), std::sin(1.0) + 1e-4));
    CHECK(withinApproxBound(ApproxFn::SinF32, 100.0, std::sin(100.0), std::sin(100.0) + 1e-5));
    CHECK(withinApproxBound(ApproxFn::SinF32, 200.0, std::sin(200.0), std::sin(200.0) + 1e-5));
    CHECK(!withinApproxBound(ApproxFn::Lg2F32, 1.5, std::log2(1.5), std::log2(1.5) + 1e-6));
    CHECK(withinApproxBound(ApproxFn::Lg2F32, 1.5, std::log2(1.5), std::log2(1.5) + 1e-7));
    CHECK(approxBound(ApproxFn::Ex2F32).maxUlp == 2);
    CHECK(approxBound(ApproxFn::RsqrtF32).maxRelLog2 == -22.9);
}

// =================================================================================================
// Conversions
// =================================================================================================
TEST_CASE("cvt float -> int", "[arith][cvt]") {
    auto f2i = [](float f, Type dst, Round r) { return convert(B(f), dst, Type::F32, r, false, false); };
    CHECK(f2i(2.5f, Type::S32, Round::RNI) == 2);
    CHECK(f2i(3.5f, Type::S32, Round::RNI) == 4);
    CHECK(f2i(-2.5f, Type::S32, Round::RNI) == 0xFFFFFFFEull);
    CHECK(f2i(-2.5f, Type::S32, Round::RZI) == 0xFFFFFFFEull);
    CHECK(f2i(-2.5f, Type::S32, Round::RMI) == 0xFFFFFFFDull);
    CHECK(f2i(2.1f, Type::S32, Round::RPI) == 3);
    CHECK(f2i(-0.7f, Type::U32, Round::RZI) == 0);
    CHECK(f2i(-1.0f, Type::U32, Round::RZI) == 0);
    CHECK(f2i(1e10f, Type::S32, Round::RZI) == 0x7FFFFFFF);
    CHECK(f2i(-1e10f, Type::S32, Round::RZI) == 0x80000000ull);
    CHECK(f2i(1e10f, Type::U32, Round::RZI) == 0xFFFFFFFFull);
    CHECK(f2i(4294967296.0f, Type::U32, Round::RZI) == 0xFFFFFFFFull);
    CHECK(f2i(2147483648.0f, Type::S32, Round::RZI) == 0x7FFFFFFF);
    CHECK(f2i(-2147483648.0f, Type::S32, Round::RZI) == 0x80000000ull);
    CHECK(f2i(std::numeric_limits<float>::infinity(), Type::U64, Round::RZI) == ~0ull);
    CHECK(f2i(-std::numeric_limits<float>::infinity(), Type::S64, Round::RZI) == 0x8000000000000000ull);
    CHECK(f2i(1e30f, Type::S16, Round::RNI) == 0x7FFF);
    CHECK(f2i(-1e30f, Type::S8, Round::RNI) == 0x80);
    CHECK(f2i(300.0f, Type::U8, Round::RNI) == 0xFF);
    CHECK(f2i(-3.0f, Type::S8, Round::RNI) == 0xFD);
    CHECK(f2i(9.2233720368547758e18f, Type::S64, Round::RZI) == 0x7FFFFFFFFFFFFFFFull);
    CHECK(f2i(F(0x5F7FFFFF), Type::U64, Round::RZI) == 0xFFFFFF0000000000ull);
    CHECK(f2i(F(0x5F800000), Type::U64, Round::RZI) == ~0ull); // 2^64 saturates
    // NaN
    const float nan = F(0x7FC00000);
    CHECK(f2i(nan, Type::S32, Round::RZI) == 0);
    CHECK(f2i(nan, Type::U32, Round::RNI) == 0);
    CHECK(f2i(nan, Type::S64, Round::RZI) == 0x8000000000000000ull);
    CHECK(f2i(nan, Type::U64, Round::RZI) == 0x8000000000000000ull);
    CHECK(convert(0x7FF8000000000000ull, Type::S32, Type::F64, Round::RZI, false, false) == 0x80000000ull);
    CHECK(convert(0x7FF8000000000000ull, Type::U16, Type::F64, Round::RZI, false, false) == 0x8000ull);
    CHECK(convert(0x7FF8000000000000ull, Type::S64, Type::F64, Round::RZI, false, false) == 0x8000000000000000ull);
    CHECK(convert(0x7E00, Type::U16, Type::F16, Round::RZI, false, false) == 0);
    CHECK(convert(0x7E00, Type::S64, Type::F16, Round::RZI, false, false) == 0x8000000000000000ull);
    // f16/bf16/f64 sources, ftz
    CHECK(convert(0x4500, Type::S32, Type::F16, Round::RNI, false, false) == 5);       // 5.0
    CHECK(convert(0xC0A0, Type::S32, Type::BF16, Round::RZI, false, false) == 0xFFFFFFFBull); // -5.0
    CHECK(convert(B(1e20), Type::S64, Type::F64, Round::RZI, false, false) == 0x7FFFFFFFFFFFFFFFull);
    CHECK(convert(B(-1.5), Type::S64, Type::F64, Round::RNI, false, false) == 0xFFFFFFFFFFFFFFFEull);
    CHECK(convert(0x00000001, Type::S32, Type::F32, Round::RPI, false, false) == 1);
    CHECK(convert(0x00000001, Type::S32, Type::F32, Round::RPI, true, false) == 0);
    CHECK(convert(0x80000001, Type::S32, Type::F32, Round::RMI, false, false) == 0xFFFFFFFFull);
    CHECK(convert(0x80000001, Type::S32, Type::F32, Round::RMI, true, false) == 0);
}

TEST_CASE("cvt int -> float", "[arith][cvt]") {
    auto i2f = [](uint64_t v, Type dst, Type src, Round r) { return convert(v, dst, src, r, false, false); };
    CHECK(i2f(~0ull, Type::F32, Type::U64, Round::RN) == 0x5F800000u);
    CHECK(i2f(~0ull, Type::F32, Type::U64, Round::RZ) == 0x5F7FFFFFu);
    CHECK(i2f(~0ull, Type::F32, Type::U64, Round::RM) == 0x5F7FFFFFu);
    CHECK(i2f(~0ull, Type::F32, Type::U64, Round::RP) == 0x5F800000u);
    CHECK(i2f(~0ull, Type::F32, Type::S64, Round::RN) == 0xBF800000u);
    CHECK(i2f(0x8000000000000000ull, Type::F32, Type::S64, Round::RN) == 0xDF000000u);
    CHECK(i2f((1ull << 24) + 1, Type::F32, Type::U32, Round::RN) == 0x4B800000u);
    CHECK(i2f((1ull << 24) + 1, Type::F32, Type::U32, Round::RP) == 0x4B800001u);
    CHECK(i2f((1ull << 24) + 3, Type::F32, Type::U32, Round::RN) == 0x4B800002u);
    CHECK(i2f(0x7FFFFFFF, Type::F32, Type::S32, Round::RN) == 0x4F000000u);
    CHECK(i2f(0x7FFFFFFF, Type::F32, Type::S32, Round::RZ) == 0x4EFFFFFFu);
    CHECK(i2f(0x80000001, Type::F32, Type::S32, Round::RZ) == 0xCEFFFFFFu);
    CHECK(i2f(0x80000001, Type::F32, Type::S32, Round::RM) == 0xCF000000u);
    CHECK(i2f(0, Type::F32, Type::S32, Round::RM) == 0);
    CHECK(i2f(0xFF, Type::F32, Type::S8, Round::RN) == B(-1.0f));
    CHECK(i2f(0xFFFF, Type::F32, Type::U16, Round::RN) == B(65535.0f));
    CHECK(i2f(0x123456789ABCDEFull, Type::F64, Type::U64, Round::RN) == B(double(0x123456789ABCDEFull)));
    CHECK(i2f((1ull << 53) + 1, Type::F64, Type::U64, Round::RN) == B(0x1p53));
    CHECK(i2f((1ull << 53) + 1, Type::F64, Type::U64, Round::RP) == B(0x1p53) + 1);
    CHECK(i2f(65504, Type::F16, Type::U32, Round::RN) == 0x7BFF);
    CHECK(i2f(65520, Type::F16, Type::U32, Round::RN) == 0x7C00);
    CHECK(i2f(65520, Type::F16, Type::U32, Round::RZ) == 0x7BFF);
    CHECK(convert(100000, Type::F16, Type::S32, Round::RN, false, false, true) == 0x7BFF);
    CHECK(convert(uint64_t(-100000) & 0xFFFFFFFF, Type::F16, Type::S32, Round::RN, false, false, true) == 0xFBFF);
    CHECK(i2f(1, Type::BF16, Type::S32, Round::RN) == 0x3F80);
    CHECK(i2f(257, Type::BF16, Type::S32, Round::RN) == 0x4380); // 257 -> 256 (tie to even)
    CHECK(i2f(259, Type::BF16, Type::S32, Round::RN) == 0x4382);
    CHECK(convert(5, Type::F32, Type::S32, Round::RN, false, true) == B(1.0f)); // .sat
    CHECK(convert(uint64_t(-5) & 0xFFFFFFFF, Type::F32, Type::S32, Round::RN, false, true) == 0);
}

TEST_CASE("cvt int -> int", "[arith][cvt]") {
    auto c = [](uint64_t v, Type dst, Type src, bool sat) { return convert(v, dst, src, Round::None, false, sat); };
    CHECK(c(300, Type::S8, Type::S32, false) == 0x2C);
    CHECK(c(300, Type::S8, Type::S32, true) == 0x7F);
    CHECK(c(uint64_t(-300) & 0xFFFFFFFF, Type::S8, Type::S32, true) == 0x80);
    CHECK(c(uint64_t(-5) & 0xFFFFFFFF, Type::U8, Type::S32, true) == 0);
    CHECK(c(0xFFFFFFFF, Type::U32, Type::S32, true) == 0);
    CHECK(c(0xFFFFFFFF, Type::U32, Type::S32, false) == 0xFFFFFFFF);
    CHECK(c(0xFFFFFFFF, Type::S32, Type::U32, true) == 0x7FFFFFFF);
    CHECK(c(0x80, Type::S64, Type::S8, false) == 0xFFFFFFFFFFFFFF80ull);
    CHECK(c(0x80, Type::U64, Type::S8, false) == 0xFFFFFFFFFFFFFF80ull);
    CHECK(c(0x80, Type::U64, Type::S8, true) == 0);
    CHECK(c(0x80, Type::S64, Type::U8, false) == 0x80);
    CHECK(c(0x80, Type::S16, Type::B8, false) == 0x80);
    CHECK(c(0x8000000000000000ull, Type::S32, Type::U64, true) == 0x7FFFFFFF);
    CHECK(c(0x8000000000000000ull, Type::S64, Type::U64, true) == 0x7FFFFFFFFFFFFFFFull);
    CHECK(c(0x8000000000000000ull, Type::U64, Type::S64, true) == 0);
    CHECK(c(0x123456789ull, Type::U16, Type::U64, true) == 0xFFFF);
    CHECK(c(0x123456789ull, Type::U16, Type::U64, false) == 0x6789);
    CHECK(c(0xFFFF12345678ull, Type::U32, Type::U32, false) == 0x12345678); // high source bits ignored
    CHECK(c(0xFFFF, Type::S32, Type::S16, false) == 0xFFFFFFFF); // result masked to 32 bits
}

TEST_CASE("cvt float -> float", "[arith][cvt]") {
    auto ff = [](uint64_t v, Type dst, Type src, Round r) { return convert(v, dst, src, r, false, false); };
    // f32 -> f16
    CHECK(ff(B(65504.0f), Type::F16, Type::F32, Round::RN) == 0x7BFF);
    CHECK(ff(B(65520.0f), Type::F16, Type::F32, Round::RN) == 0x7C00);
    CHECK(ff(B(65519.996f), Type::F16, Type::F32, Round::RN) == 0x7BFF);
    CHECK(ff(B(65520.0f), Type::F16, Type::F32, Round::RZ) == 0x7BFF);
    CHECK(ff(B(-65520.0f), Type::F16, Type::F32, Round::RP) == 0xFBFF);
    CHECK(ff(B(1.0f), Type::F16, Type::F32, Round::RN) == 0x3C00);
    CHECK(ff(B(0x1p-24f), Type::F16, Type::F32, Round::RN) == 0x0001);
    CHECK(ff(B(0x1p-25f), Type::F16, Type::F32, Round::RN) == 0x0000);
    CHECK(ff(B(0x1.8p-25f), Type::F16, Type::F32, Round::RN) == 0x0001);
    CHECK(ff(B(0x1p-30f), Type::F16, Type::F32, Round::RP) == 0x0001);
    CHECK(ff(B(-0x1p-30f), Type::F16, Type::F32, Round::RZ) == 0x8000);
    CHECK(ff(B(1.0f + 0x1p-11f), Type::F16, Type::F32, Round::RN) == 0x3C00); // tie to even
    CHECK(ff(B(1.0f + 0x1p-11f), Type::F16, Type::F32, Round::RP) == 0x3C01);
    CHECK(ff(0x7FC00001, Type::F16, Type::F32, Round::RN) == kCanonicalNaNF16);
    CHECK(ff(0x7F800000, Type::F16, Type::F32, Round::RZ) == 0x7C00);
    CHECK(convert(B(1e6f), Type::F16, Type::F32, Round::RN, false, false, true) == 0x7BFF);
    CHECK(convert(0xFF800000, Type::F16, Type::F32, Round::RN, false, false, true) == 0xFBFF);
    CHECK(convert(0x7FC00000, Type::F16, Type::F32, Round::RN, false, false, true) == kCanonicalNaNF16);
    CHECK(convert(B(-2.0f), Type::F16, Type::F32, Round::RN, false, false, false, true) == 0);
    CHECK(convert(0xFFC00000, Type::F16, Type::F32, Round::RN, false, false, false, true) == kCanonicalNaNF16);
    CHECK(f32ToF16(0.5f) == 0x3800);
    CHECK(f32ToF16(1e6f, Round::RN, true) == 0x7BFF);
    // f16 -> f32 / f64
    CHECK(B(f16ToF32(0x3C00)) == B(1.0f));
    CHECK(B(f16ToF32(0x0001)) == 0x33800000u);
    CHECK(B(f16ToF32(0x8001)) == 0xB3800000u);
    CHECK(B(f16ToF32(0x7BFF)) == B(65504.0f));
    CHECK(B(f16ToF32(0xFC00)) == 0xFF800000u);
    CHECK(B(f16ToF32(0x7E00)) == 0x7FFFFFFFu);   // measured on an H100: cvt.f32.f16 of a NaN is canonical
    CHECK(ff(0x0001, Type::F64, Type::F16, Round::None) == B(0x1p-24));
    CHECK(ff(0x0001, Type::F32, Type::F16, Round::None) == 0x33800000u);
    // bf16
    CHECK(ff(B(1.0f), Type::BF16, Type::F32, Round::RN) == 0x3F80);
    CHECK(ff(0x3F808000, Type::BF16, Type::F32, Round::RN) == 0x3F80); // tie to even
    CHECK(ff(0x3F818000, Type::BF16, Type::F32, Round::RN) == 0x3F82);
    CHECK(ff(0x3F81FFFF, Type::BF16, Type::F32, Round::RZ) == 0x3F81);
    CHECK(ff(0x7F7FFFFF, Type::BF16, Type::F32, Round::RN) == 0x7F80);
    CHECK(ff(0x7F7FFFFF, Type::BF16, Type::F32, Round::RZ) == 0x7F7F);
    CHECK(ff(0x7FC00001, Type::BF16, Type::F32, Round::RN) == kCanonicalNaNBF16);
    CHECK(f32ToBF16(3.0f) == 0x4040);
    CHECK(B(bf16ToF32(0x4040)) == B(3.0f));
    CHECK(ff(0x3C00, Type::BF16, Type::F16, Round::RN) == 0x3F80);
    CHECK(ff(0x3F80, Type::F16, Type::BF16, Round::RN) == 0x3C00);
    // f64 <-> f32
    CHECK(ff(B(1.0 / 3.0), Type::F32, Type::F64, Round::RN) == 0x3EAAAAABu);
    CHECK(ff(B(1.0 / 3.0), Type::F32, Type::F64, Round::RZ) == 0x3EAAAAAAu);
    CHECK(ff(B(-1.0 / 3.0), Type::F32, Type::F64, Round::RM) == 0xBEAAAAABu);
    CHECK(ff(B(1e300), Type::F32, Type::F64, Round::RN) == 0x7F800000u);
    CHECK(ff(B(1e300), Type::F32, Type::F64, Round::RZ) == 0x7F7FFFFFu);
    CHECK(ff(B(-1e300), Type::F32, Type::F64, Round::RP) == 0xFF7FFFFFu);
    CHECK(ff(B(1e-50), Type::F32, Type::F64, Round::RN) == 0);
    CHECK(ff(B(1e-50), Type::F32, Type::F64, Round::RP) == 1);
    CHECK(ff(B(0x1p-149 * 0.75), Type::F32, Type::F64, Round::RN) == 1);
    CHECK(ff(B(0x1p-140), Type::F32, Type::F64, Round::RN) == 0x00000200u);
    CHECK(convert(B(0x1p-140), Type::F32, Type::F64, Round::RN, true, false) == 0);
    CHECK(ff(0x7FF8000000000123ull, Type::F32, Type::F64, Round::RN) == kCanonicalNaNF32);
    CHECK(ff(B(0.1f), Type::F64, Type::F32, Round::None) == B(double(0.1f)));
    CHECK(ff(0x00000001, Type::F64, Type::F32, Round::None) == B(0x1p-149));
    CHECK(convert(0x00000001, Type::F64, Type::F32, Round::None, true, false) == 0);
    CHECK(convert(0x80000001, Type::F64, Type::F32, Round::None, true, false) == 0x8000000000000000ull);
    CHECK(ff(0x7FFFFFFF, Type::F64, Type::F32, Round::None) == 0x7FFFFFFFE0000000ull);
    CHECK(ff(0xFF800000, Type::F64, Type::F32, Round::None) == 0xFFF0000000000000ull);
    // same type: integer rounding, ftz, sat
    CHECK(ff(B(2.5f), Type::F32, Type::F32, Round::RNI) == B(2.0f));
    CHECK(ff(B(3.5f), Type::F32, Type::F32, Round::RNI) == B(4.0f));
    CHECK(ff(B(-0.5f), Type::F32, Type::F32, Round::RNI) == 0x80000000u);
    CHECK(ff(B(-0.5f), Type::F32, Type::F32, Round::RMI) == B(-1.0f));
    CHECK(ff(B(-0.5f), Type::F32, Type::F32, Round::RPI) == 0x80000000u);
    CHECK(ff(B(-1.5f), Type::F32, Type::F32, Round::RZI) == B(-1.0f));
    CHECK(ff(B(1e20f), Type::F32, Type::F32, Round::RNI) == B(1e20f));
    CHECK(ff(0x7FC00001, Type::F32, Type::F32, Round::RNI) == kCanonicalNaNF32);
    CHECK(ff(B(2.5), Type::F64, Type::F64, Round::RNI) == B(2.0));
    CHECK(ff(B(-2.5), Type::F64, Type::F64, Round::RMI) == B(-3.0));
    CHECK(ff(B(4503599627370497.0), Type::F64, Type::F64, Round::RNI) == B(4503599627370497.0));
    CHECK(ff(0x3E00, Type::F16, Type::F16, Round::RNI) == 0x4000); // 1.5 -> 2.0
    CHECK(convert(0x00000005, Type::F32, Type::F32, Round::None, true, false) == 0);
    CHECK(convert(0x80000005, Type::F32, Type::F32, Round::None, true, false) == 0x80000000u);
    CHECK(convert(B(1.5f), Type::F32, Type::F32, Round::None, false, true) == B(1.0f));
    CHECK(convert(B(-1.5f), Type::F32, Type::F32, Round::None, false, true) == 0);
    CHECK(convert(0x7FC00000, Type::F32, Type::F32, Round::None, false, true) == 0);
    CHECK(convert(B(1.5), Type::F64, Type::F64, Round::None, false, true) == B(1.0));
    CHECK(convert(0x3E00, Type::F16, Type::F16, Round::None, false, true) == 0x3C00);
}

// =================================================================================================
// Half precision arithmetic
// =================================================================================================
TEST_CASE("f16 arithmetic", "[arith][f16]") {
    CHECK(addF16(0x3C00, 0x3C00) == 0x4000);
    CHECK(subF16(0x3C00, 0x3C00) == 0x0000);
    CHECK(subF16(0x3C00, 0x3C00, Round::RM) == 0x8000);
    CHECK(mulF16(0x3C00, 0x7E00) == kCanonicalNaNF16);
    CHECK(mulF16(0x7C00, 0x0000) == kCanonicalNaNF16);
    CHECK(addF16(0x7BFF, 0x7BFF) == 0x7C00);
    CHECK(addF16(0x7BFF, 0x7BFF, Round::RZ) == 0x7BFF);
    CHECK(addF16(0x3C00, 0x1000) == 0x3C00);                      // 1 + 2^-11: tie to even
    CHECK(addF16(0x3C00, 0x1001) == 0x3C01);
    CHECK(mulF16(0x0001, 0x3800) == 0x0000);                      // 2^-25 -> tie to 0
    CHECK(mulF16(0x0001, 0x3800, Round::RP) == 0x0001);
    CHECK(mulF16(0x0200, 0x3C00, Round::RN, true) == 0x0000);     // ftz input
    CHECK(addF16(0x3C00, 0x3C00, Round::RN, false, true) == 0x3C00); // sat
    CHECK(addF16(0xBC00, 0x3800, Round::RN, false, true) == 0x0000);
    CHECK(fmaF16(0x3C00, 0x3C00, 0x3C00) == 0x4000);
    CHECK(fmaF16(0x7C00, 0x3C00, 0xFC00) == kCanonicalNaNF16);
    // 1.0009765625 * 1.0009765625 - 1 = 2^-9 + 2^-20: the fused result keeps the tiny term.
    CHECK(fmaF16(0x3C01, 0x3C01, 0xBC00, Round::RZ) == 0x1800);
    CHECK(fmaF16(0x3C01, 0x3C01, 0xBC00, Round::RP) == 0x1801);
}

// =================================================================================================
// Integer
// =================================================================================================
TEST_CASE("integer division, remainder and by-zero values", "[arith][int]") {
    CHECK(divInt(7, 0, 32, false) == 0xFFFFFFFFull);
    CHECK(remInt(7, 0, 32, false) == 0xFFFFFFFFull);
    CHECK(divInt(7, 0, 32, true) == 0xFFFFFFFFull);
    CHECK(divInt(uint64_t(-7) & 0xFFFFFFFF, 0, 32, true) == 0xFFFFFFFFull);
    CHECK(remInt(uint64_t(-7) & 0xFFFFFFFF, 0, 32, true) == 0xFFFFFFFFull);
    CHECK(divInt(7, 0, 16, false) == 0xFFFF);
    CHECK(remInt(7, 0, 8, false) == 0xFF);
    CHECK(divInt(5, 0, 64, true) == 0xFFFFFFFFull);
    CHECK(remInt(5, 0, 64, false) == 0xFFFFFFFFull);
    CHECK(divInt(uint64_t(-5), 0, 64, true) == ~0ull);
    CHECK(divInt(1ull << 40, 0, 64, false) == ~0ull);
    CHECK(divInt(0x80000000, 0xFFFFFFFF, 32, true) == 0x80000000ull);
    CHECK(remInt(0x80000000, 0xFFFFFFFF, 32, true) == 0);
    CHECK(divInt(0x8000000000000000ull, ~0ull, 64, true) == 0x8000000000000000ull);
    CHECK(remInt(0x8000000000000000ull, ~0ull, 64, true) == 0);
    CHECK(divInt(0x8000, 0xFFFF, 16, true) == 0x8000);
    CHECK(divInt(uint64_t(-7) & 0xFFFFFFFF, 2, 32, true) == 0xFFFFFFFDull); // truncates toward 0
    CHECK(remInt(uint64_t(-7) & 0xFFFFFFFF, 2, 32, true) == 0xFFFFFFFFull);
    CHECK(remInt(7, uint64_t(-2) & 0xFFFFFFFF, 32, true) == 1);
    CHECK(divInt(0xFFFFFFFF, 2, 32, false) == 0x7FFFFFFF);
    CHECK(divInt(~0ull, 3, 64, false) == 0x5555555555555555ull);
}

TEST_CASE("integer multiply family", "[arith][int]") {
    CHECK(mulHi(0xFFFFFFFF, 1, 32, true) == 0xFFFFFFFF);
    CHECK(mulHi(0xFFFFFFFF, 0xFFFFFFFF, 32, false) == 0xFFFFFFFE);
    CHECK(mulHi(0xFFFFFFFF, 0xFFFFFFFF, 32, true) == 0);
    CHECK(mulHi(1ull << 63, 4, 64, false) == 2);
    CHECK(mulHi(1ull << 63, 4, 64, true) == ~1ull); // -2^63 * 4 = -2^65 -> hi = -2
    CHECK(mulHi(~0ull, ~0ull, 64, false) == ~1ull);
    CHECK(mulHi(0x8000, 0x8000, 16, true) == 0x4000);
    CHECK(mulWide(0xFFFE, 3, 16, true) == 0xFFFFFFFA);
    CHECK(mulWide(0xFFFE, 3, 16, false) == 0x2FFFA);
    CHECK(mulWide(0xFFFFFFFF, 0xFFFFFFFF, 32, false) == 0xFFFFFFFE00000001ull);
    CHECK(mulWide(0x80000000, 0x80000000, 32, true) == 0x4000000000000000ull);
    CHECK(mulLo(0x10001, 0x10001, 16) == 0x0001);
    CHECK(madLo(3, 4, 0xFFFFFFFF, 32) == 11);
    CHECK(madHi(0xFFFFFFFF, 0xFFFFFFFF, 2, 32, false) == 0);
    CHECK(madWide(2, 3, 0xFFFFFFFF, 16, false) == 0x5);
    CHECK(madHiSatS32(INT32_MAX, INT32_MAX, INT32_MAX) == INT32_MAX);
    CHECK(madHiSatS32(INT32_MIN, INT32_MAX, INT32_MIN) == INT32_MIN);
    CHECK(madHiSatS32(0x10000, 0x10000, 5) == 6);
    CHECK(mul24(0x01000002, 3, false, false) == 6);
    CHECK(mul24(0xFFFFFF, 0xFFFFFF, true, false) == 0xFFFFFE00u);
    CHECK(mul24(0xFFFFFF, 0xFFFFFF, false, false) == 0xFE000001u);
    CHECK(mul24(0xFFFFFF, 5, false, true) == 0xFFFFFFFBu); // -1 * 5
    CHECK(mul24(0x800000, 0x800000, true, true) == 0x40000000u); // (-2^23)^2 = 2^46 -> >>16
    CHECK(mad24(2, 3, 4, false, false) == 10);
    CHECK(mad24(0x7FFFFF, 0x7FFFFF, 0x7FFFFFFF, true, true, true) == 0x7FFFFFFFu);
    CHECK(addSatS32(INT32_MAX, 1) == INT32_MAX);
    CHECK(addSatS32(INT32_MIN, -1) == INT32_MIN);
    CHECK(subSatS32(INT32_MIN, 1) == INT32_MIN);
    CHECK(subSatS32(INT32_MAX, -1) == INT32_MAX);
    CHECK(subSatS32(5, 7) == -2);
    auto c1 = addCarry(0xFFFFFFFF, 1, false, 32);
    CHECK(c1.value == 0);
    CHECK(c1.carry);
    auto c2 = addCarry(0xFFFFFFFE, 0, true, 32);
    CHECK(c2.value == 0xFFFFFFFF);
    CHECK(!c2.carry);
    auto c3 = addCarry(~0ull, ~0ull, true, 64);
    CHECK(c3.value == ~0ull);
    CHECK(c3.carry);
    auto b1 = subBorrow(0, 1, false, 32);
    CHECK(b1.value == 0xFFFFFFFF);
    CHECK(b1.carry);
    auto b2 = subBorrow(5, 3, true, 32);
    CHECK(b2.value == 1);
    CHECK(!b2.carry);
    auto b3 = subBorrow(5, 5, true, 64);
    CHECK(b3.value == ~0ull);
    CHECK(b3.carry);
}

TEST_CASE("integer abs/neg/min/max/sad/shifts", "[arith][int]") {
    CHECK(absInt(0x80000000, 32) == 0x80000000);
    CHECK(absInt(0xFFFFFFFB, 32) == 5);
    CHECK(absInt(0x8000000000000000ull, 64) == 0x8000000000000000ull);
    CHECK(negInt(1, 16) == 0xFFFF);
    CHECK(negInt(0x80000000, 32) == 0x80000000);
    CHECK(minInt(0xFFFFFFFF, 1, 32, true) == 0xFFFFFFFF);
    CHECK(minInt(0xFFFFFFFF, 1, 32, false) == 1);
    CHECK(maxInt(0x8000, 0x7FFF, 16, true) == 0x7FFF);
    CHECK(maxInt(0x8000, 0x7FFF, 16, false) == 0x8000);
    CHECK(minInt(0xFFFFFFFF, 1, 32, true, true) == 0); // min.relu
    CHECK(maxInt(0xFFFFFFF0, 0xFFFFFFFF, 32, true, true) == 0);
    CHECK(sadInt(3, 10, 100, 32, false) == 107);
    CHECK(sadInt(0xFFFFFFFF, 1, 0, 32, true) == 2);
    CHECK(sadInt(0xFFFFFFFF, 1, 0, 32, false) == 0xFFFFFFFE);
    CHECK(ops::shl(1, 31, 32) == 0x80000000);
    CHECK(ops::shl(1, 32, 32) == 0);
    CHECK(ops::shl(1, 0xFFFFFFFF, 64) == 0);
    CHECK(ops::shl(0xFFFF, 4, 16) == 0xFFF0);
    CHECK(ops::shrS(0x80000000, 31, 32) == 0xFFFFFFFF);
    CHECK(ops::shrS(0x80000000, 40, 32) == 0xFFFFFFFF);
    CHECK(ops::shrS(0x40000000, 40, 32) == 0);
    CHECK(ops::shrU(0x80000000, 32, 32) == 0);
    CHECK(ops::shrU(0x80000000, 4, 32) == 0x08000000);
    CHECK(ops::shrS(0x8000000000000000ull, 100, 64) == ~0ull);
    CHECK(ops::shrS(0x8000, 3, 16) == 0xF000);
}

TEST_CASE("bit manipulation", "[arith][int]") {
    // bfe
    CHECK(bfe(0xF0F0F0F0, 4, 8, 32, false) == 0x0F);
    CHECK(bfe(0x00000F00, 8, 4, 32, true) == 0xFFFFFFFF);
    CHECK(bfe(0x00000700, 8, 4, 32, true) == 0x7);
    CHECK(bfe(0x80000000, 40, 4, 32, true) == 0xFFFFFFFF); // start beyond msb: replicated sign bit
    CHECK(bfe(0x7FFFFFFF, 40, 4, 32, true) == 0);
    CHECK(bfe(0xFFFFFFFF, 40, 4, 32, false) == 0);
    CHECK(bfe(0xFFFFFFFF, 3, 0, 32, true) == 0);         // len 0
    CHECK(bfe(0x80000000, 28, 8, 32, false) == 0x8);     // field runs past the msb
    CHECK(bfe(0x80000000, 28, 8, 32, true) == 0xFFFFFFF8);
    CHECK(bfe(0xABCD, 4, 0x108, 32, false) == 0xBC);     // len & 0xff
    CHECK(bfe(0xABCD, 0x104, 8, 32, false) == 0xBC);     // pos & 0xff
    CHECK(bfe(0xFFFFFFFF, 0, 32, 32, true) == 0xFFFFFFFF);
    CHECK(bfe(0x8000000000000000ull, 60, 4, 64, true) == ~0ull - 7);
    CHECK(bfe(0x123456789ABCDEF0ull, 32, 32, 64, false) == 0x12345678);
    CHECK(bfe(0x123456789ABCDEF0ull, 0, 255, 64, false) == 0x123456789ABCDEF0ull);
    // bfi
    CHECK(bfi(0xFF, 0, 8, 4, 32) == 0xF00);
    CHECK(bfi(0xFF, 0x12345678, 32, 4, 32) == 0x12345678);
    CHECK(bfi(0xFF, 0x12345678, 4, 0, 32) == 0x12345678);
    CHECK(bfi(0xFF, 0, 28, 8, 32) == 0xF0000000);
    CHECK(bfi(0, ~0ull, 60, 10, 64) == 0x0FFFFFFFFFFFFFFFull);
    CHECK(bfi(0xA, 0xFFFFFFFF, 0x104, 0x104, 32) == 0xFFFFFFAF);
    // brev/popc/clz/bfind/fns
    CHECK(brev32(1) == 0x80000000u);
    CHECK(brev32(0x12345678) == 0x1E6A2C48u);
    CHECK(brev64(1) == 0x8000000000000000ull);
    CHECK(brev64(0x00000000000000F0ull) == 0x0F00000000000000ull);
    CHECK(popc(0xFFFFFFFF00000000ull, 32) == 0);
    CHECK(popc(0xFFFFFFFF00000001ull, 64) == 33);
    CHECK(clz(0, 32) == 32);
    CHECK(clz(0, 64) == 64);
    CHECK(clz(1, 32) == 31);
    CHECK(clz(0x100000000ull, 32) == 32);
    CHECK(clz(0x100000000ull, 64) == 31);
    CHECK(bfind(0, 32, false, false) == 0xFFFFFFFFu);
    CHECK(bfind(0xFFFFFFFF, 32, true, false) == 0xFFFFFFFFu);
    CHECK(bfind(0x80000000, 32, true, false) == 30);
    CHECK(bfind(0x80000000, 32, false, false) == 31);
    CHECK(bfind(1, 32, false, true) == 31);
    CHECK(bfind(0, 32, false, true) == 0xFFFFFFFFu);
    CHECK(bfind(0x10, 64, true, false) == 4);
    CHECK(bfind(0xFFFFFFFFFFFFFFF0ull, 64, true, false) == 3);
    CHECK(bfind(0xFFFFFFFFFFFFFFF0ull, 64, true, true) == 60);
    CHECK(fns(0xAAAAAAAA, 3, 1) == 3);
    CHECK(fns(0xAAAAAAAA, 3, -1) == 3);
    CHECK(fns(0xAAAAAAAA, 2, 1) == 3);
    CHECK(fns(0xAAAAAAAA, 2, -1) == 1);
    CHECK(fns(0xAAAAAAAA, 2, 0) == 0xFFFFFFFFu);
    CHECK(fns(0xAAAAAAAA, 0, 17) == 0xFFFFFFFFu);
    CHECK(fns(0x1, 0, INT32_MIN) == 0xFFFFFFFFu);
}

TEST_CASE("prmt", "[arith][int]") {
    const uint32_t a = 0x03020100, b = 0x07060504; // byte i holds i
    CHECK(prmt(a, b, 0x3210) == 0x03020100u);
    CHECK(prmt(a, b, 0x7654) == 0x07060504u);
    CHECK(prmt(a, b, 0x0123) == 0x00010203u);
    CHECK(prmt(a, b, 0x4567) == 0x04050607u);
    CHECK(prmt(0x00000080, 0, 0x0000) == 0x80808080u);
    CHECK(prmt(0x00000080, 0, 0x8888) == 0xFFFFFFFFu);  // sign-replicate byte 0
    CHECK(prmt(0x00007F80, 0, 0x9898) == 0x00FF00FFu);
    CHECK(prmt(0x12345678, 0x9ABCDEF0, 0x5410) == 0xDEF05678u);
    CHECK(prmt(a, b, 0, PrmtMode::F4E) == 0x03020100u);
    CHECK(prmt(a, b, 1, PrmtMode::F4E) == 0x04030201u);
    CHECK(prmt(a, b, 3, PrmtMode::F4E) == 0x06050403u);
    CHECK(prmt(a, b, 0, PrmtMode::B4E) == 0x05060700u);
    CHECK(prmt(a, b, 1, PrmtMode::B4E) == 0x06070001u);
    CHECK(prmt(a, b, 3, PrmtMode::B4E) == 0x00010203u);
    CHECK(prmt(a, b, 2, PrmtMode::RC8) == 0x02020202u);
    CHECK(prmt(a, b, 0, PrmtMode::ECL) == 0x03020100u);
    CHECK(prmt(a, b, 1, PrmtMode::ECL) == 0x03020101u);
    CHECK(prmt(a, b, 2, PrmtMode::ECL) == 0x03020202u);
    CHECK(prmt(a, b, 0, PrmtMode::ECR) == 0x00000000u);
    CHECK(prmt(a, b, 1, PrmtMode::ECR) == 0x01010100u);
    CHECK(prmt(a, b, 2, PrmtMode::ECR) == 0x02020100u);
    CHECK(prmt(a, b, 3, PrmtMode::ECR) == 0x03020100u);
    CHECK(prmt(a, b, 0, PrmtMode::RC16) == 0x01000100u);
    CHECK(prmt(a, b, 1, PrmtMode::RC16) == 0x03020302u);
    CHECK(prmt(a, b, 0xFFFC, PrmtMode::RC8) == 0x00000000u); // only c[1:0] matters
}

// =================================================================================================
// Randomized cross-checks (exact big-integer references, and the host's IEEE arithmetic for RN)
// =================================================================================================
namespace {
struct Failures {
    int count = 0;
    std::string first;
    void add(const char* what, uint64_t x, uint64_t y, uint64_t z, Round m, uint64_t got) {
        if (count++ == 0) {
            char buf[256];
            std::snprintf(buf, sizeof buf, "%s x=%#llx y=%#llx z=%#llx mode=%d got=%#llx", what,
                          (unsigned long long)x, (unsigned long long)y, (unsigned long long)z, int(m),
                          (unsigned long long)got);
            first = buf;
        }
    }
};

// Operand generator covering ordinary, near-one, subnormal, huge and cancelling cases.
uint32_t genF32(uint32_t other) {
    switch (rndInt(0, 5)) {
    case 0: return rndF32Bits(0, 254);
    case 1: return rndF32Bits(110, 145);
    case 2: return rndF32Bits(0, 24);
    case 3: return rndF32Bits(200, 254);
    case 4: return (other ^ 0x80000000u) + uint32_t(rndInt(-3, 3)); // near cancellation
    default: return rndF32Bits(120, 132) & 0xFFFFF000u;             // short mantissas: ties
    }
}
uint64_t genF64(uint64_t other) {
    switch (rndInt(0, 5)) {
    case 0: return rndF64Bits(0, 2046);
    case 1: return rndF64Bits(1000, 1050);
    case 2: return rndF64Bits(0, 60);
    case 3: return rndF64Bits(1900, 2046);
    case 4: return (other ^ 0x8000000000000000ull) + uint64_t(int64_t(rndInt(-3, 3)));
    default: return rndF64Bits(1015, 1030) & 0xFFFFFFFFFF000000ull;
    }
}
bool finiteF32(uint32_t b) { return (b & 0x7F800000u) != 0x7F800000u; }
bool finiteF64(uint64_t b) { return (b & 0x7FF0000000000000ull) != 0x7FF0000000000000ull; }

// Runs the exact checks for one binary op set of a format; `ops` returns encodings.
template <class AddF, class MulF, class FmaF, class DivF, class SqrtF>
void crossCheck(Fm f, uint64_t xa, uint64_t xb, uint64_t xc, Failures& fails, AddF add, MulF mul, FmaF fma,
                DivF div, SqrtF sqrt) {
    const Dy A = dyOf(xa, f), Bv = dyOf(xb, f), C = dyOf(xc, f);
    const Big bA = toBig(A), bB = toBig(Bv), bC = toBig(C);
    const Big sum = bigAdd(bA, bB);
    const Big prod = toBig(dmul(A, Bv));
    const Big fmaV = bigAdd(prod, bC);
    for (Round m : kModes) {
        auto cmpWith = [](const Big& X) {
            return [&X](const Dy& y) { return bigSign(bigAdd(X, bigNeg(toBig(y)))); };
        };
        uint64_t r = add(xa, xb, m);
        if (!checkRounded(r, f, m, cmpWith(sum))) fails.add("add", xa, xb, 0, m, r);
        r = mul(xa, xb, m);
        if (!checkRounded(r, f, m, cmpWith(prod))) fails.add("mul", xa, xb, 0, m, r);
        r = fma(xa, xb, xc, m);
        if (!checkRounded(r, f, m, cmpWith(fmaV))) fails.add("fma", xa, xb, xc, m, r);
        if (Bv.sig != 0) {
            r = div(xa, xb, m);
            const int sb = Bv.neg ? -1 : 1;
            auto cmpDiv = [&](const Dy& y) { return sb * bigSign(bigAdd(bA, bigNeg(toBig(dmul(y, Bv))))); };
            if (!checkRounded(r, f, m, cmpDiv)) fails.add("div", xa, xb, 0, m, r);
        }
        const uint64_t xabs = xa & (signOf(f) - 1);
        if (xabs != 0) {
            r = sqrt(xabs, m);
            const Big bAbs = toBig(dyOf(xabs, f));
            auto cmpSqrt = [&](const Dy& y) {
                if (y.neg && y.sig) return 1;
                return bigSign(bigAdd(bAbs, bigNeg(toBig(dmul(y, y)))));
            };
            if (!checkRounded(r, f, m, cmpSqrt)) fails.add("sqrt", xabs, 0, 0, m, r);
        }
    }
}
} // namespace

TEST_CASE("random f32 arithmetic vs exact reference and host IEEE", "[arith][f32][random]") {
    Failures fails, hostFails;
    int n = 0;
    for (int i = 0; i < 5000; ++i) {
        const uint32_t xa = genF32(0);
        const uint32_t xb = genF32(xa);
        const uint32_t xc = rndInt(0, 1) ? genF32(xa) : (B(F(xa) * F(xb)) ^ 0x80000000u) + uint32_t(rndInt(-2, 2));
        if (!finiteF32(xa) || !finiteF32(xb) || !finiteF32(xc)) continue;
        ++n;
        crossCheck(
            kS, xa, xb, xc, fails,
            [](uint64_t a, uint64_t b, Round m) { return uint64_t(B(addF32(F(uint32_t(a)), F(uint32_t(b)), m))); },
            [](uint64_t a, uint64_t b, Round m) { return uint64_t(B(mulF32(F(uint32_t(a)), F(uint32_t(b)), m))); },
            [](uint64_t a, uint64_t b, uint64_t c, Round m) {
                return uint64_t(B(fmaF32(F(uint32_t(a)), F(uint32_t(b)), F(uint32_t(c)), m)));
            },
            [](uint64_t a, uint64_t b, Round m) { return uint64_t(B(divF32(F(uint32_t(a)), F(uint32_t(b)), m))); },
            [](uint64_t a, Round m) { return uint64_t(B(sqrtF32(F(uint32_t(a)), m))); });
        // Round-to-nearest against the host's own IEEE single-precision arithmetic.
        const float a = F(xa), b = F(xb), c = F(xc);
        volatile float va = a, vb = b, vc = c; // keep the host operations in float
        const float hs = va + vb, hm = va * vb, hd = va / vb, hq = std::sqrt(std::fabs(float(va)));
        const float hf = std::fmaf(va, vb, vc);
        if (B(addF32(a, b)) != B(hs)) hostFails.add("add", xa, xb, 0, Round::RN, B(addF32(a, b)));
        if (B(mulF32(a, b)) != B(hm)) hostFails.add("mul", xa, xb, 0, Round::RN, B(mulF32(a, b)));
        if (b != 0.0f && B(divF32(a, b)) != B(hd)) hostFails.add("div", xa, xb, 0, Round::RN, B(divF32(a, b)));
        if (B(sqrtF32(std::fabs(a))) != B(hq)) hostFails.add("sqrt", xa, 0, 0, Round::RN, B(sqrtF32(std::fabs(a))));
        if (!std::isnan(hf) && B(fmaF32(a, b, c)) != B(hf)) hostFails.add("fma", xa, xb, xc, Round::RN, B(fmaF32(a, b, c)));
    }
    INFO(fails.first);
    CHECK(fails.count == 0);
    INFO(hostFails.first);
    CHECK(hostFails.count == 0);
    CHECK(n > 4000);
}

TEST_CASE("random f64 arithmetic vs exact reference and host IEEE", "[arith][f64][random]") {
    Failures fails, hostFails;
    int n = 0;
    for (int i = 0; i < 3000; ++i) {
        const uint64_t xa = genF64(0);
        const uint64_t xb = genF64(xa);
        const uint64_t xc = rndInt(0, 1) ? genF64(xa) : (B(D(xa) * D(xb)) ^ 0x8000000000000000ull) + uint64_t(int64_t(rndInt(-2, 2)));
        if (!finiteF64(xa) || !finiteF64(xb) || !finiteF64(xc)) continue;
        ++n;
        crossCheck(
            kDd, xa, xb, xc, fails, [](uint64_t a, uint64_t b, Round m) { return B(addF64(D(a), D(b), m)); },
            [](uint64_t a, uint64_t b, Round m) { return B(mulF64(D(a), D(b), m)); },
            [](uint64_t a, uint64_t b, uint64_t c, Round m) { return B(fmaF64(D(a), D(b), D(c), m)); },
            [](uint64_t a, uint64_t b, Round m) { return B(divF64(D(a), D(b), m)); },
            [](uint64_t a, Round m) { return B(sqrtF64(D(a), m)); });
        const double a = D(xa), b = D(xb), c = D(xc);
        if (B(addF64(a, b)) != B(a + b)) hostFails.add("add", xa, xb, 0, Round::RN, B(addF64(a, b)));
        if (B(mulF64(a, b)) != B(a * b)) hostFails.add("mul", xa, xb, 0, Round::RN, B(mulF64(a, b)));
        if (b != 0.0 && B(divF64(a, b)) != B(a / b)) hostFails.add("div", xa, xb, 0, Round::RN, B(divF64(a, b)));
        const double hf = std::fma(a, b, c);
        if (!std::isnan(hf) && B(fmaF64(a, b, c)) != B(hf)) hostFails.add("fma", xa, xb, xc, Round::RN, B(fmaF64(a, b, c)));
    }
    INFO(fails.first);
    CHECK(fails.count == 0);
    INFO(hostFails.first);
    CHECK(hostFails.count == 0);
    CHECK(n > 2000);
}

TEST_CASE("random f16 arithmetic vs exact reference", "[arith][f16][random]") {
    Failures fails;
    auto gen = [] {
        uint16_t h;
        do h = uint16_t(rnd()); while ((h & 0x7C00) == 0x7C00);
        return h;
    };
    for (int i = 0; i < 3000; ++i) {
        const uint16_t a = gen(), b = gen(), c = gen();
        const Dy A = dyOf(a, kH), Bv = dyOf(b, kH);
        const Big sum = bigAdd(toBig(A), toBig(Bv));
        const Big prod = toBig(dmul(A, Bv));
        const Big fmaV = bigAdd(prod, bigOf(c, kH));
        for (Round m : kModes) {
            auto cmpWith = [](const Big& X) {
                return [&X](const Dy& y) { return bigSign(bigAdd(X, bigNeg(toBig(y)))); };
            };
            uint64_t r = addF16(a, b, m);
            if (!checkRounded(r, kH, m, cmpWith(sum))) fails.add("addF16", a, b, 0, m, r);
            r = mulF16(a, b, m);
            if (!checkRounded(r, kH, m, cmpWith(prod))) fails.add("mulF16", a, b, 0, m, r);
            r = fmaF16(a, b, c, m);
            if (!checkRounded(r, kH, m, cmpWith(fmaV))) fails.add("fmaF16", a, b, c, m, r);
        }
    }
    INFO(fails.first);
    CHECK(fails.count == 0);
}

TEST_CASE("random conversions vs exact reference", "[arith][cvt][random]") {
    Failures fails;
    auto cmpWith = [](const Big& X) { return [&X](const Dy& y) { return bigSign(bigAdd(X, bigNeg(toBig(y)))); }; };
    struct Dst {
        Type t;
        Fm f;
    };
    const Dst dsts[] = {{Type::F16, kH}, {Type::BF16, kBH}, {Type::F32, kS}, {Type::F64, kDd}};
    for (int i = 0; i < 3000; ++i) {
        // 64-bit integers (random magnitudes) -> every float format
        uint64_t v = rnd() >> rndInt(0, 63);
        if (rndInt(0, 3) == 0) v &= ~((1ull << rndInt(0, 40)) - 1); // many trailing zeros: ties
        const int64_t sv = int64_t(v) * (rndInt(0, 1) ? -1 : 1);
        const Big bu = toBig(Dy{false, v, 0});
        const Big bs = toBig(Dy{sv < 0, u128(sv < 0 ? 0 - uint64_t(sv) : uint64_t(sv)), 0});
        for (const Dst& d : dsts) {
            for (Round m : kModes) {
                uint64_t r = convert(v, d.t, Type::U64, m, false, false);
                if (!checkRounded(r, d.f, m, cmpWith(bu))) fails.add("u64->f", v, uint64_t(d.t), 0, m, r);
                r = convert(uint64_t(sv), d.t, Type::S64, m, false, false);
                if (!checkRounded(r, d.f, m, cmpWith(bs))) fails.add("s64->f", uint64_t(sv), uint64_t(d.t), 0, m, r);
                if (d.t != Type::F64) { // f64 narrowing
                    const uint64_t x = genF64(0);
                    if (finiteF64(x)) {
                        r = convert(x, d.t, Type::F64, m, false, false);
                        if (!checkRounded(r, d.f, m, cmpWith(bigOf(x, kDd)))) fails.add("f64->f", x, uint64_t(d.t), 0, m, r);
                    }
                }
                if (d.t == Type::F64) { // f32 widening: exact (normal f32 take a path of bit arithmetic)
                    const uint32_t x = genF32(0);
                    if (finiteF32(x)) {
                        r = convert(x, Type::F64, Type::F32, m, false, false);
                        if (!checkRounded(r, d.f, m, cmpWith(bigOf(x, kS)))) fails.add("f32->f64", x, uint64_t(d.t), 0, m, r);
                    }
                }
                if (d.t == Type::F16 || d.t == Type::BF16) { // f32 narrowing
                    const uint32_t x = genF32(0);
                    if (finiteF32(x)) {
                        r = convert(x, d.t, Type::F32, m, false, false);
                        if (!checkRounded(r, d.f, m, cmpWith(bigOf(x, kS)))) fails.add("f32->f", x, uint64_t(d.t), 0, m, r);
                    }
                }
            }
        }
        // float -> integer rounding (in-range values; checked with exact double comparisons)
        const float x = F(rndF32Bits(100, 160));
        const double dx = x;
        const Round imodes[] = {Round::RNI, Round::RZI, Round::RMI, Round::RPI};
        for (Round m : imodes) {
            const int64_t rs = int64_t(convert(B(x), Type::S64, Type::F32, m, false, false));
            const double dn = double(rs);
            bool ok;
            if (std::fabs(dx) >= 0x1p52) {
                ok = dn == dx;
            } else {
                const double diff = dx - dn; // exact
                switch (m) {
                case Round::RMI: ok = diff >= 0 && diff < 1; break;
                case Round::RPI: ok = diff <= 0 && diff > -1; break;
                case Round::RZI: ok = std::fabs(dn) <= std::fabs(dx) && std::fabs(diff) < 1; break;
                default: ok = std::fabs(diff) < 0.5 || (std::fabs(diff) == 0.5 && (rs % 2) == 0); break;
                }
            }
            if (!ok) fails.add("f32->s64", B(x), 0, 0, m, uint64_t(rs));
            if (std::fabs(dx) < 0x1p31) {
                const int32_t r32 = int32_t(uint32_t(convert(B(x), Type::S32, Type::F32, m, false, false)));
                if (r32 != rs) fails.add("f32->s32", B(x), 0, 0, m, uint64_t(uint32_t(r32)));
            }
            if (dx >= 0 && dx < 0x1p32) {
                const uint64_t u = convert(B(x), Type::U32, Type::F32, m, false, false);
                if (u != uint64_t(rs)) fails.add("f32->u32", B(x), 0, 0, m, u);
            }
        }
    }
    INFO(fails.first);
    CHECK(fails.count == 0);
}

TEST_CASE("random integer ops vs wide reference", "[arith][int][random]") {
    int bad = 0;
    for (int i = 0; i < 20000; ++i) {
        const int bitsSel[] = {8, 16, 32, 64};
        const int w = bitsSel[rndInt(0, 3)];
        const uint64_t a = rnd() >> rndInt(0, 63), b = rnd() >> rndInt(0, 63);
        const __int128 sa = signExtend(a, w), sb = signExtend(b, w);
        const unsigned __int128 ua = truncBits(a, w), ub = truncBits(b, w);
        if (ub != 0) {
            if (divInt(a, b, w, false) != uint64_t(ua / ub)) ++bad;
            if (remInt(a, b, w, false) != uint64_t(ua % ub)) ++bad;
        }
        if (sb != 0) {
            if (divInt(a, b, w, true) != truncBits(uint64_t((unsigned __int128)(sa / sb)), w)) ++bad;
            if (remInt(a, b, w, true) != truncBits(uint64_t((unsigned __int128)(sa % sb)), w)) ++bad;
        }
        if (w >= 16) {
            if (mulHi(a, b, w, true) != truncBits(uint64_t((unsigned __int128)(sa * sb) >> w), w)) ++bad;
            if (mulHi(a, b, w, false) != truncBits(uint64_t((ua * ub) >> w), w)) ++bad;
        }
        const uint32_t n = uint32_t(rndInt(0, 70));
        const uint64_t shlRef = n >= uint32_t(w) ? 0 : truncBits(uint64_t(ua << n), w);
        if (ops::shl(a, n, w) != shlRef) ++bad;
        const __int128 shrS = sa >> std::min<uint32_t>(n, 127);
        if (ops::shrS(a, n, w) != truncBits(uint64_t((unsigned __int128)shrS), w)) ++bad;
        if (ops::shrU(a, n, w) != (n >= uint32_t(w) ? 0 : uint64_t(ua >> n))) ++bad;
        // bfe against the ISA pseudo-code, bit by bit
        if (w >= 32) {
            const uint32_t pos = uint32_t(rndInt(0, 80)), len = uint32_t(rndInt(0, 80));
            const uint32_t msb = uint32_t(w - 1);
            for (int s = 0; s < 2; ++s) {
                const bool sgnd = s == 1;
                int sbit = 0;
                if (sgnd && len != 0) sbit = int((a >> std::min(pos + len - 1, msb)) & 1);
                uint64_t d = 0;
                for (uint32_t k = 0; k <= msb; ++k) {
                    int bit = (k < len && pos + k <= msb) ? int((a >> (pos + k)) & 1) : sbit;
                    d |= uint64_t(bit) << k;
                }
                if (bfe(a, pos, len, w, sgnd) != d) ++bad;
            }
            uint64_t f = truncBits(b, w);
            for (uint32_t k = 0; k < len && pos + k <= msb; ++k)
                f = (f & ~(1ull << (pos + k))) | (((a >> k) & 1) << (pos + k));
            if (bfi(a, b, pos, len, w) != f) ++bad;
        }
    }
    CHECK(bad == 0);
}

// sim/ops.hpp: the bodies both executors (the general path and the pre-decoded handlers) call,
// against references computed another way: 128-bit products, the host's IEEE arithmetic, and
// the general-width helpers of arith.
TEST_CASE("ops bodies: the shared per-lane semantics against independent references", "[sim]") {
    std::mt19937_64 r(2032);
    int bad = 0;
    for (int i = 0; i < 20000; ++i) {
        const uint64_t a = r() >> (r() % 64), b = r() >> (r() % 64), c = r();
        const uint32_t a32 = uint32_t(a), b32 = uint32_t(b), c32 = uint32_t(c);
        // mul.wide: the exact product (128-bit) cut to twice the source width.
        if (ops::mulWide(int32_t(a32), int32_t(b32)) != uint64_t((__int128)int32_t(a32) * int32_t(b32))) ++bad;
        if (ops::mulWide(a32, b32) != uint64_t((unsigned __int128)a32 * b32)) ++bad;
        if (ops::mulWide(int16_t(a), int16_t(b)) != uint64_t(uint32_t(int32_t(int16_t(a)) * int16_t(b)))) ++bad;
        if (ops::mulWide(uint16_t(a), uint16_t(b)) != uint64_t(uint32_t(uint16_t(a)) * uint16_t(b))) ++bad;
        if (ops::mulWide(int32_t(a32), int32_t(b32)) != mulWide(a32, b32, 32, true)) ++bad;
        if (ops::mulWide(int16_t(a), int16_t(b)) != mulWide(a, b, 16, true)) ++bad;
        // Wrapping integer arithmetic at 32 bits equals the 64-bit slot masked to 32 bits (the
        // handlers store 32-bit lanes, the general path 64-bit slots masked to the width).
        if (ops::add(a32, b32) != uint32_t(ops::add(a, b))) ++bad;
        if (ops::sub(a32, b32) != uint32_t(ops::sub(a, b))) ++bad;
        if (ops::mulLo(a32, b32) != uint32_t(ops::mulLo(a, b))) ++bad;
        if (ops::madLo(a32, b32, c32) != uint32_t(ops::madLo(a, b, c))) ++bad;
        // Shifts: the lane-typed body and the run-time-width form; an amount past the width clamps.
        const uint32_t n = uint32_t(r() % 40);
        if (ops::shl(a32, n) != (n >= 32 ? 0u : uint32_t(uint64_t(a32) << n))) ++bad;
        if (ops::shrU(a32, n) != (n >= 32 ? 0u : a32 >> n)) ++bad;
        if (ops::shrS(a32, n) != uint32_t(int64_t(int32_t(a32)) >> std::min(n, 31u))) ++bad;
        if (ops::shrS(a, n, 32) != ops::shrS(a32, n)) ++bad;
        // cvt between integers.
        if (ops::widen(int32_t(a32)) != uint64_t(int64_t(int32_t(a32)))) ++bad;
        if (ops::widen(uint16_t(a)) != (a & 0xffff)) ++bad;
        // setp on integers: each comparison against arith's general-width compareInt.
        for (CmpOp op : {CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge, CmpOp::Lo, CmpOp::Ls, CmpOp::Hi, CmpOp::Hs}) {
            const bool sgn = op != CmpOp::Lo && op != CmpOp::Ls && op != CmpOp::Hi && op != CmpOp::Hs && (i & 1);
            uint32_t x[32], y[32];
            for (int l = 0; l < 32; ++l) {
                x[l] = uint32_t(r() >> (r() % 32));
                y[l] = l % 3 == 0 ? x[l] : uint32_t(r());
            }
            const uint32_t got = sgn ? ops::compareLanes<int32_t>(op, x, y) : ops::compareLanes<uint32_t>(op, x, y);
            uint32_t want = 0;
            for (int l = 0; l < 32; ++l) want |= uint32_t(compareInt(op, x[l], y[l], 32, sgn)) << l;
            if (got != want) ++bad;
        }
        // f32 add/sub/mul/fma .rn: the host's IEEE result, any NaN canonical.
        const float fa = std::bit_cast<float>(a32), fb = std::bit_cast<float>(b32), fc = std::bit_cast<float>(c32);
        auto canon = [](float v) { return v != v ? 0x7fffffffu : std::bit_cast<uint32_t>(v); };
        if (ops::addF32(a32, b32) != canon(fa + fb)) ++bad;
        if (ops::subF32(a32, b32) != canon(fa - fb)) ++bad;
        if (ops::mulF32(a32, b32) != canon(fa * fb)) ++bad;
        if (ops::fmaF32(a32, b32, c32) != canon(std::fma(fa, fb, fc))) ++bad;
    }
    CHECK(bad == 0);
    CHECK(ops::addF32(0x7f800000u, 0xff800000u) == 0x7fffffffu);   // inf + -inf: the GPU's NaN
    CHECK(ops::mulWide(int32_t(-2), int32_t(3)) == uint64_t(-6));
    CHECK(ops::shrS(0x80000000u, 40) == 0xffffffffu);
}

TEST_CASE("ops::divRnF32 and ops::compareF32Lanes are divF32 and compareF32 bit for bit", "[arith][f32][random]") {
    // divRnF32 takes float(a / b in double) where that is a normal f32 and divF32 otherwise:
    // random operands, specials, and quotients at the edges of the normal range (subnormal and
    // overflowing results, and the ones just inside), which divF32 itself checks against the
    // exact reference above.
    std::mt19937_64 r(3737);
    const uint32_t specials[] = {0u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u, 0x00000001u,
                                 0x807fffffu, 0x00800000u, 0x7f7fffffu, 0x3f800000u, 0xbf800000u};
    int bad = 0, n = 0, edges = 0;
    for (int i = 0; i < 60000; ++i) {
        uint32_t a, b;
        switch (i % 4) {
        case 0: a = genF32(0); b = genF32(a); break;
        case 1: a = uint32_t(r()); b = uint32_t(r()); break;
        case 2: a = specials[r() % std::size(specials)]; b = rndInt(0, 1) ? specials[r() % std::size(specials)] : uint32_t(r()); break;
        default: {   // |a / b| near 2^-126 or near the largest finite f32: b = a / target, nudged
            a = uint32_t(r());
            const float target = (r() & 1) ? 0x1p-126f : 0x1.fffffep127f;
            b = B(F(a) / target) + uint32_t(int(r() % 5) - 2);
            if (std::isfinite(F(a)) && std::isfinite(F(b)) && F(b) != 0.0f) ++edges;
            break;
        }
        }
        ++n;
        if (ops::divRnF32(a, b) != B(divF32(F(a), F(b), Round::RN, false))) ++bad;
        // Eight lanes per comparison: the lane masks equal compareF32 lane by lane.
        uint32_t xs[32], ys[32];
        for (int l = 0; l < 32; ++l) {
            xs[l] = l % 3 == 0 ? specials[r() % std::size(specials)] : uint32_t(r());
            ys[l] = l % 5 == 0 ? xs[l] : l % 4 == 0 ? specials[r() % std::size(specials)] : uint32_t(r());
        }
        if (i % 64 == 0)
            for (int op = 0; op <= int(CmpOp::Nan); ++op) {
                uint32_t want = 0;
                for (int l = 0; l < 32; ++l) want |= uint32_t(compareF32(CmpOp(op), F(xs[l]), F(ys[l]), false)) << l;
                if (ops::compareF32Lanes(CmpOp(op), xs, ys) != want) ++bad;
            }
    }
    CHECK(bad == 0);
    CHECK(n == 60000);
    CHECK(edges > 5000);
}
