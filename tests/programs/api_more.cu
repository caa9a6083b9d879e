// Kernel attributes, occupancy, dynamic shared memory opt-in, host functions and callbacks on
// streams, pitched 2D copies.
#include <cstdio>

__global__ void tile(float* out) {
    __shared__ float buf[256];
    buf[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = buf[255 - threadIdx.x];
}

__global__ void dyn(int* out) {
    extern __shared__ int s[];
    s[threadIdx.x] = threadIdx.x * 2;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

void CUDART_CB hostStep(void* data) { printf("host function, value %d\n", *static_cast<int*>(data)); }
void CUDART_CB callback(cudaStream_t, cudaError_t status, void*) { printf("callback, status %s\n", cudaGetErrorName(status)); }

int main() {
    cudaFuncAttributes a;
    cudaFuncGetAttributes(&a, tile);
    printf("tile: %zu bytes of static shared memory\n", a.sharedSizeBytes);
    int blocks = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, tile, 256, 0);
    printf("blocks of 256 per SM: %d\n", blocks);
    int minGrid = 0, blockSize = 0;
    cudaOccupancyMaxPotentialBlockSize(&minGrid, &blockSize, tile);
    printf("potential block size > 0: %s, grid > 0: %s\n", blockSize > 0 ? "yes" : "no", minGrid > 0 ? "yes" : "no");

    int* d;
    cudaMalloc(&d, 256 * sizeof(int));
    size_t big = 64 * 1024;
    dyn<<<1, 256, big>>>(d);
    printf("64 KiB dynamic shared without opt-in: %s\n", cudaGetErrorName(cudaGetLastError()));
    cudaFuncSetAttribute(dyn, cudaFuncAttributeMaxDynamicSharedMemorySize, int(big));
    dyn<<<1, 256, big>>>(d);
    printf("with opt-in: %s\n", cudaGetErrorName(cudaGetLastError()));
    int h[256];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("dyn[100] = %d\n", h[100]);

    cudaStream_t s;
    cudaStreamCreate(&s);
    int value = 42;
    cudaLaunchHostFunc(s, hostStep, &value);
    cudaStreamAddCallback(s, callback, nullptr, 0);
    cudaStreamSynchronize(s);

    // A 3 x 5 matrix of ints in pitched device memory, copied in and out row by row.
    int m[3][5], back[3][5] = {};
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 5; ++c) m[r][c] = r * 10 + c;
    int* pm;
    size_t pitch = 0;
    cudaMallocPitch((void**)&pm, &pitch, 5 * sizeof(int), 3);
    cudaMemcpy2D(pm, pitch, m, 5 * sizeof(int), 5 * sizeof(int), 3, cudaMemcpyHostToDevice);
    cudaMemcpy2D(back, 5 * sizeof(int), pm, pitch, 5 * sizeof(int), 3, cudaMemcpyDeviceToHost);
    size_t stack = 0, fifo = 0;
    cudaError_t set = cudaDeviceSetLimit(cudaLimitStackSize, 4096);
    cudaDeviceGetLimit(&stack, cudaLimitStackSize);
    cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize);
    printf("limits: set %s, stack %zu, printf FIFO %zu\n", cudaGetErrorName(set), stack, fifo);
    printf("host min/max: %d %u %g\n", min(3, 7), max(3u, 7u), min(2.5f, 1.5f));
    printf("pitch %zu, back[2][4] = %d, error %s\n", pitch, back[2][4], cudaGetErrorName(cudaGetLastError()));
    return 0;
}
