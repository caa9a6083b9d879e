// What the web build (emscripten; docs/web.md) cannot do, said once: a browser page cannot start
// processes, load shared libraries or reach a GPU through CUDA, so the sandbox, the compilers'
// child processes, whole programs' host code and the hardware backend answer with these sentences
// there. On every other build kInBrowser is false and nothing here is used.
#pragma once

namespace warpscope::base {

#ifdef __EMSCRIPTEN__
inline constexpr bool kInBrowser = true;
#else
inline constexpr bool kInBrowser = false;
#endif

inline constexpr const char* kNoProcessesInBrowser =
    "running a program is not available in the browser (a web page cannot start processes); the desktop app and the CLI can";
inline constexpr const char* kNoGpuInBrowser =
    "Run on GPU is not available in the browser (a web page cannot load the NVIDIA driver); the simulator runs every kernel here, "
    "and the desktop app on a machine with an NVIDIA GPU puts the hardware beside it";
inline constexpr const char* kNoHostCodeInBrowser =
    "whole programs (a .cu with a host main) are not available in the browser: their host code is native code built with clang and run "
    "as a process. Open the kernels as a kernel file, or use the desktop app";

} // namespace warpscope::base
