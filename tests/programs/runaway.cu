// A kernel that never ends: the runaway budget stops it with cudaErrorLaunchTimeout (sticky).
#include <cstdio>

__global__ void spin(volatile int* p) {
    while (*p == 0) {
    }
}

int main() {
    int* d;
    cudaMalloc(&d, 4);
    cudaMemset(d, 0, 4);
    spin<<<1, 32>>>(d);
    printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
