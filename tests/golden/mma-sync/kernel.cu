// warpscope-ptx-arch: sm_90
// mma.sync.aligned, ldmatrix and movmatrix written as inline PTX, the way hand-tuned kernels
// use the tensor cores. Each lane fills its fragment registers from the tiles by the PTX ISA's
// per-lane layout (g = lane / 4, t = lane % 4), so a wrong layout or rounding shows in D. Inputs
// are random with wide exponent windows (see wmma-gemm). 32 warps, one tile each, per kernel.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__device__ unsigned short f16Bits(unsigned h) {
    unsigned e = 9 + (h >> 10) % 12;
    return (unsigned short)((h & 0x83ffu) | (e << 10));
}
__device__ unsigned short bf16Bits(unsigned h) {
    unsigned e = 119 + (h >> 7) % 16;
    return (unsigned short)((h & 0x807fu) | (e << 7));
}
__device__ unsigned tf32Bits(unsigned h) {   // already a tf32 value: low 13 mantissa bits zero
    unsigned e = 119 + (h >> 23 & 0xff) % 16;
    return (h & 0x807fe000u) | (e << 23);
}
__device__ float cFrom(unsigned h) { return __uint_as_float((h & 0x807fffffu) | ((115 + (h >> 23 & 0xff) % 24) << 23)); }
__device__ unsigned mix(unsigned x) { x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16; return x; }

// Element (r, c) of a tile numbered `tile`, kind `which`, as 16-bit bits.
__device__ unsigned short elem16(const unsigned* h, int tile, int which, int r, int c, bool bf) {
    unsigned x = mix(h[(tile * 7 + which * 3 + r * 31 + c * 17) & 4095] + r * 977 + c * 131 + which);
    return bf ? bf16Bits(x) : f16Bits(x);
}
__device__ unsigned pack(unsigned short lo, unsigned short hi) { return lo | ((unsigned)hi << 16); }

// m16n8k16 with f16 or bf16 A/B and f32 C/D.
template <bool BF>
__device__ void m16n8k16(const unsigned* h, float* out, int tile) {
    int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    unsigned a[4], b[2];
    a[0] = pack(elem16(h, tile, 0, g, 2 * t, BF), elem16(h, tile, 0, g, 2 * t + 1, BF));
    a[1] = pack(elem16(h, tile, 0, g + 8, 2 * t, BF), elem16(h, tile, 0, g + 8, 2 * t + 1, BF));
    a[2] = pack(elem16(h, tile, 0, g, 2 * t + 8, BF), elem16(h, tile, 0, g, 2 * t + 9, BF));
    a[3] = pack(elem16(h, tile, 0, g + 8, 2 * t + 8, BF), elem16(h, tile, 0, g + 8, 2 * t + 9, BF));
    b[0] = pack(elem16(h, tile, 1, 2 * t, g, BF), elem16(h, tile, 1, 2 * t + 1, g, BF));
    b[1] = pack(elem16(h, tile, 1, 2 * t + 8, g, BF), elem16(h, tile, 1, 2 * t + 9, g, BF));
    float c[4], d[4];
    for (int i = 0; i < 4; i++) c[i] = cFrom(mix(h[(tile * 13 + lane * 4 + i) & 4095] ^ 0x9e3779b9u));
    if (BF)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    else
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    for (int i = 0; i < 4; i++) out[tile * 128 + lane * 4 + i] = d[i];
}

extern "C" __global__ void mma_f16_f32(const unsigned* h, float* out) { m16n8k16<false>(h, out, blockIdx.x * 4 + threadIdx.x / 32); }
extern "C" __global__ void mma_bf16_f32(const unsigned* h, float* out) { m16n8k16<true>(h, out, blockIdx.x * 4 + threadIdx.x / 32); }

