// Tensor-core instructions: fragment layouts (the PTX ISA's for mma.sync, the H100's for wmma),
// the block arithmetic on a case where it differs from IEEE, and the mistakes the engine reports
// (tests/kernels/tensor.cu's bad_* kernels). Results against hardware: tests/golden/wmma-*, mma-sync.
#include "support.hpp"

#include "base/error.hpp"
#include "sim/tensor.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <climits>
#include <random>
#include <set>

using namespace warpscope;
using namespace warpscope::sim;
using wst::arg;

namespace {
MatrixOp mma(int m, int n, int k, ElemType in, ElemType acc) {
    MatrixOp op;
    op.kind = MatrixKind::Mma;
    op.m = m, op.n = n, op.k = k;
    op.atype = op.btype = in;
    op.ctype = op.dtype = acc;
    return op;
}

Error expectError(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e;
    }
    FAIL("expected a warpscope::Error");
    throw std::logic_error("unreachable");
}
} // namespace

TEST_CASE("mma.sync m16n8k16 f16 fragments follow the PTX ISA's lane tables", "[sim][tensor]") {
    MatrixOp op = mma(16, 8, 16, ElemType::F16, ElemType::F32);
    // Lane 5: groupID 1, threadID_in_group 1.
    auto a = fragmentElements(op, Frag::A, 5);
    REQUIRE(a.size() == 8);
    const int want[8][4] = {{0, 0, 1, 2}, {0, 1, 1, 3}, {1, 0, 9, 2}, {1, 1, 9, 3}, {2, 0, 1, 10}, {2, 1, 1, 11}, {3, 0, 9, 10}, {3, 1, 9, 11}};
    for (int i = 0; i < 8; ++i) {
        INFO("element " << i);
        CHECK(int(a[size_t(i)].reg) == want[i][0]);
        CHECK(int(a[size_t(i)].sub) == want[i][1]);
        CHECK(int(a[size_t(i)].row) == want[i][2]);
        CHECK(int(a[size_t(i)].col) == want[i][3]);
    }
    auto b = fragmentElements(op, Frag::B, 5);   // b0,b1: rows 2t, 2t+1; b2,b3: rows 2t+8, 2t+9; column g
    REQUIRE(b.size() == 4);
    CHECK((b[0].row == 2 && b[1].row == 3 && b[2].row == 10 && b[3].row == 11));
    CHECK((b[0].col == 1 && b[3].col == 1));
    auto c = fragmentElements(op, Frag::C, 5);   // c0,c1: row g, columns 2t, 2t+1; c2,c3: row g+8
    REQUIRE(c.size() == 4);
    CHECK((c[0].row == 1 && c[0].col == 2 && c[3].row == 9 && c[3].col == 3));
}

TEST_CASE("every element of every fragment has exactly one holder (wmma f16 A and B: two)", "[sim][tensor]") {
    struct Shape {
        MatrixKind kind;
        int m, n, k;
        ElemType in, acc;
    };
    const Shape shapes[] = {
        {MatrixKind::Mma, 16, 8, 16, ElemType::F16, ElemType::F32},  {MatrixKind::Mma, 16, 8, 8, ElemType::BF16, ElemType::F32},
        {MatrixKind::Mma, 16, 8, 8, ElemType::TF32, ElemType::F32},  {MatrixKind::Mma, 16, 8, 4, ElemType::TF32, ElemType::F32},
        {MatrixKind::Mma, 16, 8, 32, ElemType::S8, ElemType::S32},   {MatrixKind::Mma, 16, 8, 16, ElemType::U8, ElemType::S32},
        {MatrixKind::Mma, 16, 8, 16, ElemType::F16, ElemType::F16},  {MatrixKind::WmmaMma, 16, 16, 16, ElemType::F16, ElemType::F32},
        {MatrixKind::WmmaMma, 16, 16, 16, ElemType::BF16, ElemType::F32}, {MatrixKind::WmmaMma, 16, 16, 8, ElemType::TF32, ElemType::F32},
        {MatrixKind::WmmaMma, 16, 16, 16, ElemType::S8, ElemType::S32}, {MatrixKind::WmmaMma, 16, 16, 16, ElemType::F16, ElemType::F16},
    };
    for (const Shape& s : shapes) {
        MatrixOp op = mma(s.m, s.n, s.k, s.in, s.acc);
        op.kind = s.kind;
        INFO(describe(op));
        for (Frag f : {Frag::A, Frag::B, Frag::C}) {
            std::map<std::pair<int, int>, int> holders;
            std::set<std::tuple<int, int, int>> slots;   // (lane, reg, sub) used once
            for (int l = 0; l < 32; ++l)
                for (const FragElem& e : fragmentElements(op, f, l)) {
                    ++holders[{e.row, e.col}];
                    CHECK(slots.insert({l, e.reg, e.sub}).second);
                    CHECK(int(e.row) < fragRows(op, f));
                    CHECK(int(e.col) < fragCols(op, f));
                }
            const int expect = (s.kind == MatrixKind::WmmaMma && s.in == ElemType::F16 && f != Frag::C) ? 2 : 1;
            CHECK(int(holders.size()) == fragRows(op, f) * fragCols(op, f));
            for (auto& [rc, n] : holders) CHECK(n == expect);
        }
    }
}

