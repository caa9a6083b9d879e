// cuBLAS's error statuses: a null or destroyed handle, bad sizes, leading dimensions, increments
// and operations, quick returns, and a routine outside warpscope's subset. Each line is the call,
// the status it returned and the status expected; the same program built with nvcc against
// NVIDIA's cuBLAS checks the expectations (the lines marked "warpscope only" are skipped there:
// a destroyed handle is undefined behaviour in cuBLAS, and cuBLAS has the routine).
#include <cublas_v2.h>

#include <cstdio>
#include <cstring>

static int failures = 0;

static void expect(const char* what, cublasStatus_t got, cublasStatus_t want) {
    const bool ok = got == want;
    printf("%s %-60s %s%s%s\n", ok ? "ok  " : "FAIL", what, cublasGetStatusName(got), ok ? "" : ", expected ", ok ? "" : cublasGetStatusName(want));
    if (!ok) ++failures;
}
#define EXPECT(call, want) expect(#call, (call), want)

int main() {
    const cublasStatus_t OK = CUBLAS_STATUS_SUCCESS, BAD = CUBLAS_STATUS_INVALID_VALUE, NOINIT = CUBLAS_STATUS_NOT_INITIALIZED;
    double *A, *x, *y, r = 1;
    cudaMalloc(&A, 64 * 64 * sizeof(double));
    cudaMalloc(&x, 64 * sizeof(double));
    cudaMalloc(&y, 64 * sizeof(double));
    cudaMemset(A, 0, 64 * 64 * sizeof(double));
    cudaMemset(x, 0, 64 * sizeof(double));
    cudaMemset(y, 0, 64 * sizeof(double));
    const double one = 1, zero = 0;
    double hostv[8] = {0};

    EXPECT(cublasCreate(nullptr), BAD);
    cublasHandle_t none = nullptr;
    EXPECT(cublasDgemv(none, CUBLAS_OP_N, 8, 8, &one, A, 8, x, 1, &zero, y, 1), NOINIT);
    EXPECT(cublasDgemm(none, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, &one, A, 8, A, 8, &zero, A, 8), NOINIT);
    EXPECT(cublasDaxpy(none, 8, &one, x, 1, y, 1), NOINIT);
    EXPECT(cublasDdot(none, 8, x, 1, y, 1, &r), NOINIT);
    EXPECT(cublasDscal(none, 8, &one, x, 1), NOINIT);
    EXPECT(cublasSetStream(none, nullptr), NOINIT);
    EXPECT(cublasSetPointerMode(none, CUBLAS_POINTER_MODE_HOST), NOINIT);

    cublasHandle_t h;
    EXPECT(cublasCreate(&h), OK);
    // gemv: y (m) = A (m x n, lda >= m) x (n)
    EXPECT(cublasDgemv(h, CUBLAS_OP_N, 8, 8, &one, A, 7, x, 1, &zero, y, 1), BAD);
    EXPECT(cublasDgemv(h, CUBLAS_OP_T, 8, 8, &one, A, 7, x, 1, &zero, y, 1), BAD);
#ifdef WARPSCOPE_CUBLAS_SUBSET
    // The documentation's INVALID_VALUE; cuBLAS 13.1 on the H100 returns SUCCESS for these (and
    // does nothing), so they are checked on warpscope only.
    EXPECT(cublasDgemv(h, CUBLAS_OP_N, -1, 8, &one, A, 8, x, 1, &zero, y, 1), BAD);
    EXPECT(cublasDgemv(h, CUBLAS_OP_N, 8, -1, &one, A, 8, x, 1, &zero, y, 1), BAD);
    EXPECT(cublasDgemv(h, CUBLAS_OP_N, 8, 8, &one, A, 8, x, 0, &zero, y, 1), BAD);
    EXPECT(cublasDgemv(h, CUBLAS_OP_N, 8, 8, &one, A, 8, x, 1, &zero, y, 0), BAD);
    EXPECT(cublasDgemv(h, (cublasOperation_t)7, 8, 8, &one, A, 8, x, 1, &zero, y, 1), BAD);
#endif
    EXPECT(cublasDgemv(h, CUBLAS_OP_N, 0, 8, &one, A, 1, x, 1, &zero, y, 1), OK);
    EXPECT(cublasDgemv(h, CUBLAS_OP_N, 8, 0, &one, A, 8, x, 1, &zero, y, 1), OK);
    EXPECT(cublasDgemv(h, CUBLAS_OP_C, 8, 8, &one, A, 8, x, 1, &zero, y, 1), OK);
    // gemm: C (m x n, ldc >= m) = op(A) (m x k) op(B) (k x n)
    EXPECT(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, -1, &one, A, 8, A, 8, &zero, A, 8), BAD);
    EXPECT(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 8, 4, 6, &one, A, 7, A, 8, &zero, A, 8), BAD);
    EXPECT(cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, 8, 4, 6, &one, A, 5, A, 8, &zero, A, 8), BAD);
    EXPECT(cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, 8, 4, 6, &one, A, 6, A, 6, &zero, A, 8), OK);
    EXPECT(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 8, 4, 6, &one, A, 8, A, 5, &zero, A, 8), BAD);
    EXPECT(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, 8, 4, 6, &one, A, 8, A, 3, &zero, A, 8), BAD);
    EXPECT(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 8, 4, 6, &one, A, 8, A, 6, &zero, A, 7), BAD);
    EXPECT(cublasDgemm(h, (cublasOperation_t)9, CUBLAS_OP_N, 8, 8, 8, &one, A, 8, A, 8, &zero, A, 8), BAD);
    EXPECT(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 0, 8, 8, &one, A, 1, A, 8, &zero, A, 1), OK);
    // Level 1: nothing to do for n <= 0
    EXPECT(cublasDscal(h, 0, &one, x, 1), OK);
    EXPECT(cublasDaxpy(h, -3, &one, x, 1, y, 1), OK);
    r = 5;
    EXPECT(cublasDdot(h, 0, x, 1, y, 1, &r), OK);
    printf("%s ddot of 0 elements is %g\n", r == 0 ? "ok  " : "FAIL", r);
    if (r != 0) ++failures;
    // Copies
    EXPECT(cublasSetVector(8, sizeof(double), hostv, 0, x, 1), BAD);
    EXPECT(cublasSetVector(8, sizeof(double), hostv, 1, x, -1), BAD);
    EXPECT(cublasSetVector(8, 0, hostv, 1, x, 1), BAD);
    EXPECT(cublasGetVector(8, sizeof(double), x, 1, hostv, 0), BAD);
    // A leading dimension below rows: the copy fails (cuBLAS 13.1 on the H100).
    EXPECT(cublasSetMatrix(8, 2, sizeof(double), hostv, 4, A, 8), CUBLAS_STATUS_MAPPING_ERROR);
    EXPECT(cublasGetMatrix(8, 2, sizeof(double), A, 7, hostv, 8), CUBLAS_STATUS_MAPPING_ERROR);
    EXPECT(cublasSetMatrix(8, 2, sizeof(double), hostv, 0, A, 8), BAD);
    EXPECT(cublasSetMatrix(-1, 2, sizeof(double), hostv, 8, A, 8), BAD);
    // Settings
    EXPECT(cublasSetPointerMode(h, (cublasPointerMode_t)7), BAD);
    EXPECT(cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH), OK);
    cublasMath_t math;
    EXPECT(cublasGetMathMode(h, &math), OK);
    printf("%s cublasGetMathMode gives back the mode set\n", math == CUBLAS_TF32_TENSOR_OP_MATH ? "ok  " : "FAIL");
    if (math != CUBLAS_TF32_TENSOR_OP_MATH) ++failures;
    printf("%s cublasGetStatusString(CUBLAS_STATUS_INVALID_VALUE) = \"%s\"\n", strlen(cublasGetStatusString(BAD)) > 0 ? "ok  " : "FAIL", cublasGetStatusString(BAD));
