// Times the async-copy lesson's three kernels (lessons/async-copy/kernel.cu, included unchanged)
// on a real GPU, and measures what one cp.async costs an SM (docs/async-copy.md, "Cycle model").
//   table            for n = 128 ... 2048: each kernel's warm time per launch (mean of 50
//                    back-to-back launches after 5 warm-ups, CUDA events, after 200 ms of work that
//                    brings the clocks up) and a cold launch (L2 flushed by a 256 MiB memset, best
//                    of 5), checking that the three agree;
//   probe            throughput of cp.async 4-byte (.ca), 16-byte (.cg) and of an ordinary load
//                    plus shared store, from an L1-resident source, 64 warps per SM: ns per warp
//                    instruction per SM;
//   once-validation  tests/validation/async-matmul.cu's three kernels once each at n = 512 (run
//                    under ncu --cache-control all for the cold times time-compare --cold reads);
//   once-lesson N    the lesson's three kernels once each at n = N (idem);
//   once-probe       tests/validation/ldgsts-probe.cu's kernels once each, <<<1, 32>>>, in the
//                    order of tests/validation/ldgsts-probe.json (LDGSTS's shared side under ncu).
// Build and run on the GPU machine:
//   nvcc -O3 -arch=sm_90 -o /tmp/tal scripts/time-async-lesson.cu && /tmp/tal table && /tmp/tal probe
// The H100's results: docs/measurements/async-copy-h100.txt.
#include <cuda_runtime.h>
#include <cuda_pipeline.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <vector>

namespace lesson {
#include "../lessons/async-copy/kernel.cu"
}
namespace validation {
#include "../tests/validation/async-matmul.cu"
}
namespace ldgsts {
#include "../tests/validation/ldgsts-probe.cu"
}

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

static void* flushBuf = nullptr;
template <class F>
static float coldMicros(F launch) {
    float best = 1e30f;
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    for (int r = 0; r < 5; ++r) {
        CHECK(cudaMemset(flushBuf, r, size_t(256) << 20));
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaEventRecord(a));
        launch();
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        best = std::fmin(best, ms * 1000.0f);
    }
    return best;
}

static void clocksUp() {
    // ~200 ms of memsets so the clocks are up before the first measurement.
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    CHECK(cudaEventRecord(a));
    float ms = 0;
    while (ms < 200) {
        for (int k = 0; k < 20; ++k) CHECK(cudaMemset(flushBuf, k, size_t(256) << 20));
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        CHECK(cudaEventElapsedTime(&ms, a, b));
    }
}

struct Mats {
    int n;
    float *A, *B, *C[3];
    explicit Mats(int n_) : n(n_) {
        const size_t bytes = size_t(n) * n * sizeof(float);
        std::vector<float> h(size_t(n) * n);
        unsigned s = 12345u;
        for (auto& v : h) { s = s * 1664525u + 1013904223u; v = float(s >> 8) / float(1u << 24) * 2.0f - 1.0f; }
        CHECK(cudaMalloc(&A, bytes));
        CHECK(cudaMalloc(&B, bytes));
        CHECK(cudaMemcpy(A, h.data(), bytes, cudaMemcpyHostToDevice));
        std::reverse(h.begin(), h.end());
        CHECK(cudaMemcpy(B, h.data(), bytes, cudaMemcpyHostToDevice));
        for (auto& c : C) CHECK(cudaMalloc(&c, bytes));
    }
    ~Mats() { cudaFree(A); cudaFree(B); for (auto c : C) cudaFree(c); }
};

using Kernel = void (*)(const float*, const float*, float*, int);

static void launch(Kernel k, const Mats& m, float* c) {
    dim3 grid(m.n / 16, m.n / 16), block(16, 16);
    k<<<grid, block>>>(m.A, m.B, c, m.n);
}

static int table() {
    const Kernel ks[3] = {lesson::matmul_plain, lesson::matmul_async, lesson::matmul_double_buffered};
    const char* names[3] = {"matmul_plain", "matmul_async", "matmul_double_buffered"};
    std::printf("# n kernel warm_us cold_us (blocks of 16x16 threads, grid n/16 x n/16)\n");
    for (int n : {128, 256, 384, 512, 1024, 2048}) {
        Mats m(n);
        for (int k = 0; k < 3; ++k) {
            const float w = warmMicros([&] { launch(ks[k], m, m.C[k]); });
            const float c = coldMicros([&] { launch(ks[k], m, m.C[k]); });
            std::printf("%d %s %.3f %.3f\n", n, names[k], w, c);
        }
        CHECK(cudaDeviceSynchronize());
        std::vector<float> r[3];
        for (int k = 0; k < 3; ++k) {
            r[k].resize(size_t(n) * n);
            CHECK(cudaMemcpy(r[k].data(), m.C[k], r[k].size() * sizeof(float), cudaMemcpyDeviceToHost));
        }
        const bool same = std::memcmp(r[0].data(), r[1].data(), r[0].size() * 4) == 0 && std::memcmp(r[0].data(), r[2].data(), r[0].size() * 4) == 0;
        std::printf("# n=%d results bit-equal: %s\n", n, same ? "yes" : "NO");
    }
    return 0;
}