TEST_CASE("tensor-core sums truncate: 1 + (2^-24 + 2^-26) is 1, where IEEE rounding gives 1 + 2^-23", "[sim][tensor]") {
    MatrixOp op = mma(16, 8, 16, ElemType::F16, ElemType::F32);
    uint32_t a[16] = {}, b[16] = {};
    a[0] = 0x0d00;   // 1.25 * 2^-12 in f16
    b[0] = 0x0c00;   // 2^-12
    const uint32_t one = std::bit_cast<uint32_t>(1.0f);
    CHECK(dotProduct(op, a, b, 16, one) == one);
    // Sixteen products of 1 sum exactly.
    for (int i = 0; i < 16; ++i) a[i] = b[i] = 0x3c00;
    CHECK(dotProduct(op, a, b, 16, 0) == std::bit_cast<uint32_t>(16.0f));
    // A NaN anywhere gives the canonical NaN; inf * 0 too.
    a[3] = 0x7e00;
    CHECK(dotProduct(op, a, b, 16, 0) == 0x7fffffffu);
    a[3] = 0x7c00;
    b[3] = 0;
    CHECK(dotProduct(op, a, b, 16, 0) == 0x7fffffffu);
    // Integers: exact, wrapping; saturating with .satfinite.
    MatrixOp iop = mma(16, 8, 16, ElemType::S8, ElemType::S32);
    uint32_t x[16], y[16];
    for (int i = 0; i < 16; ++i) x[i] = 0x80, y[i] = 0x80;   // (-128)^2 * 16 = 262144
    CHECK(dotProductInt(iop, x, y, 16, 0x7fffffffu) == uint32_t(0x7fffffffu + 262144u));
    iop.satfinite = true;
    CHECK(dotProductInt(iop, x, y, 16, 0x7fffffffu) == 0x7fffffffu);
}

TEST_CASE("a warp-wide matrix load in divergent code is an error at the lane, not a silent result", "[sim][tensor]") {
    wst::Sim sim("tests/kernels/tensor.ptx");
    auto a = sim.upload(std::vector<uint16_t>(256, 0x3c00), "a");
    auto out = sim.upload(std::vector<float>(32, 0.f), "out");
    Error e = expectError([&] { sim.launch("bad_divergent", 1, 32, {arg(a), arg(out)}); });
    CHECK(e.kind() == Error::Kind::Fault);
    CHECK(std::string(e.what()).find("warp-wide") != std::string::npos);
    REQUIRE(e.site().lane.has_value());
    CHECK(*e.site().lane == 16);
}

TEST_CASE("a misaligned ldmatrix row address is a fault naming the lane", "[sim][tensor]") {
    wst::Sim sim("tests/kernels/tensor.ptx");
    auto out = sim.upload(std::vector<uint32_t>(32, 0), "out");
    Error e = expectError([&] { sim.launch("bad_ldmatrix", 1, 32, {arg(out)}); });
    CHECK(e.kind() == Error::Kind::Fault);
    CHECK(std::string(e.what()).find("Misaligned") != std::string::npos);
    REQUIRE(e.site().lane.has_value());
    CHECK(*e.site().lane == 3);
}

