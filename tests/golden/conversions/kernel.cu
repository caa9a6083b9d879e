// Golden: conversions. float <-> int of every width and rounding (out-of-range values saturate,
// NaN becomes 0), int -> float with rounding, f32 <-> f64, f32/f64 <-> f16, saturate and the
// float-to-integral roundings (cvt.rni/rzi/rmi/rpi). Inputs are random bit patterns shaped like
// those of f32-ieee so NaN, Inf, denormals and huge values all occur.
#include <cuda_fp16.h>
#include <cstdint>

#define K32 32
#define K64 16

__device__ float shapeF(uint32_t bits, uint32_t sel) {
    switch (sel & 3) {
    case 0: return __uint_as_float(bits);
    case 1: return __uint_as_float((bits & 0x807fffffu) | ((120u + ((bits >> 9) % 50u)) << 23));  // 2^-7..2^42
    case 2: return __uint_as_float((bits & 0x803fffffu) | 0x4b000000u);   // around 2^23: halves, odd/even
    default: return float(int(bits) >> (bits & 31)) + 0.5f * float((bits >> 29) & 1);
    }
}

extern "C" __global__ void conversions(const uint32_t* r32, const uint64_t* r64, uint32_t* o32,
                                       uint64_t* o64, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t bits = r32[i];
    uint64_t wbits = r64[i];
    float f = shapeF(bits, uint32_t(wbits >> 62));
    double d = (wbits & 1) ? double(f) * 3.0000001 : __longlong_as_double((long long)wbits);
    int si = int(bits) >> (wbits & 31);
    long long sl = (long long)wbits >> (bits & 63);
    __half h = __ushort_as_half((unsigned short)(bits >> 7));
    uint32_t* o = o32 + size_t(i) * K32;
    o[0] = uint32_t(__float2int_rn(f));
    o[1] = uint32_t(__float2int_rz(f));
    o[2] = uint32_t(__float2int_rd(f));
    o[3] = uint32_t(__float2int_ru(f));
    o[4] = __float2uint_rn(f);
    o[5] = __float2uint_rz(f);
    o[6] = __float2uint_rd(f);
    o[7] = __float2uint_ru(f);
    o[8] = __float_as_uint(__int2float_rn(si));
    o[9] = __float_as_uint(__int2float_rz(si));
    o[10] = __float_as_uint(__int2float_rd(si));
    o[11] = __float_as_uint(__uint2float_ru(uint32_t(si)));
    o[12] = __float_as_uint(__ll2float_rn(sl));
    o[13] = __float_as_uint(__ll2float_ru(sl));
    o[14] = __float_as_uint(__ull2float_rz(uint64_t(sl)));
    o[15] = __float_as_uint(__ull2float_rd(uint64_t(sl)));
    o[16] = __float_as_uint(__double2float_rn(d));
    o[17] = __float_as_uint(__double2float_rz(d));
    o[18] = __float_as_uint(__double2float_rd(d));
    o[19] = __float_as_uint(__double2float_ru(d));
    o[20] = uint32_t(__double2int_rn(d)) ^ (uint32_t(__double2int_rz(d)) << 1);
    o[21] = __double2uint_ru(d) ^ __double2uint_rd(d);
    o[22] = __half_as_ushort(__float2half_rn(f)) | (uint32_t(__half_as_ushort(__float2half_rz(f))) << 16);
    o[23] = __half_as_ushort(__float2half_rd(f)) | (uint32_t(__half_as_ushort(__float2half_ru(f))) << 16);
    o[24] = __float_as_uint(__half2float(h));
    o[25] = __half_as_ushort(__double2half(d)) | (uint32_t(__half_as_ushort(__int2half_rn(si >> 12))) << 16);
    o[26] = __float_as_uint(__saturatef(f * 1e-9f));
    o[27] = __float_as_uint(rintf(f)) ^ __float_as_uint(truncf(f));
    o[28] = __float_as_uint(floorf(f)) ^ (__float_as_uint(ceilf(f)) >> 1);
    o[29] = uint32_t((signed char)si) | (uint32_t((unsigned short)si) << 8) | (uint32_t((short)(si >> 20)) << 24);
    o[30] = uint32_t(__half2int_rn(h)) ^ (uint32_t(__half2uint_rz(h)) << 3);
    o[31] = __float_as_uint(float(uint32_t(bits)) - float(si));
    uint64_t* w = o64 + size_t(i) * K64;
    w[0] = uint64_t(__float2ll_rn(f));
    w[1] = uint64_t(__float2ll_rz(f));
    w[2] = __float2ull_rd(f);
    w[3] = __float2ull_ru(f);
    w[4] = uint64_t(__double2ll_rn(d));
    w[5] = uint64_t(__double2ll_rz(d));
    w[6] = __double2ull_rd(d);
    w[7] = __double2ull_ru(d);
    w[8] = uint64_t(__double_as_longlong(__ll2double_rn(sl)));
    w[9] = uint64_t(__double_as_longlong(__ll2double_rz(sl)));
    w[10] = uint64_t(__double_as_longlong(__ull2double_rd(wbits)));
    w[11] = uint64_t(__double_as_longlong(__ull2double_ru(wbits)));
    w[12] = uint64_t(__double_as_longlong(double(f)));                  // exact widening
    w[13] = uint64_t(__double_as_longlong(__int2double_rn(si) + __uint2double_rn(bits)));
    w[14] = uint64_t(__double_as_longlong(rint(d))) ^ uint64_t(__double_as_longlong(trunc(d)));
    w[15] = uint64_t(__double_as_longlong(floor(d))) ^ (uint64_t(__double_as_longlong(ceil(d))) >> 1);
}
