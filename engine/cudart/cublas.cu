// warpscope's cuBLAS subset (include/cublas_api.h, cublas_v2.h; docs/whole-programs.md, "cuBLAS").
//
// This file is compiled into a learner's program like one of the program's own .cu files (the
// same two clang passes, cudart/build.cpp) whenever a source includes <cublas_v2.h> or
// <cublas_api.h>, or the command line has -lcublas. So every routine's device work
// is a real kernel of the program's module, launched through the runtime into the handle's
// stream: it is on the timeline, can be paused and stepped, and what it computes is what the
// simulated GPU computes. Nothing here needs a CUDA toolkit.
//
// The kernels are written to be read, not to be fast: one thread per output element, each sum in
// a fixed order with fma, so a host reference that does the same fmas in the same order gets the
// same bits (tests/programs/cublas_*.cu). Column-major storage throughout, as in cuBLAS: element
// (i, j) of a matrix with leading dimension ld is at [i + j * ld]; element i of a vector of n
// elements with increment inc is at [i * inc] (inc > 0) or [(i + 1 - n) * inc] (inc < 0).
//
// Sections: 1. kernels  2. handles  3. helpers, copies  4. Level 1  5. Level 2  6. Level 3
//           7. declared, not supported
#include "cublas_api.h"

#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <type_traits>

// ---------------------------------------------------------------- 1. kernels
namespace {

__device__ inline long long wsVecAt(int i, int n, int inc) { return inc > 0 ? (long long)i * inc : (long long)(i + 1 - n) * inc; }
__device__ inline float wsFma(float a, float b, float c) { return fmaf(a, b, c); }
__device__ inline double wsFma(double a, double b, double c) { return fma(a, b, c); }
// A scalar by value (CUBLAS_POINTER_MODE_HOST: read on the host when the routine was called) or
// from device memory (CUBLAS_POINTER_MODE_DEVICE: read by the kernel).
template <typename T> __device__ inline T wsScalar(T value, const T* devicePtr) { return devicePtr ? *devicePtr : value; }

// y = alpha * A * x + beta * y: thread i computes row i (the threads of a warp read consecutive
// elements of each column of A: coalesced).
template <typename T>
__device__ void gemvN(int m, int n, T alpha, const T* alphaPtr, const T* A, int lda, const T* x, int incx, T beta, const T* betaPtr, T* y, int incy) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    const T a = wsScalar(alpha, alphaPtr), b = wsScalar(beta, betaPtr);
    T sum = 0;
    if (a != T(0))
        for (int j = 0; j < n; ++j) sum = wsFma(A[i + (long long)j * lda], x[wsVecAt(j, n, incx)], sum);
    T* yi = &y[wsVecAt(i, m, incy)];
    T r = a * sum;
    if (b != T(0)) r = wsFma(b, *yi, r);   // beta == 0: y is not read (it may hold NaN)
    *yi = r;
}

// y = alpha * A^T * x + beta * y: thread j computes element j from column j of A (each thread
// reads its own column: the warp's reads are lda elements apart).
template <typename T>
__device__ void gemvT(int m, int n, T alpha, const T* alphaPtr, const T* A, int lda, const T* x, int incx, T beta, const T* betaPtr, T* y, int incy) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n) return;
    const T a = wsScalar(alpha, alphaPtr), b = wsScalar(beta, betaPtr);
    T sum = 0;
    if (a != T(0))
        for (int i = 0; i < m; ++i) sum = wsFma(A[i + (long long)j * lda], x[wsVecAt(i, m, incx)], sum);
    T* yj = &y[wsVecAt(j, n, incy)];
    T r = a * sum;
    if (b != T(0)) r = wsFma(b, *yj, r);
    *yj = r;
}

