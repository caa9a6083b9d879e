// A program of two translation units, each with kernels: main.cu and scale.cu (a template
// instance in both, a static variable of the same name in both, printf in both).
#include <cstdio>

#include "fill.cuh"
#include "scale.cuh"

static __device__ int launches;

__global__ void iota(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = float(i);
    if (i == 0) {
        launches += 10;
        printf("iota: %d elements\n", n);
    }
}

int main() {
    const int n = 100;
    float* x;
    int* y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(int));
    iota<<<2, 64>>>(x, n);
    scaleOnDevice(x, 0.5f, n);
    fill<int><<<2, 64>>>(y, 1, n);
    fillInts(y, 2, n);
    scaleOnDevice(y, 3, n);
    float hx[n];
    int hy[n];
    cudaMemcpy(hx, x, sizeof hx, cudaMemcpyDeviceToHost);
    cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);
    int mine = 0;
    cudaMemcpyFromSymbol(&mine, launches, sizeof mine);
    printf("x[99] = %g, y[5] = %d, launches: main.cu %d, scale.cu %d, error: %s\n", hx[99], hy[5], mine, scaleLaunches(),
           cudaGetErrorName(cudaGetLastError()));
    return hx[99] == 49.5f && hy[5] == 6 ? 0 : 1;
}
