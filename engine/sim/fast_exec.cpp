// Whole-warp handlers of the pre-decoded form (predecode.hpp): Gpu::execFast runs one
// instruction for all 32 lanes with the operand decoding done at launch. Each handler computes
// exactly what the general interpreter (gpu.cpp, sections 5-6) computes for the same
// instruction with a full execution mask; a handler that finds a case it does not cover (an
// address out of range or misaligned, a tid.x that needs division) returns false before
// changing anything, and the general path runs instead (and reports any fault).
//
// Sections: 1. Lane loops (f32 with AVX2+FMA where the CPU has them)  2. Gpu::execFast
#include "sim/gpu.hpp"

#include "sim/arith.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace warpscope::sim {

namespace {
// ---------------------------------------------------------------- 1. Lane loops
constexpr uint32_t kLanes = 32;

inline float lowF32(uint64_t v) { return std::bit_cast<float>(static_cast<uint32_t>(v)); }
// A float result as the interpreter stores it: zero-extended bits, any NaN canonical.
inline uint64_t storeF32(float v) { return v != v ? uint64_t(arith::kCanonicalNaNF32) : std::bit_cast<uint32_t>(v); }

enum class F32Op : uint8_t { Add, Sub, Mul, Fma };

template <F32Op kOp>
void f32LanesScalar(const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* d) {
    for (uint32_t l = 0; l < kLanes; ++l) {
        const float x = lowF32(a[l]), y = lowF32(b[l]);
        float v;
        if constexpr (kOp == F32Op::Add) v = x + y;
        else if constexpr (kOp == F32Op::Sub) v = x - y;
        else if constexpr (kOp == F32Op::Mul) v = x * y;
        else v = std::fma(x, y, lowF32(c[l]));
        d[l] = storeF32(v);
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define WARPSCOPE_FAST_AVX2 1
// Four lanes per operation on the 64-bit register slots as they are: the packed single-precision
// operation also runs on the slots' upper halves, whose results are then cleared, so each lane's
// low half gets exactly the scalar IEEE result (same rounding, same MXCSR) and NaNs the
// interpreter's canonical encoding.
template <F32Op kOp>
__attribute__((target("avx2,fma"))) void f32LanesAvx2(const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* d) {
    const __m256i low = _mm256_set1_epi64x(0xffffffffll);
    const __m256i canon = _mm256_set1_epi64x(arith::kCanonicalNaNF32);
    for (uint32_t l = 0; l < kLanes; l += 4) {
        const __m256 x = _mm256_castsi256_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + l)));
        const __m256 y = _mm256_castsi256_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + l)));
        __m256 v;
        if constexpr (kOp == F32Op::Add) v = _mm256_add_ps(x, y);
        else if constexpr (kOp == F32Op::Sub) v = _mm256_sub_ps(x, y);
        else if constexpr (kOp == F32Op::Mul) v = _mm256_mul_ps(x, y);
        else v = _mm256_fmadd_ps(x, y, _mm256_castsi256_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(c + l))));
        const __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
        const __m256i r = _mm256_and_si256(_mm256_blendv_epi8(_mm256_castps_si256(v), canon, nan), low);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + l), r);
    }
}

// setp on the low 32 bits of the slots, four lanes per compare: shifted into the upper half, a
// 64-bit signed compare orders them as int32 (as uint32 with the sign bit flipped).
template <FastCmp kCmp, bool kSigned>
__attribute__((target("avx2"))) uint32_t compareLanesAvx2(const uint64_t* a, const uint64_t* b) {
    const __m256i flip = _mm256_set1_epi64x(kSigned ? 0 : INT64_MIN);
    uint32_t p = 0;
    for (uint32_t l = 0; l < kLanes; l += 4) {
        const __m256i x = _mm256_xor_si256(_mm256_slli_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + l)), 32), flip);
        const __m256i y = _mm256_xor_si256(_mm256_slli_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + l)), 32), flip);
        __m256i c;
        if constexpr (kCmp == FastCmp::Eq || kCmp == FastCmp::Ne) c = _mm256_cmpeq_epi64(x, y);
        else if constexpr (kCmp == FastCmp::Lt || kCmp == FastCmp::Ge) c = _mm256_cmpgt_epi64(y, x);
        else c = _mm256_cmpgt_epi64(x, y);
        p |= uint32_t(_mm256_movemask_pd(_mm256_castsi256_pd(c))) << l;
    }
    if constexpr (kCmp == FastCmp::Ne || kCmp == FastCmp::Ge || kCmp == FastCmp::Le) p = ~p;
    return p;
}
template <bool kSigned>
__attribute__((target("avx2"))) uint32_t compareLanesAvx2(FastCmp op, const uint64_t* a, const uint64_t* b) {
    switch (op) {
    case FastCmp::Eq: return compareLanesAvx2<FastCmp::Eq, kSigned>(a, b);
    case FastCmp::Ne: return compareLanesAvx2<FastCmp::Ne, kSigned>(a, b);
    case FastCmp::Lt: return compareLanesAvx2<FastCmp::Lt, kSigned>(a, b);
    case FastCmp::Le: return compareLanesAvx2<FastCmp::Le, kSigned>(a, b);
    case FastCmp::Gt: return compareLanesAvx2<FastCmp::Gt, kSigned>(a, b);
    default: return compareLanesAvx2<FastCmp::Ge, kSigned>(a, b);
    }
}
#endif

