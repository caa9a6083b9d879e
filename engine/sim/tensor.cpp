// Tensor-core instructions: fragment layouts, the H100's dot-product arithmetic, pipe costs
// (see tensor.hpp for what was measured and where).
//
// Sections: 1. Names  2. Fragment layouts  3. Arithmetic  4. Costs
#include "sim/tensor.hpp"

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <stdexcept>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace warpscope::sim {

// ---------------------------------------------------------------- 1. Names
std::string_view elemTypeName(ElemType t) {
    switch (t) {
    case ElemType::None: return "none";
    case ElemType::F16: return "f16";
    case ElemType::BF16: return "bf16";
    case ElemType::TF32: return "tf32";
    case ElemType::F32: return "f32";
    case ElemType::S8: return "s8";
    case ElemType::U8: return "u8";
    case ElemType::S32: return "s32";
    case ElemType::B16: return "b16";
    }
    return "?";
}

std::vector<uint32_t> MatrixOp::reads() const {
    std::vector<uint32_t> r;
    auto add = [&](const std::vector<Operand>& v) {
        for (const Operand& o : v)
            if (o.kind == Operand::Kind::Reg) r.push_back(o.index);
    };
    switch (kind) {
    case MatrixKind::WmmaStore: add(a); break;
    case MatrixKind::WmmaMma: case MatrixKind::Mma: add(a); add(b); add(c); break;
    case MatrixKind::Movmatrix: add(a); break;
    default: break;
    }
    return r;
}

std::vector<uint32_t> MatrixOp::writes() const {
    std::vector<uint32_t> r;
    if (kind == MatrixKind::WmmaStore) return r;
    for (const Operand& o : d)
        if (o.kind == Operand::Kind::Reg) r.push_back(o.index);
    return r;
}

std::string describe(const MatrixOp& op) {
    std::ostringstream os;
    const char* fr = op.frag == Frag::A ? "a" : op.frag == Frag::B ? "b" : op.frag == Frag::C ? "c" : "d";
    switch (op.kind) {
    case MatrixKind::WmmaLoad:
    case MatrixKind::WmmaStore:
        os << (op.kind == MatrixKind::WmmaLoad ? "wmma.load." : "wmma.store.") << fr << " m" << op.m << "n" << op.n << "k" << op.k << " "
           << elemTypeName(op.atype) << (op.rowMajor ? " row-major" : " column-major");
        break;
    case MatrixKind::WmmaMma:
    case MatrixKind::Mma:
        os << (op.kind == MatrixKind::WmmaMma ? "wmma.mma" : "mma.sync") << " m" << op.m << "n" << op.n << "k" << op.k << " "
           << elemTypeName(op.atype) << " x " << elemTypeName(op.btype) << " + " << elemTypeName(op.ctype) << " -> " << elemTypeName(op.dtype);
        break;
    case MatrixKind::Ldmatrix: os << "ldmatrix m8n8 .x" << op.count << (op.trans ? " .trans" : ""); break;
    case MatrixKind::Movmatrix: os << "movmatrix m8n8 .trans"; break;
    }
    return os.str();
}

// ---------------------------------------------------------------- 2. Fragment layouts
int fragRows(const MatrixOp& op, Frag which) {
    if (op.kind == MatrixKind::Ldmatrix || op.kind == MatrixKind::Movmatrix) return 8;
    switch (which) {
    case Frag::A: return op.m;
    case Frag::B: return op.k;
    default: return op.m;
    }
}

int fragCols(const MatrixOp& op, Frag which) {
    if (op.kind == MatrixKind::Ldmatrix) return 8 * op.count;
    if (op.kind == MatrixKind::Movmatrix) return 8;
    switch (which) {
    case Frag::A: return op.k;
    case Frag::B: return op.n;
    default: return op.n;
    }
}

ElemType fragType(const MatrixOp& op, Frag which) {
    if (op.kind == MatrixKind::WmmaLoad || op.kind == MatrixKind::WmmaStore) return op.atype;
    if (op.kind == MatrixKind::Ldmatrix || op.kind == MatrixKind::Movmatrix) return ElemType::B16;
    switch (which) {
    case Frag::A: return op.atype;
    case Frag::B: return op.btype;
    case Frag::C: return op.ctype;
    default: return op.dtype;
    }
}

namespace {

FragElem fe(int reg, int sub, int row, int col) {
    return FragElem{uint8_t(reg), uint8_t(sub), uint8_t(row), uint8_t(col)};
}

bool is16(ElemType t) { return t == ElemType::F16 || t == ElemType::BF16 || t == ElemType::B16; }

// The m16n8kK mma.sync A fragment (PTX ISA, "Matrix fragments for mma.m16n8k*").
void mmaA(std::vector<FragElem>& out, ElemType t, int k, int g, int tq, int regBase) {
    if (is16(t)) {
        const int n = k == 16 ? 8 : 4;
        for (int i = 0; i < n; ++i) out.push_back(fe(regBase + i / 2, i % 2, g + 8 * ((i / 2) % 2), 2 * tq + i % 2 + 8 * (i / 4)));
    } else if (t == ElemType::TF32) {
        const int n = k == 8 ? 4 : 2;
        for (int i = 0; i < n; ++i) out.push_back(fe(regBase + i, 0, g + 8 * (i % 2), tq + 4 * (i / 2)));
    } else {   // 8-bit integers
        const int n = k == 32 ? 16 : 8;
        for (int i = 0; i < n; ++i) out.push_back(fe(regBase + i / 4, i % 4, g + 8 * ((i / 4) % 2), 4 * tq + i % 4 + 16 * (i / 8)));
    }
}

// The m16n8kK mma.sync B fragment (k x 8), its column numbers offset by colBase.
void mmaB(std::vector<FragElem>& out, ElemType t, int k, int g, int tq, int regBase, int colBase) {
    if (is16(t)) {
        const int n = k == 16 ? 4 : 2;
        for (int i = 0; i < n; ++i) out.push_back(fe(regBase + i / 2, i % 2, 2 * tq + i % 2 + 8 * (i / 2), colBase + g));
    } else if (t == ElemType::TF32) {
        const int n = k == 8 ? 2 : 1;
        for (int i = 0; i < n; ++i) out.push_back(fe(regBase + i, 0, tq + 4 * i, colBase + g));
    } else {
        const int n = k == 32 ? 8 : 4;
        for (int i = 0; i < n; ++i) out.push_back(fe(regBase + i / 4, i % 4, 4 * tq + i % 4 + 16 * (i / 4), colBase + g));
    }
}

// The m16n8 accumulator fragment (f32/s32: one element per register; f16: two).
void mmaC(std::vector<FragElem>& out, ElemType t, int g, int tq, int elemBase, int colBase) {
    for (int i = 0; i < 4; ++i) {
        const int e = elemBase + i;
        const int row = g + 8 * (i / 2), col = colBase + 2 * tq + i % 2;
        if (t == ElemType::F16) out.push_back(fe(e / 2, e % 2, row, col));
        else out.push_back(fe(e, 0, row, col));
    }
}

} // namespace

std::vector<FragElem> fragmentElements(const MatrixOp& op, Frag which, int lane) {
    std::vector<FragElem> out;
    const int g = lane >> 2, tq = lane & 3;
    if (op.kind == MatrixKind::Ldmatrix || op.kind == MatrixKind::Movmatrix) {
        // Destination register i holds two elements of matrix i: row lane/4, columns 2(lane%4)
        // and +1; with ldmatrix's .trans: rows 2(lane%4) and +1 of column lane/4. Movmatrix's
        // source and destination both use the plain layout: the destination matrix is the
        // source's transpose.
        const bool tr = op.kind == MatrixKind::Movmatrix ? false : op.trans;
        for (int i = 0; i < op.count; ++i)
            for (int s = 0; s < 2; ++s)
                out.push_back(tr ? fe(i, s, 2 * tq + s, i * 8 + g) : fe(i, s, g, i * 8 + 2 * tq + s));
        return out;
    }
    ElemType t = fragType(op, which);
    if (op.kind == MatrixKind::Mma) {
        if (which == Frag::A) mmaA(out, t, op.k, g, tq, 0);
        else if (which == Frag::B) mmaB(out, t, op.k, g, tq, 0, 0);
        else mmaC(out, t, g, tq, 0, 0);
        return out;
    }
    // wmma: an m16n16 tile as two m16n8 halves (H100; tests/golden/wmma-fragments).
    const int kk = op.k;
    if (which == Frag::A) {
        mmaA(out, t, kk, g, tq, 0);
        if (t == ElemType::F16) {   // registers 4..7 repeat 0..3
            const size_t n = out.size();
            for (size_t i = 0; i < n; ++i) out.push_back(fe(out[i].reg + 4, out[i].sub, out[i].row, out[i].col));
        }
    } else if (which == Frag::B) {
        const int regsPerHalf = is16(t) ? (kk / 8) : t == ElemType::TF32 ? kk / 4 : kk / 16;
        mmaB(out, t, kk, g, tq, 0, 0);
        mmaB(out, t, kk, g, tq, regsPerHalf, 8);
        if (t == ElemType::F16) {
            const size_t n = out.size();
            for (size_t i = 0; i < n; ++i) out.push_back(fe(out[i].reg + 4, out[i].sub, out[i].row, out[i].col));
        }
    } else {
        mmaC(out, t, g, tq, 0, 0);
        mmaC(out, t, g, tq, 4, 8);
    }
    return out;
}

FragmentMap fragmentMap(const MatrixOp& op, Frag which) {
    FragmentMap m;
    m.which = which;
    m.rows = fragRows(op, which);
    m.cols = fragCols(op, which);
    m.type = fragType(op, which);
    m.holders.resize(size_t(m.rows) * size_t(m.cols));
    for (int l = 0; l < 32; ++l)
        for (const FragElem& e : fragmentElements(op, which, l))
            m.holders[size_t(e.row) * size_t(m.cols) + e.col].push_back(FragHolder{uint8_t(l), e.reg, e.sub});
    return m;
}

std::vector<Frag> fragmentsOf(const MatrixOp& op) {
    switch (op.kind) {
    case MatrixKind::WmmaLoad: return {op.frag};
    case MatrixKind::WmmaStore: return {Frag::D};
    case MatrixKind::WmmaMma: case MatrixKind::Mma: return {Frag::A, Frag::B, Frag::C, Frag::D};
    case MatrixKind::Ldmatrix: return {Frag::D};
    case MatrixKind::Movmatrix: return {Frag::A, Frag::D};
    }
    return {};
}

// ---------------------------------------------------------------- 3. Arithmetic
namespace {

// A finite input as sig * 2^(exp - frac): `exp` the unbiased exponent (subnormals: the minimum),
// sig the significand with its hidden bit.
struct Unpacked {
    bool neg = false, zero = false, inf = false, nan = false;
    int64_t sig = 0;
    int exp = 0;      // unbiased exponent of the leading bit position (the format's, for alignment)
    int lsb = 0;      // exponent of sig's last bit: value = sig * 2^lsb
};

Unpacked unpack(uint32_t bits, ElemType t) {
    int ebits, mbits;
    uint32_t v;
    switch (t) {
    case ElemType::F16: ebits = 5, mbits = 10, v = bits & 0xffff; break;
    case ElemType::BF16: ebits = 8, mbits = 7, v = bits & 0xffff; break;
    case ElemType::TF32: ebits = 8, mbits = 23, v = bits & 0xffffe000u; break;   // the low 13 bits are ignored
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

// Rounds sig * 2^q (exact) to f32 toward zero or to f16 to nearest even.
uint32_t packF32RZ(bool neg, uint64_t mag, int q) {
    if (mag == 0) return neg ? 0x80000000u : 0;
    const uint32_t sign = neg ? 0x80000000u : 0;
    const int len = 64 - std::countl_zero(mag);
    int e = q + len - 1;                 // exponent of the leading bit
    int shift = len - 24;                // keep 24 bits
    if (e < -126) shift = -149 - q;      // subnormal: keep bits down to 2^-149
    uint64_t m = shift >= 64 ? 0 : shift > 0 ? mag >> shift : mag << -shift;
    if (e > 127) return sign | 0x7f800000u;   // overflow is infinity, not toward-zero's FLT_MAX (tests/golden/mma-specials)
    if (e < -126) return sign | uint32_t(m);  // subnormal (or zero)
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
    if (e < -14) {   // subnormal; rounding may carry into the smallest normal, which the bits express
        return sign | uint32_t(m);
    }
    if (m >> 11) {
        m >>= 1;
        ++e;
    }
    if (e > 15) return sign | 0x7c00u;
    return sign | (uint32_t(e + 15) << 10) | (uint32_t(m) & 0x3ffu);
}

// Block size of the hardware's fused sum (products per alignment) for a floating mma.
int blockOf(const MatrixOp& op) {
    // wmma m16n16k8 tf32 runs as four m16n8k4 machine instructions: blocks of 4, chained.
    if (op.atype == ElemType::TF32) return op.kind == MatrixKind::WmmaMma ? 4 : op.k;
    return std::min(op.k, 16);
}

} // namespace

namespace {

// An input element unpacked once for every dot product that reads it: exponent (kZeroExp for a
// zero, so that a product with a zero never sets the block's largest exponent), significand
// (0 for a zero), sign, and whether it is an infinity or NaN (those take dotProduct's specials).
constexpr int32_t kZeroExp = -(1 << 20);

int mantBits(ElemType t) { return t == ElemType::F16 ? 10 : t == ElemType::BF16 ? 7 : 23; }

struct Lanes {   // kk unpacked elements, structure of arrays
    int32_t* exp;
    uint32_t* mag;
    uint32_t* neg;   // 0, or all ones for a negative element
};

// unpack()'s fields for finite elements of a format with EB exponent and MB mantissa bits
// (after MASK: tf32 ignores its low 13 bits), written for the sums; returns whether any of the
// n elements is an infinity or NaN (their fields are not used).
template <int EB, int MB, uint32_t MASK>
bool unpackRunT(const uint32_t* bits, size_t stride, int n, Lanes out) {
    constexpr uint32_t eAll = (1u << EB) - 1;
    constexpr int bias = (1 << (EB - 1)) - 1;
    bool special = false;
    for (int i = 0; i < n; ++i) {
        const uint32_t v = bits[size_t(i) * stride] & MASK;
        const uint32_t e = (v >> MB) & eAll, m = v & ((1u << MB) - 1);
        special |= e == eAll;
        out.exp[i] = (e | m) == 0 ? kZeroExp : (e == 0 ? 1 : int(e)) - bias;
        out.mag[i] = e == 0 ? m : (m | (1u << MB));
        out.neg[i] = ((v >> (EB + MB)) & 1) ? ~0u : 0u;
    }
    return special;
}

// Unpacks n elements of type t; returns whether any is an infinity or NaN.
bool unpackRun(const uint32_t* bits, size_t stride, int n, ElemType t, Lanes out) {
    switch (t) {
    case ElemType::F16: return unpackRunT<5, 10, 0xffffu>(bits, stride, n, out);
    case ElemType::BF16: return unpackRunT<8, 7, 0xffffu>(bits, stride, n, out);
    case ElemType::TF32: return unpackRunT<8, 23, 0xffffe000u>(bits, stride, n, out);
    default: return unpackRunT<8, 23, 0xffffffffu>(bits, stride, n, out);
    }
}

// The largest exponent among products i in [k0, k1) (exponents of A's plus B's), from `init`.
inline int maxProductExp(const int32_t* ea, const int32_t* eb, int k0, int k1, int init) {
    int emax = init;
    for (int i = k0; i < k1; ++i) emax = std::max(emax, ea[i] + eb[i]);
    return emax;
}

// The exact sum of products i in [k0, k1), each truncated toward zero at 2^q: `base` is
// -(lsbOff + q), so a product's shift is its exponent plus base.
inline int64_t productSum(const int32_t* ea, const uint32_t* ma, const uint32_t* na, const int32_t* eb, const uint32_t* mb, const uint32_t* nb, int k0, int k1,
                   int base) {
    int64_t sum = 0;
    for (int i = k0; i < k1; ++i) {
        const int sh = ea[i] + eb[i] + base;
        const int64_t sig = int64_t(uint64_t(ma[i]) * uint64_t(mb[i]));
        const int64_t v = sh >= 0 ? (sh >= 40 ? 0 : sig << sh) : (-sh >= 63 ? 0 : sig >> -sh);
        const int64_t s = int32_t(na[i] ^ nb[i]);   // 0, or -1 for a negative product
        sum += (v ^ s) - s;
    }
    return sum;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define WARPSCOPE_TENSOR_AVX2 1
// The same two loops four and eight terms at a time (integer arithmetic: the same bits).
// Runs of 16 (f16/bf16 k16) or 8 for the maximum, of 4 for the sum.
__attribute__((target("avx2"))) int maxProductExp16Avx2(const int32_t* ea, const int32_t* eb, int k0, int init) {
    const __m256i lo = _mm256_add_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(ea + k0)),
                                        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(eb + k0)));
    const __m256i hi = _mm256_add_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(ea + k0 + 8)),
                                        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(eb + k0 + 8)));
    __m256i m = _mm256_max_epi32(lo, hi);
    __m128i h = _mm_max_epi32(_mm256_castsi256_si128(m), _mm256_extracti128_si256(m, 1));
    h = _mm_max_epi32(h, _mm_shuffle_epi32(h, 0x4e));
    h = _mm_max_epi32(h, _mm_shuffle_epi32(h, 0xb1));
    return std::max(init, _mm_cvtsi128_si32(h));
}

