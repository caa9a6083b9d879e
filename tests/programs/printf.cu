// printf in a kernel: buffered on the device, printed at the next synchronisation point.
#include <cstdio>

__global__ void hello(int x, float f) {
    printf("thread %d of block %u: x=%d f=%.2f %s %c|%5.1e|%%\n", threadIdx.x, blockIdx.x, x, f, "str", 'Q', 12345.0);
}

int main() {
    hello<<<2, 2>>>(5, 1.5f);
    printf("host, before synchronizing\n");
    cudaDeviceSynchronize();
    long double ratio = 2.5L;   // the host's own printf, with a long double (clock.cu of the SDK does this)
    printf("host, after %.1Lf\n", ratio);
    return 0;
}
