// A kernel that writes past the end of its array: cudaErrorIllegalAddress, sticky.
#include <cstdio>

__global__ void overrun(int* p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    p[i + n] = i;   // every thread writes past the end
}

int main() {
    const int n = 100;
    int* d;
    cudaMalloc(&d, n * sizeof(int));
    overrun<<<1, 32>>>(d, n);
    cudaError_t launch = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    printf("launch: %s\n", cudaGetErrorName(launch));
    printf("synchronize: %s\n", cudaGetErrorName(sync));
    int h = 0;
    cudaError_t copy = cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("copy after the fault: %s\n", cudaGetErrorName(copy));
    printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
    return 1;
}
