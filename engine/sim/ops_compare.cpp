// Comparison and selection: setp, set, selp, slct, testp.
#include "sim/exec.hpp"
#include "sim/ops.hpp"

namespace warpscope::sim {

namespace {
#if defined(__SSE2__)
// One 32-bit integer comparison over all 32 lanes, as a lane mask: the vectorised form of
// ops::compareLanes with SSE2 (baseline x86-64): four lanes per compare, their low 32 bits packed from
// two 64-bit register slots each; unsigned order by flipping the sign bits.
template <bool kSigned>
uint32_t compareLanes32Sse2(CmpOp op, const uint64_t* a, const uint64_t* b) {
    const __m128i flip = _mm_set1_epi32(kSigned ? 0 : int32_t(0x80000000u));
    auto low4 = [&](const uint64_t* p) {
        const __m128 x = _mm_castsi128_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
        const __m128 y = _mm_castsi128_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 2)));
        return _mm_xor_si128(_mm_castps_si128(_mm_shuffle_ps(x, y, _MM_SHUFFLE(2, 0, 2, 0))), flip);
    };
    // Lt and Ge compare (b > a), Gt and Le (a > b); Ne, Le and Ge invert.
    const bool swap = op == CmpOp::Lt || op == CmpOp::Lo || op == CmpOp::Ge || op == CmpOp::Hs;
    const bool eq = op == CmpOp::Eq || op == CmpOp::Ne;
    const bool invert = op == CmpOp::Ne || op == CmpOp::Le || op == CmpOp::Ls || op == CmpOp::Ge || op == CmpOp::Hs;
    uint32_t p = 0;
    for (int q = 0; q < 8; ++q) {
        const __m128i x = low4(a + 4 * q), y = low4(b + 4 * q);
        const __m128i c = eq ? _mm_cmpeq_epi32(x, y) : swap ? _mm_cmpgt_epi32(y, x) : _mm_cmpgt_epi32(x, y);
        p |= uint32_t(_mm_movemask_ps(_mm_castsi128_ps(c))) << (4 * q);
    }
    return invert ? ~p : p;
}
#endif

template <class T>
uint32_t compareLanes32(CmpOp op, const uint64_t* a, const uint64_t* b) {
#if defined(__SSE2__)
    return compareLanes32Sse2<std::is_signed_v<T>>(op, a, b);
#else
    return ops::compareLanes<T>(op, a, b);
#endif
}

bool compareLane(const Instr& I, Type t, uint64_t a, uint64_t b) {
    using namespace arith;
    if (t == Type::F32) return compareF32(I.cmp, asF32(a), asF32(b), I.ftz);
    if (t == Type::F64) return compareF64(I.cmp, asF64(a), asF64(b));
    if (t == Type::F16) return compareF32(I.cmp, f16ToF32(uint16_t(a)), f16ToF32(uint16_t(b)), I.ftz);
    return compareInt(I.cmp, a, b, ptx::bitsOf(t), ptx::isSigned(t));
}
} // namespace

void execCompare(Exec& x) {
    const Instr& I = x.I;
    using namespace arith;
    switch (I.op) {
    case Op::Setp: {
        const uint64_t* a = x.src(0);
        const uint64_t* b = x.src(1);
        uint32_t c = I.boolOp != BoolOp::None ? x.predMask(I.src[2]) : 0;
        uint32_t p = 0;
        const Type t = I.type;
        if ((t == Type::S32 || t == Type::U32 || t == Type::B32) &&
            (I.cmp <= CmpOp::Ge || (I.cmp >= CmpOp::Lo && I.cmp <= CmpOp::Hs))) {
            // The common integer comparisons, inline (loop counters, bounds checks).
            const bool sgn = t == Type::S32 && I.cmp <= CmpOp::Ge;
            // Every lane is compared (registers of inactive lanes hold plain data) and the
            // result masked: no per-lane test of the mask or of the comparison.
            p = (sgn ? compareLanes32<int32_t>(I.cmp, a, b) : compareLanes32<uint32_t>(I.cmp, a, b)) & x.exec;
        } else {
            forLanes(x.exec, [&](int l) {
                if (compareLane(I, t, a[l], b[l])) p |= 1u << l;
            });
        }
        uint32_t q = ~p;
        switch (I.boolOp) {
        case BoolOp::None: break;
        case BoolOp::And: p &= c; q &= c; break;
        case BoolOp::Or: p |= c; q |= c; break;
        case BoolOp::Xor: p ^= c; q ^= c; break;
        }
        x.setPred(I.dst, p, x.exec);
        x.setPred(I.dst2, q, x.exec);
        break;
    }
    case Op::Set: {
        const uint64_t* a = x.src(0);
        const uint64_t* b = x.src(1);
        uint32_t c = I.boolOp != BoolOp::None ? x.predMask(I.src[2]) : 0;
        uint64_t* d = x.dst();
        forLanes(x.exec, [&](int l) {
            bool v = compareLane(I, I.type2, a[l], b[l]);
            bool cv = (c >> l) & 1;
            if (I.boolOp == BoolOp::And) v = v && cv;
            else if (I.boolOp == BoolOp::Or) v = v || cv;
            else if (I.boolOp == BoolOp::Xor) v = v != cv;
            if (I.type == Type::F32) d[l] = v ? 0x3f800000u : 0u;
            else if (I.type == Type::F16) d[l] = v ? 0x3c00u : 0u;
            else d[l] = v ? mask(ptx::bitsOf(I.type)) : 0u;
        });
        break;
    }
    case Op::Selp: {
        const uint64_t* a = x.src(0);
        const uint64_t* b = x.src(1);
        uint32_t c = x.predMask(I.src[2]);
        if (I.type == Type::Pred) {
            uint32_t v = 0;
            forLanes(x.exec, [&](int l) { v |= uint32_t(((c >> l) & 1) ? a[l] & 1 : b[l] & 1) << l; });
            x.setPred(I.dst, v, x.exec);
            break;
        }
        uint64_t* d = x.dst();
        forLanes(x.exec, [&](int l) { d[l] = ops::select(((c >> l) & 1) != 0, a[l], b[l]); });
        break;
    }
    case Op::Slct: {
        const uint64_t* a = x.src(0);
        const uint64_t* b = x.src(1);
        const uint64_t* c = x.src(2);
        uint64_t* d = x.dst();
        forLanes(x.exec, [&](int l) {
            bool ge = int32_t(c[l]) >= 0;
            if (I.type2 == Type::F32) {
                float cf = asF32(c[l]);
                if (I.ftz && arith::isSubnormalF32(cf)) cf = 0.0f;
                ge = cf >= 0.0f;   // -0.0 >= 0 is true; NaN is false
            }
            d[l] = ge ? a[l] : b[l];
        });
        break;
    }
    case Op::Testp: {
        const uint64_t* a = x.src(0);
        uint32_t v = 0;
        forLanes(x.exec, [&](int l) {
            bool r = I.type == Type::F32 ? testpF32(I.testp, asF32(a[l])) : testpF64(I.testp, asF64(a[l]));
            if (r) v |= 1u << l;
        });
        x.setPred(I.dst, v, x.exec);
        break;
    }
    default: break;
    }
}

} // namespace warpscope::sim
