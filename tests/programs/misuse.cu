// API misuse: each call returns the error CUDA gives, with a message on stderr, and the program
// goes on (none of these is sticky).
#include <cstdio>

int main() {
    int host[4] = {1, 2, 3, 4};
    int* d;
    cudaMalloc(&d, sizeof host);
    cudaFree(d);
    printf("copy to a freed pointer: %s\n", cudaGetErrorName(cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice)));
    printf("free it again: %s\n", cudaGetErrorName(cudaFree(d)));
    printf("host pointer as the device side: %s\n", cudaGetErrorName(cudaMemcpy(host, host, sizeof host, cudaMemcpyDeviceToHost)));
    int* e;
    cudaMalloc(&e, sizeof host);
    printf("copy past the end: %s\n", cudaGetErrorName(cudaMemcpy(e, host, 2 * sizeof host, cudaMemcpyHostToDevice)));
    printf("good copy: %s\n", cudaGetErrorName(cudaMemcpy(e, host, sizeof host, cudaMemcpyHostToDevice)));
    printf("register host memory: %s\n", cudaGetErrorName(cudaHostRegister(host, sizeof host, 0)));
    printf("register again: %s\n", cudaGetErrorName(cudaHostRegister(host, sizeof host, 0)));
    printf("unregister: %s\n", cudaGetErrorName(cudaHostUnregister(host)));
    size_t heap = size_t(64) << 20;   // past the 8 MiB device heap: a larger one is allocated
    printf("malloc heap limit: %s\n", cudaGetErrorName(cudaDeviceSetLimit(cudaLimitMallocHeapSize, heap)));
    size_t fifo = size_t(64) << 20;   // past the 1 MiB printf FIFO: not supported
    printf("printf FIFO limit: %s\n", cudaGetErrorName(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, fifo)));
    printf("printf FIFO limit again: %s\n", cudaGetErrorName(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, fifo)));
    printf("device 1: %s\n", cudaGetErrorName(cudaSetDevice(1)));
    void* huge = nullptr;
    printf("1 TiB: %s, pointer %s\n", cudaGetErrorName(cudaMalloc(&huge, size_t(1) << 40)), huge ? "set" : "null");
    cudaError_t last = cudaGetLastError();
    cudaError_t then = cudaGetLastError();
    printf("last error: %s, then %s\n", cudaGetErrorName(last), cudaGetErrorName(then));
    return 0;
}