// C = alpha * op(A) * op(B) + beta * C: thread (i, j) computes C(i, j), summing over l in order.
template <typename T>
__device__ void gemm(int transa, int transb, int m, int n, int k, T alpha, const T* alphaPtr, const T* A, int lda, const T* B, int ldb, T beta,
                     const T* betaPtr, T* C, int ldc) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= m || j >= n) return;
    const T a = wsScalar(alpha, alphaPtr), b = wsScalar(beta, betaPtr);
    T sum = 0;
    if (a != T(0))
        for (int l = 0; l < k; ++l) {
            const T aIL = transa == 0 ? A[i + (long long)l * lda] : A[l + (long long)i * lda];
            const T bLJ = transb == 0 ? B[l + (long long)j * ldb] : B[j + (long long)l * ldb];
            sum = wsFma(aIL, bLJ, sum);
        }
    T* c = &C[i + (long long)j * ldc];
    T r = a * sum;
    if (b != T(0)) r = wsFma(b, *c, r);
    *c = r;
}

template <typename T> __device__ void axpy(int n, T alpha, const T* alphaPtr, const T* x, int incx, T* y, int incy) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const T a = wsScalar(alpha, alphaPtr);
    T* yi = &y[wsVecAt(i, n, incy)];
    *yi = wsFma(a, x[wsVecAt(i, n, incx)], *yi);
}

template <typename T> __device__ void scal(int n, T alpha, const T* alphaPtr, T* x, int incx) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    x[(long long)i * incx] *= wsScalar(alpha, alphaPtr);
}

// One block of 256 threads: thread t sums elements t, t + 256, t + 512, ... in order (fma), then
// the 256 partial sums are added pairwise in shared memory (t += t + 128, then t + 64, ... t + 1).
template <typename T> __device__ void dot(int n, const T* x, int incx, const T* y, int incy, T* result) {
    __shared__ T partial[256];
    const int t = threadIdx.x;
    T sum = 0;
    for (int i = t; i < n; i += 256) sum = wsFma(x[wsVecAt(i, n, incx)], y[wsVecAt(i, n, incy)], sum);
    partial[t] = sum;
    __syncthreads();
    for (int s = 128; s > 0; s /= 2) {
        if (t < s) partial[t] += partial[t + s];
        __syncthreads();
    }
    if (t == 0) *result = partial[0];
}

} // namespace

// The kernels by the names a learner sees on the timeline and in the stepping panels.
extern "C" __global__ void cublas_sgemv_n(int m, int n, float alpha, const float* alphaPtr, const float* A, int lda, const float* x, int incx,
                                          float beta, const float* betaPtr, float* y, int incy) {
    gemvN(m, n, alpha, alphaPtr, A, lda, x, incx, beta, betaPtr, y, incy);
}
extern "C" __global__ void cublas_dgemv_n(int m, int n, double alpha, const double* alphaPtr, const double* A, int lda, const double* x, int incx,
                                          double beta, const double* betaPtr, double* y, int incy) {
    gemvN(m, n, alpha, alphaPtr, A, lda, x, incx, beta, betaPtr, y, incy);
}
extern "C" __global__ void cublas_sgemv_t(int m, int n, float alpha, const float* alphaPtr, const float* A, int lda, const float* x, int incx,
                                          float beta, const float* betaPtr, float* y, int incy) {
    gemvT(m, n, alpha, alphaPtr, A, lda, x, incx, beta, betaPtr, y, incy);
}
extern "C" __global__ void cublas_dgemv_t(int m, int n, double alpha, const double* alphaPtr, const double* A, int lda, const double* x, int incx,
                                          double beta, const double* betaPtr, double* y, int incy) {
    gemvT(m, n, alpha, alphaPtr, A, lda, x, incx, beta, betaPtr, y, incy);
}
extern "C" __global__ void cublas_sgemm(int transa, int transb, int m, int n, int k, float alpha, const float* alphaPtr, const float* A, int lda,
                                        const float* B, int ldb, float beta, const float* betaPtr, float* C, int ldc) {
    gemm(transa, transb, m, n, k, alpha, alphaPtr, A, lda, B, ldb, beta, betaPtr, C, ldc);
}
extern "C" __global__ void cublas_dgemm(int transa, int transb, int m, int n, int k, double alpha, const double* alphaPtr, const double* A, int lda,
                                        const double* B, int ldb, double beta, const double* betaPtr, double* C, int ldc) {
    gemm(transa, transb, m, n, k, alpha, alphaPtr, A, lda, B, ldb, beta, betaPtr, C, ldc);
}
extern "C" __global__ void cublas_saxpy(int n, float alpha, const float* alphaPtr, const float* x, int incx, float* y, int incy) {
    axpy(n, alpha, alphaPtr, x, incx, y, incy);
}
extern "C" __global__ void cublas_daxpy(int n, double alpha, const double* alphaPtr, const double* x, int incx, double* y, int incy) {
    axpy(n, alpha, alphaPtr, x, incx, y, incy);
}
extern "C" __global__ void cublas_sscal(int n, float alpha, const float* alphaPtr, float* x, int incx) { scal(n, alpha, alphaPtr, x, incx); }
extern "C" __global__ void cublas_dscal(int n, double alpha, const double* alphaPtr, double* x, int incx) { scal(n, alpha, alphaPtr, x, incx); }
extern "C" __global__ void cublas_sdot(int n, const float* x, int incx, const float* y, int incy, float* result) { dot(n, x, incx, y, incy, result); }
extern "C" __global__ void cublas_ddot(int n, const double* x, int incx, const double* y, int incy, double* result) { dot(n, x, incx, y, incy, result); }

