// Host code in a .cpp file (compiled as host code against warpscope's headers), the kernel and
// its launcher in square.cu.
#include <cstdio>

#include <cuda_runtime.h>

void launchSquare(float* d, int n);

int main() {
    const int n = 10;
    float h[n];
    for (int i = 0; i < n; ++i) h[i] = float(i);
    float* d;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    launchSquare(d, n);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("h[9] = %g\n", h[9]);
    cudaFree(d);
    return 0;
}