TEST_CASE("an mma shape the engine does not model is an error naming it and the PTX line", "[sim][tensor]") {
    wst::Sim sim("tests/kernels/tensor.ptx");
    auto in = sim.upload(std::vector<uint32_t>(4, 0x3c003c00u), "in");
    auto out = sim.upload(std::vector<float>(256, 0.f), "out");
    Error e = expectError([&] { sim.launch("bad_shape", 1, 32, {arg(in), arg(out)}); });
    CHECK(e.kind() == Error::Kind::Unsupported);
    const std::string msg = e.what();
    CHECK(msg.find("m8n8k4") != std::string::npos);
    CHECK(msg.find("PTX line") != std::string::npos);
}

TEST_CASE("fragment view: the wmma f16 A tile from the H100 dump, ldmatrix .trans, and an instruction's operands", "[sim][tensor]") {
    MatrixOp op = mma(16, 16, 16, ElemType::F16, ElemType::F32);
    op.kind = MatrixKind::WmmaMma;
    FragmentMap a = fragmentMap(op, Frag::A);
    CHECK(a.rows == 16);
    CHECK(a.cols == 16);
    // tests/golden/wmma-fragments: lane 0 holds (0,0),(0,1),(8,0),(8,1),(0,8),... in registers 0..3 and again in 4..7.
    REQUIRE(a.at(8, 1).size() == 2);
    CHECK(int(a.at(8, 1)[0].lane) == 0);
    CHECK(int(a.at(8, 1)[0].reg) == 1);
    CHECK(int(a.at(8, 1)[0].sub) == 1);
    CHECK(int(a.at(8, 1)[1].reg) == 5);
    CHECK(int(a.at(15, 15)[0].lane) == 31);
    FragmentMap d = fragmentMap(op, Frag::D);   // right half of the tile in registers 4..7
    REQUIRE(d.at(0, 8).size() == 1);
    CHECK(int(d.at(0, 8)[0].lane) == 0);
    CHECK(int(d.at(0, 8)[0].reg) == 4);
    CHECK(fragmentsOf(op).size() == 4);
    MatrixOp ld;
    ld.kind = MatrixKind::Ldmatrix;
    ld.count = 2;
    ld.trans = true;
    FragmentMap l = fragmentMap(ld, Frag::D);
    CHECK(l.cols == 16);
    // .trans: lane 1 receives rows 2 and 3 of column 0 of each matrix.
    REQUIRE(l.at(2, 0).size() == 1);
    CHECK(int(l.at(2, 0)[0].lane) == 1);
    CHECK(int(l.at(3, 8)[0].lane) == 1);
    CHECK(int(l.at(3, 8)[0].reg) == 1);
}