// ---------------------------------------------------------------- 2. handles
struct cublasContext {
    cudaStream_t stream = nullptr;
    cublasPointerMode_t pointerMode = CUBLAS_POINTER_MODE_HOST;
    cublasMath_t mathMode = CUBLAS_DEFAULT_MATH;
    cublasAtomicsMode_t atomicsMode = CUBLAS_ATOMICS_NOT_ALLOWED;
    void* scratch = nullptr;   // 8 bytes of device memory: dot's result in CUBLAS_POINTER_MODE_HOST
};

namespace {

// Handles are checked against the live ones (threads may create and use handles in parallel), so
// a null, destroyed or made-up handle is CUBLAS_STATUS_NOT_INITIALIZED, never a crash.
std::mutex& handleMutex() {
    static std::mutex* m = new std::mutex;
    return *m;
}
std::set<cublasHandle_t>& liveHandles() {
    static std::set<cublasHandle_t>* s = new std::set<cublasHandle_t>;
    return *s;
}
bool live(cublasHandle_t h) {
    std::lock_guard<std::mutex> lock(handleMutex());
    return h && liveHandles().count(h);
}

cublasStatus_t notSupported(const char* call) {
    static std::set<std::string>* said = new std::set<std::string>;
    std::lock_guard<std::mutex> lock(handleMutex());
    if (said->insert(call).second)
        std::fprintf(stderr, "warpscope: %s is not in warpscope's cuBLAS subset (docs/whole-programs.md, \"cuBLAS\"); it returns CUBLAS_STATUS_NOT_SUPPORTED\n", call);
    return CUBLAS_STATUS_NOT_SUPPORTED;
}

} // namespace