__attribute__((target("avx2"))) int64_t productSumAvx2(const int32_t* ea, const uint32_t* ma, const uint32_t* na, const int32_t* eb, const uint32_t* mb,
                                                       const uint32_t* nb, int k0, int k1, int base) {
    __m256i acc = _mm256_setzero_si256();
    const __m128i vbase = _mm_set1_epi32(base), zero = _mm_setzero_si128(), c63 = _mm_set1_epi32(63), c39 = _mm_set1_epi32(39);
    for (int i = k0; i < k1; i += 4) {
        auto ld = [&](const void* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); };
        const __m128i sh = _mm_add_epi32(_mm_add_epi32(ld(ea + i), ld(eb + i)), vbase);
        const __m256i left = _mm256_cvtepi32_epi64(_mm_max_epi32(sh, zero));
        const __m256i right = _mm256_cvtepi32_epi64(_mm_min_epi32(_mm_max_epi32(_mm_sub_epi32(zero, sh), zero), c63));
        const __m256i big = _mm256_cvtepi32_epi64(_mm_cmpgt_epi32(sh, c39));   // shifts of 40 or more give 0, as the scalar loop
        const __m256i prod = _mm256_mul_epu32(_mm256_cvtepu32_epi64(ld(ma + i)), _mm256_cvtepu32_epi64(ld(mb + i)));
        __m256i v = _mm256_andnot_si256(big, _mm256_srlv_epi64(_mm256_sllv_epi64(prod, left), right));
        const __m256i s = _mm256_cvtepi32_epi64(_mm_xor_si128(ld(na + i), ld(nb + i)));
        v = _mm256_sub_epi64(_mm256_xor_si256(v, s), s);
        acc = _mm256_add_epi64(acc, v);
    }
    const __m128i h = _mm_add_epi64(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
    return _mm_cvtsi128_si64(h) + _mm_extract_epi64(h, 1);
}