// ---------------------------------------------------------------- the tile path equals the element path
// mmaTile (the executor's path: each input unpacked once, the sum over pre-unpacked terms) and
// dotProduct must give the bits the arithmetic gave before they shared blockSum. `reference`
// below is that earlier implementation, kept verbatim in the test: one unpack per use, the
// specials and the block sum in one function.
namespace reference {

struct Unpacked {
    bool neg = false, zero = false, inf = false, nan = false;
    int64_t sig = 0;
    int exp = 0;
    int lsb = 0;
};

Unpacked unpack(uint32_t bits, ElemType t) {
    int ebits, mbits;
    uint32_t v;
    switch (t) {
    case ElemType::F16: ebits = 5, mbits = 10, v = bits & 0xffff; break;
    case ElemType::BF16: ebits = 8, mbits = 7, v = bits & 0xffff; break;
    case ElemType::TF32: ebits = 8, mbits = 23, v = bits & 0xffffe000u; break;
    default: ebits = 8, mbits = 23, v = bits; break;
    }
    const int total = 1 + ebits + mbits, bias = (1 << (ebits - 1)) - 1;
    Unpacked u;
    u.neg = (v >> (total - 1)) & 1;
    const uint32_t e = (v >> mbits) & ((1u << ebits) - 1), m = v & ((1u << mbits) - 1);
    if (e == (1u << ebits) - 1) {
        if (m) u.nan = true;
        else u.inf = true;
        return u;
    }
    if (e == 0 && m == 0) {
        u.zero = true;
        return u;
    }
    u.exp = (e == 0 ? 1 : int(e)) - bias;
    u.sig = e == 0 ? m : (m | (1u << mbits));
    u.lsb = u.exp - mbits;
    return u;
}

uint32_t packF32RZ(bool neg, uint64_t mag, int q) {
    if (mag == 0) return neg ? 0x80000000u : 0;
    const uint32_t sign = neg ? 0x80000000u : 0;
    const int len = 64 - std::countl_zero(mag);
    int e = q + len - 1;
    int shift = len - 24;
    if (e < -126) shift = -149 - q;
    uint64_t m = shift >= 64 ? 0 : shift > 0 ? mag >> shift : mag << -shift;
    if (e > 127) return sign | 0x7f800000u;
    if (e < -126) return sign | uint32_t(m);
    return sign | (uint32_t(e + 127) << 23) | (uint32_t(m) & 0x7fffffu);
}

uint32_t packF16RN(bool neg, uint64_t mag, int q) {
    const uint32_t sign = neg ? 0x8000u : 0;
    if (mag == 0) return sign;
    const int len = 64 - std::countl_zero(mag);
    int e = q + len - 1;
    int shift = e < -14 ? -24 - q : len - 11;
    uint64_t m;
    if (shift <= 0) {
        m = mag << -shift;
    } else if (shift >= 64) {
        m = 0;
    } else {
        m = mag >> shift;
        const uint64_t rem = mag & ((uint64_t(1) << shift) - 1), half = uint64_t(1) << (shift - 1);
        if (rem > half || (rem == half && (m & 1))) ++m;
    }
    if (e < -14) return sign | uint32_t(m);
    if (m >> 11) {
        m >>= 1;
        ++e;
    }
    if (e > 15) return sign | 0x7c00u;
    return sign | (uint32_t(e + 15) << 10) | (uint32_t(m) & 0x3ffu);
}

int blockOf(const MatrixOp& op) {
    if (op.atype == ElemType::TF32) return op.kind == MatrixKind::WmmaMma ? 4 : op.k;
    return std::min(op.k, 16);
}

uint32_t dotProduct(const MatrixOp& op, const uint32_t* a, const uint32_t* b, int kk, uint32_t c) {
    const bool f16acc = op.ctype == ElemType::F16;
    const bool f16out = op.dtype == ElemType::F16;
    const uint32_t canonicalNaN = f16out ? 0x7fffu : 0x7fffffffu;
    bool anyNaN = false, posInf = false, negInf = false;
    for (int i = 0; i < kk; ++i) {
        Unpacked x = unpack(a[i], op.atype), y = unpack(b[i], op.btype);
        if (x.nan || y.nan || (x.inf && y.zero) || (x.zero && y.inf)) anyNaN = true;
        else if (x.inf || y.inf) (x.neg != y.neg ? negInf : posInf) = true;
    }
    Unpacked cu = unpack(c, f16acc ? ElemType::F16 : ElemType::F32);
    if (cu.nan) anyNaN = true;
    else if (cu.inf) (cu.neg ? negInf : posInf) = true;
    if (anyNaN || (posInf && negInf)) return canonicalNaN;
    if (posInf || negInf) return f16out ? (negInf ? 0xfc00u : 0x7c00u) : (negInf ? 0xff800000u : 0x7f800000u);
    const int block = blockOf(op);
    bool accNeg = cu.neg, accZero = cu.zero;
    int64_t accSig = cu.sig;
    int accLsb = cu.lsb, accExp = cu.exp;
    uint32_t result = 0;
    for (int k0 = 0; k0 < kk; k0 += block) {
        struct Term {
            bool neg;
            int64_t sig;
            int lsb, exp;
        } terms[17];
        int nt = 0;
        bool allNegZero = accZero ? accNeg : false;
        for (int i = k0; i < k0 + block && i < kk; ++i) {
            Unpacked x = unpack(a[i], op.atype), y = unpack(b[i], op.btype);
            if (x.zero || y.zero) {
                allNegZero = allNegZero && (x.neg != y.neg);
                continue;
            }
            allNegZero = false;
            terms[nt++] = Term{x.neg != y.neg, x.sig * y.sig, x.lsb + y.lsb, x.exp + y.exp};
        }
        if (!accZero) {
            terms[nt++] = Term{accNeg, accSig, accLsb, accExp};
            allNegZero = false;
        }
        int64_t sum = 0;
        int q = 0;
        if (nt > 0) {
            int emax = INT_MIN;
            for (int i = 0; i < nt; ++i) emax = std::max(emax, terms[i].exp);
            q = emax - 25;
            for (int i = 0; i < nt; ++i) {
                const int sh = terms[i].lsb - q;
                int64_t v = sh >= 0 ? (sh >= 40 ? 0 : terms[i].sig << sh) : (-sh >= 63 ? 0 : terms[i].sig >> -sh);
                sum += terms[i].neg ? -v : v;
            }
        }
        const bool neg = sum < 0 || (sum == 0 && nt == 0 && allNegZero);
        const uint64_t mag = sum < 0 ? uint64_t(-sum) : uint64_t(sum);
        const bool last = k0 + block >= kk;
        if (f16out && last) return packF16RN(neg, mag, q);
        result = packF32RZ(neg, mag, q);
        if (!last) {
            if (f16out || f16acc) {
                accNeg = neg;
                accZero = mag == 0;
                accSig = int64_t(mag);
                accLsb = q;
                accExp = mag ? q + (63 - std::countl_zero(mag)) : 0;
            } else {
                Unpacked u = unpack(result, ElemType::F32);
                accNeg = u.neg;
                accZero = u.zero;
                accSig = u.sig;
                accLsb = u.lsb;
                accExp = u.exp;
            }
        }
    }
    return result;
}

} // namespace reference

