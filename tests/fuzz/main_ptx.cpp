// libFuzzer entry point for the ptx target (see targets.hpp).
#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    wsfuzz::ptx(data, size);
    return 0;
}
