// Values of every register width nvcc uses (16-bit %rs, 32-bit %r and %f, 64-bit %rd and %fd).
// tests/engine/sim/registers_test.cpp stops a warp before it returns and reads its register
// file as the app's register view does (sim::registerValues).
extern "C" __global__ void register_widths(long long* out64, double* outd, short* out16, float* outf, unsigned* out32)
{
    unsigned t = threadIdx.x;
    long long big = (long long)(t + 1) << 33;
    double d = t * 0.5 + 0.125;
    short s = (short)(-3 * (int)t);
    float f = t * 0.25f + 1.0f;
    out64[t] = big;
    outd[t] = d;
    out16[t] = s;
    outf[t] = f;
    out32[t] = ~t;
}