extern "C" {

cublasStatus_t cublasCreate_v2(cublasHandle_t* handle) {
    if (!handle) return CUBLAS_STATUS_INVALID_VALUE;
    cublasContext* h = new cublasContext;
    if (cudaMalloc(&h->scratch, sizeof(double)) != cudaSuccess) {
        delete h;
        *handle = nullptr;
        return CUBLAS_STATUS_NOT_INITIALIZED;   // as cuBLAS: the CUDA runtime could not be set up
    }
    std::lock_guard<std::mutex> lock(handleMutex());
    liveHandles().insert(h);
    *handle = h;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
    {
        std::lock_guard<std::mutex> lock(handleMutex());
        if (!handle || !liveHandles().erase(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    }
    cudaFree(handle->scratch);
    delete handle;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetVersion_v2(cublasHandle_t handle, int* version) {
    if (!live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!version) return CUBLAS_STATUS_INVALID_VALUE;
    *version = CUBLAS_VERSION;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetProperty(int type, int* value) {
    if (!value) return CUBLAS_STATUS_INVALID_VALUE;
    switch (type) {
    case 0: *value = CUBLAS_VER_MAJOR; return CUBLAS_STATUS_SUCCESS;
    case 1: *value = CUBLAS_VER_MINOR; return CUBLAS_STATUS_SUCCESS;
    case 2: *value = CUBLAS_VER_PATCH; return CUBLAS_STATUS_SUCCESS;
    default: return CUBLAS_STATUS_INVALID_VALUE;
    }
}

const char* cublasGetStatusName(cublasStatus_t status) {
    switch (status) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
    }
    return "CUBLAS_STATUS_UNKNOWN";
}

const char* cublasGetStatusString(cublasStatus_t status) {
    switch (status) {
    case CUBLAS_STATUS_SUCCESS: return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "the handle was not initialized (cublasCreate) or was destroyed";
    case CUBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
    case CUBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "an absent device architectural feature is required";
    case CUBLAS_STATUS_MAPPING_ERROR: return "an access to GPU memory space failed";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "the GPU program failed to execute";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "an internal operation failed";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "the functionality requested is not supported";
    case CUBLAS_STATUS_LICENSE_ERROR: return "there is an error with the license";
    }
    return "unknown error";
}

cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t streamId) {
    if (!live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    // A stream that is not live is refused, as a launch into it would be.
    if (streamId && cudaStreamQuery(streamId) == cudaErrorInvalidResourceHandle) {
        cudaGetLastError();
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    handle->stream = streamId;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t* streamId) {
    if (!live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!streamId) return CUBLAS_STATUS_INVALID_VALUE;
    *streamId = handle->stream;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode) {
    if (!live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE) return CUBLAS_STATUS_INVALID_VALUE;
    handle->pointerMode = mode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t* mode) {
    if (!live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!mode) return CUBLAS_STATUS_INVALID_VALUE;
    *mode = handle->pointerMode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode) {
    if (!live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    const int base = mode & ~CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION;
    if (base < CUBLAS_DEFAULT_MATH || base > CUBLAS_TF32_TENSOR_OP_MATH) return CUBLAS_STATUS_INVALID_VALUE;
    handle->mathMode = mode;   // kept and given back; the kernels are the same in every mode
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t* mode) {
    if (!live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!mode) return CUBLAS_STATUS_INVALID_VALUE;
    *mode = handle->mathMode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetAtomicsMode(cublasHandle_t handle, cublasAtomicsMode_t mode) {
    if (!live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (mode != CUBLAS_ATOMICS_NOT_ALLOWED && mode != CUBLAS_ATOMICS_ALLOWED) return CUBLAS_STATUS_INVALID_VALUE;
    handle->atomicsMode = mode;   // no kernel here uses atomics either way
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetAtomicsMode(cublasHandle_t handle, cublasAtomicsMode_t* mode) {
    if (!live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!mode) return CUBLAS_STATUS_INVALID_VALUE;
    *mode = handle->atomicsMode;
    return CUBLAS_STATUS_SUCCESS;
}

} // extern "C"

// ---------------------------------------------------------------- 3. helpers, copies
namespace {

// A launch's outcome: a launch the runtime refused is EXECUTION_FAILED (the runtime has said why
// on stderr); a fault in an earlier kernel is reported by the next synchronising call, as in CUDA.
cublasStatus_t launched() { return cudaGetLastError() == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_EXECUTION_FAILED; }

unsigned blocksFor(int n, unsigned threads) { return (unsigned)((n + threads - 1) / threads); }

// In CUBLAS_POINTER_MODE_HOST a scalar (or dot's result) in device memory would be read (written)
// on the host: NVIDIA's cuBLAS crashes there; here it is INVALID_VALUE, said once on stderr.
bool deviceOnly(const void* p, const char* what) {
    cudaPointerAttributes a;
    const cudaError_t e = cudaPointerGetAttributes(&a, p);
    if (e != cudaSuccess && e != cudaErrorInvalidValue) return false;   // an earlier fault: the call fails anyway
    if (e != cudaSuccess) cudaGetLastError();   // inside the device's range, but no allocation
    if (e == cudaSuccess && a.type != cudaMemoryTypeDevice) return false;
    static bool said = false;
    std::lock_guard<std::mutex> lock(handleMutex());
    if (!said)
        std::fprintf(stderr, "warpscope: cuBLAS: %s points to device memory, but the handle's pointer mode is CUBLAS_POINTER_MODE_HOST "
                             "(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE) for scalars in device memory); the call returns "
                             "CUBLAS_STATUS_INVALID_VALUE\n", what);
    said = true;
    return true;
}

// A scalar argument: in host mode its value (read now) and no pointer; in device mode the pointer.
template <typename T> bool scalarArg(cublasHandle_t h, const T* p, T* value, const T** devicePtr) {
    if (!p) return false;
    if (h->pointerMode == CUBLAS_POINTER_MODE_HOST) {
        if (deviceOnly(p, "a scalar (alpha or beta)")) return false;
        *value = *p;
        *devicePtr = nullptr;
    } else {
        *value = T(0);
        *devicePtr = p;
    }
    return true;
}

cublasStatus_t copyStatus(cudaError_t e) { return e == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_MAPPING_ERROR; }

// Element i of x at x + i * incx * elemSize, to y likewise: one pitched copy (a column of n rows).
cublasStatus_t vectorCopy(int n, int elemSize, const void* x, int incx, void* y, int incy, cudaMemcpyKind kind, bool async, cudaStream_t stream) {
    if (n < 0 || elemSize <= 0 || incx <= 0 || incy <= 0 || !x || !y) return CUBLAS_STATUS_INVALID_VALUE;
    if (n == 0) return CUBLAS_STATUS_SUCCESS;
    const size_t w = (size_t)elemSize;
    return copyStatus(async ? cudaMemcpy2DAsync(y, w * incy, x, w * incx, w, (size_t)n, kind, stream)
                            : cudaMemcpy2D(y, w * incy, x, w * incx, w, (size_t)n, kind));
}

// A rows x cols column-major matrix: cols columns of rows elements, lda and ldb apart.
cublasStatus_t matrixCopy(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb, cudaMemcpyKind kind, bool async,
                          cudaStream_t stream) {
    // As cuBLAS 13.1 does on the H100 (tests/programs/cublas_errors.cu): a leading dimension
    // below rows is not INVALID_VALUE but the copy's failure, MAPPING_ERROR.
    if (rows < 0 || cols < 0 || elemSize <= 0 || lda <= 0 || ldb <= 0 || !A || !B) return CUBLAS_STATUS_INVALID_VALUE;
    if (rows == 0 || cols == 0) return CUBLAS_STATUS_SUCCESS;
    if (lda < rows || ldb < rows) return CUBLAS_STATUS_MAPPING_ERROR;
    const size_t w = (size_t)elemSize;
    return copyStatus(async ? cudaMemcpy2DAsync(B, w * ldb, A, w * lda, w * rows, (size_t)cols, kind, stream)
                            : cudaMemcpy2D(B, w * ldb, A, w * lda, w * rows, (size_t)cols, kind));
}

// ---------------------------------------------------------------- 4. Level 1
template <typename T> cublasStatus_t axpyCall(cublasHandle_t h, int n, const T* alpha, const T* x, int incx, T* y, int incy) {
    if (!live(h)) return CUBLAS_STATUS_NOT_INITIALIZED;
    T a;
    const T* aDev;
    if (!scalarArg(h, alpha, &a, &aDev)) return CUBLAS_STATUS_INVALID_VALUE;
    if (n <= 0) return CUBLAS_STATUS_SUCCESS;
    if (incx == 0 || incy == 0) return CUBLAS_STATUS_INVALID_VALUE;
    if constexpr (std::is_same_v<T, float>) cublas_saxpy<<<blocksFor(n, 256), 256, 0, h->stream>>>(n, a, aDev, x, incx, y, incy);
    else cublas_daxpy<<<blocksFor(n, 256), 256, 0, h->stream>>>(n, a, aDev, x, incx, y, incy);
    return launched();
}

template <typename T> cublasStatus_t scalCall(cublasHandle_t h, int n, const T* alpha, T* x, int incx) {
    if (!live(h)) return CUBLAS_STATUS_NOT_INITIALIZED;
    T a;
    const T* aDev;
    if (!scalarArg(h, alpha, &a, &aDev)) return CUBLAS_STATUS_INVALID_VALUE;
    if (n <= 0 || incx <= 0) return CUBLAS_STATUS_SUCCESS;   // as the reference BLAS: nothing to do
    if constexpr (std::is_same_v<T, float>) cublas_sscal<<<blocksFor(n, 256), 256, 0, h->stream>>>(n, a, aDev, x, incx);
    else cublas_dscal<<<blocksFor(n, 256), 256, 0, h->stream>>>(n, a, aDev, x, incx);
    return launched();
}

// In host pointer mode the result is copied back and the call returns when it is there (it waits
// for the handle's stream); in device mode the kernel writes it to device memory, asynchronously.
template <typename T> cublasStatus_t dotCall(cublasHandle_t h, int n, const T* x, int incx, const T* y, int incy, T* result) {
    if (!live(h)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!result) return CUBLAS_STATUS_INVALID_VALUE;
    if (n > 0 && (incx == 0 || incy == 0)) return CUBLAS_STATUS_INVALID_VALUE;
    const bool host = h->pointerMode == CUBLAS_POINTER_MODE_HOST;
    if (host && deviceOnly(result, "dot's result")) return CUBLAS_STATUS_INVALID_VALUE;
    T* out = host ? static_cast<T*>(h->scratch) : result;
    if (n <= 0) {   // the sum of nothing
        if (host) {
            *result = T(0);
            return CUBLAS_STATUS_SUCCESS;
        }
        return copyStatus(cudaMemsetAsync(result, 0, sizeof(T), h->stream));
    }
    if constexpr (std::is_same_v<T, float>) cublas_sdot<<<1, 256, 0, h->stream>>>(n, x, incx, y, incy, out);
    else cublas_ddot<<<1, 256, 0, h->stream>>>(n, x, incx, y, incy, out);
    const cublasStatus_t s = launched();
    if (s != CUBLAS_STATUS_SUCCESS || !host) return s;
    if (cudaMemcpyAsync(result, out, sizeof(T), cudaMemcpyDeviceToHost, h->stream) != cudaSuccess) return CUBLAS_STATUS_EXECUTION_FAILED;
    return cudaStreamSynchronize(h->stream) == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_EXECUTION_FAILED;
}

// ---------------------------------------------------------------- 5. Level 2
bool isOp(cublasOperation_t op) { return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C; }

template <typename T>
cublasStatus_t gemvCall(cublasHandle_t h, cublasOperation_t trans, int m, int n, const T* alpha, const T* A, int lda, const T* x, int incx,
                        const T* beta, T* y, int incy) {
    if (!live(h)) return CUBLAS_STATUS_NOT_INITIALIZED;
    // As the cuBLAS documentation says. (cuBLAS 13.1 on the H100 returns SUCCESS, doing nothing,
    // for a bad trans, m < 0, n < 0 or an increment of 0, and INVALID_VALUE for lda < m.)
    if (!isOp(trans) || m < 0 || n < 0 || lda < (m > 1 ? m : 1) || incx == 0 || incy == 0) return CUBLAS_STATUS_INVALID_VALUE;
    T a, b;
    const T *aDev, *bDev;
    if (!scalarArg(h, alpha, &a, &aDev) || !scalarArg(h, beta, &b, &bDev)) return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
    // CUBLAS_OP_C is CUBLAS_OP_T for real matrices.
    const bool n_ = trans == CUBLAS_OP_N;
    const int rows = n_ ? m : n;   // the length of y: one thread each
    const unsigned g = blocksFor(rows, 128);
    if constexpr (std::is_same_v<T, float>) {
        if (n_) cublas_sgemv_n<<<g, 128, 0, h->stream>>>(m, n, a, aDev, A, lda, x, incx, b, bDev, y, incy);
        else cublas_sgemv_t<<<g, 128, 0, h->stream>>>(m, n, a, aDev, A, lda, x, incx, b, bDev, y, incy);
    } else {
        if (n_) cublas_dgemv_n<<<g, 128, 0, h->stream>>>(m, n, a, aDev, A, lda, x, incx, b, bDev, y, incy);
        else cublas_dgemv_t<<<g, 128, 0, h->stream>>>(m, n, a, aDev, A, lda, x, incx, b, bDev, y, incy);
    }
    return launched();
}

// ---------------------------------------------------------------- 6. Level 3
template <typename T>
cublasStatus_t gemmCall(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const T* alpha, const T* A, int lda,
                        const T* B, int ldb, const T* beta, T* C, int ldc) {
    if (!live(h)) return CUBLAS_STATUS_NOT_INITIALIZED;
    const int rowsA = transa == CUBLAS_OP_N ? m : k, rowsB = transb == CUBLAS_OP_N ? k : n;
    // The first bad parameter, numbered as cuBLAS's message numbers them (transa is 1).
    const int bad = !isOp(transa) ? 1 : !isOp(transb) ? 2 : m < 0 ? 3 : n < 0 ? 4 : k < 0 ? 5 : lda < (rowsA > 1 ? rowsA : 1) ? 8
                  : ldb < (rowsB > 1 ? rowsB : 1) ? 10 : ldc < (m > 1 ? m : 1) ? 13 : 0;
    if (bad) {
        std::fprintf(stderr, " ** On entry to %cGEMM  parameter number %d had an illegal value\n", sizeof(T) == 4 ? 'S' : 'D', bad);
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    T a, b;
    const T *aDev, *bDev;
    if (!scalarArg(h, alpha, &a, &aDev) || !scalarArg(h, beta, &b, &bDev)) return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
    const dim3 block(16, 16), grid(blocksFor(m, 16), blocksFor(n, 16));
    const int ta = transa == CUBLAS_OP_N ? 0 : 1, tb = transb == CUBLAS_OP_N ? 0 : 1;
    if constexpr (std::is_same_v<T, float>) cublas_sgemm<<<grid, block, 0, h->stream>>>(ta, tb, m, n, k, a, aDev, A, lda, B, ldb, b, bDev, C, ldc);
    else cublas_dgemm<<<grid, block, 0, h->stream>>>(ta, tb, m, n, k, a, aDev, A, lda, B, ldb, b, bDev, C, ldc);
    return launched();
}

} // namespace

extern "C" {

cublasStatus_t cublasSetVector(int n, int elemSize, const void* x, int incx, void* y, int incy) {
    return vectorCopy(n, elemSize, x, incx, y, incy, cudaMemcpyHostToDevice, false, nullptr);
}
cublasStatus_t cublasGetVector(int n, int elemSize, const void* x, int incx, void* y, int incy) {
    return vectorCopy(n, elemSize, x, incx, y, incy, cudaMemcpyDeviceToHost, false, nullptr);
}
cublasStatus_t cublasSetMatrix(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb) {
    return matrixCopy(rows, cols, elemSize, A, lda, B, ldb, cudaMemcpyHostToDevice, false, nullptr);
}
cublasStatus_t cublasGetMatrix(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb) {
    return matrixCopy(rows, cols, elemSize, A, lda, B, ldb, cudaMemcpyDeviceToHost, false, nullptr);
}
cublasStatus_t cublasSetVectorAsync(int n, int elemSize, const void* hostPtr, int incx, void* devicePtr, int incy, cudaStream_t stream) {
    return vectorCopy(n, elemSize, hostPtr, incx, devicePtr, incy, cudaMemcpyHostToDevice, true, stream);
}
cublasStatus_t cublasGetVectorAsync(int n, int elemSize, const void* devicePtr, int incx, void* hostPtr, int incy, cudaStream_t stream) {
    return vectorCopy(n, elemSize, devicePtr, incx, hostPtr, incy, cudaMemcpyDeviceToHost, true, stream);
}
cublasStatus_t cublasSetMatrixAsync(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb, cudaStream_t stream) {
    return matrixCopy(rows, cols, elemSize, A, lda, B, ldb, cudaMemcpyHostToDevice, true, stream);
}
cublasStatus_t cublasGetMatrixAsync(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb, cudaStream_t stream) {
    return matrixCopy(rows, cols, elemSize, A, lda, B, ldb, cudaMemcpyDeviceToHost, true, stream);
}

cublasStatus_t cublasSaxpy_v2(cublasHandle_t h, int n, const float* alpha, const float* x, int incx, float* y, int incy) {
    return axpyCall(h, n, alpha, x, incx, y, incy);
}
cublasStatus_t cublasDaxpy_v2(cublasHandle_t h, int n, const double* alpha, const double* x, int incx, double* y, int incy) {
    return axpyCall(h, n, alpha, x, incx, y, incy);
}
cublasStatus_t cublasSdot_v2(cublasHandle_t h, int n, const float* x, int incx, const float* y, int incy, float* result) {
    return dotCall(h, n, x, incx, y, incy, result);
}
cublasStatus_t cublasDdot_v2(cublasHandle_t h, int n, const double* x, int incx, const double* y, int incy, double* result) {
    return dotCall(h, n, x, incx, y, incy, result);
}
cublasStatus_t cublasSscal_v2(cublasHandle_t h, int n, const float* alpha, float* x, int incx) { return scalCall(h, n, alpha, x, incx); }
cublasStatus_t cublasDscal_v2(cublasHandle_t h, int n, const double* alpha, double* x, int incx) { return scalCall(h, n, alpha, x, incx); }

cublasStatus_t cublasSgemv_v2(cublasHandle_t h, cublasOperation_t trans, int m, int n, const float* alpha, const float* A, int lda, const float* x,
                              int incx, const float* beta, float* y, int incy) {
    return gemvCall(h, trans, m, n, alpha, A, lda, x, incx, beta, y, incy);
}
cublasStatus_t cublasDgemv_v2(cublasHandle_t h, cublasOperation_t trans, int m, int n, const double* alpha, const double* A, int lda, const double* x,
                              int incx, const double* beta, double* y, int incy) {
    return gemvCall(h, trans, m, n, alpha, A, lda, x, incx, beta, y, incy);
}
cublasStatus_t cublasSgemm_v2(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const float* alpha,
                              const float* A, int lda, const float* B, int ldb, const float* beta, float* C, int ldc) {
    return gemmCall(h, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
cublasStatus_t cublasDgemm_v2(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const double* alpha,
                              const double* A, int lda, const double* B, int ldb, const double* beta, double* C, int ldc) {
    return gemmCall(h, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

// ---------------------------------------------------------------- 7. declared, not supported
cublasStatus_t cublasSnrm2_v2(cublasHandle_t, int, const float*, int, float*) { return notSupported("cublasSnrm2"); }
cublasStatus_t cublasDnrm2_v2(cublasHandle_t, int, const double*, int, double*) { return notSupported("cublasDnrm2"); }
cublasStatus_t cublasSasum_v2(cublasHandle_t, int, const float*, int, float*) { return notSupported("cublasSasum"); }
cublasStatus_t cublasDasum_v2(cublasHandle_t, int, const double*, int, double*) { return notSupported("cublasDasum"); }
cublasStatus_t cublasIsamax_v2(cublasHandle_t, int, const float*, int, int*) { return notSupported("cublasIsamax"); }
cublasStatus_t cublasIdamax_v2(cublasHandle_t, int, const double*, int, int*) { return notSupported("cublasIdamax"); }
cublasStatus_t cublasScopy_v2(cublasHandle_t, int, const float*, int, float*, int) { return notSupported("cublasScopy"); }
cublasStatus_t cublasDcopy_v2(cublasHandle_t, int, const double*, int, double*, int) { return notSupported("cublasDcopy"); }
cublasStatus_t cublasSger_v2(cublasHandle_t, int, int, const float*, const float*, int, const float*, int, float*, int) { return notSupported("cublasSger"); }
cublasStatus_t cublasDger_v2(cublasHandle_t, int, int, const double*, const double*, int, const double*, int, double*, int) { return notSupported("cublasDger"); }
cublasStatus_t cublasSgeam(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, const float*, const float*, int, const float*, const float*,
                           int, float*, int) {
    return notSupported("cublasSgeam");
}
cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const float*, const float*, int, long long,
                                         const float*, int, long long, const float*, float*, int, long long, int) {
    return notSupported("cublasSgemmStridedBatched");
}
cublasStatus_t cublasSgemmBatched(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const float*, const float* const[], int,
                                  const float* const[], int, const float*, float* const[], int, int) {
    return notSupported("cublasSgemmBatched");
}

} // extern "C"
