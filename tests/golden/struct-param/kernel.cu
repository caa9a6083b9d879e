// Golden: kernel parameters of every size. A struct passed by value with mixed int/char/short/
// float/double/long long fields and an array member (a .param .align 8 .b8 array in PTX), plus
// scalar parameters of 1, 2, 4 and 8 bytes, signed and unsigned, read with ld.param of each type.
#include <cstdint>

struct Mixed {
    int a;            // offset 0
    float b;          // 4
    double c;         // 8
    signed char d;    // 16
    short e;          // 18
    long long f;      // 24
    float g[3];       // 32
    unsigned h;       // 44
    double k;         // 48   (size 56, align 8)
};

extern "C" __global__ void struct_param(Mixed m, signed char sc, unsigned char uc, short ss,
                                        unsigned short us, long long sl, double dv, float fv,
                                        int32_t* iout, double* dout, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    // Every thread mixes its index with the fields so each field's value matters.
    iout[i * 8 + 0] = m.a * i + m.d;
    iout[i * 8 + 1] = int(m.e) - i * sc;
    iout[i * 8 + 2] = int(m.f >> (i & 31));
    iout[i * 8 + 3] = int(m.h ^ uint32_t(i));
    iout[i * 8 + 4] = int(uc) * 3 + ss - int(us);
    iout[i * 8 + 5] = int(sl % (i + 3));
    iout[i * 8 + 6] = int(m.g[i % 3] * 100.0f);
    iout[i * 8 + 7] = int(sizeof(Mixed));
    dout[i * 4 + 0] = m.c * i + m.k;
    dout[i * 4 + 1] = double(m.b) + double(m.g[0]) * m.g[1] - m.g[2];
    dout[i * 4 + 2] = dv / (i + 1) + fv;
    dout[i * 4 + 3] = double(m.f) + double(sl) + double(m.h);
}
