// A kernel that writes past the end of its array: cudaErrorIllegalAddress, reported from the next
// call after the launch on, and sticky. (The simulator checks every access against its
// allocation, as compute-sanitizer does; a GPU alone notices only unmapped addresses: on the H100
// this program ran without an error, as it did with 16 MiB past the end, and 1 GiB past the end
// gave cudaErrorInvalidAddressSpace.)
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
