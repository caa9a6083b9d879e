// Golden: warp shuffles. idx/up/down/xor with widths 32, 16, 8 and 4, including source lanes
// outside the segment (up/down keep their own value; xor reaching a later segment keeps its own
// value; idx wraps modulo width), 64-bit and float shuffles, and butterfly/tree reductions.
#include <cstdint>

#define FULL 0xffffffffu
#define K 20

extern "C" __global__ void warp_shuffle(const uint32_t* in, uint32_t* out, float* fout, double* dout) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    uint32_t v = in[t];
    uint32_t* o = out + size_t(t) * K;
    o[0] = __shfl_sync(FULL, v, 31 - lane);
    o[1] = __shfl_sync(FULL, v, lane + 5, 16);           // wraps inside 16-lane segments
    o[2] = __shfl_sync(FULL, v, int(v & 63) - 8, 8);     // negative and large source lanes
    o[3] = __shfl_sync(FULL, v, 3, 4);
    o[4] = __shfl_up_sync(FULL, v, 1);
    o[5] = __shfl_up_sync(FULL, v, 3, 8);
    o[6] = __shfl_up_sync(FULL, v, 17, 16);              // delta >= width: own value
    o[7] = __shfl_down_sync(FULL, v, 2);
    o[8] = __shfl_down_sync(FULL, v, 5, 16);
    o[9] = __shfl_down_sync(FULL, v, 1, 4);
    o[10] = __shfl_xor_sync(FULL, v, 1);
    o[11] = __shfl_xor_sync(FULL, v, 16, 8);             // later segment: own value
    o[12] = __shfl_xor_sync(FULL, v, 6, 8);
    o[13] = __shfl_xor_sync(FULL, v, 31);
    // Reductions: sums (wrapping) via down and via xor butterfly, and a max.
    uint32_t s = v;
    for (int d = 16; d > 0; d >>= 1) s += __shfl_down_sync(FULL, s, d);
    o[14] = s;
    uint32_t b = v;
    for (int m = 1; m < 32; m <<= 1) b += __shfl_xor_sync(FULL, b, m);
    o[15] = b;
    uint32_t mx = v;
    for (int m = 1; m < 8; m <<= 1) mx = max(mx, __shfl_xor_sync(FULL, mx, m, 8));
    o[16] = mx;
    // Inclusive prefix sum with shfl.up.
    uint32_t p = v & 0xffff;
    for (int d = 1; d < 32; d <<= 1) {
        uint32_t y = __shfl_up_sync(FULL, p, d);
        if (lane >= d) p += y;
    }
    o[17] = p;
    unsigned long long w = ((unsigned long long)v << 32) | (v ^ 0x5a5a5a5au);
    unsigned long long ws = __shfl_sync(FULL, w, (lane * 7) & 31);
    o[18] = uint32_t(ws >> 32) ^ uint32_t(ws);
    o[19] = uint32_t(__shfl_down_sync(FULL, (long long)w, 9, 32) >> 17);
    // Float and double: a fixed-order tree sum is deterministic.
    float f = float(v & 0xffffff) * 0.001f;
    for (int d = 16; d > 0; d >>= 1) f += __shfl_down_sync(FULL, f, d);
    fout[t] = f;
    double g = double(v) * 1e-3;
    for (int m = 16; m > 0; m >>= 1) g += __shfl_xor_sync(FULL, g, m);
    dout[t] = g;
}