// One 32-bit integer comparison over the 32 lanes, as a lane mask.
template <class T, class C>
uint32_t laneBits(const uint64_t* a, const uint64_t* b, C cmp) {
    uint32_t p = 0;
    for (uint32_t l = 0; l < kLanes; ++l) p |= uint32_t(cmp(static_cast<T>(a[l]), static_cast<T>(b[l]))) << l;
    return p;
}
template <class T>
uint32_t compareLanesScalar(FastCmp op, const uint64_t* a, const uint64_t* b) {
    switch (op) {
    case FastCmp::Eq: return laneBits<T>(a, b, [](T x, T y) { return x == y; });
    case FastCmp::Ne: return laneBits<T>(a, b, [](T x, T y) { return x != y; });
    case FastCmp::Lt: return laneBits<T>(a, b, [](T x, T y) { return x < y; });
    case FastCmp::Le: return laneBits<T>(a, b, [](T x, T y) { return x <= y; });
    case FastCmp::Gt: return laneBits<T>(a, b, [](T x, T y) { return x > y; });
    default: return laneBits<T>(a, b, [](T x, T y) { return x >= y; });
    }
}

// A warp's addresses (base + offset, cut to 32 bits for shared memory) and their span: the
// largest, the smallest (not computed for 32-bit addresses, whose check needs only the largest)
// and the OR of all (alignment).
struct Span {
    uint64_t lo, hi, any;
};
Span addressesScalar(const uint64_t* base, uint64_t off, bool shared, uint64_t* addrs) {
    Span s{~0ull, 0, 0};
    const uint64_t m = shared ? 0xffffffffull : ~0ull;
    for (uint32_t l = 0; l < kLanes; ++l) {
        const uint64_t a = (base[l] + off) & m;
        addrs[l] = a;
        s.lo = std::min(s.lo, a);
        s.hi = std::max(s.hi, a);
        s.any |= a;
    }
    return s;
}
void gatherScalar(const uint8_t* origin, const uint64_t* addrs, uint32_t bytes, uint64_t* d) {
    if (bytes == 4)
        for (uint32_t l = 0; l < kLanes; ++l) {
            uint32_t e;
            std::memcpy(&e, origin + addrs[l], 4);
            d[l] = e;
        }
    else
        for (uint32_t l = 0; l < kLanes; ++l) std::memcpy(&d[l], origin + addrs[l], 8);
}
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx2"))) Span addressesAvx2(const uint64_t* base, uint64_t off, bool shared, uint64_t* addrs) {
    const __m256i vo = _mm256_set1_epi64x(static_cast<long long>(off));
    if (shared) {
        // 32-bit offsets: the slots' upper halves are zero, so an unsigned 32-bit max over the
        // eight halves is the largest offset.
        const __m256i low = _mm256_set1_epi64x(0xffffffffll);
        __m256i mx = _mm256_setzero_si256(), any = mx;
        for (uint32_t l = 0; l < kLanes; l += 4) {
            __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(base + l));
            a = _mm256_and_si256(_mm256_add_epi64(a, vo), low);
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(addrs + l), a);
            mx = _mm256_max_epu32(mx, a);
            any = _mm256_or_si256(any, a);
        }
        __m128i m = _mm_max_epu32(_mm256_castsi256_si128(mx), _mm256_extracti128_si256(mx, 1));
        m = _mm_max_epu32(m, _mm_shuffle_epi32(m, 0x4e));
        __m128i o = _mm_or_si128(_mm256_castsi256_si128(any), _mm256_extracti128_si256(any, 1));
        o = _mm_or_si128(o, _mm_shuffle_epi32(o, 0x4e));
        return {0, uint64_t(uint32_t(_mm_cvtsi128_si32(m))), uint64_t(_mm_cvtsi128_si64(o))};
    }
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
// (Gather instructions: on the development machine's AMD Zen 4, 13 ns per warp of 4-byte loads
// against 10 ns for 32 plain loads; kept because they take a third of the host instructions and
// faster gathers elsewhere (Intel) more than make up for it.)
__attribute__((target("avx2"))) void gatherAvx2(const uint8_t* origin, const uint64_t* addrs, uint32_t bytes, uint64_t* d) {
    const long long* o = reinterpret_cast<const long long*>(origin);
    for (uint32_t l = 0; l < kLanes; l += 4) {
        const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(addrs + l));
        __m256i v;
        if (bytes == 4) v = _mm256_cvtepu32_epi64(_mm256_i64gather_epi32(reinterpret_cast<const int*>(o), a, 1));
        else v = _mm256_i64gather_epi64(o, a, 1);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + l), v);
    }
}
// Lane l's element at p + l * stride (.param: one copy of the area per lane).
__attribute__((target("avx2"))) void gatherStridedAvx2(const uint8_t* p, uint64_t stride, uint32_t bytes, uint64_t* d) {
    const long long* o = reinterpret_cast<const long long*>(p);
    const __m256i step = _mm256_set1_epi64x(static_cast<long long>(4 * stride));
    __m256i idx = _mm256_set_epi64x(static_cast<long long>(3 * stride), static_cast<long long>(2 * stride), static_cast<long long>(stride), 0);
    for (uint32_t l = 0; l < kLanes; l += 4) {
        __m256i v;
        if (bytes == 4) v = _mm256_cvtepu32_epi64(_mm256_i64gather_epi32(reinterpret_cast<const int*>(o), idx, 1));
        else v = _mm256_i64gather_epi64(o, idx, 1);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + l), v);
        idx = _mm256_add_epi64(idx, step);
    }
}
#endif
void gatherStridedScalar(const uint8_t* p, uint64_t stride, uint32_t bytes, uint64_t* d) {
    if (bytes == 4)
        for (uint32_t l = 0; l < kLanes; ++l) {
            uint32_t e;
            std::memcpy(&e, p + l * stride, 4);
            d[l] = e;
        }
    else
        for (uint32_t l = 0; l < kLanes; ++l) std::memcpy(&d[l], p + l * stride, 8);
}

