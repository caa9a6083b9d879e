// Times the kernels of the radix-sort and bfs lessons on a real GPU, as time-course2-kernels.cu does
// for spmv, stencil-3d and merge: after 200 ms of work that brings the clocks up, each whole
// algorithm (8 radix passes; every BFS level) runs 5 times to warm up, then 20 times with a CUDA
// event between consecutive launches; a kernel's time is the mean over the 20 runs of the sum of its
// launches (per pass or per level where the output says so). Outputs are checked against the CPU
// (std::sort; a BFS with a queue), so the lessons' kernels are known to be right on the hardware.
// The results are in docs/measurements/course-radix-bfs-h100.txt.
// Build and run on the GPU machine:
//   nvcc -O3 -arch=native -o /tmp/tck3 scripts/time-course3-kernels.cu && /tmp/tck3
// The kernels are the lessons' own kernel.cu files, included here unchanged.
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace rdx {
#include "../lessons/radix-sort/kernel.cu"
}
namespace bfs {
#include "../lessons/bfs/kernel.cu"
}

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { std::printf("%s: %s\n", #x, cudaGetErrorString(e)); std::exit(1); } } while (0)

__global__ void spin(unsigned long long cycles) {
    unsigned long long t0 = clock64();
    while (clock64() - t0 < cycles) {}
}

static int bad = 0;

// Runs `launches` (name, launch) in order: 5 warm-up runs (each after `reset`), then 20 timed runs
// with an event between consecutive launches. Returns the mean total per name, in us per run.
static std::map<std::string, double> timeSequence(const std::function<void()>& reset,
                                                  const std::vector<std::pair<std::string, std::function<void()>>>& launches) {
    std::vector<cudaEvent_t> ev(launches.size() + 1);
    for (auto& ev1 : ev) CHECK(cudaEventCreate(&ev1));
    std::map<std::string, double> sum;
    const int warm = 5, reps = 20;
    for (int r = 0; r < warm + reps; ++r) {
        reset();
        CHECK(cudaEventRecord(ev[0]));
        for (size_t k = 0; k < launches.size(); ++k) {
            launches[k].second();
            CHECK(cudaEventRecord(ev[k + 1]));
        }
        CHECK(cudaEventSynchronize(ev.back()));
        CHECK(cudaGetLastError());
        if (r < warm) continue;
        for (size_t k = 0; k < launches.size(); ++k) {
            float ms = 0;
            CHECK(cudaEventElapsedTime(&ms, ev[k], ev[k + 1]));
            sum[launches[k].first] += ms * 1000.0 / reps;
        }
    }
    for (auto& ev1 : ev) CHECK(cudaEventDestroy(ev1));
    return sum;
}

static void timeRadix(int n) {
    const int tiles = (n + 255) / 256, total = 16 * tiles;
    std::vector<unsigned> keys(n);
    uint64_t s = 71;
    for (auto& k : keys) {  // any random keys: the lesson's hash init is not needed for timing
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        k = unsigned(s >> 32);
    }
    std::vector<unsigned> want = keys, got(n);
    std::sort(want.begin(), want.end());
    unsigned *in, *buf, *tilesBuf;
    int *counts, *offsets;
    CHECK(cudaMalloc(&in, n * 4ll));
    CHECK(cudaMalloc(&buf, 2 * n * 4ll));
    CHECK(cudaMalloc(&tilesBuf, n * 4ll));
    CHECK(cudaMalloc(&counts, total * 4ll));
    CHECK(cudaMalloc(&offsets, total * 4ll));
    CHECK(cudaMemcpy(in, keys.data(), n * 4ll, cudaMemcpyHostToDevice));
    auto reset = [&] { CHECK(cudaMemcpy(buf, in, n * 4ll, cudaMemcpyDeviceToDevice)); };
    for (int local = 0; local < 2; ++local) {
        std::vector<std::pair<std::string, std::function<void()>>> L;
        for (int p = 0; p < 8; ++p) {
            unsigned* src = buf + (p % 2) * size_t(n);
            unsigned* dst = buf + (1 - p % 2) * size_t(n);
            const int shift = 4 * p;
            if (!local) {
                L.push_back({"radix_count", [=] { rdx::radix_count<<<tiles, 256>>>(src, counts, n, shift); }});
                L.push_back({"radix_scan", [=] { rdx::radix_scan<<<1, 1024>>>(counts, offsets, total); }});
                L.push_back({"radix_scatter_direct", [=] { rdx::radix_scatter_direct<<<tiles, 256>>>(src, offsets, dst, n, shift); }});
            } else {
                L.push_back({"radix_local", [=] { rdx::radix_local<<<tiles, 256>>>(src, tilesBuf, counts, n, shift); }});
                L.push_back({"radix_scan", [=] { rdx::radix_scan<<<1, 1024>>>(counts, offsets, total); }});
                L.push_back({"radix_scatter", [=] { rdx::radix_scatter<<<tiles, 256>>>(tilesBuf, counts, offsets, dst, n, shift); }});
            }
        }
        auto t = timeSequence(reset, L);
        CHECK(cudaMemcpy(got.data(), buf, n * 4ll, cudaMemcpyDeviceToHost));
        if (got != want) {
            std::printf("  WRONG: radix sort (%s) differs from std::sort\n", local ? "local" : "direct");
            ++bad;
        }
        double all = 0;
        std::printf("radix N=%d %s, per pass:", n, local ? "local sort" : "direct scatter");
        for (auto& [name, us] : t) {
            std::printf(" %s %.2f us,", name.c_str(), us / 8);
            all += us;
        }
        std::printf(" whole sort (8 passes) %.2f us\n", all);
    }
    for (void* p : {(void*)in, (void*)buf, (void*)tilesBuf, (void*)counts, (void*)offsets}) CHECK(cudaFree(p));
}

// The lesson's graph on the CPU (build_graph's formula) and its BFS levels from vertex 0.
static std::vector<int> bfsOnCpu(int n, int deg, int extra) {
    std::vector<int> level(n, -1);
    std::deque<int> q{0};
    level[0] = 0;
    while (!q.empty()) {
        int v = q.front();
        q.pop_front();
        int d = v % 32 == 0 ? deg + extra : deg;
        for (int k = 0; k < d; ++k) {
            unsigned h = (unsigned)v * 2654435761u + (unsigned)k * 2246822519u;
            h ^= h >> 13;
            h *= 3266489917u;
            h ^= h >> 16;
            int u = k == 0 ? (v + 1) % n : (int)(h % (unsigned)n);
            if (level[u] < 0) {
                level[u] = level[v] + 1;
                q.push_back(u);
            }
        }
    }
    return level;
}

static void timeBfs(int n, int deg, int extra) {
    std::vector<int> want = bfsOnCpu(n, deg, extra), got(n);
    const int depth = *std::max_element(want.begin(), want.end());
    const int levels = depth + 1;   // the last level finds nothing: a program stops there
    const long long edges = (long long)n * deg + (long long)extra * ((n + 31) / 32);
    int *row_ptr, *cols, *lv, *lq, *lw, *queue, *size, *sizeW;
    CHECK(cudaMalloc(&row_ptr, (n + 1) * 4ll));
    CHECK(cudaMalloc(&cols, edges * 4));
    CHECK(cudaMalloc(&lv, n * 4ll));
    CHECK(cudaMalloc(&lq, n * 4ll));
    CHECK(cudaMalloc(&lw, n * 4ll));
    CHECK(cudaMalloc(&queue, 2 * n * 4ll));
    CHECK(cudaMalloc(&size, (levels + 1) * 4ll));
    CHECK(cudaMalloc(&sizeW, (levels + 1) * 4ll));
    const int grid = (n + 255) / 256;
    auto reset = [&] {
        CHECK(cudaMemset(queue, 0, 2 * n * 4ll));
        CHECK(cudaMemset(size, 0, (levels + 1) * 4ll));
        CHECK(cudaMemset(sizeW, 0, (levels + 1) * 4ll));
        bfs::build_graph<<<grid, 256>>>(row_ptr, cols, lv, lq, lw, size, sizeW, n, deg, extra);
    };
    const char* names[3] = {"bfs_vertex", "bfs_queue", "bfs_queue_warp"};
    int* levelOf[3] = {lv, lq, lw};
    for (int which = 0; which < 3; ++which) {
        std::vector<std::pair<std::string, std::function<void()>>> L;
        for (int l = 0; l < levels; ++l) {
            char name[32];
            std::snprintf(name, sizeof name, "level %02d", l);
            int* f = queue + (l % 2) * size_t(n);
            int* nx = queue + (1 - l % 2) * size_t(n);
            if (which == 0) L.push_back({name, [=] { bfs::bfs_vertex<<<grid, 256>>>(row_ptr, cols, lv, n, l); }});
            if (which == 1) L.push_back({name, [=] { bfs::bfs_queue<<<grid, 256>>>(row_ptr, cols, lq, f, size + l, nx, size + l + 1, l); }});
            if (which == 2) L.push_back({name, [=] { bfs::bfs_queue_warp<<<grid, 256>>>(row_ptr, cols, lw, f, size + l, nx, size + l + 1, l); }});
        }
        auto t = timeSequence(reset, L);
        CHECK(cudaMemcpy(got.data(), levelOf[which], n * 4ll, cudaMemcpyDeviceToHost));
        if (got != want) {
            std::printf("  WRONG: %s's levels differ from the CPU's\n", names[which]);
            ++bad;
        }
        double all = 0;
        std::printf("bfs N=%d DEG=%d HUB=%d (%d levels) %s: whole search", n, deg, extra, levels, names[which]);
        for (auto& [name, us] : t) all += us;
        std::printf(" %.2f us; per level:", all);
        for (auto& [name, us] : t) std::printf(" %.2f", us);
        std::printf("\n");
    }
    for (void* p : {(void*)row_ptr, (void*)cols, (void*)lv, (void*)lq, (void*)lw, (void*)queue, (void*)size, (void*)sizeW}) CHECK(cudaFree(p));
}

int main() {
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    std::printf("device: %s, %d SMs\n", p.name, p.multiProcessorCount);
    spin<<<p.multiProcessorCount, 32>>>(400000000ull);
    CHECK(cudaDeviceSynchronize());
    for (int round = 0; round < 2; ++round) {
        std::printf("# round %d\n", round + 1);
        for (int n : {4096, 65536, 262144, 1048576, 16777216}) timeRadix(n);
        for (int n : {4096, 262144, 4194304})
            for (auto [deg, extra] : {std::pair{4, 60}, std::pair{4, 0}, std::pair{4, 252}}) timeBfs(n, deg, extra);
    }
    std::printf(bad ? "%d outputs WRONG\n" : "every output matches the CPU\n", bad);
    return bad ? 1 : 0;
}
