// warpscope's CUDA host headers: the driver API is not part of warpscope's runtime; this header
// gives only the version macro and the runtime API, which is what course programs take from it.
#pragma once
#define CUDA_VERSION 11050
#include "cuda_runtime_api.h"