// f16 and bf16 runs of 16, eight terms per operation in 32-bit lanes: a product's significand
// is below 2^(lsbOff + 2) <= 2^22 and its shift at most 25 - lsbOff (no product's exponent
// exceeds the maximum), so every truncated term is below 2^27 and its negation fits; the
// terms are widened to 64 bits for the sum.
__attribute__((target("avx2"))) int64_t productSum16NarrowAvx2(const int32_t* ea, const uint32_t* ma, const uint32_t* na, const int32_t* eb,
                                                               const uint32_t* mb, const uint32_t* nb, int k0, int base) {
    const __m256i vbase = _mm256_set1_epi32(base), zero = _mm256_setzero_si256(), c31 = _mm256_set1_epi32(31);
#define WARPSCOPE_LD256(p) _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))
    __m256i acc = zero;
    for (int i = k0; i < k0 + 16; i += 8) {
        const __m256i sh = _mm256_add_epi32(_mm256_add_epi32(WARPSCOPE_LD256(ea + i), WARPSCOPE_LD256(eb + i)), vbase);
        const __m256i left = _mm256_max_epi32(sh, zero);
        const __m256i right = _mm256_min_epi32(_mm256_max_epi32(_mm256_sub_epi32(zero, sh), zero), c31);
        const __m256i prod = _mm256_mullo_epi32(WARPSCOPE_LD256(ma + i), WARPSCOPE_LD256(mb + i));
        __m256i v = _mm256_srlv_epi32(_mm256_sllv_epi32(prod, left), right);
        const __m256i s = _mm256_xor_si256(WARPSCOPE_LD256(na + i), WARPSCOPE_LD256(nb + i));
        v = _mm256_sub_epi32(_mm256_xor_si256(v, s), s);
        acc = _mm256_add_epi64(acc, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(v)));
        acc = _mm256_add_epi64(acc, _mm256_cvtepi32_epi64(_mm256_extracti128_si256(v, 1)));
    }
    const __m128i h = _mm_add_epi64(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
    return _mm_cvtsi128_si64(h) + _mm_extract_epi64(h, 1);
#undef WARPSCOPE_LD256
}

