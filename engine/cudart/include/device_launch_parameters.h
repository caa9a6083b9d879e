// warpscope's CUDA host headers: threadIdx, blockIdx, blockDim, gridDim and warpSize come from
// the device prelude (warpscope_cuda.h).
#pragma once
#include "vector_types.h"
