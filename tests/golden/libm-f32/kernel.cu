// Golden: CUDA's precise single-precision math library (sinf, cosf, logf, expf, powf, atan2f,
// erff, cbrtf, fmodf, remainderf, hypotf, frexpf/ldexpf, roundf, nextafterf). nvcc inlines these
// as long fma/bit-twiddling sequences (sinf's Payne-Hanek reduction for huge arguments uses a
// local array and a 64-bit multiply loop); some inline ex2/lg2.approx, so compare with 4 ulp.
#include <cstdint>

#define K 16

extern "C" __global__ void libm_f32(const uint32_t* r, const float* u, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t bits = r[i];
    // Mostly moderate arguments, sometimes huge ones (trig slow path) or random bit patterns.
    float big = __uint_as_float((bits & 0x807fffffu) | ((110u + (bits >> 24) % 40u) << 23));
    float x = (bits & 7) == 0 ? big : (bits & 7) == 1 ? __uint_as_float(bits) : (u[i] - 0.5f) * 40.0f;
    float y = (u[i] + 0.01f) * 7.0f;
    float* o = out + size_t(i) * K;
    o[0] = sinf(x);
    o[1] = cosf(x);
    o[2] = logf(y + fabsf(x));
    o[3] = expf(x * 0.25f);
    o[4] = powf(y, x * 0.1f);
    o[5] = atan2f(x, y - 3.0f);
    o[6] = erff(x * 0.1f);
    o[7] = cbrtf(x);
    o[8] = fmodf(x, y);
    o[9] = remainderf(x, y);
    o[10] = hypotf(x, y);
    int e;
    float m = frexpf(x, &e);
    o[11] = ldexpf(m, e % 7);
    o[12] = roundf(x * 0.37f);
    o[13] = nextafterf(x, y);
    o[14] = tanf(x * 0.01f);
    o[15] = log1pf(y) + expm1f(x * 0.01f);
}
