// OpenMP in a whole program's host code (as the samples' cudaOpenMP has it): a source that
// includes <omp.h> is built with -fopenmp and LLVM's libomp, and printf inside a parallel region
// is the C library's, not the kernels' FIFO.
#include <omp.h>
#include <cstdio>
__global__ void hello(int v) { printf("kernel says %d\n", v); }
int main() {
    int hits = 0;
#pragma omp parallel num_threads(2) reduction(+ : hits)
    {
        printf("host thread %d of %d\n", omp_get_thread_num() * 0, omp_get_num_threads());
        hits += 1;
    }
    hello<<<1, 2>>>(hits);
    cudaDeviceSynchronize();
    printf("threads %d\n", hits);
    return 0;
}
