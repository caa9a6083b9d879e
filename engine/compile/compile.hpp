// CUDA C++ -> PTX for warpscope: NVRTC (dlopen'ed), nvcc, or clang in CUDA device-only mode with
// warpscope's own device prelude (prelude/warpscope_cuda.h), so a laptop without a CUDA toolkit can
// still build a kernel. The engine API the CLI, the lesson loader and the app's editor share.
//
// Every compile runs under a time limit; compile errors come back as file:line:col records; a
// missing compiler, a hang or a crash of the compiler is a message in Result::error, never an
// exception. Thread-safe: an app may build on a worker thread while the last good PTX runs.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::compile {

enum class Compiler { Auto, Nvrtc, Nvcc, Clang };
const char* compilerName(Compiler c);                 // "auto", "nvrtc", "nvcc", "clang"
std::optional<Compiler> parseCompiler(std::string_view name);

struct Options {
    Compiler compiler = Compiler::Auto;   // Auto: NVRTC, else nvcc, else clang
    std::string arch = "compute_75";      // compute_XX or sm_XX (the lessons' PTX is compute_75)
    double timeoutSeconds = 60;           // the compiler is killed after this long
    // A whole CUDA program's device pass (engine/cudart): clang only; the system headers are
    // allowed (host code in the file must parse), the prelude comes through warpscope's
    // cuda_runtime.h (force-included by the caller through extraArgs), not -include.
    bool wholeProgram = false;
    std::vector<std::string> extraArgs;   // appended to the clang command line (-I, -D, -include)
};

struct Diagnostic {
    enum class Severity { Error, Warning, Note };
    std::string file;     // the file name passed to compile(), "warpscope_cuda.h" for the prelude
    int line = 0;         // 1-based; 0 when the compiler gave none
    int column = 0;       // 1-based; 0 when the compiler gave none (nvcc/NVRTC give none)
    Severity severity = Severity::Error;
    std::string message;
    std::string text() const;   // "kernel.cu:12:5: error: message"
};

struct Result {
    bool ok = false;                      // PTX produced
    std::string ptx;                      // .file names are bare file names; prelude lines mapped
    std::vector<Diagnostic> diagnostics;  // errors, warnings and notes, in the compiler's order
    Compiler used = Compiler::Auto;       // the compiler that ran (Auto when none could)
    std::string command;                  // the command line, for the log
    std::string log;                      // the compiler's whole output
    std::string error;                    // why it failed when there are no diagnostics to show
                                          // (missing compiler, time limit, crash); else empty
    bool timedOut = false;
    bool cached = false;                  // compileCached() found it in the cache
    std::string cacheFile;                // compileCached(): the cached PTX file (empty if not stored)
    bool hasErrors() const;
};

struct CompilerInfo {
    Compiler compiler;
    std::string path;      // executable or shared library
};

// The compilers found on this machine, in the automatic order (NVRTC, nvcc, clang).
std::vector<CompilerInfo> available();

// Compiles one translation unit. `fileName` names it in diagnostics and in the PTX's .file
// (its folder is not used: the source is compiled from a private temporary folder).
Result compile(const std::string& source, const std::string& fileName, const Options& options = {});

// compile() with a cache of successful builds keyed by a hash of the source, the file name, the
// options, the compiler that would run and the prelude (cacheDir()/ptx/<hash>.ptx, atomic writes).
Result compileCached(const std::string& source, const std::string& fileName, const Options& options = {});
// $XDG_CACHE_HOME/warpscope, else ~/.cache/warpscope, else <temp>/warpscope-cache.
std::string cacheDir();

// A child process with a time limit (the compilers' runner, shared with the whole-program build).
struct ProcessResult {
    int exitCode = -1;       // -1 when it did not exit normally
    int signal = 0;          // the signal that ended it, if any
    bool timedOut = false;
    bool startFailed = false;
    std::string output;      // stdout and stderr, interleaved
};
// Runs argv in `cwd` as its own process group; kills the whole group after `timeout` seconds.
ProcessResult runProcess(const std::vector<std::string>& argv, const std::string& cwd, double timeout);
// The clang the clang path uses ($WARPSCOPE_CLANG, else the newest clang-NN or clang on PATH);
// empty when there is none.
std::string findClangPath();

// The prelude's text as built into the binary, and its file name.
std::string_view preludeText();
// The clang path's half/bfloat16/wmma header (prelude/warpscope_tensor.h), which its stand-ins for
// <cuda_fp16.h>, <cuda_bf16.h> and <mma.h> include.
std::string_view tensorHeaderText();
// <cooperative_groups.h> and <cooperative_groups/*.h> for the clang path (engine/cudart/include's,
// built in): file name (relative) and text.
const std::vector<std::pair<std::string, std::string_view>>& groupHeaders();
constexpr const char* kPreludeName = "warpscope_cuda.h";

// The clang path's PTX post-processing, exposed for tests: .file paths become bare file names and
// every .loc that points into the prelude is given the student's line (inlined_at kept). clang
// emits no inlined_at, so the call is found as the student line, between the neighbouring student
// .locs, that names the prelude function; failing that, the previous student line (the next one
// right after a function's prologue). The original prelude line stays as a comment.
std::string mapPreludeLines(const std::string& ptx, const std::string& studentSource = "");

// Parses a compiler's output into records ("f:l:c: error: m" from clang, "f(l): error: m" from
// nvcc and NVRTC). Lines that are not diagnostics are ignored (they stay in Result::log).
std::vector<Diagnostic> parseDiagnostics(const std::string& output);

} // namespace warpscope::compile