// Throughput probes: 64 warps per SM (8 blocks of 256 threads), each thread copying ITERS words
// from a 4 KiB L1-resident source into its own slots of shared memory.
constexpr int ITERS = 512;
__global__ void probe_ldgsts4(const float* src, float* out) {
    __shared__ float sh[8][256];
    const int t = threadIdx.x;
    for (int i = 0; i < ITERS; ++i) {
        __pipeline_memcpy_async(&sh[i & 7][t], &src[(t + 32 * i) & 1023], 4);
        if ((i & 7) == 7) __pipeline_commit();
    }
    __pipeline_commit();
    __pipeline_wait_prior(0);
    out[blockIdx.x * 256 + t] = sh[t & 7][t];
}
__global__ void probe_ldgsts16(const float4* src, float* out) {
    __shared__ float4 sh[8][256];
    const int t = threadIdx.x;
    for (int i = 0; i < ITERS; ++i) {
        __pipeline_memcpy_async(&sh[i & 7][t], &src[(t + 32 * i) & 255], 16);
        if ((i & 7) == 7) __pipeline_commit();
    }
    __pipeline_commit();
    __pipeline_wait_prior(0);
    out[blockIdx.x * 256 + t] = sh[t & 7][t].x;
}
__global__ void probe_ldsts4(const float* src, float* out) {
    __shared__ float sh[8][256];
    const int t = threadIdx.x;
    for (int i = 0; i < ITERS; ++i) sh[i & 7][t] = src[(t + 32 * i) & 1023];
    __syncthreads();
    out[blockIdx.x * 256 + t] = sh[t & 7][(t + 1) & 255];
}

static int probe() {
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    int khz = 0;
    cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0);
    float *src, *out;
    CHECK(cudaMalloc(&src, 4096 * 4));
    CHECK(cudaMemset(src, 0, 4096 * 4));
    const int blocks = sms * 8 * 4;   // four waves of 8 blocks per SM
    CHECK(cudaMalloc(&out, size_t(blocks) * 256 * 4));
    const double warpInstrPerSm = double(blocks) * 8 * ITERS / sms;
    std::printf("# probe: %d SMs, clock %d kHz, %d blocks x 256 threads, %d copies a thread\n", sms, khz, blocks, ITERS);
    const float t4 = warmMicros([&] { probe_ldgsts4<<<blocks, 256>>>(src, out); });
    const float t16 = warmMicros([&] { probe_ldgsts16<<<blocks, 256>>>(reinterpret_cast<const float4*>(src), out); });
    const float tl = warmMicros([&] { probe_ldsts4<<<blocks, 256>>>(src, out); });
    auto line = [&](const char* name, float us) {
        const double ns = us * 1000.0 / warpInstrPerSm;
        std::printf("%s %.3f us  %.4f ns per warp copy per SM  %.3f cycles at the clock above\n", name, us, ns, ns * khz / 1e6);
    };
    line("cp.async.ca 4 B", t4);
    line("cp.async.cg 16 B", t16);
    line("ld.global + st.shared 4 B", tl);
    return 0;
}

static int once(bool validationKernels, int n) {
    Mats m(n);
    const Kernel ks[3] = {validation::matmul_sync, validation::matmul_async_single, validation::matmul_async_double};
    const Kernel ls[3] = {lesson::matmul_plain, lesson::matmul_async, lesson::matmul_double_buffered};
    for (int k = 0; k < 3; ++k) launch(validationKernels ? ks[k] : ls[k], m, m.C[k]);
    CHECK(cudaDeviceSynchronize());
    return 0;
}

static int onceProbe() {
    using P = void (*)(const float*, float*);
    const P ks[] = {ldgsts::ca4_line, ldgsts::ca4_two_lines_shifted, ldgsts::ca4_two_lines_aligned, ldgsts::ca4_reversed,
                    ldgsts::ca4_same_bank, ldgsts::ca4_scattered, ldgsts::ca4_half_warp, ldgsts::ca4_zfill_all,
                    ldgsts::ca8_zfill4, ldgsts::cg16_lines, ldgsts::cg16_zfill8, ldgsts::cg16_dst_shifted, ldgsts::ca16_lines};
    float *g, *out;
    CHECK(cudaMalloc(&g, 4096 * 4));
    CHECK(cudaMemset(g, 0, 4096 * 4));
    CHECK(cudaMalloc(&out, 32 * 4));
    for (P k : ks) k<<<1, 32>>>(g, out);
    CHECK(cudaDeviceSynchronize());
    return 0;
}

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "table";
    if (!std::strcmp(mode, "once-probe")) return onceProbe();
    if (!std::strcmp(mode, "once-validation")) return once(true, 512);
    if (!std::strcmp(mode, "once-lesson")) return once(false, argc > 2 ? std::atoi(argv[2]) : 256);
    CHECK(cudaMalloc(&flushBuf, size_t(256) << 20));
    clocksUp();
    if (!std::strcmp(mode, "table")) return table();
    if (!std::strcmp(mode, "probe")) return probe();
    std::printf("usage: tal table | probe | once-validation | once-lesson N | once-probe\n");
    return 2;
}
