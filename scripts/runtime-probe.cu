// Micro-benchmarks of the host runtime on a real GPU, for the timeline model's preset numbers
// (scripts/measure-runtime.sh builds and runs it on the GPU machine): copy bandwidth and latency (pinned and pageable, both
// directions, both at once), kernel launch cost (host API time and GPU gap between back-to-back
// kernels), and the same kernels launched from a CUDA graph. Prints JSON; medians of repeats.
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); std::exit(1); } } while (0)

__global__ void empty_kernel() {}

// Keeps the GPU busy for about `cycles` clocks, so that launches queue up behind it.
__global__ void spin_kernel(long long cycles) {
    long long start = clock64();
    while (clock64() - start < cycles) {
    }
}

static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

static double hostUs() {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// GPU time of one copy of `bytes`, median of `reps`.
static double copyMs(void* host, void* dev, size_t bytes, bool toDevice, int reps) {
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    std::vector<double> t;
    for (int r = 0; r < reps; ++r) {
        CK(cudaEventRecord(a, 0));
        if (toDevice) CK(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, 0));
        else CK(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, 0));
        CK(cudaEventRecord(b, 0));
        CK(cudaEventSynchronize(b));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms);
    }
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    return median(t);
}

int main() {
    const size_t maxBytes = 64u << 20;
    void *pinned = nullptr, *dev = nullptr, *dev2 = nullptr, *pinned2 = nullptr;
    CK(cudaMallocHost(&pinned, maxBytes));
    CK(cudaMallocHost(&pinned2, maxBytes));
    void* pageable = std::malloc(maxBytes);
    std::fill((char*)pageable, (char*)pageable + maxBytes, 1);
    CK(cudaMalloc(&dev, maxBytes));
    CK(cudaMalloc(&dev2, maxBytes));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    std::printf("{\n  \"gpu\": \"%s\", \"async_engines\": %d, \"concurrent_kernels\": %d,\n", prop.name, prop.asyncEngineCount, prop.concurrentKernels);
    std::printf("  \"copies\": [\n");
    const size_t sizes[] = {4096, 65536, 1u << 20, 4u << 20, 16u << 20, 64u << 20};
    bool first = true;
    for (size_t s : sizes)
        for (int kind = 0; kind < 4; ++kind) {
            bool toDevice = kind % 2 == 0, isPinned = kind < 2;
            double ms = copyMs(isPinned ? pinned : pageable, dev, s, toDevice, 15);
            std::printf("%s    {\"bytes\": %zu, \"dir\": \"%s\", \"host\": \"%s\", \"ms\": %.5f, \"GBs\": %.2f}", first ? "" : ",\n", s,
                        toDevice ? "HtoD" : "DtoH", isPinned ? "pinned" : "pageable", ms, s / ms / 1e6);
            first = false;
        }
    std::printf("\n  ],\n");

    // Both directions at once on two streams (two copy engines overlap when asyncEngineCount >= 2).
    {
        cudaStream_t s1, s2;
        CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
        CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
        std::vector<double> t;
        for (int r = 0; r < 9; ++r) {
            CK(cudaDeviceSynchronize());
            double h0 = hostUs();
            CK(cudaMemcpyAsync(dev, pinned, maxBytes, cudaMemcpyHostToDevice, s1));
            CK(cudaMemcpyAsync(pinned2, dev2, maxBytes, cudaMemcpyDeviceToHost, s2));
            CK(cudaDeviceSynchronize());
            t.push_back((hostUs() - h0) / 1000);
        }
        std::printf("  \"bidirectional_64MiB_ms\": %.4f,\n", median(t));
        CK(cudaStreamDestroy(s1));
        CK(cudaStreamDestroy(s2));
    }

    // Launch cost: host time per cudaLaunchKernel and GPU time per kernel, back to back.
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    const int K = 1000;
    std::vector<double> hostPer, gpuPer, graphGpuPer, graphHost, syncRound;
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    for (int r = 0; r < 7; ++r) {
        CK(cudaDeviceSynchronize());
        CK(cudaEventRecord(a, st));
        double h0 = hostUs();
        for (int k = 0; k < K; ++k) empty_kernel<<<1, 32, 0, st>>>();
        double h1 = hostUs();
        CK(cudaEventRecord(b, st));
        CK(cudaEventSynchronize(b));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, a, b));
        hostPer.push_back((h1 - h0) / K);
        gpuPer.push_back(ms * 1000 / K);
    }
    // The same kernels captured into a graph.
    cudaGraph_t g;
    cudaGraphExec_t ge;
    const int G = 100;
    CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
    for (int k = 0; k < G; ++k) empty_kernel<<<1, 32, 0, st>>>();
    CK(cudaStreamEndCapture(st, &g));
    CK(cudaGraphInstantiate(&ge, g, 0));
    for (int r = 0; r < 9; ++r) {
        CK(cudaDeviceSynchronize());
        CK(cudaEventRecord(a, st));
        double h0 = hostUs();
        CK(cudaGraphLaunch(ge, st));
        double h1 = hostUs();
        CK(cudaEventRecord(b, st));
        CK(cudaEventSynchronize(b));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, a, b));
        graphHost.push_back(h1 - h0);
        graphGpuPer.push_back(ms * 1000 / G);
    }
    // One launch + synchronize round trip (what a host loop of synchronous launches costs).
    for (int r = 0; r < 50; ++r) {
        double h0 = hostUs();
        empty_kernel<<<1, 32, 0, st>>>();
        CK(cudaStreamSynchronize(st));
        syncRound.push_back(hostUs() - h0);
    }
    // Kernels queued behind a busy GPU: the gap the GPU itself needs between dependent kernels.
    std::vector<double> queuedGap, copyHost;
    cudaEvent_t c;
    CK(cudaEventCreate(&c));
    for (int r = 0; r < 7; ++r) {
        CK(cudaDeviceSynchronize());
        spin_kernel<<<1, 1, 0, st>>>(4000000);   // ~2 ms at 2 GHz: longer than issuing 200 launches
        CK(cudaEventRecord(a, st));
        for (int k = 0; k < 200; ++k) empty_kernel<<<1, 32, 0, st>>>();
        CK(cudaEventRecord(b, st));
        CK(cudaEventSynchronize(b));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, a, b));
        queuedGap.push_back(ms * 1000 / 200);
        // Host cost of cudaMemcpyAsync calls (small pinned copies queued behind a busy GPU).
        spin_kernel<<<1, 1, 0, st>>>(4000000);
        double h0 = hostUs();
        for (int k = 0; k < 100; ++k) CK(cudaMemcpyAsync(dev, pinned, 4096, cudaMemcpyHostToDevice, st));
        copyHost.push_back((hostUs() - h0) / 100);
        CK(cudaEventRecord(c, st));
        CK(cudaEventSynchronize(c));
    }
    std::printf("  \"queued_kernel_gap_us\": %.3f, \"memcpy_async_host_us\": %.3f,\n", median(queuedGap), median(copyHost));
    std::printf("  \"launch_host_us\": %.3f, \"launch_gpu_us_per_kernel\": %.3f,\n", median(hostPer), median(gpuPer));
    std::printf("  \"graph_launch_host_us\": %.3f, \"graph_gpu_us_per_kernel\": %.3f, \"graph_kernels\": %d,\n", median(graphHost), median(graphGpuPer), G);
    std::printf("  \"launch_sync_roundtrip_us\": %.3f,\n", median(syncRound));

    // Pageable copies as a host program makes them (the streams-overlap lesson): host-clock time
    // of each cudaMemcpyAsync (it returns when the copy is done: pageable copies hold the host)
    // on a non-default blocking stream, chunk after chunk of one buffer, a kernel queued in the
    // stream between the copy in and the copy out; once from a buffer copied many times before
    // ("hot") and once from a freshly malloc'd and filled one each repetition ("fresh").
    {
        cudaStream_t st;
        CK(cudaStreamCreate(&st));
        std::printf("  \"pageable_in_program\": [\n");
        const size_t chunks[] = {256u << 10, 512u << 10, 1u << 20, 2u << 20, 4u << 20};
        bool firstRow = true;
        for (int fresh = 0; fresh < 2; ++fresh)
            for (size_t bytes : chunks) {
                std::vector<double> h2d, d2h;
                for (int r = 0; r < 9; ++r) {
                    char* host = fresh ? static_cast<char*>(std::malloc(4u << 20)) : static_cast<char*>(pageable);
                    if (fresh) std::fill(host, host + (4u << 20), 2);
                    for (size_t off = 0; off + bytes <= (4u << 20); off += bytes) {
                        double t0 = hostUs();
                        CK(cudaMemcpyAsync(static_cast<char*>(dev) + off, host + off, bytes, cudaMemcpyHostToDevice, st));
                        double t1 = hostUs();
                        empty_kernel<<<1, 32, 0, st>>>();
                        double t2 = hostUs();
                        CK(cudaMemcpyAsync(host + off, static_cast<char*>(dev) + off, bytes, cudaMemcpyDeviceToHost, st));
                        double t3 = hostUs();
                        h2d.push_back(t1 - t0);
                        d2h.push_back(t3 - t2);
                    }
                    CK(cudaStreamSynchronize(st));
                    if (fresh) std::free(host);
                }
                std::printf("%s    {\"bytes\": %zu, \"buffer\": \"%s\", \"HtoD_host_us\": %.2f, \"DtoH_host_us\": %.2f}",
                            firstRow ? "" : ",\n", bytes, fresh ? "fresh" : "hot", median(h2d), median(d2h));
                firstRow = false;
            }
        std::printf("\n  ]\n}\n");
        CK(cudaStreamDestroy(st));
    }
    return 0;
}
