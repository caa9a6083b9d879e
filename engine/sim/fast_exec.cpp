// Whole-warp handlers of the pre-decoded form (predecode.hpp): Gpu::execFast runs one
// instruction for all 32 lanes with the operand decoding done at launch. A handler is the
// general executor's operation (the same body in sim/ops.hpp) run over 32 lanes at the registers'
// storage width: no second implementation of any arithmetic lives here, only lane loops, operand
// access and the AVX2 forms of the loops (tested equal to the bodies by fast_path_test); a handler that finds a case it does not cover (an
// address out of range or misaligned, a tid.x that needs division) returns false before
// changing anything, and the general path runs instead (and reports any fault).
//
// Sections: 1. Lane loops (f32 with AVX2+FMA where the CPU has them)  2. Gpu::execFast
#include "sim/gpu.hpp"

#include "mem/journal.hpp"
#include "sim/arith.hpp"
#include "sim/ops.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace warpscope::sim {

using arith::CmpOp;

namespace {
// ---------------------------------------------------------------- 1. Lane loops
// Register operands are arrays of 32 lanes: uint32_t for 32-bit registers, uint64_t for 64-bit
// ones (Frame::regWords).
constexpr uint32_t kLanes = 32;

enum class F32Op : uint8_t { Add, Sub, Mul, Fma };

template <F32Op kOp>
void f32LanesScalar(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d) {
    for (uint32_t l = 0; l < kLanes; ++l) {
        if constexpr (kOp == F32Op::Add) d[l] = ops::addF32(a[l], b[l]);
        else if constexpr (kOp == F32Op::Sub) d[l] = ops::subF32(a[l], b[l]);
        else if constexpr (kOp == F32Op::Mul) d[l] = ops::mulF32(a[l], b[l]);
        else d[l] = ops::fmaF32(a[l], b[l], c[l]);
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define WARPSCOPE_FAST_AVX2 1
// Eight lanes per operation (the vectorised form of ops::addF32 ... fmaF32): the packed
// single-precision operations round exactly as the scalar ones (same MXCSR; fmadd rounds once, as std::fma), and NaNs get the canonical encoding.
template <F32Op kOp>
__attribute__((target("avx2,fma"))) void f32LanesAvx2(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d) {
    const __m256i canon = _mm256_set1_epi32(static_cast<int>(arith::kCanonicalNaNF32));
    for (uint32_t l = 0; l < kLanes; l += 8) {
        const __m256 x = _mm256_loadu_ps(reinterpret_cast<const float*>(a + l));
        const __m256 y = _mm256_loadu_ps(reinterpret_cast<const float*>(b + l));
        __m256 v;
        if constexpr (kOp == F32Op::Add) v = _mm256_add_ps(x, y);
        else if constexpr (kOp == F32Op::Sub) v = _mm256_sub_ps(x, y);
        else if constexpr (kOp == F32Op::Mul) v = _mm256_mul_ps(x, y);
        else v = _mm256_fmadd_ps(x, y, _mm256_loadu_ps(reinterpret_cast<const float*>(c + l)));
        const __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + l), _mm256_blendv_epi8(_mm256_castps_si256(v), canon, nan));
    }
}

// setp on 32-bit integers, eight lanes per compare (the vectorised form of ops::compareLanes;
// unsigned order: signed compares with the sign bits flipped).
template <CmpOp kCmp, bool kSigned>
__attribute__((target("avx2"))) uint32_t compareLanesAvx2(const uint32_t* a, const uint32_t* b) {
    const __m256i flip = _mm256_set1_epi32(kSigned ? 0 : INT32_MIN);
    uint32_t p = 0;
    for (uint32_t l = 0; l < kLanes; l += 8) {
        const __m256i x = _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + l)), flip);
        const __m256i y = _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + l)), flip);
        __m256i c;
        if constexpr (kCmp == CmpOp::Eq || kCmp == CmpOp::Ne) c = _mm256_cmpeq_epi32(x, y);
        else if constexpr (kCmp == CmpOp::Lt || kCmp == CmpOp::Ge) c = _mm256_cmpgt_epi32(y, x);
        else c = _mm256_cmpgt_epi32(x, y);
        p |= uint32_t(_mm256_movemask_ps(_mm256_castsi256_ps(c))) << l;
    }
    if constexpr (kCmp == CmpOp::Ne || kCmp == CmpOp::Ge || kCmp == CmpOp::Le) p = ~p;
    return p;
}
template <bool kSigned>
__attribute__((target("avx2"))) uint32_t compareLanesAvx2(CmpOp op, const uint32_t* a, const uint32_t* b) {
    switch (op) {
    case CmpOp::Eq: return compareLanesAvx2<CmpOp::Eq, kSigned>(a, b);
    case CmpOp::Ne: return compareLanesAvx2<CmpOp::Ne, kSigned>(a, b);
    case CmpOp::Lt: return compareLanesAvx2<CmpOp::Lt, kSigned>(a, b);
    case CmpOp::Le: return compareLanesAvx2<CmpOp::Le, kSigned>(a, b);
    case CmpOp::Gt: return compareLanesAvx2<CmpOp::Gt, kSigned>(a, b);
    default: return compareLanesAvx2<CmpOp::Ge, kSigned>(a, b);
    }
}