template <class E>
inline E loadAt(const uint8_t* p) {
    E e;
    std::memcpy(&e, p, sizeof e);
    return e;
}
template <class E>
inline void storeAt(uint8_t* p, E e) {
    std::memcpy(p, &e, sizeof e);
}
} // namespace

// ---------------------------------------------------------------- 2. Gpu::execFast
// The handlers, compiled twice: for baseline x86-64 and with AVX2+FMA (chosen once per Gpu,
// fastFn_), so the plain lane loops vectorise four lanes wide where the CPU allows it.
struct FastExec {
    template <bool kAvx2>
    [[gnu::always_inline]] static inline bool run(Gpu& g, const FastOp& op, Block& b, Warp& w, Frame& f, bool withStep);
};

template <bool kAvx2>
[[gnu::always_inline]] inline bool FastExec::run(Gpu& g, const FastOp& op, Block& b, Warp& w, Frame& f, bool withStep) {
    uint64_t* R = f.regs.data();
    // Source k: a register's 32 lanes, or the immediate spread over `scratch`.
    uint64_t scratch[3][kLanes];
    auto src = [&](int k) -> const uint64_t* {
        if (!(op.imms & (1u << k))) return R + op.src[k];
        for (uint32_t l = 0; l < kLanes; ++l) scratch[k][l] = op.imm[k];
        return scratch[k];
    };
    auto f32 = [&]<F32Op kOp>(const uint64_t* x, const uint64_t* y, const uint64_t* z, uint64_t* dd) {
#ifdef WARPSCOPE_FAST_AVX2
        if constexpr (kAvx2) return f32LanesAvx2<kOp>(x, y, z, dd);
#endif
        f32LanesScalar<kOp>(x, y, z, dd);
    };
    const auto& cfg_ = g.cfg_;
    uint64_t* d = R + op.dst;
    switch (op.kind) {
    case FastKind::Generic:
    case FastKind::Bra: return false;   // control flow: Gpu::issue (lean path) or the general path
    case FastKind::AddF32: f32.template operator()<F32Op::Add>(src(0), src(1), nullptr, d); return true;
    case FastKind::SubF32: f32.template operator()<F32Op::Sub>(src(0), src(1), nullptr, d); return true;
    case FastKind::MulF32: f32.template operator()<F32Op::Mul>(src(0), src(1), nullptr, d); return true;
    case FastKind::FmaF32: f32.template operator()<F32Op::Fma>(src(0), src(1), src(2), d); return true;
    case FastKind::AddI32:
    case FastKind::SubI32:
    case FastKind::AddI64:
    case FastKind::SubI64: {
        const uint64_t* x = src(0);
        const uint64_t* y = src(1);
        const uint64_t m = op.kind == FastKind::AddI64 || op.kind == FastKind::SubI64 ? ~0ull : 0xffffffffull;
        if (op.kind == FastKind::AddI32 || op.kind == FastKind::AddI64)
            for (uint32_t l = 0; l < kLanes; ++l) d[l] = (x[l] + y[l]) & m;
        else
            for (uint32_t l = 0; l < kLanes; ++l) d[l] = (x[l] - y[l]) & m;
        return true;
    }
    case FastKind::MulLoI32: {
        const uint64_t* x = src(0);
        const uint64_t* y = src(1);
        // The low 32 bits of a product depend only on the low 32 bits of its factors.
        for (uint32_t l = 0; l < kLanes; ++l) d[l] = uint32_t(uint32_t(x[l]) * uint32_t(y[l]));
        return true;
    }
    case FastKind::MadLoI32: {
        const uint64_t* x = src(0);
        const uint64_t* y = src(1);
        const uint64_t* z = src(2);
        for (uint32_t l = 0; l < kLanes; ++l) d[l] = uint32_t(uint32_t(x[l]) * uint32_t(y[l]) + uint32_t(z[l]));
        return true;
    }
    case FastKind::MulWideS32: {
        const uint64_t* x = src(0);
        const uint64_t* y = src(1);
        for (uint32_t l = 0; l < kLanes; ++l) d[l] = uint64_t(int64_t(int32_t(x[l])) * int64_t(int32_t(y[l])));
        return true;
    }
    case FastKind::MulWideU32: {
        const uint64_t* x = src(0);
        const uint64_t* y = src(1);
        for (uint32_t l = 0; l < kLanes; ++l) d[l] = uint64_t(uint32_t(x[l])) * uint32_t(y[l]);
        return true;
    }
    case FastKind::ShlB32: {
        const uint64_t* x = src(0);
        const uint32_t n = uint32_t(op.imm[1]);
        for (uint32_t l = 0; l < kLanes; ++l) d[l] = uint32_t(x[l] << n);
        return true;
    }
    case FastKind::ShrU32: {
        const uint64_t* x = src(0);
        const uint32_t n = uint32_t(op.imm[1]);
        for (uint32_t l = 0; l < kLanes; ++l) d[l] = uint32_t(x[l]) >> n;
        return true;
    }
    case FastKind::ShrS32: {
        const uint64_t* x = src(0);
        const uint32_t n = uint32_t(op.imm[1]);
        for (uint32_t l = 0; l < kLanes; ++l) d[l] = uint32_t(int32_t(uint32_t(x[l])) >> n);
        return true;
    }
    case FastKind::Mov32:
    case FastKind::Mov64: {
        if (op.imms & 1) {
            const uint64_t v = op.imm[0] & op.mask;
            for (uint32_t l = 0; l < kLanes; ++l) d[l] = v;
        } else {
            const uint64_t* x = R + op.src[0];
            const uint64_t m = op.mask;
            for (uint32_t l = 0; l < kLanes; ++l) d[l] = x[l] & m;
        }
        return true;
    }
    case FastKind::MovTidX: {
        const uint32_t bx = cfg_.block.x;
        if (bx % 32 != 0) return false;   // lanes wrap into the next row: the general path divides
        const uint64_t first = (w.indexInBlock * 32) % bx;
        for (uint32_t l = 0; l < kLanes; ++l) d[l] = (first + l) & op.mask;
        return true;
    }
    case FastKind::MovLaneId:
        for (uint32_t l = 0; l < kLanes; ++l) d[l] = l & op.mask;
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
        v &= op.mask;
        for (uint32_t l = 0; l < kLanes; ++l) d[l] = v;
        return true;
    }
    case FastKind::Cvta: {
        const uint64_t* x = src(0);
        const uint64_t off = op.offset, m = op.mask;
        for (uint32_t l = 0; l < kLanes; ++l) d[l] = (x[l] + off) & m;
        return true;
    }
    case FastKind::CvtU64U32: {
        const uint64_t* x = src(0);
        for (uint32_t l = 0; l < kLanes; ++l) d[l] = uint32_t(x[l]);
        return true;
    }
    case FastKind::CvtS64S32: {
        const uint64_t* x = src(0);
        for (uint32_t l = 0; l < kLanes; ++l) d[l] = uint64_t(int64_t(int32_t(uint32_t(x[l]))));
        return true;
    }
    case FastKind::SetpI32: {
        const uint64_t* x = src(0);
        const uint64_t* y = src(1);
        uint32_t p;
#ifdef WARPSCOPE_FAST_AVX2
        if constexpr (kAvx2) p = op.sgn ? compareLanesAvx2<true>(op.cmp, x, y) : compareLanesAvx2<false>(op.cmp, x, y);
        else
#endif
            p = op.sgn ? compareLanesScalar<int32_t>(op.cmp, x, y) : compareLanesScalar<uint32_t>(op.cmp, x, y);
        f.preds[op.dst] = p;
        if (op.dst2 >= 0) f.preds[static_cast<size_t>(op.dst2)] = ~p;
        return true;
    }
    case FastKind::LdShared:
    case FastKind::StShared:
    case FastKind::LdGlobal:
    case FastKind::StGlobal: {
        if (withStep) return false;   // a listener needs the Step's addresses: the general path fills them
        const bool shared = op.kind == FastKind::LdShared || op.kind == FastKind::StShared;
        const bool load = op.kind == FastKind::LdShared || op.kind == FastKind::LdGlobal;
        uint64_t addrs[kLanes];
#ifdef WARPSCOPE_FAST_AVX2
        const auto [lo, hi, any] = kAvx2 ? addressesAvx2(R + op.src[1], op.offset, shared, addrs)
                                         : addressesScalar(R + op.src[1], op.offset, shared, addrs);
#else
        const auto [lo, hi, any] = addressesScalar(R + op.src[1], op.offset, shared, addrs);
#endif
        const uint64_t bytes = op.size;
        if (any & (bytes - 1)) return false;
        uint8_t* origin;   // lane l's bytes are at origin + addrs[l]
        if (shared) {
            if (hi + bytes > b.shared.size()) return false;
            origin = b.shared.data();
        } else {
            if (hi - lo >= (1ull << 40)) return false;
            mem::Allocation* al = g.mem_.find(lo, hi - lo + bytes, g.allocCache_);
            if (!al || (!load && al->readOnly)) return false;
            origin = al->data.get() - al->base;
        }
        if (load) {
#ifdef WARPSCOPE_FAST_AVX2
            if constexpr (kAvx2) gatherAvx2(origin, addrs, uint32_t(bytes), d);
            else
#endif
                gatherScalar(origin, addrs, uint32_t(bytes), d);
        } else {
            const uint64_t* v = src(0);
            if (bytes == 4)
                for (uint32_t l = 0; l < kLanes; ++l) storeAt<uint32_t>(origin + addrs[l], uint32_t(v[l]));
            else
                for (uint32_t l = 0; l < kLanes; ++l) storeAt<uint64_t>(origin + addrs[l], v[l]);
        }
        return true;
    }
    case FastKind::LdParam: {
        if (withStep) return false;
        const uint64_t pb = g.prog_.functions[f.func].paramBytes;
        const uint8_t* p = f.params.data() + op.offset;
#ifdef WARPSCOPE_FAST_AVX2
        if constexpr (kAvx2) gatherStridedAvx2(p, pb, op.size, d);
        else
#endif
            gatherStridedScalar(p, pb, op.size, d);
        return true;
    }
    }
    return false;
}

namespace {
#ifdef WARPSCOPE_FAST_AVX2
__attribute__((target("avx2,fma"))) bool execFastAvx2(Gpu& g, const FastOp& op, Block& b, Warp& w, Frame& f, bool withStep) {
    return FastExec::run<true>(g, op, b, w, f, withStep);
}
#endif
bool execFastBase(Gpu& g, const FastOp& op, Block& b, Warp& w, Frame& f, bool withStep) {
    return FastExec::run<false>(g, op, b, w, f, withStep);
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
