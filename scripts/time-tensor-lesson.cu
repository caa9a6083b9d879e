// Times the tensor-cores lesson's three kernels (lessons/tensor-cores/kernel.cu, included here
// unchanged) on a real GPU at the sizes its steps.md talks about, with the lesson's inputs
// (f16 values uniform in [-1, 1]): the warm time per launch (mean of 50 back-to-back launches
// after 5 warm-ups, CUDA events, after 200 ms of work that brings the clocks up) and a cold
// launch (L2 flushed by a 256 MiB memset first, one launch between two events). It also checks
// that the wmma kernels agree with the naive one. The results of an H100 are in
// docs/measurements/tensor-cores-h100.txt; tests/lessons/tensor_claims_test.cpp compares them
// with the cycle model. Build and run on the GPU machine:
//   nvcc -O3 -arch=sm_90 -o /tmp/ttl scripts/time-tensor-lesson.cu && /tmp/ttl
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>   // before the namespace: kernel.cu includes it again (guarded)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>

namespace tc {
#include "../lessons/tensor-cores/kernel.cu"
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
    for (int r = 0; r < 5; ++r) {   // the best of 5 cold launches
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

__global__ void spin(unsigned long long cycles) {
    unsigned long long t0 = clock64();
    while (clock64() - t0 < cycles) {}
}

int main() {
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    std::printf("device: %s, %d SMs\n", p.name, p.multiProcessorCount);
    CHECK(cudaMalloc(&flushBuf, size_t(256) << 20));
    spin<<<p.multiProcessorCount, 32>>>(400000000ull);
    CHECK(cudaDeviceSynchronize());
    for (int n : {64, 128, 256, 512, 1024}) {
        const int M = n, N = n, K = n;
        std::vector<__half> ha(size_t(M) * K), hb(size_t(K) * N);
        srand(11);
        for (auto& v : ha) v = __float2half(float(rand()) / RAND_MAX * 2 - 1);
        for (auto& v : hb) v = __float2half(float(rand()) / RAND_MAX * 2 - 1);
        __half *A, *B;
        float *C0, *C1, *C2;
        CHECK(cudaMalloc(&A, ha.size() * 2));
        CHECK(cudaMalloc(&B, hb.size() * 2));
        CHECK(cudaMalloc(&C0, size_t(M) * N * 4));
        CHECK(cudaMalloc(&C1, size_t(M) * N * 4));
        CHECK(cudaMalloc(&C2, size_t(M) * N * 4));
        CHECK(cudaMemcpy(A, ha.data(), ha.size() * 2, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(B, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice));
        auto naive = [&] { tc::gemm_naive<<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16)>>>(A, B, C0, M, N, K); };
        auto wmma1 = [&] { tc::gemm_wmma<<<dim3(N / 16, M / 16), 32>>>(A, B, C1, M, N, K); };
        auto wmma2 = [&] { tc::gemm_wmma_shared<<<dim3(N / 32, M / 32), 128>>>(A, B, C2, M, N, K); };
        float wn = warmMicros(naive), ww = warmMicros(wmma1), ws = warmMicros(wmma2);
        float cn = coldMicros(naive), cw = coldMicros(wmma1), cs = coldMicros(wmma2);
        std::vector<float> r0(size_t(M) * N), r1(r0.size()), r2(r0.size());
        CHECK(cudaMemcpy(r0.data(), C0, r0.size() * 4, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(r1.data(), C1, r1.size() * 4, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(r2.data(), C2, r2.size() * 4, cudaMemcpyDeviceToHost));
        double d1 = 0, d2 = 0;
        for (size_t i = 0; i < r0.size(); ++i) {
            d1 = std::fmax(d1, std::fabs(double(r1[i]) - r0[i]));
            d2 = std::fmax(d2, std::fabs(double(r2[i]) - r1[i]));
        }
        std::printf("M=N=K=%d warm: gemm_naive %.2f gemm_wmma %.2f gemm_wmma_shared %.2f us; cold: %.2f %.2f %.2f us; "
                    "max |wmma - naive| %.3g, max |shared - wmma| %.3g\n", n, wn, ww, ws, cn, cw, cs, d1, d2);
        CHECK(cudaFree(A));
        CHECK(cudaFree(B));
        CHECK(cudaFree(C0));
        CHECK(cudaFree(C1));
        CHECK(cudaFree(C2));
    }
    return 0;
}
