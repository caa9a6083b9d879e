// The single-thread web program only (app/gui/web/web.cmake: warpscope-web-st). Emscripten's
// JavaScript-based exceptions keep "an exception is in flight" in two variables that the compiler
// reads directly, per thread: every object of the web build is compiled with -pthread, where they
// are thread-local. The single-thread program links emscripten's system libraries built without
// threads, whose definitions are ordinary globals: the objects would read the wrong memory and no
// catch clause would match. These definitions (thread-local, as the objects expect) come first, so
// the library's are not linked.
#include <cstdint>

extern "C" {
thread_local uintptr_t __THREW__ = 0;
thread_local int __threwValue = 0;

void setThrew(uintptr_t threw, int value) {
    if (__THREW__ == 0) {
        __THREW__ = threw;
        __threwValue = value;
    }
}
}
