// Golden: CUDA's precise double-precision math library as nvcc inlines it (sin, cos, exp, log,
// pow, atan2, erf, cbrt, fmod, hypot, round, tanh). These are fma polynomials plus integer
// exponent work; some start from rcp.approx.ftz.f64, so compare with 2 ulp.
#include <cstdint>

#define K 12

extern "C" __global__ void libm_f64(const uint64_t* r, const double* u, double* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint64_t bits = r[i];
    double x = (bits & 7) == 0 ? double(int64_t(bits)) * 1e-6 : (u[i] - 0.5) * 60.0;
    double y = (u[i] + 0.01) * 5.0;
    double* o = out + size_t(i) * K;
    o[0] = sin(x);
    o[1] = cos(x);
    o[2] = exp(x * 0.1);
    o[3] = log(y + fabs(x));
    o[4] = pow(y, x * 0.05);
    o[5] = atan2(x, y - 2.0);
    o[6] = erf(x * 0.05);
    o[7] = cbrt(x);
    o[8] = fmod(x, y);
    o[9] = hypot(x, y);
    o[10] = round(x * 0.37) + trunc(y * 3.3);
    o[11] = tanh(x * 0.1);
}
