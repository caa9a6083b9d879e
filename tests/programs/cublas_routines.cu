// cuBLAS routines against a host reference: gemv (N, T), gemm (NN, NT, TN, TT), axpy, dot, scal,
// in float and double, with padded leading dimensions and strides (negative ones too), both
// pointer modes, and the handle's stream (a capture into a graph shows the launch went there).
//
// How floating point is compared: built by warpscope (WARPSCOPE_CUBLAS_SUBSET), the reference does
// the same fmas in the same order as warpscope's kernels (engine/cudart/cublas.cu), so every
// result must be bit-for-bit the same. Built with nvcc against NVIDIA's cuBLAS (whose order is
// its own), a relative error of 1e-5 (float) or 1e-12 (double) of the sum of |terms| is allowed.
// Prints one line per check and "cublas routines: N failures"; exits with the failure count.
#include <cublas_v2.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#ifdef WARPSCOPE_CUBLAS_SUBSET
static const bool kExact = true;
#else
static const bool kExact = false;
#endif

static int failures = 0;

#define CK(call)                                                                                    \
    do {                                                                                            \
        cublasStatus_t s_ = (call);                                                                 \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                          \
            printf("FAIL %s: %s (line %d)\n", #call, cublasGetStatusName(s_), __LINE__);            \
            ++failures;                                                                             \
        }                                                                                           \
    } while (0)
