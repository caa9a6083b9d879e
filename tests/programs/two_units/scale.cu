// The second translation unit: a templated kernel and the host functions that launch it, a
// static __device__ counter of its own, and the fill<int> instance main.cu has too.
#include <cstdio>

#include "fill.cuh"
#include "scale.cuh"

static __device__ int launches;   // main.cu has a variable of the same name

template <typename T> __global__ void scaleKernel(T* x, T s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= s;
    if (i == 0) {
        ++launches;
        printf("scaleKernel: %d elements\n", n);   // a printf in each unit: their FIFOs stay apart
    }
}

void scaleOnDevice(float* x, float s, int n) { scaleKernel<float><<<(n + 63) / 64, 64>>>(x, s, n); }
void scaleOnDevice(int* x, int s, int n) { scaleKernel<int><<<(n + 63) / 64, 64>>>(x, s, n); }
void fillInts(int* x, int v, int n) { fill<int><<<(n + 63) / 64, 64>>>(x, v, n); }
int scaleLaunches() {
    int h = 0;
    cudaMemcpyFromSymbol(&h, launches, sizeof h);
    return h;
}