// div.rn.f32 over 32 lanes, four a division (the vectorised form of ops::divRnF32): the four
// quotients in double, and where one is in f32's normal range its conversion to f32 (the same
// rounding as float(q): MXCSR's round-to-nearest); a lane whose quotient is not takes
// ops::divRnF32 itself. Lane k's result depends only on lane k's operands, and each group of four
// is read before any of it is written, so the destination may be a source.
[[gnu::noinline]] __attribute__((target("avx2,fma"))) void divRnF32LanesAvx2(const uint32_t* a, const uint32_t* b, uint32_t* d) {
    const __m256d absMask = _mm256_castsi256_pd(_mm256_set1_epi64x(INT64_MAX));
    const __m256d lo = _mm256_set1_pd(0x1p-126), hi = _mm256_set1_pd(0x1.fffffep127);
    for (uint32_t l = 0; l < kLanes; l += 4) {
        const __m128 x = _mm_loadu_ps(reinterpret_cast<const float*>(a + l));
        const __m128 y = _mm_loadu_ps(reinterpret_cast<const float*>(b + l));
        const __m256d q = _mm256_div_pd(_mm256_cvtps_pd(x), _mm256_cvtps_pd(y));
        const __m256d m = _mm256_and_pd(q, absMask);
        const int ok = _mm256_movemask_pd(_mm256_and_pd(_mm256_cmp_pd(m, lo, _CMP_GE_OQ), _mm256_cmp_pd(m, hi, _CMP_LT_OQ)));
        if (ok == 0xf) {
            _mm_storeu_ps(reinterpret_cast<float*>(d + l), _mm256_cvtpd_ps(q));
            continue;
        }
        alignas(16) uint32_t r[4], xa[4], yb[4];
        _mm_store_ps(reinterpret_cast<float*>(r), _mm256_cvtpd_ps(q));
        _mm_store_ps(reinterpret_cast<float*>(xa), x);
        _mm_store_ps(reinterpret_cast<float*>(yb), y);
        for (uint32_t k = 0; k < 4; ++k) d[l + k] = (ok >> k) & 1 ? r[k] : ops::divRnF32(xa[k], yb[k]);
    }
}

// selp of 32-bit values, eight lanes per blend (the vectorised form of ops::select): lane l takes
// a[l] where bit l of the predicate c is set, else b[l]. Branch-free: a predicate that differs
// from lane to lane (a loop's count of negative pivots) costs no mispredicted branches.
__attribute__((target("avx2"))) void selpLanesAvx2(uint32_t c, const uint32_t* a, const uint32_t* b, uint32_t* d) {
    const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    for (uint32_t l = 0; l < kLanes; l += 8) {
        const __m256i sel = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(static_cast<int>(c >> l)), bit), bit);
        const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + l));
        const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + l));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + l), _mm256_blendv_epi8(y, x, sel));
    }
}

// setp on f32, eight lanes per compare (the vectorised form of ops::compareF32Lanes): the
// predicate of _mm256_cmp_ps that is PTX's comparison, ordered (false on NaN) or unordered (true).
template <int kPred>
__attribute__((target("avx2"))) uint32_t compareF32LanesAvx2(const uint32_t* a, const uint32_t* b) {
    uint32_t p = 0;
    for (uint32_t l = 0; l < kLanes; l += 8) {
        const __m256 x = _mm256_loadu_ps(reinterpret_cast<const float*>(a + l));
        const __m256 y = _mm256_loadu_ps(reinterpret_cast<const float*>(b + l));
        p |= uint32_t(_mm256_movemask_ps(_mm256_cmp_ps(x, y, kPred))) << l;
    }
    return p;
}
[[gnu::noinline]] __attribute__((target("avx2"))) uint32_t compareF32LanesAvx2(CmpOp op, const uint32_t* a, const uint32_t* b) {
    switch (op) {
    case CmpOp::Eq: return compareF32LanesAvx2<_CMP_EQ_OQ>(a, b);
    case CmpOp::Ne: return compareF32LanesAvx2<_CMP_NEQ_OQ>(a, b);
    case CmpOp::Lt: case CmpOp::Lo: return compareF32LanesAvx2<_CMP_LT_OQ>(a, b);
    case CmpOp::Le: case CmpOp::Ls: return compareF32LanesAvx2<_CMP_LE_OQ>(a, b);
    case CmpOp::Gt: case CmpOp::Hi: return compareF32LanesAvx2<_CMP_GT_OQ>(a, b);
    case CmpOp::Ge: case CmpOp::Hs: return compareF32LanesAvx2<_CMP_GE_OQ>(a, b);
    case CmpOp::Equ: return compareF32LanesAvx2<_CMP_EQ_UQ>(a, b);
    case CmpOp::Neu: return compareF32LanesAvx2<_CMP_NEQ_UQ>(a, b);
    case CmpOp::Ltu: return compareF32LanesAvx2<_CMP_NGE_UQ>(a, b);
    case CmpOp::Leu: return compareF32LanesAvx2<_CMP_NGT_UQ>(a, b);
    case CmpOp::Gtu: return compareF32LanesAvx2<_CMP_NLE_UQ>(a, b);
    case CmpOp::Geu: return compareF32LanesAvx2<_CMP_NLT_UQ>(a, b);
    case CmpOp::Num: return compareF32LanesAvx2<_CMP_ORD_Q>(a, b);
    case CmpOp::Nan: return compareF32LanesAvx2<_CMP_UNORD_Q>(a, b);
    }
    return ops::compareF32Lanes(op, a, b);
}
#endif

