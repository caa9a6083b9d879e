// warpscope's CUDA host headers: the profiler control calls. There is no profiler to start or
// stop on the simulator (warpscope records every launch anyway), so both succeed and do nothing.
#pragma once
#define __CUDA_PROFILER_API_H__
#include "cuda_runtime_api.h"
#ifdef __cplusplus
extern "C" {
#endif
cudaError_t cudaProfilerStart(void);
cudaError_t cudaProfilerStop(void);
#ifdef __cplusplus
}
#endif
