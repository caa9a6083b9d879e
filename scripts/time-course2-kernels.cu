// Times the kernels of the spmv, stencil-3d and merge lessons on a real GPU, as time-course-kernels.cu does
// for the earlier pattern lessons: the warm time per launch (the mean of 50 back-to-back launches
// after 5 warm-ups, from CUDA events), after 200 ms of work that brings the clocks up, at the
// lessons' sizes and larger ones. It also checks the kernels' outputs against a CPU computation
// (so the lessons' kernels are known to be right on the hardware, not only in the simulator).
// The results are in docs/measurements/course-spmv-stencil3d-h100.txt and course-merge-h100.txt.
// Build and run on the GPU machine (`merge` as the argument times only the merge kernels):
//   nvcc -O3 -arch=native -o /tmp/tck2 scripts/time-course2-kernels.cu && /tmp/tck2 [merge]
// The kernels are the lessons' own kernel.cu files, included here unchanged.
#include <cuda_runtime.h>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace spmv {
#include "../lessons/spmv/kernel.cu"
}
namespace st3 {
#include "../lessons/stencil-3d/kernel.cu"
}
#undef PER
#undef BLOCK
namespace mrg {
#include "../lessons/merge/kernel.cu"
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

__global__ void spin(unsigned long long cycles) {
    unsigned long long t0 = clock64();
    while (clock64() - t0 < cycles) {}
}

static int bad = 0;
static void expectClose(const char* what, const std::vector<float>& got, const std::vector<double>& want, double rel) {
    size_t wrong = 0;
    for (size_t i = 0; i < got.size(); ++i)
        if (std::fabs(got[i] - want[i]) > rel * std::fabs(want[i]) + 1e-6) ++wrong;
    if (wrong) {
        std::printf("  WRONG: %s: %zu of %zu values differ from the CPU\n", what, wrong, got.size());
        ++bad;
    }
}

static void timeSpmv(int m, int len, int extra) {
    const int width = len + extra;
    const long long nnz = (long long)m * len + (long long)extra * ((m + 31) / 32);
    int *row_ptr, *cols, *ell_cols;
    float *vals, *ell_vals, *x, *y;
    CHECK(cudaMalloc(&row_ptr, (m + 1) * 4ll));
    CHECK(cudaMalloc(&cols, nnz * 4));
    CHECK(cudaMalloc(&vals, nnz * 4));
    CHECK(cudaMalloc(&ell_cols, (long long)m * width * 4));
    CHECK(cudaMalloc(&ell_vals, (long long)m * width * 4));
    CHECK(cudaMalloc(&x, m * 4ll));
    CHECK(cudaMalloc(&y, m * 4ll));
    std::vector<float> hx(m);
    for (auto& v : hx) v = float(rand()) / RAND_MAX;
    CHECK(cudaMemcpy(x, hx.data(), m * 4ll, cudaMemcpyHostToDevice));
    spmv::build_matrix<<<(m + 255) / 256, 256>>>(row_ptr, cols, vals, ell_cols, ell_vals, m, len, extra, width);
    CHECK(cudaDeviceSynchronize());
    // y on the CPU, from the same formula as build_matrix.
    std::vector<double> want(m);
    for (int r = 0; r < m; ++r) {
        int n = r % 32 == 0 ? len + extra : len;
        double s = 0;
        for (int k = 0; k < n; ++k) s += 0.125 * (1 + (7 * r + 3 * k) % 8) * hx[(r + 61ll * k) % m];
        want[r] = s;
    }
    std::vector<float> got(m);
    auto csr = [&] { spmv::spmv_csr<<<(m + 255) / 256, 256>>>(row_ptr, cols, vals, x, y, m); };
    auto ell = [&] { spmv::spmv_ell<<<(m + 255) / 256, 256>>>(ell_cols, ell_vals, x, y, m, width); };
    auto warp = [&] { spmv::spmv_csr_warp<<<(m + 7) / 8, 256>>>(row_ptr, cols, vals, x, y, m); };
    float t[3];
    int k = 0;
    const char* names[3] = {"spmv_csr", "spmv_ell", "spmv_csr_warp"};
    for (int which = 0; which < 3; ++which) {
        CHECK(cudaMemset(y, 0, m * 4ll));
        if (which == 0) { t[k] = warmMicros(csr); }
        if (which == 1) { t[k] = warmMicros(ell); }
        if (which == 2) { t[k] = warmMicros(warp); }
        CHECK(cudaMemcpy(got.data(), y, m * 4ll, cudaMemcpyDeviceToHost));
        expectClose(names[which], got, want, 1e-5);
        ++k;
    }
    std::printf("spmv M=%d LEN=%d LONG=%d (nnz %lld, ELL slots %lld): spmv_csr %.2f us, spmv_ell %.2f us, spmv_csr_warp %.2f us\n", m, len,
                extra, nnz, (long long)m * width, t[0], t[1], t[2]);
    for (void* p : {(void*)row_ptr, (void*)cols, (void*)vals, (void*)ell_cols, (void*)ell_vals, (void*)x, (void*)y}) CHECK(cudaFree(p));
}

static void timeStencil(int n) {
    const size_t count = size_t(n) * n * n;
    std::vector<float> h(count);
    for (auto& v : h) v = float(rand()) / RAND_MAX;
    float *in, *out;
    CHECK(cudaMalloc(&in, count * 4));
    CHECK(cudaMalloc(&out, count * 4));
    CHECK(cudaMemcpy(in, h.data(), count * 4, cudaMemcpyHostToDevice));
    std::vector<double> want(count, 0.0);
    for (int z = 1; z < n - 1; ++z)
        for (int y = 1; y < n - 1; ++y)
            for (int x = 1; x < n - 1; ++x) {
                size_t i = (size_t(z) * n + y) * n + x, nn = size_t(n) * n;
                want[i] = 0.5 * h[i] + (1.0 / 12) * (h[i - 1] + h[i + 1] + h[i - n] + h[i + n] + h[i - nn] + h[i + nn]);
            }
    auto cd = [](int a, int b) { return (a + b - 1) / b; };
    auto naive = [&] { st3::stencil_naive<<<dim3(cd(n, 8), cd(n, 8), cd(n, 8)), dim3(8, 8, 8)>>>(in, out, n); };
    auto shared = [&] { st3::stencil_shared<<<dim3(cd(n - 2, 6), cd(n - 2, 6), cd(n - 2, 6)), dim3(8, 8, 8)>>>(in, out, n); };
    auto coarse = [&] { st3::stencil_coarsened<<<dim3(cd(n - 2, 30), cd(n - 2, 6), cd(n - 2, 16)), dim3(32, 8)>>>(in, out, n); };
    std::vector<float> got(count);
    float t[3];
    const char* names[3] = {"stencil_naive", "stencil_shared", "stencil_coarsened"};
    for (int which = 0; which < 3; ++which) {
        CHECK(cudaMemset(out, 0, count * 4));
        t[which] = which == 0 ? warmMicros(naive) : which == 1 ? warmMicros(shared) : warmMicros(coarse);
        CHECK(cudaMemcpy(got.data(), out, count * 4, cudaMemcpyDeviceToHost));
        expectClose(names[which], got, want, 1e-5);
    }
    std::printf("stencil-3d N=%d: stencil_naive %.2f us, stencil_shared %.2f us, stencil_coarsened %.2f us\n", n, t[0], t[1], t[2]);
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
}

// The merge lesson's inputs: A = 0, 3, 6, ..., B = 1, 3, 5, ...
static void timeMerge(int m, int n, bool oneThread) {
    std::vector<int> a(m), b(n), want(size_t(m) + n), got(size_t(m) + n);
    for (int i = 0; i < m; ++i) a[i] = 3 * i;
    for (int j = 0; j < n; ++j) b[j] = 2 * j + 1;
    std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin());
    int *A, *B, *C;
    CHECK(cudaMalloc(&A, std::max(m, 1) * 4ll));
    CHECK(cudaMalloc(&B, std::max(n, 1) * 4ll));
    CHECK(cudaMalloc(&C, std::max(m + n, 1) * 4ll));
    CHECK(cudaMemcpy(A, a.data(), m * 4ll, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(B, b.data(), n * 4ll, cudaMemcpyHostToDevice));
    int grid = std::max((m + n + 1023) / 1024, 1);
    auto one = [&] { mrg::merge_one_thread<<<1, 1>>>(A, m, B, n, C); };
    auto basic = [&] { mrg::merge_basic<<<grid, 256>>>(A, m, B, n, C); };
    auto tiled = [&] { mrg::merge_tiled<<<grid, 256>>>(A, m, B, n, C); };
    float t[3] = {0, 0, 0};
    const char* names[3] = {"merge_one_thread", "merge_basic", "merge_tiled"};
    for (int which = oneThread ? 0 : 1; which < 3; ++which) {
        CHECK(cudaMemset(C, 0, (m + n) * 4ll));
        t[which] = which == 0 ? warmMicros(one) : which == 1 ? warmMicros(basic) : warmMicros(tiled);
        CHECK(cudaMemcpy(got.data(), C, (m + n) * 4ll, cudaMemcpyDeviceToHost));
        if (got != want) {
            std::printf("  WRONG: %s\n", names[which]);
            ++bad;
        }
    }
    std::printf("merge M=%d N=%d: merge_one_thread %.2f us, merge_basic %.2f us, merge_tiled %.2f us\n", m, n, t[0], t[1], t[2]);
    CHECK(cudaFree(A));
    CHECK(cudaFree(B));
    CHECK(cudaFree(C));
}

int main(int argc, char** argv) {
    const bool mergeOnly = argc > 1 && std::strcmp(argv[1], "merge") == 0;
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    std::printf("device: %s, %d SMs\n", p.name, p.multiProcessorCount);
    spin<<<p.multiProcessorCount, 32>>>(400000000ull);
    CHECK(cudaDeviceSynchronize());
    for (int round = 0; round < 2; ++round) {
        std::printf("# round %d\n", round + 1);
        if (mergeOnly) {   // the merge lesson came later: `tck2 merge` times only its kernels
            timeMerge(3000, 5000, true);
            timeMerge(3 << 16, 5 << 16, true);
            timeMerge(3 << 18, 5 << 18, false);
            timeMerge(3 << 20, 5 << 20, false);
            continue;
        }
        for (int m : {65536, 262144, 1048576})
            for (auto [len, extra] : {std::pair{8, 0}, std::pair{8, 56}, std::pair{32, 0}, std::pair{4, 248}}) timeSpmv(m, len, extra);
        for (int n : {32, 62, 122, 242, 482}) timeStencil(n);
    }
    std::printf(bad ? "%d outputs WRONG\n" : "every output matches the CPU\n", bad);
    return bad ? 1 : 0;
}