#ifdef WARPSCOPE_CUBLAS_SUBSET
    printf("warpscope only:\n");
    float f;
    EXPECT(cublasSnrm2(h, 8, (const float*)x, 1, &f), CUBLAS_STATUS_NOT_SUPPORTED);
    EXPECT(cublasSnrm2(h, 8, (const float*)x, 1, &f), CUBLAS_STATUS_NOT_SUPPORTED);   // said once on stderr
    EXPECT(cublasDdot(h, 8, x, 1, y, 1, nullptr), BAD);
    EXPECT(cublasDaxpy(h, 8, nullptr, x, 1, y, 1), BAD);
    // Scalars in device memory with the pointer mode left at HOST (NVIDIA's cuBLAS crashes).
    EXPECT(cublasDscal(h, 8, x, y, 1), BAD);
    EXPECT(cublasDdot(h, 8, x, 1, y, 1, y), BAD);
    EXPECT(cublasDestroy(h), OK);
    EXPECT(cublasDestroy(h), NOINIT);
    EXPECT(cublasDgemv(h, CUBLAS_OP_N, 8, 8, &one, A, 8, x, 1, &zero, y, 1), NOINIT);
#else
    EXPECT(cublasDestroy(h), OK);
#endif
    cudaFree(A);
    cudaFree(x);
    cudaFree(y);
    printf("cublas errors: %d failures\n", failures);
    return failures;
}