namespace {

// Raw bits of one input in type t: mostly values near a common scale (sums that cancel, products
// of mixed signs), some zeros of either sign, subnormals, the largest finite values, and now and
// then an infinity or a NaN (when `specials`).
uint32_t randomBits(std::mt19937& rng, ElemType t, bool specials) {
    const int ebits = t == ElemType::F16 ? 5 : 8, mbits = t == ElemType::F16 || t == ElemType::TF32 ? 10 : t == ElemType::BF16 ? 7 : 23;
    const uint32_t emaxField = (1u << ebits) - 1, bias = emaxField / 2;
    const uint32_t sign = (rng() & 1) << (ebits + mbits);
    const uint32_t mant = rng() & ((1u << mbits) - 1);
    const int pick = int(rng() % 100);
    uint32_t e;
    if (pick < 60) e = bias + (rng() % 7) - 3;                 // near 1: cancellation and alignment
    else if (pick < 70) e = 0;                                 // subnormal (or zero when mant is 0)
    else if (pick < 78) e = 0;                                 // +-0 (below)
    else if (pick < 84) e = emaxField - 1;                     // the largest exponents: overflow
    else if (pick < 90) e = 1 + rng() % (emaxField - 1);       // anything finite
    else if (pick < 95 && specials) e = emaxField;             // infinity or NaN
    else e = bias - 12 + rng() % 5;                            // small: truncated away
    uint32_t v = sign | (e << mbits) | ((e == emaxField && (rng() & 1)) || (pick >= 70 && pick < 78) ? 0 : mant);
    if (t == ElemType::TF32) v = (v << 13) | (rng() & 0x1fffu);   // tf32: an f32's bits, the ignored low 13 at random
    return v;
}

MatrixOp wmmaOp(int k, ElemType in, ElemType c, ElemType d) {
    MatrixOp op;
    op.kind = MatrixKind::WmmaMma;
    op.m = 16, op.n = 16, op.k = k;
    op.atype = op.btype = in;
    op.ctype = c, op.dtype = d;
    return op;
}

} // namespace

