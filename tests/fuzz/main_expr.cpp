// libFuzzer entry point for the expr target (see targets.hpp).
#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    wsfuzz::expr(data, size);
    return 0;
}