const bool kTensorAvx2 = __builtin_cpu_supports("avx2");
#else
const bool kTensorAvx2 = false;
#endif

// The running sum of the block arithmetic (sig * 2^lsb, exponent exp of its leading bit).
struct Acc {
    bool neg = false, zero = true;
    int64_t sig = 0;
    int lsb = 0, exp = 0;
};

// The block arithmetic (tensor.hpp) over finite, unpacked inputs: every dot product of the
// engine runs here, through dotProduct (one element) or mmaTile (a tile). a and b hold kk
// elements each; lsbOff is the sum of A's and B's mantissa widths (a product's last bit lies
// that far below its exponent).
[[gnu::always_inline]] inline uint32_t blockSum(const MatrixOp& op, const int32_t* ea, const uint32_t* ma, const uint32_t* na, const int32_t* eb, const uint32_t* mb,
                  const uint32_t* nb, int kk, int lsbOff, Acc acc, bool avx2) {
    const bool f16acc = op.ctype == ElemType::F16;
    const bool f16out = op.dtype == ElemType::F16;
    const int block = blockOf(op);
    uint32_t result = 0;
    for (int k0 = 0; k0 < kk; k0 += block) {
        const int k1 = std::min(kk, k0 + block);
        // The largest exponent among the nonzero products and the accumulator; products with a
        // zero input have exponents below kZeroExp / 2.
        const int init = acc.zero ? 2 * kZeroExp : acc.exp;
        int emax;
#ifdef WARPSCOPE_TENSOR_AVX2
        if (avx2 && k1 - k0 == 16) emax = maxProductExp16Avx2(ea, eb, k0, init);
        else
#endif
            emax = maxProductExp(ea, eb, k0, k1, init);
        int64_t sum = 0;
        int q = 0;
        bool neg;
        if (emax > kZeroExp / 2) {
            // The sum's bits are kept down to 2^q, q = (largest exponent) - 25; every term is
            // truncated toward zero there (a zero product adds nothing).
            q = emax - 25;
#ifdef WARPSCOPE_TENSOR_AVX2
            if (avx2 && k1 - k0 == 16 && lsbOff <= 20) sum = productSum16NarrowAvx2(ea, ma, na, eb, mb, nb, k0, -(lsbOff + q));
            else if (avx2 && (k1 - k0) % 4 == 0) sum = productSumAvx2(ea, ma, na, eb, mb, nb, k0, k1, -(lsbOff + q));
            else
#endif
                sum = productSum(ea, ma, na, eb, mb, nb, k0, k1, -(lsbOff + q));
            if (!acc.zero) {
                const int sh = acc.lsb - q;
                const int64_t v = sh >= 0 ? (sh >= 40 ? 0 : acc.sig << sh) : (-sh >= 63 ? 0 : acc.sig >> -sh);
                sum += acc.neg ? -v : v;
            }
            neg = sum < 0;
        } else {
            // Nothing but zeros: the sum is -0 only if every product and the accumulator are -0.
            neg = acc.zero && acc.neg;
            for (int i = k0; i < k1; ++i) neg = neg && (na[i] != nb[i]);
        }
        const uint64_t mag = sum < 0 ? uint64_t(-sum) : uint64_t(sum);
        const bool last = k1 >= kk;
        if (f16out && last) return packF16RN(neg, mag, q);
        result = packF32RZ(neg, mag, q);
        // The next block starts from the rounded f32 (f16 accumulators keep the wider sum:
        // only the final result is rounded to f16).
        if (!last) {
            if (f16out || f16acc) {
                acc.neg = neg;
                acc.zero = mag == 0;
                // Keep the exact truncated sum as the accumulator.
                acc.sig = int64_t(mag);
                acc.lsb = q;
                acc.exp = mag ? q + (63 - std::countl_zero(mag)) : 0;
            } else {
                const Unpacked u = unpack(result, ElemType::F32);
                acc.neg = u.neg;
                acc.zero = u.zero;
                acc.sig = u.sig;
                acc.lsb = u.lsb;
                acc.exp = u.exp;
            }
        }
    }
    return result;
}

