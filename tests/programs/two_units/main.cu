// A program of two translation units, each with kernels: main.cu and scale.cu.
#include <cstdio>
#include "scale.cuh"

__global__ void iota(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = float(i);
    if (i == 0) printf("iota: %d elements\n", n);
}

int main() {
    const int n = 100;
    float* x;
    int* y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(int));
    iota<<<2, 64>>>(x, n);
    scaleOnDevice(x, 0.5f, n);
    cudaMemset(y, 0, n * sizeof(int));
    scaleOnDevice(y, 3, n);
    float hx[n];
    cudaMemcpy(hx, x, sizeof hx, cudaMemcpyDeviceToHost);
    printf("x[99] = %g, error: %s\n", hx[99], cudaGetErrorName(cudaGetLastError()));
    return hx[99] == 49.5f ? 0 : 1;
}
