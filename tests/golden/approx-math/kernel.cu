// Golden: approximate single-precision math (the SFU instructions). Results are compared with a
// ulp/absolute tolerance because the hardware's approximations are not correctly rounded:
// ex2/lg2/sin/cos/rsqrt/rcp/sqrt .approx, and the intrinsics built on them (__expf, __logf,
// __sinf, __cosf, __powf, __fdividef, rsqrtf). Arguments stay in ranges where the documented
// error bounds are small.
#include <cstdint>

#define K 16

__device__ __forceinline__ float asmOp(float x, int which) {
    float r;
    switch (which) {
    case 0: asm("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
    case 1: asm("rcp.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
    case 2: asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
    default: asm("lg2.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
    }
    return r;
}

extern "C" __global__ void approx_math(const float* u, const float* v, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    // u, v uniform in [0, 1): map to the ranges each function is accurate in.
    float x = u[i] * 16.0f - 8.0f;             // [-8, 8)
    float p = 0.001f + u[i] * 100.0f;          // positive, (0.001, 100)
    float q = 0.5f + v[i] * 4.0f;              // [0.5, 4.5)
    float s = (v[i] * 2.0f - 1.0f) * 3.14159f; // [-pi, pi]
    float* o = out + size_t(i) * K;
    o[0] = __expf(x);
    o[1] = __logf(p);
    o[2] = __log2f(p);
    o[3] = __sinf(s);
    o[4] = __cosf(s);
    o[5] = rsqrtf(p);
    o[6] = __fdividef(x, q);
    o[7] = __powf(q, x * 0.25f);
    o[8] = __exp10f(x * 0.25f);
    o[9] = __log10f(p);
    o[10] = asmOp(p, 0);
    o[11] = asmOp(q, 1);
    o[12] = asmOp(x, 2);
    o[13] = asmOp(p, 3);
    o[14] = __frsqrt_rn(p);                    // correctly rounded, in SFU clothing
    o[15] = __saturatef(__sinf(s) * __cosf(s) + 0.5f);
}