Acc accOf(const Unpacked& u) {
    Acc a;
    a.neg = u.neg, a.zero = u.zero, a.sig = u.sig, a.lsb = u.lsb, a.exp = u.exp;
    return a;
}

constexpr int kMaxK = 32;   // the longest dot product of a floating mma (k16; tf32 k8)

// A tile's unpacked inputs (row r of A at r * kMaxK, column c of B at c * kMaxK).
struct TileInputs {
    int32_t ea[16 * kMaxK], eb[16 * kMaxK];
    uint32_t ma[16 * kMaxK], mb[16 * kMaxK], na[16 * kMaxK], nb[16 * kMaxK];
    bool rowSpecial[16], colSpecial[16];
};

// Every output whose row and column hold no infinity or NaN, and whose accumulator is finite
// (the others are already in d). One function per instruction set, so that blockSum and its
// loops inline into the tile's loop with `avx2` a constant.
[[gnu::always_inline]] inline void finiteSums(const MatrixOp& op, const TileInputs& in, const uint32_t* c, uint32_t* d, int rows, int cols, int kk,
                                              bool avx2) {
    const ElemType ct = op.ctype == ElemType::F16 ? ElemType::F16 : ElemType::F32;
    const int lsbOff = mantBits(op.atype) + mantBits(op.btype);
    for (int r = 0; r < rows; ++r) {
        if (in.rowSpecial[r]) continue;
        const size_t oa = size_t(r) * kMaxK;
        for (int cc = 0; cc < cols; ++cc) {
            const size_t i = size_t(r) * size_t(cols) + size_t(cc);
            const Unpacked cu = unpack(c[i], ct);
            if (in.colSpecial[cc] || cu.nan || cu.inf) continue;
            const size_t ob = size_t(cc) * kMaxK;
            d[i] = blockSum(op, in.ea + oa, in.ma + oa, in.na + oa, in.eb + ob, in.mb + ob, in.nb + ob, kk, lsbOff, accOf(cu), avx2);
        }
    }
}

