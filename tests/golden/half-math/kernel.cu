// Golden: half precision. Scalar and paired (half2) add/sub/mul/fma (incl. _sat and relu),
// min/max, neg/abs, comparisons, and conversions to and from float; all exact IEEE binary16.
#include <cuda_fp16.h>
#include <cstdint>

#define K 16

extern "C" __global__ void half_math(const uint32_t* ra, const uint32_t* rb, uint32_t* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t x = ra[i], y = rb[i];
    // Raw bit patterns: every half value including NaN, Inf, subnormals.
    __half a = __ushort_as_half((unsigned short)x), b = __ushort_as_half((unsigned short)y);
    __half c = __ushort_as_half((unsigned short)(x >> 16));
    __half2 p = __halves2half2(a, c), q = __halves2half2(b, __ushort_as_half((unsigned short)(y >> 16)));
    auto bits = [](__half h) { return uint32_t(__half_as_ushort(h)); };
    auto bits2 = [](__half2 h) { return uint32_t(__half_as_ushort(__low2half(h))) | (uint32_t(__half_as_ushort(__high2half(h))) << 16); };
    uint32_t* o = out + size_t(i) * K;
    o[0] = bits(__hadd(a, b)) | (bits(__hsub(a, b)) << 16);
    o[1] = bits(__hmul(a, b)) | (bits(__hfma(a, b, c)) << 16);
    o[2] = bits(__hadd_sat(a, b)) | (bits(__hfma_sat(a, b, c)) << 16);
    o[3] = bits(__hmax(a, b)) | (bits(__hmin(a, c)) << 16);
    o[4] = bits(__hneg(a)) | (bits(__habs(b)) << 16);
    o[5] = uint32_t(__hlt(a, b)) | (uint32_t(__hge(a, c)) << 1) | (uint32_t(__hisnan(a)) << 2) |
           (uint32_t(__hisinf(b)) << 3) | (uint32_t(__hequ(a, b)) << 4) | (uint32_t(__hne(a, c)) << 5);
    o[6] = bits2(__hadd2(p, q));
    o[7] = bits2(__hmul2(p, q));
    o[8] = bits2(__hfma2(p, q, p));
    o[9] = bits2(__hsub2(p, q));
    o[10] = bits2(__hfma2_relu(p, q, q));
    o[11] = bits2(__hmax2(p, q)) ^ bits2(__hmin2(p, q));
    o[12] = __float_as_uint(__half2float(a) * __half2float(b));
    o[13] = bits(__float2half_rn(__half2float(a) + __half2float(c)));
    o[14] = bits(__hmul_rn(a, c)) | (bits(__hadd_rn(b, c)) << 16);
    o[15] = bits2(__h2div(p, q));
}
