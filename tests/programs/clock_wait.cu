// A kernel that waits a given number of SM clocks (clock64), timed with events: the time the
// events measure is the wait at the device's clock rate, on the simulator as on a GPU.
#include <cstdio>

__global__ void wait(long long cycles) {
    long long start = clock64();
    while (clock64() - start < cycles) {
    }
}

int main() {
    int khz = 0;
    cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0);
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    wait<<<1, 32>>>(1000);   // warm up
    const long long cycles = 200000;
    cudaEventRecord(a);
    wait<<<1, 32>>>(cycles);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    const double expect = double(cycles) / khz;   // kHz: cycles per ms
    printf("waited %lld clocks: the events measured it within 10%%: %s\n", cycles, ms > 0.9 * expect && ms < 1.1 * expect ? "yes" : "no");
    return 0;
}