// Global addresses (base + offset) and their span: the largest, the smallest and the OR of all
// (alignment).
struct Span {
    uint64_t lo, hi, any;
};
Span addressesScalar(const uint64_t* base, uint64_t off, uint64_t* addrs) {
    Span s{~0ull, 0, 0};
    for (uint32_t l = 0; l < kLanes; ++l) {
        const uint64_t a = base[l] + off;
        addrs[l] = a;
        s.lo = std::min(s.lo, a);
        s.hi = std::max(s.hi, a);
        s.any |= a;
    }
    return s;
}
// Shared-memory offsets (base + offset, cut to 32 bits): the largest and the OR of all.
struct Span32 {
    uint32_t hi, any;
};
Span32 offsetsScalar(const uint32_t* base, uint32_t off, uint32_t* offs) {
    Span32 s{0, 0};
    for (uint32_t l = 0; l < kLanes; ++l) {
        const uint32_t a = base[l] + off;
        offs[l] = a;
        s.hi = std::max(s.hi, a);
        s.any |= a;
    }
    return s;
}
template <class D, class A>
void gatherScalar(const uint8_t* origin, const A* addrs, D* d) {
    for (uint32_t l = 0; l < kLanes; ++l) std::memcpy(&d[l], origin + addrs[l], sizeof(D));
}
template <class D>
void gatherStridedScalar(const uint8_t* p, uint64_t stride, D* d) {
    for (uint32_t l = 0; l < kLanes; ++l) std::memcpy(&d[l], p + l * stride, sizeof(D));
}
template <class V, class A>
void scatterScalar(uint8_t* origin, const A* addrs, const V* v) {
    for (uint32_t l = 0; l < kLanes; ++l) std::memcpy(origin + addrs[l], &v[l], sizeof(V));
}
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx2"))) Span addressesAvx2(const uint64_t* base, uint64_t off, uint64_t* addrs) {
    const __m256i vo = _mm256_set1_epi64x(static_cast<long long>(off));
    const __m256i flip = _mm256_set1_epi64x(INT64_MIN);   // unsigned order through signed compares
    __m256i mn = _mm256_set1_epi64x(INT64_MAX), mx = _mm256_set1_epi64x(INT64_MIN), any = _mm256_setzero_si256();
    for (uint32_t l = 0; l < kLanes; l += 4) {
        __m256i a = _mm256_add_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(base + l)), vo);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(addrs + l), a);
        any = _mm256_or_si256(any, a);
        const __m256i x = _mm256_xor_si256(a, flip);
        mn = _mm256_blendv_epi8(mn, x, _mm256_cmpgt_epi64(mn, x));
        mx = _mm256_blendv_epi8(mx, x, _mm256_cmpgt_epi64(x, mx));
    }
    alignas(32) int64_t lo4[4], hi4[4], or4[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lo4), mn);
    _mm256_store_si256(reinterpret_cast<__m256i*>(hi4), mx);
    _mm256_store_si256(reinterpret_cast<__m256i*>(or4), any);
    const int64_t lo = std::min(std::min(lo4[0], lo4[1]), std::min(lo4[2], lo4[3]));
    const int64_t hi = std::max(std::max(hi4[0], hi4[1]), std::max(hi4[2], hi4[3]));
    return {uint64_t(lo) ^ (1ull << 63), uint64_t(hi) ^ (1ull << 63), uint64_t(or4[0] | or4[1] | or4[2] | or4[3])};
}
__attribute__((target("avx2"))) Span32 offsetsAvx2(const uint32_t* base, uint32_t off, uint32_t* offs) {
    const __m256i vo = _mm256_set1_epi32(static_cast<int>(off));
    __m256i mx = _mm256_setzero_si256(), any = mx;
    for (uint32_t l = 0; l < kLanes; l += 8) {
        const __m256i a = _mm256_add_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(base + l)), vo);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(offs + l), a);
        mx = _mm256_max_epu32(mx, a);
        any = _mm256_or_si256(any, a);
    }
    __m128i m = _mm_max_epu32(_mm256_castsi256_si128(mx), _mm256_extracti128_si256(mx, 1));
    m = _mm_max_epu32(m, _mm_shuffle_epi32(m, 0x4e));
    m = _mm_max_epu32(m, _mm_shuffle_epi32(m, 0xb1));
    __m128i o = _mm_or_si128(_mm256_castsi256_si128(any), _mm256_extracti128_si256(any, 1));
    o = _mm_or_si128(o, _mm_shuffle_epi32(o, 0x4e));
    o = _mm_or_si128(o, _mm_shuffle_epi32(o, 0xb1));
    return {uint32_t(_mm_cvtsi128_si32(m)), uint32_t(_mm_cvtsi128_si32(o))};
}
// How lanes l..l+7 address 4-byte words: consecutive words from lane l's (a coalesced row), all
// lane l's word (a broadcast), or otherwise. Shared-memory offsets (32-bit) and global addresses.
enum class Run8 { Consecutive, OneWord, Other };
__attribute__((target("avx2"))) inline Run8 run8(const uint32_t* offs, uint32_t l) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(offs + l));
    const __m256i rel = _mm256_sub_epi32(a, _mm256_set1_epi32(static_cast<int>(offs[l])));
    if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(rel, _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28))) == -1) return Run8::Consecutive;
    return _mm256_testz_si256(rel, rel) ? Run8::OneWord : Run8::Other;
}
__attribute__((target("avx2"))) inline Run8 run8(const uint64_t* addrs, uint32_t l) {
    const __m256i first = _mm256_set1_epi64x(static_cast<long long>(addrs[l]));
    const __m256i d0 = _mm256_sub_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(addrs + l)), first);
    const __m256i d1 = _mm256_sub_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(addrs + l + 4)), first);
    const __m256i c0 = _mm256_cmpeq_epi64(d0, _mm256_setr_epi64x(0, 4, 8, 12)), c1 = _mm256_cmpeq_epi64(d1, _mm256_setr_epi64x(16, 20, 24, 28));
    if (_mm256_movemask_epi8(_mm256_and_si256(c0, c1)) == -1) return Run8::Consecutive;
    const __m256i any = _mm256_or_si256(d0, d1);
    return _mm256_testz_si256(any, any) ? Run8::OneWord : Run8::Other;
}
// Gathers at 64-bit global addresses (4 lanes a gather) and at shared-memory offsets (which the
// bounds check keeps far below 2^31, so they serve as signed 32-bit indices: 8 lanes a gather for
// 4-byte elements). A gather is slow (microcoded on AMD; several times slower again on Intel
// parts with the Gather Data Sampling mitigation), so a run of 8 lanes of 4-byte elements that
// is consecutive or one word (run8) takes one plain load or a broadcast instead: the same bytes.
template <class A>
__attribute__((target("avx2"))) inline bool loadRun8(const uint8_t* origin, const A* addrs, uint32_t l, uint32_t* d) {
    switch (run8(addrs, l)) {
    case Run8::Consecutive:
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + l), _mm256_loadu_si256(reinterpret_cast<const __m256i*>(origin + addrs[l])));
        return true;
    case Run8::OneWord: {
        uint32_t word;
        std::memcpy(&word, origin + addrs[l], 4);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + l), _mm256_set1_epi32(static_cast<int>(word)));
        return true;
    }
    case Run8::Other: break;
    }
    return false;
}
__attribute__((target("avx2"))) void gatherAvx2(const uint8_t* origin, const uint64_t* addrs, uint32_t* d) {
    for (uint32_t l = 0; l < kLanes; l += 8) {
        if (loadRun8(origin, addrs, l, d)) continue;
        for (uint32_t h = l; h < l + 8; h += 4) {
            const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(addrs + h));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(d + h), _mm256_i64gather_epi32(reinterpret_cast<const int*>(origin), a, 1));
        }
    }
}
__attribute__((target("avx2"))) void gatherAvx2(const uint8_t* origin, const uint64_t* addrs, uint64_t* d) {
    for (uint32_t l = 0; l < kLanes; l += 4) {
        const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(addrs + l));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + l), _mm256_i64gather_epi64(reinterpret_cast<const long long*>(origin), a, 1));
    }
}
__attribute__((target("avx2"))) void gatherAvx2(const uint8_t* origin, const uint32_t* offs, uint32_t* d) {
    for (uint32_t l = 0; l < kLanes; l += 8) {
        if (loadRun8(origin, offs, l, d)) continue;
        const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(offs + l));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + l), _mm256_i32gather_epi32(reinterpret_cast<const int*>(origin), a, 1));
    }
}
__attribute__((target("avx2"))) void gatherAvx2(const uint8_t* origin, const uint32_t* offs, uint64_t* d) {
    for (uint32_t l = 0; l < kLanes; l += 4) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(offs + l));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + l), _mm256_i32gather_epi64(reinterpret_cast<const long long*>(origin), a, 1));
    }
}
// Stores of 4-byte elements: a run of 8 lanes that writes consecutive words is one plain store;
// any other run is stored lane by lane, in lane order (the last lane to write a word wins, as in
// scatterScalar).
template <class A>
__attribute__((target("avx2"))) void scatterAvx2(uint8_t* origin, const A* addrs, const uint32_t* v) {
    for (uint32_t l = 0; l < kLanes; l += 8) {
        if (run8(addrs, l) == Run8::Consecutive) {
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(origin + addrs[l]), _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v + l)));
            continue;
        }
        for (uint32_t k = l; k < l + 8; ++k) std::memcpy(origin + addrs[k], &v[k], 4);
    }
}
// Lane l's element at p + l * stride (.param: one copy of the area per lane; 32 strides of a
// parameter area are far below 2^31, so they serve as 32-bit indices).
__attribute__((target("avx2"))) void gatherStridedAvx2(const uint8_t* p, uint64_t stride, uint32_t* d) {
    const __m256i step = _mm256_set1_epi32(static_cast<int>(8 * stride));
    __m256i idx = _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(static_cast<int>(stride)));
    for (uint32_t l = 0; l < kLanes; l += 8) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + l), _mm256_i32gather_epi32(reinterpret_cast<const int*>(p), idx, 1));
        idx = _mm256_add_epi32(idx, step);
    }
}
__attribute__((target("avx2"))) void gatherStridedAvx2(const uint8_t* p, uint64_t stride, uint64_t* d) {
    const __m128i step = _mm_set1_epi32(static_cast<int>(4 * stride));
    __m128i idx = _mm_mullo_epi32(_mm_setr_epi32(0, 1, 2, 3), _mm_set1_epi32(static_cast<int>(stride)));
    for (uint32_t l = 0; l < kLanes; l += 4) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + l), _mm256_i32gather_epi64(reinterpret_cast<const long long*>(p), idx, 1));
        idx = _mm_add_epi32(idx, step);
    }
}
#endif
} // namespace

