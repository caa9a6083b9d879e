// A launch of 2048 threads per block: cudaErrorInvalidValue (what CUDA 13 answered on the H100),
// which is not sticky.
#include <cstdio>

__global__ void fill(int* p) { p[threadIdx.x] = threadIdx.x; }

int main() {
    int* d;
    cudaMalloc(&d, 2048 * sizeof(int));
    fill<<<1, 2048>>>(d);
    cudaError_t e = cudaGetLastError();
    printf("launch with 2048 threads: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
    printf("after reading it: %s\n", cudaGetErrorName(cudaGetLastError()));
    fill<<<1, 1024>>>(d);
    printf("launch with 1024 threads: %s\n", cudaGetErrorName(cudaGetLastError()));
    int h[2];
    cudaMemcpy(h, d + 1022, sizeof h, cudaMemcpyDeviceToHost);
    printf("p[1022] = %d, p[1023] = %d\n", h[0], h[1]);
    return e == cudaErrorInvalidValue ? 0 : 1;
}
