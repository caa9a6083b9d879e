// warpscope-ptx-arch: sm_90
// The tensor cores' corner cases, on mma.sync so each lane's fragment is explicit: f16 and bf16
// inputs over their whole exponent range (subnormals, the largest finite values), accumulators
// from subnormal to FLT_MAX, infinities and NaNs sprinkled in, an f16 accumulator that overflows,
// bf16 products that overflow f32; and the two shapes mma-sync does not record (m16n8k4 tf32,
// m16n8k16 s8). One tile per warp, 32 warps per mode.
__device__ unsigned mix(unsigned x) { x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16; return x; }

// mode 0: finite f16 over the whole range; 1: with inf/NaN; 3: bf16 whole range (f32 overflow possible)
__device__ unsigned short elem(unsigned x, int mode) {
    if (mode == 3) {
        unsigned short b = (unsigned short)(x & 0xffffu);
        if (((b >> 7) & 0xff) == 0xff) b &= 0xbfffu;   // no inf/NaN
        return b;
    }
    unsigned short b = (unsigned short)(x & 0xffffu);
    if (((b >> 10) & 31) == 31) b &= 0xfbffu;          // finite
    if (mode == 1) {
        const unsigned short sp[4] = {0x7c00, 0xfc00, 0x7e00, 0x0000};
        if ((x >> 26) == 0) b = sp[(x >> 16) & 3];
    }
    return b;
}
__device__ float cval(unsigned x, int mode) {
    unsigned b = x;
    if (((b >> 23) & 0xff) == 0xff) b &= 0xbfffffffu;
    if ((x & 0xf00) == 0x100) b &= 0x807fffffu;         // subnormal
    if ((x & 0xf00) == 0x200) b = (b & 0x80000000u) | 0x7f7fffffu;   // +-FLT_MAX
    if (mode == 1 && (x & 0xff0) == 0x330) b = (x & 1) ? 0x7f800000u : 0x7fc00000u;
    return __uint_as_float(b);
}

extern "C" __global__ void specials(const unsigned* h, unsigned* out, int mode) {
    int tile = blockIdx.x * 4 + threadIdx.x / 32, lane = threadIdx.x & 31;
    unsigned a[4], b[2];
    for (int i = 0; i < 4; i++) {
        unsigned x = mix(h[(tile * 64 + lane * 4 + i) & 4095] + mode * 7919);
        a[i] = elem(x, mode) | ((unsigned)elem(mix(x), mode) << 16);
    }
    for (int i = 0; i < 2; i++) {
        unsigned x = mix(h[(tile * 32 + lane * 2 + i + 2048) & 4095] + mode * 104729);
        b[i] = elem(x, mode) | ((unsigned)elem(mix(x), mode) << 16);
    }
    if (mode == 2) {   // f16 accumulator and result: large products overflow to infinity
        unsigned c[2] = {a[0] ^ b[1], a[3] ^ b[0]}, d[2];
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
                     : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
        out[tile * 128 + lane * 4] = d[0];
        out[tile * 128 + lane * 4 + 1] = d[1];
        return;
    }
    float c[4], d[4];
    for (int i = 0; i < 4; i++) c[i] = cval(mix(h[(tile * 16 + lane * 4 + i + 1024) & 4095] ^ (mode * 31)), mode);
    if (mode == 3)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    else
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    for (int i = 0; i < 4; i++) out[tile * 128 + lane * 4 + i] = __float_as_uint(d[i]);
}

// m16n8k4 tf32 (A: (g,t), (g+8,t); B: (t,g)) and m16n8k16 s8 (A: two registers, B: one).
extern "C" __global__ void shapes(const unsigned* h, unsigned* out) {
    int tile = blockIdx.x * 4 + threadIdx.x / 32, lane = threadIdx.x & 31;
    unsigned x0 = mix(h[(tile * 8 + lane) & 4095]), x1 = mix(x0), x2 = mix(x1), x3 = mix(x2);
    unsigned a0 = (x0 & 0x807fe000u) | ((119 + (x0 >> 23) % 16) << 23), a1 = (x1 & 0x807fe000u) | ((119 + (x1 >> 23) % 16) << 23);
    unsigned b0 = (x2 & 0x807fe000u) | ((119 + (x2 >> 23) % 16) << 23);
    float c[4], d[4];
    for (int i = 0; i < 4; i++) c[i] = __uint_as_float((mix(x3 + i) & 0x807fffffu) | ((115 + (mix(x3 + i) >> 23) % 24) << 23));
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]) : "r"(a0), "r"(a1), "r"(b0), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    for (int i = 0; i < 4; i++) out[tile * 256 + lane * 4 + i] = __float_as_uint(d[i]);
    int ci[4], di[4];
    for (int i = 0; i < 4; i++) ci[i] = (int)mix(x2 + 17 * i);
    asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                 : "=r"(di[0]), "=r"(di[1]), "=r"(di[2]), "=r"(di[3]) : "r"(x0), "r"(x1), "r"(x3), "r"(ci[0]), "r"(ci[1]), "r"(ci[2]), "r"(ci[3]));
    for (int i = 0; i < 4; i++) out[tile * 256 + 128 + lane * 4 + i] = (unsigned)di[i];
}