#define CU(call)                                                                                    \
    do {                                                                                            \
        cudaError_t e_ = (call);                                                                    \
        if (e_ != cudaSuccess) {                                                                    \
            printf("FAIL %s: %s (line %d)\n", #call, cudaGetErrorName(e_), __LINE__);               \
            exit(100);                                                                              \
        }                                                                                           \
    } while (0)

static float mad(float a, float b, float c) { return fmaf(a, b, c); }
static double mad(double a, double b, double c) { return fma(a, b, c); }
static long long at(int i, int n, int inc) { return inc > 0 ? (long long)i * inc : (long long)(i + 1 - n) * inc; }

template <typename T> static T tol() { return sizeof(T) == 4 ? T(1e-5) : T(1e-12); }

// got vs want (with scale: the sum of |terms| of each result, for the tolerance).
template <typename T> static void compare(const char* what, const std::vector<T>& got, const std::vector<T>& want, const std::vector<T>& scale) {
    int bad = 0, first = -1;
    for (size_t i = 0; i < want.size(); ++i) {
        bool ok = kExact ? (got[i] == want[i] || (std::isnan(got[i]) && std::isnan(want[i])))
                         : (std::isnan(got[i]) && std::isnan(want[i])) || std::fabs(got[i] - want[i]) <= tol<T>() * (std::fabs(scale[i]) + T(1e-30));
        if (!ok) {
            ++bad;
            if (first < 0) first = (int)i;
        }
    }
    if (bad) {
        printf("FAIL %s: %d of %zu differ (first [%d]: %.17g, want %.17g)\n", what, bad, want.size(), first, (double)got[first], (double)want[first]);
        ++failures;
    } else {
        printf("ok   %s (%zu values%s)\n", what, want.size(), kExact ? ", bit-exact" : "");
    }
}

template <typename T> static std::vector<T> randoms(size_t n, unsigned seed) {
    std::vector<T> v(n);
    for (size_t i = 0; i < n; ++i) {
        seed = seed * 1664525u + 1013904223u;
        v[i] = T((int)(seed >> 8) % 2001 - 1000) / T(256) + T(1) / T(3);   // not exact in binary: rounding matters
    }
    return v;
}

template <typename T> static T* toDevice(const std::vector<T>& v) {
    T* d;
    CU(cudaMalloc(&d, v.size() * sizeof(T)));
    CU(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}
template <typename T> static std::vector<T> toHost(const T* d, size_t n) {
    std::vector<T> v(n);
    CU(cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return v;
}

static cublasStatus_t gemv(cublasHandle_t h, cublasOperation_t t, int m, int n, const float* a, const float* A, int lda, const float* x, int incx,
                           const float* b, float* y, int incy) {
    return cublasSgemv(h, t, m, n, a, A, lda, x, incx, b, y, incy);
}
static cublasStatus_t gemv(cublasHandle_t h, cublasOperation_t t, int m, int n, const double* a, const double* A, int lda, const double* x, int incx,
                           const double* b, double* y, int incy) {
    return cublasDgemv(h, t, m, n, a, A, lda, x, incx, b, y, incy);
}
static cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const float* a, const float* A, int lda,
                           const float* B, int ldb, const float* b, float* C, int ldc) {
    return cublasSgemm(h, ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc);
}
static cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const double* a, const double* A, int lda,
                           const double* B, int ldb, const double* b, double* C, int ldc) {
    return cublasDgemm(h, ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc);
}
static cublasStatus_t axpy(cublasHandle_t h, int n, const float* a, const float* x, int incx, float* y, int incy) { return cublasSaxpy(h, n, a, x, incx, y, incy); }
static cublasStatus_t axpy(cublasHandle_t h, int n, const double* a, const double* x, int incx, double* y, int incy) { return cublasDaxpy(h, n, a, x, incx, y, incy); }
static cublasStatus_t scal(cublasHandle_t h, int n, const float* a, float* x, int incx) { return cublasSscal(h, n, a, x, incx); }
static cublasStatus_t scal(cublasHandle_t h, int n, const double* a, double* x, int incx) { return cublasDscal(h, n, a, x, incx); }
static cublasStatus_t dot(cublasHandle_t h, int n, const float* x, int incx, const float* y, int incy, float* r) { return cublasSdot(h, n, x, incx, y, incy, r); }
static cublasStatus_t dot(cublasHandle_t h, int n, const double* x, int incx, const double* y, int incy, double* r) { return cublasDdot(h, n, x, incx, y, incy, r); }

// The reference gemv: for each element of y, the sum over the other dimension in order, then
// alpha * sum, then fma(beta, y, that) unless beta is 0 (y not read).
template <typename T>
static void refGemv(bool trans, int m, int n, T alpha, const std::vector<T>& A, int lda, const std::vector<T>& x, int incx, T beta, std::vector<T>& y,
                    int incy, std::vector<T>& scale) {
    const int leny = trans ? n : m, lenx = trans ? m : n;
    for (int r = 0; r < leny; ++r) {
        T sum = 0, mag = 0;
        for (int c = 0; c < lenx; ++c) {
            const T a = trans ? A[c + (size_t)r * lda] : A[r + (size_t)c * lda];
            sum = mad(a, x[at(c, lenx, incx)], sum);
            mag += std::fabs(a * x[at(c, lenx, incx)]);
        }
        T& yr = y[at(r, leny, incy)];
        T v = alpha * sum;
        if (beta != T(0)) v = mad(beta, yr, v);
        scale[at(r, leny, incy)] = std::fabs(alpha) * mag + (beta != T(0) ? std::fabs(beta * yr) : T(0));
        yr = v;
    }
}

template <typename T> static void testGemv(cublasHandle_t h, const char* type, bool trans, int incx, int incy, T beta) {
    const int m = 37, n = 29, lda = 41;
    const int lenx = trans ? m : n, leny = trans ? n : m;
    std::vector<T> A = randoms<T>((size_t)lda * n, 1), x = randoms<T>((size_t)lenx * std::abs(incx), 2), y = randoms<T>((size_t)leny * std::abs(incy), 3);
    if (beta == T(0))
        for (auto& v : y) v = NAN;   // beta 0: y is written, never read
    const T alpha = T(1.5);
    T *dA = toDevice(A), *dx = toDevice(x), *dy = toDevice(y);
    CK(gemv(h, trans ? CUBLAS_OP_T : CUBLAS_OP_N, m, n, &alpha, dA, lda, dx, incx, &beta, dy, incy));
    std::vector<T> want = y, scale(y.size(), T(0));
    refGemv(trans, m, n, alpha, A, lda, x, incx, beta, want, incy, scale);
    char what[96];
    snprintf(what, sizeof what, "%sgemv %s incx %d incy %d beta %g", type, trans ? "T" : "N", incx, incy, (double)beta);
    compare(what, toHost(dy, y.size()), want, scale);
    cudaFree(dA);
    cudaFree(dx);
    cudaFree(dy);
}

template <typename T> static void testGemm(cublasHandle_t h, const char* type, bool ta, bool tb) {
    const int m = 19, n = 23, k = 17;
    const int rowsA = ta ? k : m, colsA = ta ? m : k, rowsB = tb ? n : k, colsB = tb ? k : n;
    const int lda = rowsA + 3, ldb = rowsB + 1, ldc = m + 2;
    std::vector<T> A = randoms<T>((size_t)lda * colsA, 4), B = randoms<T>((size_t)ldb * colsB, 5), C = randoms<T>((size_t)ldc * n, 6);
    const T alpha = T(-0.75), beta = T(0.5);
    T *dA = toDevice(A), *dB = toDevice(B), *dC = toDevice(C);
    CK(gemm(h, ta ? CUBLAS_OP_T : CUBLAS_OP_N, tb ? CUBLAS_OP_T : CUBLAS_OP_N, m, n, k, &alpha, dA, lda, dB, ldb, &beta, dC, ldc));
    std::vector<T> want = C, scale(C.size(), T(0));
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            T sum = 0, mag = 0;
            for (int l = 0; l < k; ++l) {
                const T a = ta ? A[l + (size_t)i * lda] : A[i + (size_t)l * lda];
                const T b = tb ? B[j + (size_t)l * ldb] : B[l + (size_t)j * ldb];
                sum = mad(a, b, sum);
                mag += std::fabs(a * b);
            }
            T& c = want[i + (size_t)j * ldc];
            scale[i + (size_t)j * ldc] = std::fabs(alpha) * mag + std::fabs(beta * c);
            c = mad(beta, c, alpha * sum);
        }
    char what[64];
    snprintf(what, sizeof what, "%sgemm %s%s", type, ta ? "T" : "N", tb ? "T" : "N");
    compare(what, toHost(dC, C.size()), want, scale);
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
}