void finiteSumsScalar(const MatrixOp& op, const TileInputs& in, const uint32_t* c, uint32_t* d, int rows, int cols, int kk) {
    finiteSums(op, in, c, d, rows, cols, kk, false);
}

#ifdef WARPSCOPE_TENSOR_AVX2
__attribute__((target("avx2"))) void finiteSumsAvx2(const MatrixOp& op, const TileInputs& in, const uint32_t* c, uint32_t* d, int rows, int cols, int kk) {
    finiteSums(op, in, c, d, rows, cols, kk, true);
}
#endif

} // namespace

uint32_t dotProduct(const MatrixOp& op, const uint32_t* a, const uint32_t* b, int kk, uint32_t c) {
    const bool f16acc = op.ctype == ElemType::F16;
    const bool f16out = op.dtype == ElemType::F16;
    const uint32_t canonicalNaN = f16out ? 0x7fffu : 0x7fffffffu;
    // Specials first: any NaN, or inf * 0, or opposite infinities give the canonical NaN.
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
    if (kk > kMaxK) throw std::logic_error("dotProduct: k above 32");
    int32_t ea[kMaxK], eb[kMaxK];
    uint32_t ma[kMaxK], mb[kMaxK], na[kMaxK], nb[kMaxK];
    unpackRun(a, 1, kk, op.atype, Lanes{ea, ma, na});
    unpackRun(b, 1, kk, op.btype, Lanes{eb, mb, nb});
    return blockSum(op, ea, ma, na, eb, mb, nb, kk, mantBits(op.atype) + mantBits(op.btype), accOf(cu), kTensorAvx2);
}