// ---------------------------------------------------------------- 2. Gpu::execFast
// The handlers, compiled twice: for baseline x86-64 and with AVX2+FMA (chosen once per Gpu,
// fastFn_), so the plain lane loops vectorise eight lanes wide where the CPU allows it.
struct FastExec {
    template <bool kAvx2>
    [[gnu::always_inline]] static inline bool run(Gpu& g, const FastOp& op, Block& b, Warp& w, uint64_t* stepAddrs);
    template <bool kAvx2, class D>
    [[gnu::always_inline]] static inline bool memory(Gpu& g, const FastOp& op, Block& b, uint32_t* regs, uint64_t* stepAddrs);
};

// ld/st of 4 bytes (D = uint32_t, a 32-bit register) or 8 bytes (D = uint64_t) at [reg + imm].
// With `stepAddrs`, the lanes' addresses as the Step gives them: shared offsets wrap at 32 bits,
// global addresses are 64-bit sums (Exec::computeAddresses).
template <bool kAvx2, class D>
[[gnu::always_inline]] inline bool FastExec::memory(Gpu& g, const FastOp& op, Block& b, uint32_t* regs, uint64_t* stepAddrs) {
    auto narrow = [regs](uint32_t offset) { return regs + offset; };
    auto wide = [regs](uint32_t offset) { return reinterpret_cast<uint64_t*>(regs + offset); };
    const bool shared = op.kind == FastKind::LdShared || op.kind == FastKind::StShared;
    const bool load = op.kind == FastKind::LdShared || op.kind == FastKind::LdGlobal;
    constexpr uint64_t bytes = sizeof(D);
    // Loads: the destination register. Stores: the value register, or the immediate in every lane.
    D* v = reinterpret_cast<D*>(narrow(load ? op.dst : op.src[0]));
    D imm[kLanes];
    if (!load && (op.imms & 1)) {
        for (uint32_t l = 0; l < kLanes; ++l) imm[l] = static_cast<D>(op.imm[0]);
        v = imm;
    }
    if (shared) {
        // 32-bit offsets into the block's shared memory.
        uint32_t low[kLanes], offs[kLanes];
        const uint32_t* base = narrow(op.src[1]);
        if (op.wideBase) {
            const uint64_t* wb = wide(op.src[1]);
            for (uint32_t l = 0; l < kLanes; ++l) low[l] = static_cast<uint32_t>(wb[l]);
            base = low;
        }
#ifdef WARPSCOPE_FAST_AVX2
        const auto [hi, any] = kAvx2 ? offsetsAvx2(base, uint32_t(op.offset), offs) : offsetsScalar(base, uint32_t(op.offset), offs);
#else
        const auto [hi, any] = offsetsScalar(base, uint32_t(op.offset), offs);
#endif
        if ((any & (bytes - 1)) || uint64_t(hi) + bytes > b.shared.size()) return false;
        if (stepAddrs)
            for (uint32_t l = 0; l < kLanes; ++l) stepAddrs[l] = offs[l];
        uint8_t* origin = b.shared.data();
        if (load) {
#ifdef WARPSCOPE_FAST_AVX2
            if constexpr (kAvx2) gatherAvx2(origin, offs, v);
            else
#endif
                gatherScalar(origin, offs, v);
        } else {
#ifdef WARPSCOPE_FAST_AVX2
            if constexpr (kAvx2 && sizeof(D) == 4) scatterAvx2(origin, offs, v);
            else
#endif
                scatterScalar(origin, offs, v);
        }
        return true;
    }
    uint64_t wideBase[kLanes], addrs[kLanes];
    const uint64_t* base = wide(op.src[1]);
    if (!op.wideBase) {
        const uint32_t* nb = narrow(op.src[1]);
        for (uint32_t l = 0; l < kLanes; ++l) wideBase[l] = nb[l];
        base = wideBase;
    }
#ifdef WARPSCOPE_FAST_AVX2
    const auto [lo, hi, any] = kAvx2 ? addressesAvx2(base, op.offset, addrs) : addressesScalar(base, op.offset, addrs);
#else
    const auto [lo, hi, any] = addressesScalar(base, op.offset, addrs);
#endif
    if ((any & (bytes - 1)) || hi - lo >= (1ull << 40)) return false;
    mem::Allocation* al = g.mem_.find(lo, hi - lo + bytes, g.allocCache_);
    if (!al || (!load && al->readOnly)) return false;
    if (!load && !mem::beforeSpanStore(*al, lo, hi, bytes)) return false;   // the journal of a parallel run (mem/journal.hpp)
    if (stepAddrs) std::memcpy(stepAddrs, addrs, sizeof addrs);
    uint8_t* origin = al->data.get() - al->base;   // lane l's bytes are at origin + addrs[l]
    if (load) {
#ifdef WARPSCOPE_FAST_AVX2
        if constexpr (kAvx2) gatherAvx2(origin, addrs, v);
        else
#endif
            gatherScalar(origin, addrs, v);
    } else {
#ifdef WARPSCOPE_FAST_AVX2
        if constexpr (kAvx2 && sizeof(D) == 4) scatterAvx2(origin, addrs, v);
        else
#endif
            scatterScalar(origin, addrs, v);
    }
    return true;
}

