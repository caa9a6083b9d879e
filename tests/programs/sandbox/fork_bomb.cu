// Starts processes without end (each sleeps), as a fork bomb does: the sandbox stops it at the
// process limit. Bounded, so that even without a sandbox it cannot take a machine down.
#include <cstdio>
#include <unistd.h>

__global__ void touch(int* p) { *p = 1; }

int main() {
    int* d = nullptr;
    cudaMalloc(&d, sizeof(int));
    touch<<<1, 1>>>(d);
    cudaDeviceSynchronize();
    std::printf("forking\n");
    for (int i = 0; i < 2000; ++i) {
        pid_t p = fork();
        if (p == 0) {
            sleep(30);
            _exit(0);
        }
        if (p < 0) std::perror("fork");
    }
    sleep(30);
    return 0;
}
