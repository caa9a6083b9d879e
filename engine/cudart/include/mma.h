// warpscope: half, bfloat16 and nvcuda::wmma for whole programs (host and device code): see
// warpscope_tensor.h, written beside these headers with the prelude.
#pragma once
#include "warpscope_tensor.h"
