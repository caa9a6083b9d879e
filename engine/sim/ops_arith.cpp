// Arithmetic and bit instructions: add ... tanh (execArith), popc ... shf and predicate logic
// (execBits).
#include "sim/exec.hpp"
#include "sim/ops.hpp"

namespace warpscope::sim {

using namespace arith;

namespace {
// fma.rn.f32 over a warp. The FMA3 variant is chosen once at run time: baseline x86-64 code
// would call libm's fmaf for every lane. Both are exact (IEEE fused multiply-add).
template <bool kFma3>   // (kFma3: the same body, compiled where the CPU has FMA3)
void fmaLanesImpl(const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* d, uint32_t mask) {
    forLanes(mask, [&](int l) {
        d[l] = ops::fmaF32(uint32_t(a[l]), uint32_t(b[l]), uint32_t(c[l]));
    });
}
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("fma"))) void fmaLanesFma3(const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* d, uint32_t mask) {
    fmaLanesImpl<true>(a, b, c, d, mask);
}
void fmaF32LanesRN(const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* d, uint32_t mask) {
    static const bool hasFma = __builtin_cpu_supports("fma");
    if (hasFma) fmaLanesFma3(a, b, c, d, mask);
    else fmaLanesImpl<false>(a, b, c, d, mask);
}
#else
void fmaF32LanesRN(const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* d, uint32_t mask) {
    fmaLanesImpl<false>(a, b, c, d, mask);
}
#endif

// A shift's body at the instruction's width (8, 16, 32 or 64 bits), chosen outside the lane loop.
template <class F>
void shiftAtWidth(Exec& x, int bits, F body) {
    if (bits <= 8) map2(x, [body](uint64_t a, uint64_t n) { return uint64_t(body(uint8_t(a), uint32_t(n))); });
    else if (bits <= 16) map2(x, [body](uint64_t a, uint64_t n) { return uint64_t(body(uint16_t(a), uint32_t(n))); });
    else if (bits <= 32) map2(x, [body](uint64_t a, uint64_t n) { return uint64_t(body(uint32_t(a), uint32_t(n))); });
    else map2(x, [body](uint64_t a, uint64_t n) { return uint64_t(body(a, uint32_t(n))); });
}

[[noreturn]] void unsupportedType(Exec& x) {
    x.fault(Error::Kind::Unsupported,
            "Unsupported: '" + x.I.text + "' with type ." + std::string(ptx::typeName(x.I.type)) + " is not implemented.", -1);
}
} // namespace

