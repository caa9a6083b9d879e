// assert in a kernel: CUDA's message, cudaErrorAssert, sticky.
#include <cassert>
#include <cstdio>

__global__ void check(const int* v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) assert(v[i] >= 0);
}

int main() {
    int h[64];
    for (int i = 0; i < 64; ++i) h[i] = i == 37 ? -1 : i;
    int* d;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    check<<<2, 32>>>(d, 64);
    cudaError_t e = cudaDeviceSynchronize();
    printf("after the assert: %s\n", cudaGetErrorName(e));
    printf("next call: %s\n", cudaGetErrorName(cudaMalloc(&d, 4)));
    return 0;
}