template <typename T> static void testLevel1(cublasHandle_t h, const char* type) {
    const int n = 1000, incx = 2, incy = -3;
    std::vector<T> x = randoms<T>((size_t)n * incx, 7), y = randoms<T>((size_t)n * 3, 8);
    T *dx = toDevice(x), *dy = toDevice(y);
    char what[64];

    // axpy: y = alpha * x + y, one fma each.
    const T alpha = T(0.3);
    CK(axpy(h, n, &alpha, dx, incx, dy, incy));
    std::vector<T> want = y, scale(y.size(), T(0));
    for (int i = 0; i < n; ++i) {
        T& yi = want[at(i, n, incy)];
        scale[at(i, n, incy)] = std::fabs(alpha * x[at(i, n, incx)]) + std::fabs(yi);
        yi = mad(alpha, x[at(i, n, incx)], yi);
    }
    snprintf(what, sizeof what, "%saxpy incx %d incy %d", type, incx, incy);
    compare(what, toHost(dy, y.size()), want, scale);
    y = want;

    // dot: thread t of 256 sums elements t, t+256, ... (fma), then pairwise halving.
    T r = 0;
    CK(dot(h, n, dx, incx, dy, incy, &r));
    T part[256], mag = 0;
    for (int t = 0; t < 256; ++t) {
        part[t] = 0;
        for (int i = t; i < n; i += 256) part[t] = mad(x[at(i, n, incx)], y[at(i, n, incy)], part[t]);
    }
    for (int i = 0; i < n; ++i) mag += std::fabs(x[at(i, n, incx)] * y[at(i, n, incy)]);
    for (int s = 128; s > 0; s /= 2)
        for (int t = 0; t < s; ++t) part[t] += part[t + s];
    snprintf(what, sizeof what, "%sdot incx %d incy %d", type, incx, incy);
    compare(what, std::vector<T>{r}, std::vector<T>{part[0]}, std::vector<T>{mag});

    // scal: x = alpha * x.
    const T s = T(-2.5);
    CK(scal(h, n, &s, dx, incx));
    want = x;
    for (int i = 0; i < n; ++i) want[(size_t)i * incx] *= s;
    snprintf(what, sizeof what, "%sscal incx %d", type, incx);
    compare(what, toHost(dx, x.size()), want, want);

    // Pointer mode device: alpha from device memory, dot's result into device memory.
    T *dAlpha, *dResult;
    CU(cudaMalloc(&dAlpha, sizeof(T)));
    CU(cudaMalloc(&dResult, sizeof(T)));
    CU(cudaMemcpy(dAlpha, &alpha, sizeof(T), cudaMemcpyHostToDevice));
    CK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    std::vector<T> x1 = randoms<T>(n, 9), y1 = randoms<T>(n, 10);
    T *dx1 = toDevice(x1), *dy1 = toDevice(y1);
    CK(axpy(h, n, dAlpha, dx1, 1, dy1, 1));
    CK(dot(h, n, dx1, 1, dx1, 1, dResult));
    CK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    CU(cudaDeviceSynchronize());
    want = y1;
    for (int i = 0; i < n; ++i) want[i] = mad(alpha, x1[i], y1[i]);
    snprintf(what, sizeof what, "%saxpy, alpha in device memory", type);
    compare(what, toHost(dy1, n), want, want);
    for (int t = 0; t < 256; ++t) {
        part[t] = 0;
        for (int i = t; i < n; i += 256) part[t] = mad(x1[i], x1[i], part[t]);
    }
    for (int s2 = 128; s2 > 0; s2 /= 2)
        for (int t = 0; t < s2; ++t) part[t] += part[t + s2];
    snprintf(what, sizeof what, "%sdot, result in device memory", type);
    compare(what, toHost(dResult, 1), std::vector<T>{part[0]}, std::vector<T>{part[0]});
    cudaFree(dAlpha);
    cudaFree(dResult);
    cudaFree(dx1);
    cudaFree(dy1);
    cudaFree(dx);
    cudaFree(dy);
}