void execArith(Exec& x) {
    const Instr& I = x.I;
    const Type t = I.type;
    const int bits = ptx::bitsOf(t);
    const bool sgn = ptx::isSigned(t);
    const Round r = I.rnd == Round::None ? Round::RN : I.rnd;
    switch (I.op) {
    case Op::Add:
    case Op::Sub: {
        bool sub = I.op == Op::Sub;
        if (t == Type::F32) {
            if (r == Round::RN && !I.ftz && !I.sat) {
                if (sub) map2(x, [](uint64_t a, uint64_t b) { return uint64_t(ops::subF32(uint32_t(a), uint32_t(b))); });
                else map2(x, [](uint64_t a, uint64_t b) { return uint64_t(ops::addF32(uint32_t(a), uint32_t(b))); });
            } else {
                map2(x, [&](uint64_t a, uint64_t b) {
                    return fromF32(sub ? subF32(asF32(a), asF32(b), r, I.ftz, I.sat) : addF32(asF32(a), asF32(b), r, I.ftz, I.sat));
                });
            }
        } else if (t == Type::F64) {
            map2(x, [&](uint64_t a, uint64_t b) {
                return fromF64(sub ? subF64(asF64(a), asF64(b), r) : addF64(asF64(a), asF64(b), r));
            });
        } else if (t == Type::F16 || t == Type::F16x2) {
            auto one = [&](uint16_t a, uint16_t b) { return sub ? subF16(a, b, r, I.ftz, I.sat) : addF16(a, b, r, I.ftz, I.sat); };
            if (t == Type::F16) map2(x, [&](uint64_t a, uint64_t b) { return uint64_t(one(uint16_t(a), uint16_t(b))); });
            else map2(x, [&](uint64_t a, uint64_t b) { return uint64_t(one(uint16_t(a), uint16_t(b))) | (uint64_t(one(uint16_t(a >> 16), uint16_t(b >> 16))) << 16); });
        } else if (t == Type::BF16 || t == Type::BF16x2) {   // sm_90's add/sub.rn.bf16{x2}
            auto one = [&](uint16_t a, uint16_t b) { return sub ? arith::subBF16(a, b, r) : arith::addBF16(a, b, r); };
            if (t == Type::BF16) map2(x, [&](uint64_t a, uint64_t b) { return uint64_t(one(uint16_t(a), uint16_t(b))); });
            else map2(x, [&](uint64_t a, uint64_t b) { return uint64_t(one(uint16_t(a), uint16_t(b))) | (uint64_t(one(uint16_t(a >> 16), uint16_t(b >> 16))) << 16); });
        } else if (ptx::isInteger(t)) {
            if (I.sat && t == Type::S32) {
                map2(x, [&](uint64_t a, uint64_t b) {
                    int32_t v = sub ? subSatS32(int32_t(a), int32_t(b)) : addSatS32(int32_t(a), int32_t(b));
                    return uint64_t(uint32_t(v));
                });
            } else if (I.cc) {
                // add.cc / sub.cc: the carry goes to the warp's carry flag, kept in dst2's slot.
                const uint64_t* a = x.src(0);
                const uint64_t* b = x.src(1);
                uint64_t* d = x.dst();
                forLanes(x.exec, [&](int l) {
                    CarryResult cr = sub ? subBorrow(a[l], b[l], false, bits) : addCarry(a[l], b[l], false, bits);
                    d[l] = cr.value;
                    x.setCarry(l, cr.carry);
                });
            } else {
                const uint64_t m = mask(bits);   // captured by value: the lane loops vectorise
                if (sub) map2(x, [m](uint64_t a, uint64_t b) { return ops::sub(a, b) & m; });
                else map2(x, [m](uint64_t a, uint64_t b) { return ops::add(a, b) & m; });
            }
        } else {
            unsupportedType(x);
        }
        break;
    }
    case Op::Addc:
    case Op::Subc: {
        bool sub = I.op == Op::Subc;
        const uint64_t* a = x.src(0);
        const uint64_t* b = x.src(1);
        uint64_t* d = x.dst();
        forLanes(x.exec, [&](int l) {
            bool cin = x.carryIn(l);
            CarryResult cr = sub ? subBorrow(a[l], b[l], cin, bits) : addCarry(a[l], b[l], cin, bits);
            d[l] = cr.value;
            if (I.cc) x.setCarry(l, cr.carry);
        });
        break;
    }
    case Op::Mul:
    case Op::Mad:
    case Op::Madc: {
        if (t == Type::F32) {
            if (I.op == Op::Mul && r == Round::RN && !I.ftz && !I.sat) {
                map2(x, [](uint64_t a, uint64_t b) { return uint64_t(ops::mulF32(uint32_t(a), uint32_t(b))); });
            } else {
                map2(x, [&](uint64_t a, uint64_t b) { return fromF32(mulF32(asF32(a), asF32(b), r, I.ftz, I.sat)); });
            }
            break;
        }
        if (t == Type::F64) {
            map2(x, [&](uint64_t a, uint64_t b) { return fromF64(mulF64(asF64(a), asF64(b), r)); });
            break;
        }
        if (t == Type::F16) {
            map2(x, [&](uint64_t a, uint64_t b) { return uint64_t(mulF16(uint16_t(a), uint16_t(b), r, I.ftz, I.sat)); });
            break;
        }
        if (t == Type::F16x2) {
            map2(x, [&](uint64_t a, uint64_t b) {
                return uint64_t(mulF16(uint16_t(a), uint16_t(b), r, I.ftz, I.sat)) |
                       (uint64_t(mulF16(uint16_t(a >> 16), uint16_t(b >> 16), r, I.ftz, I.sat)) << 16);
            });
            break;
        }
        if (t == Type::BF16 || t == Type::BF16x2) {   // sm_90's mul.rn.bf16{x2}
            map2(x, [&](uint64_t a, uint64_t b) {
                uint64_t v = arith::mulBF16(uint16_t(a), uint16_t(b), r);
                if (t == Type::BF16x2) v |= uint64_t(arith::mulBF16(uint16_t(a >> 16), uint16_t(b >> 16), r)) << 16;
                return v;
            });
            break;
        }
        if (!ptx::isInteger(t)) unsupportedType(x);
        if (I.cc || I.op == Op::Madc) {
            // mad{c}.{lo,hi}{.cc}: product half + c (+ carry-in for madc), carry-out with .cc.
            const uint64_t* a = x.src(0);
            const uint64_t* b = x.src(1);
            const uint64_t* c = x.src(2);
            uint64_t* d = x.dst();
            const bool withCarry = I.op == Op::Madc;
            forLanes(x.exec, [&](int l) {
                uint64_t p = I.mul == MulMode::Hi ? mulHi(a[l], b[l], bits, sgn) : (a[l] * b[l]) & mask(bits);
                unsigned __int128 sum = (unsigned __int128)p + (c[l] & mask(bits)) + (withCarry && x.carryIn(l) ? 1 : 0);
                d[l] = uint64_t(sum) & mask(bits);
                if (I.cc) x.setCarry(l, (sum >> bits) & 1);
            });
            break;
        }
        const bool mad = I.op == Op::Mad;
        if (I.mul == MulMode::Wide) {
            if (mad) map3(x, [&](uint64_t a, uint64_t b, uint64_t c) { return madWide(a, b, c, bits, sgn); });
            else if (t == Type::S32) map2(x, [](uint64_t a, uint64_t b) { return ops::mulWide(int32_t(a), int32_t(b)); });
            else if (t == Type::U32) map2(x, [](uint64_t a, uint64_t b) { return ops::mulWide(uint32_t(a), uint32_t(b)); });
            else if (t == Type::S16) map2(x, [](uint64_t a, uint64_t b) { return ops::mulWide(int16_t(a), int16_t(b)); });
            else if (t == Type::U16) map2(x, [](uint64_t a, uint64_t b) { return ops::mulWide(uint16_t(a), uint16_t(b)); });
            else unsupportedType(x);
        } else if (I.mul == MulMode::Hi) {
            if (mad && I.sat && t == Type::S32)
                map3(x, [&](uint64_t a, uint64_t b, uint64_t c) { return uint64_t(uint32_t(madHiSatS32(int32_t(a), int32_t(b), int32_t(c)))); });
            else if (mad) map3(x, [&](uint64_t a, uint64_t b, uint64_t c) { return madHi(a, b, c, bits, sgn); });
            else map2(x, [&](uint64_t a, uint64_t b) { return mulHi(a, b, bits, sgn); });
        } else {
            const uint64_t m = mask(bits);
            if (mad) map3(x, [m](uint64_t a, uint64_t b, uint64_t c) { return ops::madLo(a, b, c) & m; });
            else map2(x, [m](uint64_t a, uint64_t b) { return ops::mulLo(a, b) & m; });
        }
        break;
    }
    case Op::Mul24:
        map2(x, [&](uint64_t a, uint64_t b) { return uint64_t(mul24(uint32_t(a), uint32_t(b), I.mul == MulMode::Hi, sgn)); });
        break;
    case Op::Mad24:
        map3(x, [&](uint64_t a, uint64_t b, uint64_t c) {
            return uint64_t(mad24(uint32_t(a), uint32_t(b), uint32_t(c), I.mul == MulMode::Hi, sgn, I.sat));
        });
        break;
    case Op::Sad: map3(x, [&](uint64_t a, uint64_t b, uint64_t c) { return sadInt(a, b, c, bits, sgn); }); break;
    case Op::Fma:
        // std::fma is correctly rounded to nearest (IEEE fusedMultiplyAdd); only the NaN
        // encoding differs from the GPU, so the common case skips the software rounding core.
        if (t == Type::F32 && r == Round::RN && !I.ftz && !I.sat)
            fmaF32LanesRN(x.src(0), x.src(1), x.src(2), x.dst(), x.exec);
        else if (t == Type::F32) map3(x, [&](uint64_t a, uint64_t b, uint64_t c) { return fromF32(fmaF32(asF32(a), asF32(b), asF32(c), r, I.ftz, I.sat)); });
        else if (t == Type::F64) map3(x, [&](uint64_t a, uint64_t b, uint64_t c) { return fromF64(fmaF64(asF64(a), asF64(b), asF64(c), r)); });
        else if (t == Type::F16) map3(x, [&](uint64_t a, uint64_t b, uint64_t c) { return uint64_t(fmaF16(uint16_t(a), uint16_t(b), uint16_t(c), r, I.ftz, I.sat)); });
        else if (t == Type::F16x2)
            map3(x, [&](uint64_t a, uint64_t b, uint64_t c) {
                return uint64_t(fmaF16(uint16_t(a), uint16_t(b), uint16_t(c), r, I.ftz, I.sat)) |
                       (uint64_t(fmaF16(uint16_t(a >> 16), uint16_t(b >> 16), uint16_t(c >> 16), r, I.ftz, I.sat)) << 16);
            });
        else if (t == Type::BF16 || t == Type::BF16x2)   // fma.rn.bf16{x2} (sm_80)
            map3(x, [&](uint64_t a, uint64_t b, uint64_t c) {
                uint64_t v = arith::fmaBF16(uint16_t(a), uint16_t(b), uint16_t(c), r);
                if (t == Type::BF16x2) v |= uint64_t(arith::fmaBF16(uint16_t(a >> 16), uint16_t(b >> 16), uint16_t(c >> 16), r)) << 16;
                return v;
            });
        else unsupportedType(x);
        break;
    case Op::Div:
        if (t == Type::F32) {
            if (I.approx) map2(x, [&](uint64_t a, uint64_t b) { return fromF32(divApproxF32(asF32(a), asF32(b), I.ftz)); });
            else if (I.full) map2(x, [&](uint64_t a, uint64_t b) { return fromF32(divFullF32(asF32(a), asF32(b), I.ftz)); });
            else if (r == Round::RN && !I.ftz) map2(x, [](uint64_t a, uint64_t b) { return uint64_t(ops::divRnF32(uint32_t(a), uint32_t(b))); });
            else map2(x, [&](uint64_t a, uint64_t b) { return fromF32(divF32(asF32(a), asF32(b), r, I.ftz)); });
        } else if (t == Type::F64) {
            map2(x, [&](uint64_t a, uint64_t b) { return fromF64(divF64(asF64(a), asF64(b), r)); });
        } else if (ptx::isInteger(t)) {
            map2(x, [&](uint64_t a, uint64_t b) { return divInt(a, b, bits, sgn); });
        } else {
            unsupportedType(x);
        }
        break;
    case Op::Rem:
        if (!ptx::isInteger(t)) unsupportedType(x);
        map2(x, [&](uint64_t a, uint64_t b) { return remInt(a, b, bits, sgn); });
        break;
    case Op::Abs:
    case Op::Neg: {
        // abs clears the sign bit, neg flips it (an f16 NaN comes out canonical either way).
        const bool neg = I.op == Op::Neg;
        if (t == Type::F16) map1(x, [&](uint64_t a) { return isNaNF16(uint16_t(a)) ? uint64_t(0x7fff) : neg ? ((a ^ 0x8000) & 0xffff) : (a & 0x7fff); });
        else if (t == Type::F32) map1(x, [&](uint64_t a) { return fromF32(neg ? negF32(asF32(a), I.ftz) : absF32(asF32(a), I.ftz)); });
        else if (t == Type::F64) map1(x, [&](uint64_t a) { return fromF64(neg ? negF64(asF64(a)) : absF64(asF64(a))); });
        else if (ptx::isInteger(t)) map1(x, [&](uint64_t a) { return neg ? negInt(a, bits) : absInt(a, bits); });
        else unsupportedType(x);
        break;
    }
    case Op::Min:
    case Op::Max: {
        bool mx = I.op == Op::Max;
        if (t == Type::F32) map2(x, [&](uint64_t a, uint64_t b) { return fromF32(mx ? maxF32(asF32(a), asF32(b), I.ftz) : minF32(asF32(a), asF32(b), I.ftz)); });
        else if (t == Type::F64) map2(x, [&](uint64_t a, uint64_t b) { return fromF64(mx ? maxF64(asF64(a), asF64(b)) : minF64(asF64(a), asF64(b))); });
        else if (ptx::isInteger(t)) map2(x, [&](uint64_t a, uint64_t b) { return mx ? maxInt(a, b, bits, sgn) : minInt(a, b, bits, sgn); });
        else unsupportedType(x);
        break;
    }
    case Op::Copysign:
        if (t == Type::F32) map2(x, [&](uint64_t a, uint64_t b) { return fromF32(copysignF32(asF32(a), asF32(b))); });
        else if (t == Type::F64) map2(x, [&](uint64_t a, uint64_t b) { return fromF64(copysignF64(asF64(a), asF64(b))); });
        else unsupportedType(x);
        break;
    case Op::Rcp:
        if (t == Type::F32) {
            if (I.approx) map1(x, [&](uint64_t a) { return fromF32(rcpApproxF32(asF32(a), I.ftz)); });
            else map1(x, [&](uint64_t a) { return fromF32(rcpF32(asF32(a), r, I.ftz)); });
        } else if (t == Type::F64) {
            if (I.approx) map1(x, [&](uint64_t a) { return fromF64(rcpApproxFtzF64(asF64(a))); });
            else map1(x, [&](uint64_t a) { return fromF64(rcpF64(asF64(a), r)); });
        } else {
            unsupportedType(x);
        }
        break;
    case Op::Sqrt:
        if (t == Type::F32) {
            if (I.approx) map1(x, [&](uint64_t a) { return fromF32(sqrtApproxF32(asF32(a), I.ftz)); });
            else map1(x, [&](uint64_t a) { return fromF32(sqrtF32(asF32(a), r, I.ftz)); });
        } else if (t == Type::F64) {
            map1(x, [&](uint64_t a) { return fromF64(sqrtF64(asF64(a), r)); });
        } else {
            unsupportedType(x);
        }
        break;
    case Op::Rsqrt:
        if (t == Type::F32) map1(x, [&](uint64_t a) { return fromF32(rsqrtApproxF32(asF32(a), I.ftz)); });
        else if (t == Type::F64) map1(x, [&](uint64_t a) { return fromF64(I.ftz ? rsqrtApproxFtzF64(asF64(a)) : rsqrtApproxF64(asF64(a))); });
        else unsupportedType(x);
        break;
    case Op::Sin: map1(x, [&](uint64_t a) { return fromF32(sinApproxF32(asF32(a), I.ftz)); }); break;
    case Op::Cos: map1(x, [&](uint64_t a) { return fromF32(cosApproxF32(asF32(a), I.ftz)); }); break;
    case Op::Lg2: map1(x, [&](uint64_t a) { return fromF32(lg2ApproxF32(asF32(a), I.ftz)); }); break;
    case Op::Ex2:
        // Half-precision approximations: evaluated in single precision and rounded to half.
        if (t == Type::F16) map1(x, [&](uint64_t a) { return uint64_t(f32ToF16(ex2ApproxF32(f16ToF32(uint16_t(a)), false))); });
        else map1(x, [&](uint64_t a) { return fromF32(ex2ApproxF32(asF32(a), I.ftz)); });
        break;
    case Op::Tanh:
        if (t == Type::F16) map1(x, [&](uint64_t a) { return uint64_t(f32ToF16(tanhApproxF32(f16ToF32(uint16_t(a))))); });
        else map1(x, [&](uint64_t a) { return fromF32(tanhApproxF32(asF32(a))); });
        break;
    default: break;
    }
}

