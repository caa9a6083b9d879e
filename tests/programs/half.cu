// Half precision in a whole program: the host converts with cuda_fp16.h as a course program does,
// a kernel converts the same floats with cvt, and the bits must agree (round to nearest even,
// ties, subnormals, overflow to infinity, NaN). Then a half2 dot product with the operators and
// __hfma2 on the device, checked against the host's own sum in half.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdio>
#include <cstring>

__global__ void toHalf(const float* in, unsigned short* h, unsigned short* b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        h[i] = __half_as_ushort(__float2half(in[i]));
        b[i] = __bfloat16_as_ushort(__float2bfloat16(in[i]));
    }
}

__global__ void dot(const half2* a, const half2* b, float* out, int n) {
    half2 acc(0.f, 0.f);
    for (int i = 0; i < n; ++i) acc = __hfma2(a[i], b[i], acc);
    half2 twice = acc + acc;
    out[0] = __low2float(acc) + __high2float(acc);
    out[1] = (float)twice.x;
}

int main() {
    const float cases[] = {0.f, -0.f, 1.f, 1.0009765625f, 1.00048828125f /* a tie: stays 1 */, 1.00146484375f /* a tie: rounds up */,
                           65504.f, 65519.f, 65520.f /* rounds to infinity */, 1e-8f /* rounds to zero */, 5.96046448e-8f /* smallest subnormal */,
                           3.0e-5f, -2.5f, 1e10f, 3.14159265f, 0.1f, __builtin_nanf(""), __builtin_inff(), -__builtin_inff(), 2.99e-8f};
    const int n = sizeof cases / sizeof cases[0];
    float* dIn;
    unsigned short *dH, *dB;
    cudaMalloc(&dIn, sizeof cases);
    cudaMalloc(&dH, n * sizeof(unsigned short));
    cudaMalloc(&dB, n * sizeof(unsigned short));
    cudaMemcpy(dIn, cases, sizeof cases, cudaMemcpyHostToDevice);
    toHalf<<<1, 32>>>(dIn, dH, dB, n);
    unsigned short h[32], b[32];
    cudaMemcpy(h, dH, n * sizeof(unsigned short), cudaMemcpyDeviceToHost);
    cudaMemcpy(b, dB, n * sizeof(unsigned short), cudaMemcpyDeviceToHost);
    int differ = 0;
    for (int i = 0; i < n; ++i) {
        unsigned short hostH = __half_as_ushort(__float2half(cases[i]));
        unsigned short hostB = __bfloat16_as_ushort(__float2bfloat16(cases[i]));
        if (hostH != h[i] || hostB != b[i]) {
            printf("case %d (%g): host %04x/%04x, device %04x/%04x\n", i, cases[i], hostH, hostB, h[i], b[i]);
            ++differ;
        }
    }
    printf("conversions: %d cases, %d differ; 1.00048828125 -> %04x, 65520 -> %04x, smallest subnormal -> %04x, back %g\n", n, differ,
           h[4], h[8], h[10], __half2float(__ushort_as_half(h[10])));

    const int m = 64;
    half2 ha[m], hb[m];
    half hostSum = 0.f;
    for (int i = 0; i < m; ++i) {
        ha[i] = half2((float)(i % 4), (float)(i % 3));
        hb[i].x = 0.5f;
        hb[i].y = (float)(i % 2);
        hostSum += ha[i].x * hb[i].x;
    }
    half2 *dA, *dBv;
    float* dOut;
    cudaMalloc(&dA, sizeof ha);
    cudaMalloc(&dBv, sizeof hb);
    cudaMalloc(&dOut, 2 * sizeof(float));
    cudaMemcpy(dA, ha, sizeof ha, cudaMemcpyHostToDevice);
    cudaMemcpy(dBv, hb, sizeof hb, cudaMemcpyHostToDevice);
    dot<<<1, 1>>>(dA, dBv, dOut, m);
    float out[2];
    cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost);
    cudaError_t e = cudaGetLastError();
    printf("dot: %g (low half %g on the host), twice the low half %g, %s\n", out[0], (float)hostSum, out[1], cudaGetErrorName(e));
    return differ == 0 && e == cudaSuccess ? 0 : 1;
}
