// Times the kernels of the course's pattern lessons on a real GPU, at the sizes their steps.md
// quote, with inputs like the lessons': the warm time per launch (the mean of 50 back-to-back
// launches after 5 warm-ups, from CUDA events), after 200 ms of work that brings the clocks up.
// Kernels shorter than a launch (the scans at 262144) measure the launch rate, not the kernel.
// The results of 2026-11-27 on an H100 are in docs/measurements/course-*-h100.txt. Build and run
// on the GPU machine:
//   nvcc -O3 -arch=native -o /tmp/tck scripts/time-course-kernels.cu && /tmp/tck
// The kernels are the lessons' own kernel.cu files, included here unchanged.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>

namespace conv {
#include "../lessons/convolution-2d/kernel.cu"
}
namespace histo {
#include "../lessons/histogram/kernel.cu"
}
namespace scan {
#include "../lessons/prefix-scan/kernel.cu"
}
#undef R

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { std::printf("%s: %s\n", #x, cudaGetErrorString(e)); std::exit(1); } } while (0)

template <class F>
static float warmMicros(F launch) {
    for (int k = 0; k < 5; ++k) launch();
    CHECK(cudaDeviceSynchronize());
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    const int reps = 50;
    CHECK(cudaEventRecord(a));
    for (int k = 0; k < reps; ++k) launch();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    CHECK(cudaGetLastError());
    return ms * 1000.0f / reps;
}

// The lessons' "random" initialiser (engine/runtime/lesson.cpp): splitmix64 from the seed.
static uint64_t splitmix64(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// Keeps the GPU busy for about 200 ms so that the first timings do not run at idle clocks.
__global__ void spin(unsigned long long cycles) {
    unsigned long long t0 = clock64();
    while (clock64() - t0 < cycles) {}
}

int main() {
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    std::printf("device: %s, %d SMs\n", p.name, p.multiProcessorCount);
    spin<<<p.multiProcessorCount, 32>>>(400000000ull);
    CHECK(cudaDeviceSynchronize());
    for (int side : {512, 2048}) {
        const int rows = side, cols = side;
        std::vector<float> h(size_t(rows) * cols), f(25);
        for (auto& v : h) v = float(rand()) / RAND_MAX;
        for (auto& v : f) v = float(rand()) / RAND_MAX * 2 - 1;
        float *in, *filter, *out;
        CHECK(cudaMalloc(&in, h.size() * 4));
        CHECK(cudaMalloc(&out, h.size() * 4));
        CHECK(cudaMalloc(&filter, 100));
        CHECK(cudaMemcpy(in, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(filter, f.data(), 100, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpyToSymbol(conv::c_filter, f.data(), 100));
        dim3 grid((cols + 31) / 32, (rows + 7) / 8), block(32, 8);
        std::printf("convolution-2d ROWS=COLS=%d: conv2d_global %.2f us, conv2d_const %.2f us, conv2d_tiled %.2f us\n", side,
                    warmMicros([&] { conv::conv2d_global<<<grid, block>>>(in, filter, out, rows, cols); }),
                    warmMicros([&] { conv::conv2d_const<<<grid, block>>>(in, out, rows, cols); }),
                    warmMicros([&] { conv::conv2d_tiled<<<grid, block>>>(in, out, rows, cols); }));
        CHECK(cudaFree(in));
        CHECK(cudaFree(out));
        CHECK(cudaFree(filter));
    }
    for (int n : {1 << 20, 1 << 24})
        for (int values : {256, 32, 4, 1}) {
            std::vector<uint8_t> h(n);
            uint64_t state = 31 * 0x9e3779b97f4a7c15ull + 1;
            for (auto& v : h) v = uint8_t(splitmix64(state += 0x9e3779b97f4a7c15ull) % uint64_t(values));
            uint8_t* data;
            unsigned* bins;
            CHECK(cudaMalloc(&data, n));
            CHECK(cudaMalloc(&bins, 1024));
            CHECK(cudaMemcpy(data, h.data(), n, cudaMemcpyHostToDevice));
            int grid = std::min((n + 2047) / 2048, 1056);
            std::printf("histogram N=%d VALUES=%d: histo_global %.2f us, histo_private %.2f us, histo_aggregate %.2f us\n", n, values,
                        warmMicros([&] { histo::histo_global<<<grid, 256>>>(data, bins, n); }),
                        warmMicros([&] { histo::histo_private<<<grid, 256>>>(data, bins, n); }),
                        warmMicros([&] { histo::histo_aggregate<<<grid, 256>>>(data, bins, n); }));
            CHECK(cudaFree(data));
            CHECK(cudaFree(bins));
        }
    {
        const int n = 262144;
        std::vector<int> h(n);
        for (auto& v : h) v = rand() % 10;
        int *in, *out, *sums, *scanned, *total;
        CHECK(cudaMalloc(&in, n * 4));
        CHECK(cudaMalloc(&out, n * 4));
        CHECK(cudaMalloc(&sums, 4096 * 4));
        CHECK(cudaMalloc(&scanned, 4096 * 4));
        CHECK(cudaMalloc(&total, 4));
        CHECK(cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice));
        for (int section : {512, 1024}) {
            int g = (n + section - 1) / section;
            std::printf("prefix-scan N=%d SECTION=%d: scan_kogge_stone %.2f us, scan_brent_kung %.2f us, totals %.2f us, scan_add_sums %.2f us\n", n,
                        section, warmMicros([&] { scan::scan_kogge_stone<<<g, section, section * 4>>>(in, out, sums, n); }),
                        warmMicros([&] { scan::scan_brent_kung<<<g, section / 2, section * 4>>>(in, out, sums, n); }),
                        warmMicros([&] { scan::scan_kogge_stone<<<1, section, section * 4>>>(sums, scanned, total, g); }),
                        warmMicros([&] { scan::scan_add_sums<<<(n + 255) / 256, 256>>>(out, scanned, n, section); }));
        }
        CHECK(cudaFree(in));
        CHECK(cudaFree(out));
        CHECK(cudaFree(sums));
        CHECK(cudaFree(scanned));
        CHECK(cudaFree(total));
    }
    return 0;
}
