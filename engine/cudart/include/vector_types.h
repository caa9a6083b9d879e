// warpscope's CUDA host headers: dim3 and the vector types (char1 ... double4). They are the
// device prelude's (warpscope_cuda.h), so host and device code agree on their layout.
#pragma once
#define __VECTOR_TYPES_H__
#ifndef __WARPSCOPE_WHOLE_PROGRAM__
#define __WARPSCOPE_WHOLE_PROGRAM__ 1
#endif
#include "warpscope_cuda.h"