// m16n8k16 f16 -> f16 (C/D as two f16x2 registers), and m16n8k8 f16 -> f32.
extern "C" __global__ void mma_f16_f16(const unsigned* h, unsigned* out) {
    int tile = blockIdx.x * 4 + threadIdx.x / 32, lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    unsigned a[4], b[2], c[2], d[2];
    a[0] = pack(elem16(h, tile, 0, g, 2 * t, false), elem16(h, tile, 0, g, 2 * t + 1, false));
    a[1] = pack(elem16(h, tile, 0, g + 8, 2 * t, false), elem16(h, tile, 0, g + 8, 2 * t + 1, false));
    a[2] = pack(elem16(h, tile, 0, g, 2 * t + 8, false), elem16(h, tile, 0, g, 2 * t + 9, false));
    a[3] = pack(elem16(h, tile, 0, g + 8, 2 * t + 8, false), elem16(h, tile, 0, g + 8, 2 * t + 9, false));
    b[0] = pack(elem16(h, tile, 1, 2 * t, g, false), elem16(h, tile, 1, 2 * t + 1, g, false));
    b[1] = pack(elem16(h, tile, 1, 2 * t + 8, g, false), elem16(h, tile, 1, 2 * t + 9, g, false));
    c[0] = pack(elem16(h, tile, 2, g, 2 * t, false), elem16(h, tile, 2, g, 2 * t + 1, false));
    c[1] = pack(elem16(h, tile, 2, g + 8, 2 * t, false), elem16(h, tile, 2, g + 8, 2 * t + 1, false));
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
                 : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
    out[tile * 64 + lane * 2] = d[0];
    out[tile * 64 + lane * 2 + 1] = d[1];
}

extern "C" __global__ void mma_k8_f16_f32(const unsigned* h, float* out) {
    int tile = blockIdx.x * 4 + threadIdx.x / 32, lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    unsigned a[2], b;
    a[0] = pack(elem16(h, tile, 0, g, 2 * t, false), elem16(h, tile, 0, g, 2 * t + 1, false));
    a[1] = pack(elem16(h, tile, 0, g + 8, 2 * t, false), elem16(h, tile, 0, g + 8, 2 * t + 1, false));
    b = pack(elem16(h, tile, 1, 2 * t, g, false), elem16(h, tile, 1, 2 * t + 1, g, false));
    float c[4], d[4];
    for (int i = 0; i < 4; i++) c[i] = cFrom(mix(h[(tile * 13 + lane * 4 + i) & 4095] ^ 0x1234567u));
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    for (int i = 0; i < 4; i++) out[tile * 128 + lane * 4 + i] = d[i];
}

// m16n8k8 tf32 -> f32.
extern "C" __global__ void mma_tf32(const unsigned* h, float* out) {
    int tile = blockIdx.x * 4 + threadIdx.x / 32, lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    auto el = [&](int which, int r, int c) { return tf32Bits(mix(h[(tile * 5 + which * 11 + r * 29 + c * 7) & 4095] + r * 1013 + c * 71 + which)); };
    unsigned a[4] = {el(0, g, t), el(0, g + 8, t), el(0, g, t + 4), el(0, g + 8, t + 4)};
    unsigned b[2] = {el(1, t, g), el(1, t + 4, g)};
    float c[4], d[4];
    for (int i = 0; i < 4; i++) c[i] = cFrom(mix(h[(tile * 13 + lane * 4 + i) & 4095] ^ 0x55aa55u));
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    for (int i = 0; i < 4; i++) out[tile * 128 + lane * 4 + i] = d[i];
}

// m16n8k32 s8 -> s32 (wrapping) and m16n8k16 u8 -> s32 saturating.
extern "C" __global__ void mma_s8(const unsigned* h, int* out) {
    int tile = blockIdx.x * 4 + threadIdx.x / 32, lane = threadIdx.x & 31;
    unsigned a[4], b[2], a2[2], b2;
    for (int i = 0; i < 4; i++) a[i] = mix(h[(tile * 9 + lane * 4 + i) & 4095]);
    for (int i = 0; i < 2; i++) b[i] = mix(h[(tile * 9 + lane * 2 + i + 2000) & 4095]);
    for (int i = 0; i < 2; i++) a2[i] = mix(h[(tile * 9 + lane * 2 + i + 1000) & 4095] ^ 77);
    b2 = mix(h[(tile * 9 + lane + 3000) & 4095] ^ 99);
    int c[4], d[4], c2[4], d2[4];
    for (int i = 0; i < 4; i++) {
        unsigned x = mix(h[(tile * 3 + lane * 4 + i + 500) & 4095]);
        c[i] = (int)x;   // any int32: the wrap shows
        c2[i] = (i == 0) ? (int)(0x7fff0000u | (x & 0xffff)) : (i == 1) ? (int)(0x80000000u | (x & 0xffff)) : (int)(x >> 12);
    }
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    asm volatile("mma.sync.aligned.m16n8k16.row.col.satfinite.s32.u8.u8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                 : "=r"(d2[0]), "=r"(d2[1]), "=r"(d2[2]), "=r"(d2[3])
                 : "r"(a2[0]), "r"(a2[1]), "r"(b2), "r"(c2[0]), "r"(c2[1]), "r"(c2[2]), "r"(c2[3]));
    for (int i = 0; i < 4; i++) { out[tile * 256 + lane * 4 + i] = d[i]; out[tile * 256 + 128 + lane * 4 + i] = d2[i]; }
}

