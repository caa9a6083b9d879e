// The Common/ copy of a header the program's folder also has: an `#include "shadow.h"` must find
// the program's own, as it does with nvcc (the including file's folder comes first).
#pragma once
#define SHADOW_FROM "common folder"
