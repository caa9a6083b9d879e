// A program in the style of the CUDA samples: its helpers come from a common folder given with
// -I (tests/programs/sdk_style/common), they test CUDA's include guards, and a header of the same
// name in the program's folder wins over the common one. Also the profiler API, the driver API's
// device queries (cuda.h) and the device's clock.
#include <cuda.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#include <check.h>
#include "shadow.h"

__global__ void spin(long long cycles, long long* took) {
    long long start = clock64();
    while (clock64() - start < cycles) {
    }
    *took = clock64() - start;
}

int main() {
    int dev = pickDevice();
    CHECK(cudaProfilerStart());
    int sms = 0, ccMajor = 0;
    cuInit(0);
    CUdevice cu;
    CUresult r = cuDeviceGet(&cu, dev);
    cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, cu);
    cuDeviceGetAttribute(&ccMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, cu);
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, dev));
    printf("device %d, driver API: %s, SMs agree: %s, major agrees: %s\n", dev, r == CUDA_SUCCESS ? "ok" : "failed",
           sms == p.multiProcessorCount ? "yes" : "no", ccMajor == p.major ? "yes" : "no");
    printf("shadow.h from the %s\n", SHADOW_FROM);
    long long* took;
    CHECK(cudaMalloc(&took, sizeof(long long)));
    spin<<<1, 1>>>(10000, took);
    CHECK(cudaGetLastError());
    long long h = 0;
    CHECK(cudaMemcpy(&h, took, sizeof h, cudaMemcpyDeviceToHost));
    printf("spun at least 10000 clocks: %s\n", h >= 10000 ? "yes" : "no");
    CHECK(cudaProfilerStop());
    CHECK(cudaFree(took));
    // An error through the helper: exits with its message, as the samples' checkCudaErrors does.
    CHECK(cudaSetDevice(7));
    printf("not reached\n");
    return 0;
}
