// expect-fail: correct. The host reads the result through the device pointer dc instead of copying it back: dc is not host memory, and the program crashes.
// Your first whole CUDA program: add two vectors on the GPU and check the result on the CPU.
// Run it as: program N   (N elements)
#include <cstdio>
#include <cstdlib>
#include <cmath>

// Checks a CUDA call: prints the error and stops the program when it failed.
#define CHECK(call)                                                                          \
    do {                                                                                     \
        cudaError_t err_ = (call);                                                           \
        if (err_ != cudaSuccess) {                                                           \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
            exit(1);                                                                         \
        }                                                                                    \
    } while (0)

__global__ void vecAdd(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

int main(int argc, char** argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    if (n < 1) {
        fprintf(stderr, "usage: %s N (N >= 1)\n", argv[0]);
        return 2;
    }
    size_t bytes = size_t(n) * sizeof(float);
    float* a = (float*)malloc(bytes);
    float* b = (float*)malloc(bytes);
    float* c = (float*)malloc(bytes);
    for (int i = 0; i < n; ++i) {
        a[i] = 0.5f * (i % 100);
        b[i] = 0.25f * (i % 37);
        c[i] = -1.0f;
    }

    float *da, *db, *dc;
    CHECK(cudaMalloc(&da, bytes));
    CHECK(cudaMalloc(&db, bytes));
    CHECK(cudaMalloc(&dc, bytes));
    CHECK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
    int block = 256;
    int grid = (n + block - 1) / block;   // enough blocks for every element, whatever n is
    vecAdd<<<grid, block>>>(da, db, dc, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; ++i) c[i] = dc[i];
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));

    // The check on the CPU, and what the program prints.
    int wrong = 0;
    double sum = 0;
    for (int i = 0; i < n; ++i) {
        if (fabsf(c[i] - (a[i] + b[i])) > 1e-6f) ++wrong;
        sum += c[i];
    }
    printf("vector add of %d elements\n", n);
    printf("c[0] = %.2f, c[%d] = %.2f\n", c[0], n - 1, c[n - 1]);
    printf("sum = %.2f\n", sum);
    printf("%d wrong elements: %s\n", wrong, wrong == 0 ? "PASSED" : "FAILED");
    free(a);
    free(b);
    free(c);
    return wrong == 0 ? 0 : 1;
}
