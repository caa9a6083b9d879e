// The web build only (engine/CMakeLists.txt, EMSCRIPTEN): C library calls emscripten declares but
// does not define. A page has no child processes; base/sandbox.cpp's Runner refuses to start one
// there (base/web.hpp), so these are never reached with a real process, and say so if they are.
#include <cerrno>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>

extern "C" pid_t wait4(pid_t, int*, int, struct rusage*) {
    errno = ECHILD;
    return -1;
}