template <bool kAvx2>
[[gnu::always_inline]] inline bool FastExec::run(Gpu& g, const FastOp& op, Block& b, Warp& w, uint64_t* stepAddrs) {
    // The current frame's register words (Frame::narrow / Frame::wide), one load from the Warp.
    uint32_t* const regs = w.regs;
    auto narrow = [regs](uint32_t offset) { return regs + offset; };
    auto wide = [regs](uint32_t offset) { return reinterpret_cast<uint64_t*>(regs + offset); };
    // Source k: a register's 32 lanes, or the immediate spread over a scratch array.
    uint32_t scratch32[3][kLanes];
    uint64_t scratch64[3][kLanes];
    auto src32 = [&](int k) -> const uint32_t* {
        if (!(op.imms & (1u << k))) return narrow(op.src[k]);
        for (uint32_t l = 0; l < kLanes; ++l) scratch32[k][l] = static_cast<uint32_t>(op.imm[k]);
        return scratch32[k];
    };
    auto src64 = [&](int k) -> const uint64_t* {
        if (!(op.imms & (1u << k))) return wide(op.src[k]);
        for (uint32_t l = 0; l < kLanes; ++l) scratch64[k][l] = op.imm[k];
        return scratch64[k];
    };
    auto f32 = [&]<F32Op kOp>(const uint32_t* x, const uint32_t* y, const uint32_t* z) {
        uint32_t* d = narrow(op.dst);
#ifdef WARPSCOPE_FAST_AVX2
        if constexpr (kAvx2) return f32LanesAvx2<kOp>(x, y, z, d);
#endif
        f32LanesScalar<kOp>(x, y, z, d);
    };
    // A value the same in every lane, or lane-dependent values, into the destination (32- or
    // 64-bit as it is stored).
    auto fill = [&](auto value) {
        if (op.wideDst) {
            uint64_t* d = wide(op.dst);
            for (uint32_t l = 0; l < kLanes; ++l) d[l] = uint64_t(value(l)) & op.mask;
        } else {
            uint32_t* d = narrow(op.dst);
            for (uint32_t l = 0; l < kLanes; ++l) d[l] = static_cast<uint32_t>(uint64_t(value(l)) & op.mask);
        }
    };
    const auto& cfg_ = g.cfg_;
    switch (op.kind) {
    case FastKind::Generic:
    case FastKind::Bra:
    case FastKind::BarSync: return false;   // control flow: Gpu::issue (lean path) or the general path
    case FastKind::AddF32: f32.template operator()<F32Op::Add>(src32(0), src32(1), nullptr); return true;
    case FastKind::SubF32: f32.template operator()<F32Op::Sub>(src32(0), src32(1), nullptr); return true;
    case FastKind::MulF32: f32.template operator()<F32Op::Mul>(src32(0), src32(1), nullptr); return true;
    case FastKind::FmaF32: f32.template operator()<F32Op::Fma>(src32(0), src32(1), src32(2)); return true;
    case FastKind::AddI32:
    case FastKind::SubI32: {
        const uint32_t* x = src32(0);
        const uint32_t* y = src32(1);
        uint32_t* d = narrow(op.dst);
        if (op.kind == FastKind::AddI32)
            for (uint32_t l = 0; l < kLanes; ++l) d[l] = ops::add(x[l], y[l]);
        else
            for (uint32_t l = 0; l < kLanes; ++l) d[l] = ops::sub(x[l], y[l]);
        return true;
    }
    case FastKind::AddI64:
    case FastKind::SubI64: {
        const uint64_t* x = src64(0);
        const uint64_t* y = src64(1);
        uint64_t* d = wide(op.dst);
        if (op.kind == FastKind::AddI64)
            for (uint32_t l = 0; l < kLanes; ++l) d[l] = ops::add(x[l], y[l]);
        else
            for (uint32_t l = 0; l < kLanes; ++l) d[l] = ops::sub(x[l], y[l]);
        return true;
    }
    case FastKind::AndB32:
    case FastKind::OrB32:
    case FastKind::XorB32: {
        const uint32_t* x = src32(0);
        const uint32_t* y = src32(1);
        uint32_t* d = narrow(op.dst);
        if (op.kind == FastKind::AndB32)
            for (uint32_t l = 0; l < kLanes; ++l) d[l] = ops::bitAnd(x[l], y[l]);
        else if (op.kind == FastKind::OrB32)
            for (uint32_t l = 0; l < kLanes; ++l) d[l] = ops::bitOr(x[l], y[l]);
        else
            for (uint32_t l = 0; l < kLanes; ++l) d[l] = ops::bitXor(x[l], y[l]);
        return true;
    }
    case FastKind::SelpB32: {
        const uint32_t* x = src32(0);
        const uint32_t* y = src32(1);
        const uint32_t c = w.preds[op.offset];
        uint32_t* d = narrow(op.dst);
#ifdef WARPSCOPE_FAST_AVX2
        if constexpr (kAvx2) {
            selpLanesAvx2(c, x, y, d);
            return true;
        }
#endif
        for (uint32_t l = 0; l < kLanes; ++l) d[l] = ops::select(((c >> l) & 1) != 0, x[l], y[l]);
        return true;
    }
    case FastKind::BfeU32:
    case FastKind::BfeS32: {
        const uint32_t* x = src32(0);
        const uint32_t* pos = src32(1);
        const uint32_t* len = src32(2);
        uint32_t* d = narrow(op.dst);
        const bool sgn = op.kind == FastKind::BfeS32;
        for (uint32_t l = 0; l < kLanes; ++l) d[l] = static_cast<uint32_t>(arith::bfe(x[l], pos[l], len[l], 32, sgn));
        return true;
    }
    case FastKind::AtomAddShared: {
        // Each lane's read-modify-write in lane order, as the general path's atom does; every
        // lane's 32-bit offset aligned and inside the block's shared memory, else the general path.
        uint32_t low[kLanes], offs[kLanes];
        const uint32_t* base = narrow(op.src[1]);
        if (op.wideBase) {
            const uint64_t* wb = wide(op.src[1]);
            for (uint32_t l = 0; l < kLanes; ++l) low[l] = static_cast<uint32_t>(wb[l]);
            base = low;
        }
        const auto [hi, any] = offsetsScalar(base, uint32_t(op.offset), offs);
        if ((any & 3) || uint64_t(hi) + 4 > b.shared.size()) return false;
        if (stepAddrs)
            for (uint32_t l = 0; l < kLanes; ++l) stepAddrs[l] = offs[l];
        const uint32_t* v = src32(0);
        uint8_t* origin = b.shared.data();
        uint32_t old[kLanes];
        for (uint32_t l = 0; l < kLanes; ++l) {
            uint32_t o;
            std::memcpy(&o, origin + offs[l], 4);
            const uint32_t n = ops::add(o, v[l]);
            std::memcpy(origin + offs[l], &n, 4);
            old[l] = o;
        }
        std::memcpy(narrow(op.dst), old, sizeof old);   // after every lane: the address or value register may be the destination
        return true;
    }
    case FastKind::MulLoI32: {
        const uint32_t* x = src32(0);
        const uint32_t* y = src32(1);
        uint32_t* d = narrow(op.dst);
        for (uint32_t l = 0; l < kLanes; ++l) d[l] = ops::mulLo(x[l], y[l]);
        return true;
    }
    case FastKind::MadLoI32: {
        const uint32_t* x = src32(0);
        const uint32_t* y = src32(1);
        const uint32_t* z = src32(2);
        uint32_t* d = narrow(op.dst);
        for (uint32_t l = 0; l < kLanes; ++l) d[l] = ops::madLo(x[l], y[l], z[l]);
        return true;
    }
    case FastKind::MulWideS32: {
        const uint32_t* x = src32(0);
        const uint32_t* y = src32(1);
        uint64_t* d = wide(op.dst);
        for (uint32_t l = 0; l < kLanes; ++l) d[l] = ops::mulWide(int32_t(x[l]), int32_t(y[l]));
        return true;
    }
    case FastKind::MulWideU32: {
        const uint32_t* x = src32(0);
        const uint32_t* y = src32(1);
        uint64_t* d = wide(op.dst);
        for (uint32_t l = 0; l < kLanes; ++l) d[l] = ops::mulWide(x[l], y[l]);
        return true;
    }
    case FastKind::ShlB32:
    case FastKind::ShrU32:
    case FastKind::ShrS32: {
        const uint32_t* x = src32(0);
        const uint32_t n = uint32_t(op.imm[1]);
        uint32_t* d = narrow(op.dst);
        if (op.kind == FastKind::ShlB32)
            for (uint32_t l = 0; l < kLanes; ++l) d[l] = ops::shl(x[l], n);
        else if (op.kind == FastKind::ShrU32)
            for (uint32_t l = 0; l < kLanes; ++l) d[l] = ops::shrU(x[l], n);
        else
            for (uint32_t l = 0; l < kLanes; ++l) d[l] = ops::shrS(x[l], n);
        return true;
    }
    case FastKind::Mov32: {
        uint32_t* d = narrow(op.dst);
        if (op.imms & 1) {
            const uint32_t v = static_cast<uint32_t>(op.imm[0]);
            for (uint32_t l = 0; l < kLanes; ++l) d[l] = v;
        } else {
            const uint32_t* x = narrow(op.src[0]);
            for (uint32_t l = 0; l < kLanes; ++l) d[l] = x[l];
        }
        return true;
    }
    case FastKind::Mov64: {
        uint64_t* d = wide(op.dst);
        if (op.imms & 1) {
            const uint64_t v = op.imm[0];
            for (uint32_t l = 0; l < kLanes; ++l) d[l] = v;
        } else {
            const uint64_t* x = wide(op.src[0]);
            for (uint32_t l = 0; l < kLanes; ++l) d[l] = x[l];
        }
        return true;
    }
    case FastKind::MovTidX: {
        const uint32_t bx = cfg_.block.x;
        if (bx % 32 != 0) return false;   // lanes wrap into the next row: the general path divides
        const uint64_t first = (w.indexInBlock * 32) % bx;
        fill([first](uint32_t l) { return first + l; });
        return true;
    }
    case FastKind::MovLaneId:
        fill([](uint32_t l) { return uint64_t(l); });
        return true;
    case FastKind::MovUniform: {
        uint64_t v = 0;
        switch (static_cast<Sreg>(op.sreg)) {
        case Sreg::NtidX: v = cfg_.block.x; break;
        case Sreg::NtidY: v = cfg_.block.y; break;
        case Sreg::NtidZ: v = cfg_.block.z; break;
        case Sreg::CtaidX: v = b.idx.x; break;
        case Sreg::CtaidY: v = b.idx.y; break;
        case Sreg::CtaidZ: v = b.idx.z; break;
        case Sreg::NctaidX: v = cfg_.grid.x; break;
        case Sreg::NctaidY: v = cfg_.grid.y; break;
        case Sreg::NctaidZ: v = cfg_.grid.z; break;
        default: return false;
        }
        fill([v](uint32_t) { return v; });
        return true;
    }
    case FastKind::Cvta: {
        if (op.wideDst) {
            const uint64_t* x = src64(0);
            uint64_t* d = wide(op.dst);
            for (uint32_t l = 0; l < kLanes; ++l) d[l] = x[l] + op.offset;
        } else {
            const uint32_t* x = src32(0);
            const uint32_t off = static_cast<uint32_t>(op.offset);
            uint32_t* d = narrow(op.dst);
            for (uint32_t l = 0; l < kLanes; ++l) d[l] = x[l] + off;
        }
        return true;
    }
    case FastKind::CvtU64U32: {
        const uint32_t* x = src32(0);
        uint64_t* d = wide(op.dst);
        for (uint32_t l = 0; l < kLanes; ++l) d[l] = ops::widen(x[l]);
        return true;
    }
    case FastKind::CvtS64S32: {
        const uint32_t* x = src32(0);
        uint64_t* d = wide(op.dst);
        for (uint32_t l = 0; l < kLanes; ++l) d[l] = ops::widen(int32_t(x[l]));
        return true;
    }
    case FastKind::SetpI32: {
        const uint32_t* x = src32(0);
        const uint32_t* y = src32(1);
        uint32_t p;
#ifdef WARPSCOPE_FAST_AVX2
        if constexpr (kAvx2) p = op.sgn ? compareLanesAvx2<true>(op.cmp, x, y) : compareLanesAvx2<false>(op.cmp, x, y);
        else
#endif
            p = op.sgn ? ops::compareLanes<int32_t>(op.cmp, x, y) : ops::compareLanes<uint32_t>(op.cmp, x, y);
        w.preds[op.dst] = p;
        if (op.dst2 >= 0) w.preds[op.dst2] = ~p;
        return true;
    }
    case FastKind::SetpF32: {
        const uint32_t* x = src32(0);
        const uint32_t* y = src32(1);
        uint32_t p;
#ifdef WARPSCOPE_FAST_AVX2
        if constexpr (kAvx2) p = compareF32LanesAvx2(op.cmp, x, y);
        else
#endif
            p = ops::compareF32Lanes(op.cmp, x, y);
        w.preds[op.dst] = p;
        if (op.dst2 >= 0) w.preds[op.dst2] = ~p;
        return true;
    }
    case FastKind::DivRnF32: {
        const uint32_t* x = src32(0);
        const uint32_t* y = src32(1);
        uint32_t* d = narrow(op.dst);
#ifdef WARPSCOPE_FAST_AVX2
        if constexpr (kAvx2) {
            divRnF32LanesAvx2(x, y, d);
            return true;
        }
#endif
        for (uint32_t l = 0; l < kLanes; ++l) d[l] = ops::divRnF32(x[l], y[l]);
        return true;
    }
    case FastKind::LdShared:
    case FastKind::StShared:
    case FastKind::LdGlobal:
    case FastKind::StGlobal:
        return op.size == 4 ? memory<kAvx2, uint32_t>(g, op, b, regs, stepAddrs) : memory<kAvx2, uint64_t>(g, op, b, regs, stepAddrs);
    case FastKind::LdParam: {
        // (No base register: every lane's address is the offset, as computeAddresses gives it.)
        if (stepAddrs)
            for (uint32_t l = 0; l < kLanes; ++l) stepAddrs[l] = op.offset;
        const Frame& f = w.frames.back();
        const uint64_t pb = g.prog_.functions[f.func].paramBytes;
        const uint8_t* p = f.params.data() + op.offset;
#ifdef WARPSCOPE_FAST_AVX2
        if constexpr (kAvx2) {
            if (op.size == 4) gatherStridedAvx2(p, pb, narrow(op.dst));
            else gatherStridedAvx2(p, pb, wide(op.dst));
            return true;
        }
#endif
        if (op.size == 4) gatherStridedScalar(p, pb, narrow(op.dst));
        else gatherStridedScalar(p, pb, wide(op.dst));
        return true;
    }
    }
    return false;
}

namespace {
#ifdef WARPSCOPE_FAST_AVX2
__attribute__((target("avx2,fma"))) bool execFastAvx2(Gpu& g, const FastOp& op, Block& b, Warp& w, uint64_t* stepAddrs) {
    return FastExec::run<true>(g, op, b, w, stepAddrs);
}
#endif
bool execFastBase(Gpu& g, const FastOp& op, Block& b, Warp& w, uint64_t* stepAddrs) {
    return FastExec::run<false>(g, op, b, w, stepAddrs);
}
} // namespace

Gpu::FastFn Gpu::chooseFastFn(bool baseline) {
#ifdef WARPSCOPE_FAST_AVX2
    if (!baseline && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return execFastAvx2;
#else
    (void)baseline;
#endif
    return execFastBase;
}

} // namespace warpscope::sim
