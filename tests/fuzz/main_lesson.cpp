// libFuzzer entry point for the lesson target (see targets.hpp).
#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    wsfuzz::lesson(data, size);
    return 0;
}
