// Issue order of a chunked copy-in / kernel / copy-out pipeline, written as a student writes it
// (a whole CUDA program, held out from the streams lesson's own host script): the array is split
// into CHUNKS pieces, each on its own stream, and issued
//   serial:        one stream, the whole array: copy in, kernel, copy out;
//   depth-first:   chunk by chunk: copy in, kernel, copy out, then the next chunk;
//   breadth-first: all copies in, then all kernels, then all copies out.
// for pinned (cudaMallocHost) and pageable (malloc) host memory at a few sizes. Each variant is
// timed with events on the legacy default stream (which waits for every blocking stream) and,
// on the host, by the wall clock; the median of REPS runs (one under the simulator, which is
// deterministic). Every variant's result is checked against the CPU.
//
// Measure: scripts/validate-streams.sh --program (nvcc on the GPU machine); predict:
//   warpscope run tests/validation/programs/streams-order.cu --timed
// Recorded in tests/validation/runtime/streams-order-program-h100.txt (docs/timing-validation.md).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void process(float* data, int n, int work)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = data[i];
        for (int k = 0; k < work; ++k)
            x = x * 0.9999f + 0.0001f;
        data[i] = x;
    }
}

#define CHECK(call)                                                                              \
    do {                                                                                         \
        cudaError_t e_ = (call);                                                                 \
        if (e_ != cudaSuccess) {                                                                 \
            std::printf("CUDA error %s at line %d: %s\n", cudaGetErrorName(e_), __LINE__, #call); \
            std::exit(1);                                                                        \
        }                                                                                        \
    } while (0)

enum Order { kSerial, kDepthFirst, kBreadthFirst };
static const char* kOrderName[] = {"serial", "depth-first", "breadth-first"};

static const int kChunks = 4, kWork = 8, kBlock = 256;

#ifdef __WARPSCOPE_WHOLE_PROGRAM__
static const int kReps = 1;   // the simulator gives the same time every run
#else
static const int kReps = 7;
#endif

static void issue(Order order, float* h, float* d, int n, cudaStream_t* s)
{
    const size_t bytes = size_t(n) * sizeof(float);
    if (order == kSerial) {
        CHECK(cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, s[0]));
        process<<<(n + kBlock - 1) / kBlock, kBlock, 0, s[0]>>>(d, n, kWork);
        CHECK(cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s[0]));
        return;
    }
    const int per = n / kChunks;
    const size_t chunkBytes = size_t(per) * sizeof(float);
    const int grid = (per + kBlock - 1) / kBlock;
    if (order == kDepthFirst) {
        for (int c = 0; c < kChunks; ++c) {
            CHECK(cudaMemcpyAsync(d + c * per, h + c * per, chunkBytes, cudaMemcpyHostToDevice, s[c]));
            process<<<grid, kBlock, 0, s[c]>>>(d + c * per, per, kWork);
            CHECK(cudaMemcpyAsync(h + c * per, d + c * per, chunkBytes, cudaMemcpyDeviceToHost, s[c]));
        }
        return;
    }
    for (int c = 0; c < kChunks; ++c)
        CHECK(cudaMemcpyAsync(d + c * per, h + c * per, chunkBytes, cudaMemcpyHostToDevice, s[c]));
    for (int c = 0; c < kChunks; ++c)
        process<<<grid, kBlock, 0, s[c]>>>(d + c * per, per, kWork);
    for (int c = 0; c < kChunks; ++c)
        CHECK(cudaMemcpyAsync(h + c * per, d + c * per, chunkBytes, cudaMemcpyDeviceToHost, s[c]));
}

int main()
{
    const int sizes[] = {1 << 18, 1 << 20, 1 << 22};
    cudaStream_t s[kChunks];
    for (auto& st : s) CHECK(cudaStreamCreate(&st));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    // Warm-up: the first copy and launch pay for lazy loading.
    {
        float* d = nullptr;
        CHECK(cudaMalloc(&d, 1024 * sizeof(float)));
        std::vector<float> h(1024, 1.0f);
        CHECK(cudaMemcpy(d, h.data(), 1024 * sizeof(float), cudaMemcpyHostToDevice));
        process<<<4, 256>>>(d, 1024, kWork);
        CHECK(cudaMemcpy(h.data(), d, 1024 * sizeof(float), cudaMemcpyDeviceToHost));
        CHECK(cudaFree(d));
    }
    int failures = 0;
    std::printf("memory,n,order,events_us,wall_us,speedup_vs_serial\n");
    for (int pinned = 1; pinned >= 0; --pinned) {
        for (int n : sizes) {
            const size_t bytes = size_t(n) * sizeof(float);
            float* h = nullptr;
            if (pinned) CHECK(cudaMallocHost(&h, bytes));
            else h = static_cast<float*>(std::malloc(bytes));
            float* d = nullptr;
            CHECK(cudaMalloc(&d, bytes));
            std::vector<float> input(static_cast<size_t>(n)), expect(static_cast<size_t>(n));
            for (int i = 0; i < n; ++i) {
                input[size_t(i)] = float((i * 37) % 1000) / 1000.0f;
                float x = input[size_t(i)];
                for (int k = 0; k < kWork; ++k) x = x * 0.9999f + 0.0001f;
                expect[size_t(i)] = x;
            }
            double serialUs = 0;
            for (int o = kSerial; o <= kBreadthFirst; ++o) {
                std::vector<double> ev, wall;
                for (int r = 0; r < kReps; ++r) {
                    std::copy(input.begin(), input.end(), h);
                    auto t0 = std::chrono::steady_clock::now();
                    CHECK(cudaEventRecord(start, 0));
                    issue(Order(o), h, d, n, s);
                    CHECK(cudaEventRecord(stop, 0));
                    CHECK(cudaEventSynchronize(stop));
                    auto t1 = std::chrono::steady_clock::now();
                    float ms = 0;
                    CHECK(cudaEventElapsedTime(&ms, start, stop));
                    ev.push_back(1000.0 * ms);
                    wall.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
                    int bad = 0;
                    for (int i = 0; i < n; ++i)
                        if (std::fabs(h[i] - expect[size_t(i)]) > 1e-6f) ++bad;
                    if (bad) {
                        std::printf("MISMATCH: %s %d %s: %d elements\n", pinned ? "pinned" : "pageable", n, kOrderName[o], bad);
                        ++failures;
                    }
                }
                std::sort(ev.begin(), ev.end());
                std::sort(wall.begin(), wall.end());
                const double us = ev[ev.size() / 2];
                if (o == kSerial) serialUs = us;
                std::printf("%s,%d,%s,%.1f,%.1f,%.3f\n", pinned ? "pinned" : "pageable", n, kOrderName[o], us,
                            wall[wall.size() / 2], serialUs / us);
            }
            CHECK(cudaFree(d));
            if (pinned) CHECK(cudaFreeHost(h));
            else std::free(h);
        }
    }
    for (auto& st : s) CHECK(cudaStreamDestroy(st));
    std::printf("%s\n", failures ? "FAILED" : "all results match the CPU");
    return failures ? 1 : 0;
}