// ldmatrix .x1/.x2/.x4, plain and .trans, from rows scattered over shared memory; movmatrix.
extern "C" __global__ void ldmatrix_dump(unsigned* out) {
    __shared__ __align__(16) unsigned short rows[64 * 8];
    int lane = threadIdx.x & 31;
    for (int i = lane; i < 512; i += 32) rows[i] = (unsigned short)(i * 3 + 1);
    __syncwarp();
    unsigned addr = (unsigned)__cvta_generic_to_shared(&rows[((lane * 7 + 3) % 64) * 8]);
    unsigned r[4];
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(addr));
    out[0 * 128 + lane * 4] = r[0];
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(addr));
    out[1 * 128 + lane * 4] = r[0]; out[1 * 128 + lane * 4 + 1] = r[1];
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
    for (int i = 0; i < 4; i++) out[2 * 128 + lane * 4 + i] = r[i];
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(addr));
    out[3 * 128 + lane * 4] = r[0];
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(addr));
    out[4 * 128 + lane * 4] = r[0]; out[4 * 128 + lane * 4 + 1] = r[1];
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
    for (int i = 0; i < 4; i++) out[5 * 128 + lane * 4 + i] = r[i];
    unsigned m = (unsigned)(lane * 2 + 1) | ((unsigned)(lane * 2 + 2) << 16), mt;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(mt) : "r"(m));
    out[6 * 128 + lane * 4] = mt;
    // Generic addresses of shared memory work too (ldmatrix without .shared).
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "l"(&rows[((lane * 5 + 1) % 64) * 8]));
    for (int i = 0; i < 4; i++) out[7 * 128 + lane * 4 + i] = r[i];
}

// The usual hand-written tile: A 16x16 row-major and B 16x8 (k-major rows) staged in shared
// memory, A by ldmatrix.x4, B by ldmatrix.x2.trans, one m16n8k16, D stored per the C layout.
extern "C" __global__ void ldmatrix_mma(const unsigned* h, float* out) {
    __shared__ __align__(16) unsigned short sa[4][16 * 16];
    __shared__ __align__(16) unsigned short sb[4][16 * 8];
    int w = threadIdx.x / 32, lane = threadIdx.x & 31, tile = blockIdx.x * 4 + w;
    for (int i = lane; i < 256; i += 32) sa[w][i] = elem16(h, tile, 0, i / 16, i % 16, false);
    for (int i = lane; i < 128; i += 32) sb[w][i] = elem16(h, tile, 1, i / 8, i % 8, false);
    __syncwarp();
    unsigned a[4], b[2];
    unsigned pa = (unsigned)__cvta_generic_to_shared(&sa[w][(lane % 16) * 16 + (lane / 16) * 8]);
    unsigned pb = (unsigned)__cvta_generic_to_shared(&sb[w][(lane % 16) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(pa));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(b[0]), "=r"(b[1]) : "r"(pb));
    float d[4];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%10,%10,%10};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(0.0f));
    int g = lane >> 2, t = lane & 3;
    out[tile * 128 + g * 8 + 2 * t] = d[0];
    out[tile * 128 + g * 8 + 2 * t + 1] = d[1];
    out[tile * 128 + (g + 8) * 8 + 2 * t] = d[2];
    out[tile * 128 + (g + 8) * 8 + 2 * t + 1] = d[3];
}
