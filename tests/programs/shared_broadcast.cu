// One thread of each block writes a static __shared__ variable, the block synchronises, every
// thread reads it (the SDK's shfl_scan does this in uniform_add). clang 14 used to move the other
// threads' read above __syncthreads(), so they read the variable before it was written.
#include <cstdio>

__global__ void addBlockValue(int* data, const int* perBlock, int n) {
    __shared__ int value;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (threadIdx.x == 0) value = perBlock[blockIdx.x];
    __syncthreads();
    data[i] += value;
}

int main() {
    const int blocks = 4, threads = 256, n = blocks * threads;
    int h[n], per[blocks] = {10, 20, 30, 40};
    for (int i = 0; i < n; ++i) h[i] = i;
    int *d, *dp;
    cudaMalloc(&d, sizeof h);
    cudaMalloc(&dp, sizeof per);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemcpy(dp, per, sizeof per, cudaMemcpyHostToDevice);
    addBlockValue<<<blocks, threads>>>(d, dp, n);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += h[i] != i + per[i / threads];
    printf("h[1] = %d, h[257] = %d, mismatches %d\n", h[1], h[257], bad);
    return bad != 0;
}