bool tensorVectorized() { return kTensorAvx2; }

void mmaTile(const MatrixOp& op, const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d, int rows, int cols, int kk, bool vectorized) {
    const bool avx2 = vectorized && kTensorAvx2;
    if (tensorIsInteger(op)) {
        uint32_t col[64];
        for (int cc = 0; cc < cols; ++cc) {
            for (int k = 0; k < kk; ++k) col[k] = b[size_t(k) * size_t(cols) + size_t(cc)];
            for (int r = 0; r < rows; ++r)
                d[size_t(r) * size_t(cols) + size_t(cc)] = dotProductInt(op, a + size_t(r) * size_t(kk), col, kk, c[size_t(r) * size_t(cols) + size_t(cc)]);
        }
        return;
    }
    if (kk > kMaxK || rows > 16 || cols > 16) throw std::logic_error("mmaTile: a tile above 16 x 16 x 32");
    // Every element of A and B unpacked once (B by columns), not once per dot product.
    TileInputs in;
    for (int r = 0; r < rows; ++r) {
        const size_t o = size_t(r) * kMaxK;
        in.rowSpecial[r] = unpackRun(a + size_t(r) * size_t(kk), 1, kk, op.atype, Lanes{in.ea + o, in.ma + o, in.na + o});
    }
    for (int cc = 0; cc < cols; ++cc) {
        const size_t o = size_t(cc) * kMaxK;
        in.colSpecial[cc] = unpackRun(b + cc, size_t(cols), kk, op.btype, Lanes{in.eb + o, in.mb + o, in.nb + o});
    }
    // Infinities and NaNs: dotProduct's rules (the row and column gathered again).
    const ElemType ct = op.ctype == ElemType::F16 ? ElemType::F16 : ElemType::F32;
    for (int r = 0; r < rows; ++r)
        for (int cc = 0; cc < cols; ++cc) {
            const size_t i = size_t(r) * size_t(cols) + size_t(cc);
            const bool cSpecial = ct == ElemType::F16 ? ((c[i] >> 10) & 0x1fu) == 0x1fu : ((c[i] >> 23) & 0xffu) == 0xffu;
            if (!in.rowSpecial[r] && !in.colSpecial[cc] && !cSpecial) continue;
            uint32_t col[kMaxK];
            for (int k = 0; k < kk; ++k) col[k] = b[size_t(k) * size_t(cols) + size_t(cc)];
            d[i] = dotProduct(op, a + size_t(r) * size_t(kk), col, kk, c[i]);
        }
#ifdef WARPSCOPE_TENSOR_AVX2
    if (avx2) return finiteSumsAvx2(op, in, c, d, rows, cols, kk);
#endif
    finiteSumsScalar(op, in, c, d, rows, cols, kk);
}

