// libFuzzer entry point for the cuda target (see targets.hpp): each input is one clang compile.
#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    wsfuzz::cuda(data, size);
    return 0;
}
