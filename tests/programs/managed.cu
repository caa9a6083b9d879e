// Unified memory: one pointer written on the host, updated by a kernel, read on the host.
#include <cstdio>

__global__ void increment(int* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += i;
}

int main() {
    const int n = 1000;
    int* x;
    if (cudaMallocManaged(&x, n * sizeof(int)) != cudaSuccess) return 2;
    for (int i = 0; i < n; ++i) x[i] = 1;
    increment<<<(n + 127) / 128, 128>>>(x, n);
    cudaDeviceSynchronize();
    int bad = 0;
    for (int i = 0; i < n; ++i)
        if (x[i] != 1 + i) ++bad;
    increment<<<(n + 127) / 128, 128>>>(x, n);   // again, after the host read it
    cudaDeviceSynchronize();
    printf("x[999] = %d, mismatches after the first launch = %d\n", x[999], bad);
    cudaFree(x);
    return bad == 0 && x != nullptr ? 0 : 1;
}
