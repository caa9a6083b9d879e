// Zero copy: mapped host memory that a kernel reads and writes through its device pointer.
#include <cstdio>

__global__ void twice(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * in[i];
}

int main() {
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    if (!p.canMapHostMemory) return 2;
    cudaSetDeviceFlags(cudaDeviceMapHost);
    const int n = 300;
    float *a, *b, *da, *db;
    cudaHostAlloc(&a, n * sizeof(float), cudaHostAllocMapped);
    cudaHostAlloc(&b, n * sizeof(float), cudaHostAllocMapped);
    for (int i = 0; i < n; ++i) a[i] = float(i);
    cudaHostGetDevicePointer((void**)&da, a, 0);
    cudaHostGetDevicePointer((void**)&db, b, 0);
    twice<<<(n + 127) / 128, 128>>>(da, db, n);
    cudaDeviceSynchronize();
    int bad = 0;
    for (int i = 0; i < n; ++i)
        if (b[i] != 2.0f * i) ++bad;
    float plain[4];
    void* dp = nullptr;
    printf("b[299] = %g, mismatches %d, unmapped pointer: %s\n", b[299], bad,
           cudaGetErrorName(cudaHostGetDevicePointer(&dp, plain, 0)));
    cudaFreeHost(a);
    cudaFreeHost(b);
    return bad == 0 ? 0 : 1;
}
