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
    // TODO(student): one thread per element: c[i] = a[i] + b[i] for the element i this thread owns.
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

    // TODO(student): the GPU part.
    //  1. allocate three device arrays (cudaMalloc),
    //  2. copy a and b to the device (cudaMemcpy, cudaMemcpyHostToDevice),
    //  3. launch vecAdd with enough blocks of 256 threads for any n,
    //  4. copy the result back into c (cudaMemcpy, cudaMemcpyDeviceToHost),
    //  5. free the device arrays (cudaFree).
    // Wrap each call in CHECK(...) so an error stops the program with its message.

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
