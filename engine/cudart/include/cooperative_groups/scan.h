// warpscope's CUDA headers: the tile scans live in reduce.h beside the operators they share.
#pragma once
#include "reduce.h"
