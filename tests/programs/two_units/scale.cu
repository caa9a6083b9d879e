// The second translation unit: a templated kernel and the host function that launches it.
#include <cstdio>

#include "scale.cuh"

template <typename T> __global__ void scaleKernel(T* x, T s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= s;
    if (i == 0) printf("scaleKernel: %d elements\n", n);   // a printf in each unit: their FIFOs stay apart
}

void scaleOnDevice(float* x, float s, int n) { scaleKernel<float><<<(n + 63) / 64, 64>>>(x, s, n); }
void scaleOnDevice(int* x, int s, int n) { scaleKernel<int><<<(n + 63) / 64, 64>>>(x, s, n); }
