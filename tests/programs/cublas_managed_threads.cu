// UnifiedMemoryStreams' pattern, checked: OpenMP threads take tasks; a small one is computed on
// the host in unified memory attached to the host (cudaStreamAttachMemAsync, cudaMemAttachHost),
// a large one by cublasDgemv in the thread's own stream and handle, its memory attached to that
// stream. Every result is compared with a host gemv (bit-exact under warpscope: the same fmas in
// the same order as its cublas_dgemv_n kernel; within 1e-12 x size with NVIDIA's cuBLAS).
#include <cublas_v2.h>
#include <omp.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <vector>

#define CU(call)                                                                                    \
    do {                                                                                            \
        cudaError_t e_ = (call);                                                                    \
        if (e_ != cudaSuccess) {                                                                    \
            printf("FAIL %s: %s (line %d)\n", #call, cudaGetErrorName(e_), __LINE__);               \
            return 1;                                                                               \
        }                                                                                           \
    } while (0)

struct Task {
    int size = 0;
    double *A = nullptr, *x = nullptr, *y = nullptr;
};

// y = A * x for a column-major A, each row's sum in order with fma (as cublas_dgemv_n).
static void hostGemv(int n, const double* A, const double* x, double* y) {
    for (int i = 0; i < n; ++i) {
        double sum = 0;
        for (int j = 0; j < n; ++j) sum = fma(A[i + (size_t)j * n], x[j], sum);
        y[i] = sum;
    }
}

int main() {
    const int nthreads = 4, ntasks = 16;
    cudaStream_t streams[nthreads + 1];
    cublasHandle_t handles[nthreads + 1];
    for (int i = 0; i <= nthreads; ++i) {
        CU(cudaStreamCreate(&streams[i]));
        if (cublasCreate(&handles[i]) != CUBLAS_STATUS_SUCCESS) return 1;
    }
    std::vector<Task> tasks(ntasks);
    unsigned seed = 7;
    for (int t = 0; t < ntasks; ++t) {
        Task& k = tasks[t];
        k.size = t % 3 == 0 ? 40 : 100 + 13 * t;
        CU(cudaMallocManaged(&k.A, sizeof(double) * k.size * k.size));
        CU(cudaMallocManaged(&k.x, sizeof(double) * k.size));
        CU(cudaMallocManaged(&k.y, sizeof(double) * k.size));
        CU(cudaDeviceSynchronize());
        for (int i = 0; i < k.size * k.size; ++i) k.A[i] = ((seed = seed * 1664525u + 1013904223u) >> 8) / 16777216.0;
        for (int i = 0; i < k.size; ++i) {
            k.x[i] = ((seed = seed * 1664525u + 1013904223u) >> 8) / 16777216.0;
            k.y[i] = 0;
        }
    }
    std::atomic<int> errors{0}, onDevice{0};
    omp_set_num_threads(nthreads);
#pragma omp parallel for schedule(dynamic)
    for (int t = 0; t < ntasks; ++t) {
        const int tid = omp_get_thread_num();
        Task& k = tasks[t];
        if (k.size < 100) {
            cudaStream_t s = streams[0];
            if (cudaStreamAttachMemAsync(s, k.A, 0, cudaMemAttachHost) != cudaSuccess || cudaStreamAttachMemAsync(s, k.x, 0, cudaMemAttachHost) != cudaSuccess ||
                cudaStreamAttachMemAsync(s, k.y, 0, cudaMemAttachHost) != cudaSuccess || cudaStreamSynchronize(s) != cudaSuccess)
                ++errors;
            hostGemv(k.size, k.A, k.x, k.y);
        } else {
            const double one = 1, zero = 0;
            cudaStream_t s = streams[tid + 1];
            if (cublasSetStream(handles[tid + 1], s) != CUBLAS_STATUS_SUCCESS || cudaStreamAttachMemAsync(s, k.A, 0, cudaMemAttachSingle) != cudaSuccess ||
                cudaStreamAttachMemAsync(s, k.x, 0, cudaMemAttachSingle) != cudaSuccess || cudaStreamAttachMemAsync(s, k.y, 0, cudaMemAttachSingle) != cudaSuccess ||
                cublasDgemv(handles[tid + 1], CUBLAS_OP_N, k.size, k.size, &one, k.A, k.size, k.x, 1, &zero, k.y, 1) != CUBLAS_STATUS_SUCCESS)
                ++errors;
            ++onDevice;
        }
    }
    CU(cudaDeviceSynchronize());
    int wrong = 0;
    for (auto& k : tasks) {
        std::vector<double> want(k.size);
        hostGemv(k.size, k.A, k.x, want.data());
        for (int i = 0; i < k.size; ++i)
#ifdef WARPSCOPE_CUBLAS_SUBSET
            if (k.y[i] != want[i]) ++wrong;
#else
            if (std::fabs(k.y[i] - want[i]) > 1e-12 * k.size) ++wrong;   // NVIDIA's cuBLAS sums in its own order
#endif
    }
    printf("%d tasks (%d on the device), %d call errors, %d results differ from the host's\n", ntasks, onDevice.load(), errors.load(), wrong);

    const bool ok = errors == 0 && wrong == 0 && onDevice > 0;
    printf("%s\n", ok ? "PASSED" : "FAILED");
    return ok ? 0 : 1;
}