// Set/Get Vector and Matrix: strided and padded copies.
static void testCopies() {
    const int n = 50;
    std::vector<double> host = randoms<double>(n * 3, 11), back(n * 2, 0.0);
    double* d;
    CU(cudaMalloc(&d, n * 4 * sizeof(double)));
    CU(cudaMemset(d, 0, n * 4 * sizeof(double)));
    CK(cublasSetVector(n, sizeof(double), host.data(), 3, d, 4));   // host[3i] -> d[4i]
    CK(cublasGetVector(n, sizeof(double), d, 4, back.data(), 2));   // d[4i] -> back[2i]
    std::vector<double> got(n), want(n);
    for (int i = 0; i < n; ++i) {
        got[i] = back[2 * i];
        want[i] = host[3 * i];
    }
    compare("cublasSetVector/GetVector incx 3, 4, 2", got, want, want);
    const int rows = 7, cols = 5, lda = 9, ldb = 8;
    std::vector<float> A = randoms<float>(lda * cols, 12), B(lda * cols, 0.f);
    float* dB;
    CU(cudaMalloc(&dB, ldb * cols * sizeof(float)));
    CK(cublasSetMatrix(rows, cols, sizeof(float), A.data(), lda, dB, ldb));
    CK(cublasGetMatrix(rows, cols, sizeof(float), dB, ldb, B.data(), lda));
    std::vector<float> g, w;
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i) {
            g.push_back(B[i + j * lda]);
            w.push_back(A[i + j * lda]);
        }
    compare("cublasSetMatrix/GetMatrix 7x5, lda 9, ldb 8", g, w, w);
    cudaFree(d);
    cudaFree(dB);
}

