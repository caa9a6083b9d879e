// Instructions nvcc emits only for particular source forms or through inline PTX: special
// registers (%smid, %nsmid, %warpid, %nwarpid, %laneid, %clock, %clock64), memory fences
// (membar, fence), slct, testp, barrier.sync and exit. tests/engine/sim/special_test.cpp runs
// them and checks the results.

// Per thread, 8 words: smid, nsmid, warpid, nwarpid, laneid, clock64 advanced, clock advanced,
// and the thread's index, so the test can hold each value against the launch shape.
extern "C" __global__ void special_registers(unsigned* out)
{
    unsigned smid, nsmid, warpid, nwarpid, laneid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsmid));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(warpid));
    asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(nwarpid));
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(laneid));
    long long t0 = clock64();
    unsigned c0 = clock();
    float x = threadIdx.x;
    for (int k = 0; k < 8; ++k)
        x = x * 1.5f + 1.0f;
    long long t1 = clock64();
    unsigned c1 = clock();
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned* o = out + 8 * i;
    o[0] = smid;
    o[1] = nsmid;
    o[2] = warpid;
    o[3] = nwarpid;
    o[4] = laneid;
    o[5] = t1 > t0;
    o[6] = c1 != c0 && x > 0.0f;
    o[7] = i;
}

// A producer/consumer hand-off inside one block, ordered by fences: each thread writes its word,
// fences (__threadfence: membar.gl, __threadfence_block: membar.cta, and a PTX fence), then the
// block meets at barrier.sync and each thread reads its neighbour's word.
extern "C" __global__ void fences(int* data, int* out)
{
    int i = threadIdx.x;
    data[i] = 3 * i + 1;
    __threadfence();
    __threadfence_block();
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
    asm volatile("barrier.sync 0;" ::: "memory");
    out[i] = data[(i + 1) % blockDim.x];
}

// slct picks its first or second operand by the sign of the third (integer and float forms).
extern "C" __global__ void select_by_sign(const int* a, const int* b, const int* c, const float* cf, int* out, int* outf)
{
    int i = threadIdx.x;
    int r, rf;
    asm("slct.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a[i]), "r"(b[i]), "r"(c[i]));
    asm("slct.s32.f32 %0, %1, %2, %3;" : "=r"(rf) : "r"(a[i]), "r"(b[i]), "f"(cf[i]));
    out[i] = r;
    outf[i] = rf;
}

// testp classifies a float: bit 0 finite, 1 infinite, 2 number (not NaN), 3 NaN, 4 normal,
// 5 subnormal.
extern "C" __global__ void classify(const float* x, unsigned* out)
{
    int i = threadIdx.x;
    unsigned bits;
    asm("{\n\t.reg .pred p;\n\t.reg .u32 t;\n\t"
        "testp.finite.f32 p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t"
        "testp.infinite.f32 p, %1;\n\tselp.u32 t, 2, 0, p;\n\tor.b32 %0, %0, t;\n\t"
        "testp.number.f32 p, %1;\n\tselp.u32 t, 4, 0, p;\n\tor.b32 %0, %0, t;\n\t"
        "testp.notanumber.f32 p, %1;\n\tselp.u32 t, 8, 0, p;\n\tor.b32 %0, %0, t;\n\t"
        "testp.normal.f32 p, %1;\n\tselp.u32 t, 16, 0, p;\n\tor.b32 %0, %0, t;\n\t"
        "testp.subnormal.f32 p, %1;\n\tselp.u32 t, 32, 0, p;\n\tor.b32 %0, %0, t;\n\t}"
        : "=r"(bits) : "f"(x[i]));
    out[i] = bits;
}

// Threads at or above `keep` leave through exit; the rest write their index.
extern "C" __global__ void early_exit(int* out, int keep)
{
    int i = threadIdx.x;
    if (i >= keep)
        asm volatile("exit;");
    out[i] = i + 1000;
}

// 32-bit integer comparisons, signed and unsigned, one bit each; threads at or above `active`
// skip them, so a partial warp compares too.
extern "C" __global__ void int_compares(const int* a, const int* b, unsigned* out, int active)
{
    int i = threadIdx.x;
    if (i >= active)
        return;
    int x = a[i], y = b[i];
    unsigned ux = x, uy = y;
    out[i] = unsigned(x < y) | unsigned(x <= y) << 1 | unsigned(x > y) << 2 | unsigned(x >= y) << 3 | unsigned(x == y) << 4 |
             unsigned(x != y) << 5 | unsigned(ux < uy) << 6 | unsigned(ux <= uy) << 7 | unsigned(ux > uy) << 8 |
             unsigned(ux >= uy) << 9;
}

// 8- and 16-bit loads, signed and unsigned, widened to int (sign fill on the signed ones).
extern "C" __global__ void narrow_loads(const signed char* c, const short* s, const unsigned char* uc, const unsigned short* us, int* out)
{
    int i = threadIdx.x;
    out[4 * i] = c[i];
    out[4 * i + 1] = s[i];
    out[4 * i + 2] = uc[i];
    out[4 * i + 3] = us[i];
}