void execBits(Exec& x) {
    const Instr& I = x.I;
    const Type t = I.type;
    const int bits = ptx::bitsOf(t);
    const bool sgn = ptx::isSigned(t);
    if (t == Type::Pred) {
        // Predicate logic: and/or/xor/not/mov on predicate registers.
        uint32_t a = x.predMask(I.src[0]);
        uint32_t b = I.nsrc > 1 ? x.predMask(I.src[1]) : 0;
        uint32_t v = 0;
        switch (I.op) {
        case Op::And: v = a & b; break;
        case Op::Or: v = a | b; break;
        case Op::Xor: v = a ^ b; break;
        case Op::Not: v = ~a; break;
        case Op::Cnot: v = ~a; break;
        default: unsupportedType(x);
        }
        x.setPred(I.dst, v, x.exec);
        return;
    }
    const uint64_t m = mask(bits);
    switch (I.op) {
    case Op::And: map2(x, [&](uint64_t a, uint64_t b) { return ops::bitAnd(a, b) & m; }); break;
    case Op::Or: map2(x, [&](uint64_t a, uint64_t b) { return ops::bitOr(a, b) & m; }); break;
    case Op::Xor: map2(x, [&](uint64_t a, uint64_t b) { return ops::bitXor(a, b) & m; }); break;
    case Op::Not: map1(x, [&](uint64_t a) { return ~a & m; }); break;
    case Op::Cnot: map1(x, [&](uint64_t a) { return uint64_t((a & m) == 0); }); break;
    case Op::Shl: shiftAtWidth(x, bits, [](auto a, uint32_t n) { return ops::shl(a, n); }); break;
    case Op::Shr:
        if (sgn) shiftAtWidth(x, bits, [](auto a, uint32_t n) { return ops::shrS(a, n); });
        else shiftAtWidth(x, bits, [](auto a, uint32_t n) { return ops::shrU(a, n); });
        break;
    case Op::Shf:
        // shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: funnel shift of the 64-bit value b:a by c.
        map3(x, [&](uint64_t a, uint64_t b, uint64_t c) {
            uint32_t n = uint32_t(c);
            n = I.shfClamp ? std::min<uint32_t>(n, 32) : (n & 31);
            uint64_t v = (uint64_t(uint32_t(b)) << 32) | uint32_t(a);
            if (I.shfLeft) return uint64_t(uint32_t((v << n) >> 32));
            return uint64_t(uint32_t(v >> n));
        });
        break;
    case Op::Popc: map1(x, [&](uint64_t a) { return uint64_t(popc(a, bits)); }); break;
    case Op::Clz: map1(x, [&](uint64_t a) { return uint64_t(clz(a, bits)); }); break;
    case Op::Bfind: map1(x, [&](uint64_t a) { return uint64_t(bfind(a, bits, sgn, I.bfindShift)); }); break;
    case Op::Brev: map1(x, [&](uint64_t a) { return bits == 64 ? brev64(a) : uint64_t(brev32(uint32_t(a))); }); break;
    case Op::Bfe: map3(x, [&](uint64_t a, uint64_t b, uint64_t c) { return bfe(a, uint32_t(b), uint32_t(c), bits, sgn); }); break;
    case Op::Bfi: {
        const uint64_t* a = x.src(0);
        const uint64_t* b = x.src(1);
        const uint64_t* c = x.src(2);
        const uint64_t* d4 = x.src(3);
        uint64_t* d = x.dst();
        forLanes(x.exec, [&](int l) { d[l] = bfi(a[l], b[l], uint32_t(c[l]), uint32_t(d4[l]), bits); });
        break;
    }
    case Op::Fns: map3(x, [&](uint64_t a, uint64_t b, uint64_t c) { return uint64_t(fns(uint32_t(a), uint32_t(b), int32_t(uint32_t(c)))); }); break;
    case Op::Prmt: map3(x, [&](uint64_t a, uint64_t b, uint64_t c) { return uint64_t(prmt(uint32_t(a), uint32_t(b), uint32_t(c), I.prmtMode)); }); break;
    default: break;
    }
}

} // namespace warpscope::sim
