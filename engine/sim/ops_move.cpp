// Moves and conversions: mov (registers, special registers, packing), cvt, cvta, isspacep.
#include "sim/exec.hpp"
#include "sim/ops.hpp"

namespace warpscope::sim {


void execMove(Exec& x) {
    const Instr& I = x.I;
    switch (I.op) {
    case Op::Mov: {
        if (I.type == Type::Pred) {
            x.setPred(I.dst, x.predMask(I.src[0]), x.exec);
            break;
        }
        if (I.type2 == Type::B128) {   // pack {a, b(, c, d)} into one register
            int eb = ptx::bitsOf(I.type) / I.vec;
            uint64_t* d = x.dst();
            uint64_t s[4][32];
            const uint64_t* v[4];
            for (int k = 0; k < I.vec; ++k) v[k] = x.value(I.vecRegs[k], s[k]);
            forLanes(x.exec, [&](int l) {
                uint64_t r = 0;
                for (int k = 0; k < I.vec; ++k) r |= (v[k][l] & mask(eb)) << (eb * k);
                d[l] = r;
            });
            break;
        }
        if (I.type2 == Type::B8) {   // unpack one register into {a, b(, c, d)}
            int eb = ptx::bitsOf(I.type) / I.vec;
            const uint64_t* a = x.src(0);
            uint64_t copy[32];
            std::memcpy(copy, a, sizeof copy);
            for (int k = 0; k < I.vec; ++k) {
                uint64_t* d = x.regOut(I.vecRegs[k]);
                forLanes(x.exec, [&](int l) { d[l] = (copy[l] >> (eb * k)) & mask(eb); });
            }
            break;
        }
        const uint64_t m = mask(ptx::bitsOf(I.type));
        map1(x, [&](uint64_t a) { return a & m; });
        break;
    }
    case Op::Cvt: {
        const Type dt = I.type, st = I.type2;
        const int db = ptx::bitsOf(dt);
        const uint64_t m = mask(db);
        if (I.toTf32) {
            map1(x, [&](uint64_t a) { return uint64_t(arith::f32ToTf32(uint32_t(a), I.rnd, I.satfinite)); });
        } else if (I.nsrc == 2 && (dt == Type::F16x2 || dt == Type::BF16x2)) {   // cvt.rn.f16x2.f32 d, a, b: a -> upper half
            const Type half = dt == Type::F16x2 ? Type::F16 : Type::BF16;
            map2(x, [&](uint64_t a, uint64_t b) {
                return ((arith::convert(a, half, Type::F32, I.rnd, false, false) & 0xffffu) << 16) |
                       (arith::convert(b, half, Type::F32, I.rnd, false, false) & 0xffffu);
            });
        } else if (ptx::isInteger(dt) && ptx::isInteger(st) && !I.sat) {
            // Plain integer widening/narrowing (hot: cvt.u64.u32, cvt.s64.s32).
            auto widen = [&](auto from) {
                using T = decltype(from);
                map1(x, [m](uint64_t a) { return ops::widen(T(a)) & m; });
            };
            const bool s = ptx::isSigned(st);
            switch (ptx::bitsOf(st)) {
            case 8: s ? widen(int8_t{}) : widen(uint8_t{}); break;
            case 16: s ? widen(int16_t{}) : widen(uint16_t{}); break;
            case 32: s ? widen(int32_t{}) : widen(uint32_t{}); break;
            default: widen(uint64_t{}); break;
            }
        } else {
            map1(x, [&](uint64_t a) { return arith::convert(a, dt, st, I.rnd, I.ftz, I.sat) & m; });
        }
        break;
    }
    case Op::Cvta: {
        uint64_t base = 0;
        if (I.space == StateSpace::Shared) base = mem::kSharedWindow;
        else if (I.space == StateSpace::Local) base = mem::kLocalWindow;
        else if (I.space == StateSpace::Param) base = mem::kParamWindow;
        const uint64_t m = mask(ptx::bitsOf(I.type));
        if (I.toSpace) map1(x, [&](uint64_t a) { return (a - base) & m; });
        else map1(x, [&](uint64_t a) { return (a + base) & m; });
        break;
    }
    case Op::Isspacep: {
        const uint64_t* a = x.src(0);
        uint32_t v = 0;
        forLanes(x.exec, [&](int l) {
            mem::Window win = mem::windowOf(a[l]);
            bool r = false;
            switch (I.space) {
            case StateSpace::Shared: r = win == mem::Window::Shared; break;
            case StateSpace::Local: r = win == mem::Window::Local; break;
            case StateSpace::Param: r = win == mem::Window::Param; break;
            case StateSpace::Global: r = win == mem::Window::Global && a[l] >= mem::kGlobalBase; break;
            case StateSpace::Const: r = a[l] >= mem::kConstBase && a[l] < mem::kGlobalBase; break;
            default: break;
            }
            if (r) v |= 1u << l;
        });
        x.setPred(I.dst, v, x.exec);
        break;
    }
    default: break;
    }
}

} // namespace warpscope::sim