// The handle's stream: a gemv into a stream being captured is not run but becomes a node of the
// graph; launching the graph computes it. And after an event: the stream waits for an event
// recorded on another stream after a write of x, and the gemv sees the new x.
static void testStream(cublasHandle_t h) {
    cudaStream_t s, other;
    CU(cudaStreamCreate(&s));
    CU(cudaStreamCreate(&other));
    CK(cublasSetStream(h, s));
    cudaStream_t got = nullptr;
    CK(cublasGetStream(h, &got));
    printf("%s cublasGetStream gives the stream set\n", got == s ? "ok  " : "FAIL");
    if (got != s) ++failures;

    const int m = 64, n = 32;
    std::vector<double> A = randoms<double>(m * n, 13), x = randoms<double>(n, 14), y(m, 0.0);
    double *dA = toDevice(A), *dx = toDevice(x), *dy = toDevice(y);
    const double one = 1, zero = 0;
    CU(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CK(cublasDgemv(h, CUBLAS_OP_N, m, n, &one, dA, m, dx, 1, &zero, dy, 1));
    cudaGraph_t graph;
    CU(cudaStreamEndCapture(s, &graph));
    size_t nodes = 0;
    CU(cudaGraphGetNodes(graph, nullptr, &nodes));
    std::vector<double> before = toHost(dy, m);
    bool untouched = true;
    for (double v : before) untouched = untouched && v == 0.0;
    printf("%s a gemv captured in the handle's stream: %zu graph node(s), y untouched before the graph runs\n", nodes >= 1 && untouched ? "ok  " : "FAIL", nodes);
    if (nodes < 1 || !untouched) ++failures;
    cudaGraphExec_t exec;
    CU(cudaGraphInstantiate(&exec, graph, 0));
    CU(cudaGraphLaunch(exec, s));
    CU(cudaStreamSynchronize(s));
    std::vector<double> want(m, 0.0), scale(m, 0.0);
    refGemv(false, m, n, 1.0, A, m, x, 1, 0.0, want, 1, scale);
    compare("Dgemv through the captured graph", toHost(dy, m), want, scale);

    // After an event: x is rewritten on another stream, the handle's stream waits for it.
    std::vector<double> x2 = randoms<double>(n, 15);
    double* dx2 = toDevice(x2);
    cudaEvent_t written;
    CU(cudaEventCreate(&written));
    CU(cudaMemcpyAsync(dx, dx2, n * sizeof(double), cudaMemcpyDeviceToDevice, other));
    CU(cudaEventRecord(written, other));
    CU(cudaStreamWaitEvent(s, written, 0));
    CK(cublasDgemv(h, CUBLAS_OP_N, m, n, &one, dA, m, dx, 1, &zero, dy, 1));
    CU(cudaStreamSynchronize(s));
    want.assign(m, 0.0);
    refGemv(false, m, n, 1.0, A, m, x2, 1, 0.0, want, 1, scale);
    compare("Dgemv in the handle's stream after an event", toHost(dy, m), want, scale);
    CK(cublasSetStream(h, nullptr));
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaEventDestroy(written);
    cudaFree(dA);
    cudaFree(dx);
    cudaFree(dx2);
    cudaFree(dy);
    cudaStreamDestroy(s);
    cudaStreamDestroy(other);
}

int main() {
    cublasHandle_t h;
    CK(cublasCreate(&h));
    int version = 0;
    CK(cublasGetVersion(h, &version));
    printf("cuBLAS version %d%s\n", version, kExact ? " (warpscope's subset)" : "");
    for (bool trans : {false, true}) {
        testGemv<float>(h, "S", trans, 1, 1, 0.25f);
        testGemv<double>(h, "D", trans, 1, 1, 0.25);
        testGemv<float>(h, "S", trans, 2, -2, 0.0f);
        testGemv<double>(h, "D", trans, -3, 2, 0.0);
    }
    for (bool ta : {false, true})
        for (bool tb : {false, true}) {
            testGemm<float>(h, "S", ta, tb);
            testGemm<double>(h, "D", ta, tb);
        }
    testLevel1<float>(h, "S");
    testLevel1<double>(h, "D");
    testCopies();
    testStream(h);
    CK(cublasDestroy(h));
    printf("cublas routines: %d failures\n", failures);
    return failures;
}
