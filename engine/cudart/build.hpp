// Building a whole CUDA program (host code and kernels, .cu and .cpp files) into a native
// executable that runs its kernels on the simulator, without a CUDA toolkit: each .cu's kernels
// go to PTX through the compile layer (clang, warpscope's prelude); each file's host code is
// compiled by clang in CUDA host mode against warpscope's CUDA headers (include/), with its PTX
// embedded as the "GPU binary"; the objects are linked with warpscope's CUDA runtime
// (runtime.cpp) and the engine. Builds are cached by content (compile::cacheDir()/programs).
#pragma once
#include "compile/compile.hpp"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace warpscope::cudart {

struct BuildOptions {
    std::vector<std::string> sources;       // .cu (host and device code) and .cpp/.cc/.c (host code)
    std::vector<std::string> includeDirs;   // -I
    std::vector<std::string> defines;       // -D NAME or NAME=VALUE
    std::string output;                     // copy the executable here (empty: only the cache)
    double timeoutSeconds = 120;            // per compiler or linker run
    bool useCache = true;
    bool cublas = false;                    // -lcublas: link the cuBLAS subset (also when a source includes it)
};

struct BuildResult {
    bool ok = false;
    std::string executable;                          // the built program (in the cache, or `output`)
    std::vector<compile::Diagnostic> diagnostics;    // file:line:col, from the pass that failed
    std::string error;                               // why, when there are no diagnostics to show
    std::string log;                                 // the commands and the tools' output
    bool cached = false;
};

BuildResult buildProgram(const BuildOptions& options);

// The same program for the real GPU (gpu_build.cpp): the sources, -I and -D built by the CUDA
// toolkit's nvcc (-arch=native) into a native executable, linked with a launch timer that writes
// each kernel launch's GPU time (CUDA events) as a JSON line to $WARPSCOPE_GPU_LAUNCHES. Not
// cached. Without `output` the executable is in a private folder the caller removes
// (its parent folder).
BuildResult buildProgramForGpu(const BuildOptions& options);
// nvcc's path ($WARPSCOPE_NVCC, else the compile layer's search), or "" when there is none.
std::string findNvcc();
// The launch timer's source (for tests).
const char* launchTimerSource();

// warpscope's CUDA host headers as built into the binary: (file name, text).
const std::vector<std::pair<std::string, std::string_view>>& hostHeaders();
// warpscope's cuBLAS subset (engine/cudart/cublas.cu), compiled into a program that uses cuBLAS.
std::string_view cublasSourceText();

// A file name that is a whole program's source (.cu, .cpp, .cc, .cxx, .c).
bool isProgramSource(const std::string& path);
// The text of one of a program's sources into `text`; false, with `error` saying why, when it
// does not exist, is not a source file warpscope builds or cannot be read.
bool readProgramSource(const std::string& path, std::string& text, std::string& error);

// Source text with host code: a main function outside comments, strings and character literals
// (the app opens such a .cu as a whole program; `warpscope grade` runs such a solution).
bool hasHostMain(const std::string& text);

} // namespace warpscope::cudart