uint32_t dotProductInt(const MatrixOp& op, const uint32_t* a, const uint32_t* b, int kk, uint32_t c) {
    int64_t sum = int32_t(c);
    const bool as = op.atype == ElemType::S8, bs = op.btype == ElemType::S8;
    for (int i = 0; i < kk; ++i) {
        const int64_t x = as ? int64_t(int8_t(uint8_t(a[i]))) : int64_t(uint8_t(a[i]));
        const int64_t y = bs ? int64_t(int8_t(uint8_t(b[i]))) : int64_t(uint8_t(b[i]));
        sum += x * y;
    }
    if (op.satfinite) sum = std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX);
    return uint32_t(uint64_t(sum));
}

// ---------------------------------------------------------------- 4. Costs
// Measured on the H100 (docs/tensor-cores.md): pipe cycles per machine instruction from
// smsp__pipe_tensor_cycles_active / smsp__inst_executed_pipe_tensor; latency of a dependent
// chain from scripts/tensor-probe.cu.
bool tensorIsInteger(const MatrixOp& op) { return op.atype == ElemType::S8 || op.atype == ElemType::U8; }

int tensorInstructions(const MatrixOp& op) {
    if (op.kind == MatrixKind::Mma) return 1;
    if (op.kind != MatrixKind::WmmaMma) return 0;
    // wmma m16n16k8 tf32 runs as four m16n8k4 machine instructions: blocks of 4, chained.
    if (op.atype == ElemType::TF32) return op.kind == MatrixKind::WmmaMma ? 4 : op.k;   // m16n16k8 as four m16n8k4
    return 2;                                   // two m16n8k16 halves
}

int tensorPipeCycles(const MatrixOp& op) {
    if (op.kind != MatrixKind::Mma && op.kind != MatrixKind::WmmaMma) return 0;
    if (op.kind == MatrixKind::WmmaMma) {
        if (op.atype == ElemType::TF32) return 16;    // 4 x HMMA.1684 (4 cycles each)
        if (tensorIsInteger(op)) return 8;            // 2 x IMMA.16816 (4 each)
        return 12;                                    // 2 x HMMA.16816 (6 each)
    }
    if (tensorIsInteger(op)) return op.k == 32 ? 6 : 4;
    if (op.atype == ElemType::TF32) return op.k == 8 ? 6 : 4;
    return op.k == 16 ? 6 : 4;
}

int tensorLatency(const MatrixOp& op) {
    switch (op.kind) {
    case MatrixKind::Mma: return (!tensorIsInteger(op) && op.atype != ElemType::TF32 && op.k == 8) ? 18 : 25;
    case MatrixKind::WmmaMma: return op.atype == ElemType::TF32 ? 37 : 24;
    case MatrixKind::Ldmatrix: return 33;
    case MatrixKind::Movmatrix: return 8;
    default: return 30;
    }
}

} // namespace warpscope::sim
