// A helper header in the style of the CUDA samples' Common/ folder (passed with -I): what it
// defines depends on CUDA's include guards, as the samples' helper_cuda.h does.
#pragma once
#include <cstdio>
#include <cstdlib>

#ifdef __DRIVER_TYPES_H__
#define CHECK(call) check((call), #call, __FILE__, __LINE__)
inline void check(cudaError_t e, const char* what, const char* file, int line) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\"\n", file, line, int(e), cudaGetErrorName(e), what);
        std::exit(EXIT_FAILURE);
    }
}
#endif

#ifdef __CUDA_RUNTIME_H__
// Picks the device as the samples do: compute mode, then SMs times clock.
inline int pickDevice() {
    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    int best = -1;
    long long bestScore = -1;
    for (int d = 0; d < count; ++d) {
        int mode = -1, sms = 0, clock = 0, major = 0;
        CHECK(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, d));
        CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d));
        CHECK(cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, d));
        CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, d));
        if (mode == cudaComputeModeProhibited || major < 7) continue;
        if ((long long)sms * clock > bestScore) {
            bestScore = (long long)sms * clock;
            best = d;
        }
    }
    CHECK(cudaSetDevice(best));
    return best;
}
#endif

#define SHADOWED_BY 0   // common/shadow.h: the program's own folder has a shadow.h that wins
