// Golden: calls to __noinline__ device functions, which stay as .func with call/ret in PTX:
// scalar arguments and results, a function called only by some lanes (divergent call), a
// recursive function (gcd and a bounded recursive sum), a function writing through a pointer to
// the caller's local variable, one returning a struct by value, and a void function.
#include <cstdint>

struct Pair {
    uint32_t lo;
    float hi;
    double extra;
};

__device__ __noinline__ uint32_t hashStep(uint32_t x, uint32_t salt) {
    x ^= salt;
    x *= 0x9e3779b1u;
    return x ^ (x >> 15);
}

__device__ __noinline__ float poly(float x) {
    return ((0.25f * x - 1.5f) * x + 2.0f) * x - 0.125f;
}

__device__ __noinline__ uint32_t gcd(uint32_t a, uint32_t b) {
    return b == 0 ? a : gcd(b, a % b);
}

__device__ __noinline__ uint32_t recursiveSum(uint32_t depth, uint32_t v) {
    if (depth == 0) return v & 0xff;
    uint32_t left = recursiveSum(depth - 1, v * 3u + 1u);
    return left + (v & 0xf) + depth;
}

__device__ __noinline__ void minMax(uint32_t a, uint32_t b, uint32_t* lo, uint32_t* hi) {
    *lo = a < b ? a : b;
    *hi = a < b ? b : a;
}

__device__ __noinline__ Pair makePair(uint32_t v, float f) {
    Pair p;
    p.lo = v * 7u;
    p.hi = f * 0.5f;
    p.extra = double(v) * double(f);
    return p;
}

__device__ __noinline__ void store3(uint32_t* dst, uint32_t a, uint32_t b, uint32_t c) {
    dst[0] = a;
    dst[1] = b;
    dst[2] = c;
}

extern "C" __global__ void device_calls(const uint32_t* in, uint32_t* out, float* fout, double* dout, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t v = in[i];
    uint32_t* o = out + size_t(i) * 9;   // 9 slots: store3 below writes o[6..8]
    o[0] = hashStep(v, 0x1234u);
    // Divergent call: only odd lanes call, and with a lane-dependent argument.
    uint32_t d = 0;
    if (v & 1) d = hashStep(v >> 1, uint32_t(i));
    else d = gcd(v & 0xffff, (v >> 16) | 1);
    o[1] = d;
    o[2] = gcd(v % 1000u + 1u, (v >> 10) % 1000u + 1u);
    o[3] = recursiveSum(v & 7u, v);          // depth differs per lane
    uint32_t lo, hi;
    minMax(v, v * 2654435761u, &lo, &hi);    // pointers to the caller's locals
    o[4] = lo ^ (hi << 1);
    Pair p = makePair(v, float(v & 0xfff) * 0.01f);
    o[5] = p.lo;
    store3(o + 6, uint32_t(i), p.lo >> 3, 0) ;
    o[7] = uint32_t(i) + o[6];
    fout[i] = poly(float(v & 0xff) * 0.0625f) + p.hi;
    dout[i] = p.extra;
}