TEST_CASE("mmaTile and dotProduct give the earlier arithmetic's bits: random tiles with subnormals, infinities, NaN, cancellation", "[sim][tensor]") {
    std::vector<MatrixOp> ops = {
        mma(16, 8, 16, ElemType::F16, ElemType::F32),   mma(16, 8, 8, ElemType::F16, ElemType::F32),
        mma(16, 8, 16, ElemType::BF16, ElemType::F32),  mma(16, 8, 8, ElemType::BF16, ElemType::F32),
        mma(16, 8, 8, ElemType::TF32, ElemType::F32),   mma(16, 8, 4, ElemType::TF32, ElemType::F32),
        mma(16, 8, 16, ElemType::F16, ElemType::F16),   mma(16, 8, 8, ElemType::F16, ElemType::F16),
        wmmaOp(16, ElemType::F16, ElemType::F32, ElemType::F32), wmmaOp(16, ElemType::F16, ElemType::F16, ElemType::F16),
        wmmaOp(16, ElemType::F16, ElemType::F16, ElemType::F32), wmmaOp(16, ElemType::F16, ElemType::F32, ElemType::F16),
        wmmaOp(16, ElemType::BF16, ElemType::F32, ElemType::F32), wmmaOp(8, ElemType::TF32, ElemType::F32, ElemType::F32),
    };
    // Two of them with k = 32 (two blocks of 16 chained through the accumulator) exercise the
    // chaining for every accumulator type; the engine's instructions stop at k16, the arithmetic does not.
    ops.push_back(mma(16, 8, 32, ElemType::F16, ElemType::F32));
    ops.push_back(mma(16, 8, 32, ElemType::F16, ElemType::F16));
    std::mt19937 rng(31337);
    size_t compared = 0, specialResults = 0, zeros = 0;
    for (const MatrixOp& op : ops) {
        const int rows = op.m, cols = op.n, kk = op.k;
        const ElemType ct = op.ctype == ElemType::F16 ? ElemType::F16 : ElemType::F32;
        for (int round = 0; round < 60; ++round) {
            const bool specials = round % 3 == 0;   // most tiles finite: the unpacked fast sums
            std::vector<uint32_t> a(size_t(rows * kk)), b(size_t(kk * cols)), c(size_t(rows * cols)), d(c.size());
            for (auto& v : a) v = randomBits(rng, op.atype, specials);
            for (auto& v : b) v = randomBits(rng, op.btype, specials);
            for (auto& v : c) v = randomBits(rng, ct, specials);
            if (round % 10 == 1) {   // every product -0 or +0, accumulators +-0: the sign of a zero sum
                const uint32_t negZero = op.atype == ElemType::TF32 ? 0x80000000u : 0x8000u;
                for (auto& v : a) v = (rng() % 4) ? negZero : 0;
                for (auto& v : c) v = (rng() % 2) ? (ct == ElemType::F16 ? 0x8000u : 0x80000000u) : 0;
            }
            mmaTile(op, a.data(), b.data(), c.data(), d.data(), rows, cols, kk);
            std::vector<uint32_t> dScalar(c.size());   // the scalar loops (the AVX2 ones above where the CPU has them)
            mmaTile(op, a.data(), b.data(), c.data(), dScalar.data(), rows, cols, kk, false);
            if (dScalar != d) {
                INFO(describe(op) << " round " << round << ": the scalar and vectorised tile differ");
                CHECK(false);
            }
            for (int r = 0; r < rows; ++r)
                for (int cc = 0; cc < cols; ++cc) {
                    std::vector<uint32_t> col(static_cast<size_t>(kk));
                    for (int k = 0; k < kk; ++k) col[size_t(k)] = b[size_t(k * cols + cc)];
                    const uint32_t cv = c[size_t(r * cols + cc)];
                    const uint32_t want = reference::dotProduct(op, a.data() + size_t(r * kk), col.data(), kk, cv);
                    const uint32_t one = dotProduct(op, a.data() + size_t(r * kk), col.data(), kk, cv);
                    const uint32_t tile = d[size_t(r * cols + cc)];
                    if (want != one || want != tile) {
                        INFO(describe(op) << " round " << round << " element " << r << "," << cc << std::hex << ": reference 0x" << want << ", dotProduct 0x" << one
                                          << ", mmaTile 0x" << tile);
                        CHECK(false);
                    }
                    ++compared;
                    const uint32_t mag = op.dtype == ElemType::F16 ? (want & 0x7fffu) : (want & 0x7fffffffu);
                    const uint32_t infBits = op.dtype == ElemType::F16 ? 0x7c00u : 0x7f800000u;
                    if (mag >= infBits) ++specialResults;
                    if (mag == 0) ++zeros;
                }
        }
    }
    // The inputs reached the cases they are for.
    CHECK(compared > 100000);
    CHECK(specialResults > 1000);
    CHECK(zeros > 1000);
    INFO("AVX2 loops on this CPU: " << tensorVectorized());
    CHECK(compared > 0);
}
