// Asks for 100 GB of host memory: the sandbox's address-space limit refuses it and stops the
// program with a message naming the limit.
#include <cstdio>
#include <cstdlib>

int main() {
    std::printf("allocating 100 GB\n");
    const size_t n = size_t(100) << 30;
    char* p = static_cast<char*>(std::malloc(n));
    if (!p) {
        std::printf("malloc returned NULL\n");
        return 1;
    }
    std::printf("allocated at %p\n", static_cast<void*>(p));   // the pointer escapes: the compiler keeps the allocation
    std::free(p);
    return 0;
}
