// The program's own exit code comes back through warpscope run.
#include <cstdio>
#include <cstdlib>

__global__ void nothing() {}

int main(int argc, char** argv) {
    nothing<<<1, 1>>>();
    cudaDeviceSynchronize();
    printf("arguments: %d\n", argc - 1);
    return argc > 1 ? std::atoi(argv[1]) : 0;
}
