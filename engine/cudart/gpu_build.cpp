// A whole CUDA program for the real GPU (`warpscope run prog.cu --backend gpu`, `warpscope compare
// prog.cu`): the same sources, -I and -D, built by the CUDA toolkit's nvcc into a native program
// whose kernels run on the GPU (build.hpp, buildProgramForGpu).
//
// The program is linked with a small launch timer (kLaunchTimer below, compiled by nvcc beside the
// program's sources) through the linker's --wrap: every cudaLaunchKernel and
// cudaLaunchCooperativeKernel the program makes (nvcc's <<<...>>> calls cudaLaunchKernel) is
// bracketed by two CUDA events on the launch's stream, so each launch's GPU time is measured
// without a synchronisation the program did not ask for. When $WARPSCOPE_GPU_LAUNCHES names a
// file, the timer writes one JSON line per launch there (kernel, grid, block, dynamic shared
// bytes, milliseconds, or why it was not timed): before cudaDeviceReset (which would destroy the
// events) and when the program exits.
#include "cudart/build.hpp"

#include "compile/compile.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace warpscope::cudart {

namespace {

const char* const kLaunchTimer = R"CU(// warpscope's launch timer for a program built with --backend gpu (engine/cudart/gpu_build.cpp).
#include <cuda_runtime.h>
#include <cxxabi.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

extern "C" cudaError_t __real_cudaLaunchKernel(const void*, dim3, dim3, void**, size_t, cudaStream_t);
extern "C" cudaError_t __real_cudaLaunchCooperativeKernel(const void*, dim3, dim3, void**, size_t, cudaStream_t);
extern "C" cudaError_t __real_cudaDeviceReset(void);
extern "C" cudaError_t __real___cudaPopCallConfiguration(dim3*, dim3*, size_t*, void*);
#if CUDART_VERSION >= 12000
// CUDA 13's <<<...>>> (crt/host_runtime.h without __NV_LEGACY_LAUNCH): the stub gets a kernel
// handle once (__cudaGetKernel) and launches through __cudaLaunchKernel_helper, an inline function calling __cudaLaunchKernel. Weak: where a
// toolkit has no such functions, nothing refers to them and the wrappers below are never called.
extern "C" __attribute__((weak)) cudaError_t __real___cudaGetKernel(cudaKernel_t*, const void*);
extern "C" __attribute__((weak)) cudaError_t __real___cudaLaunchKernel(cudaKernel_t, dim3, dim3, void**, size_t, cudaStream_t);
extern "C" __attribute__((weak)) cudaError_t __real___cudaLaunchKernel_ptsz(cudaKernel_t, dim3, dim3, void**, size_t, cudaStream_t);
extern "C" cudaError_t __real_cudaLaunchKernelExC(const cudaLaunchConfig_t*, const void*, void**);
#endif

namespace {
struct Launch {
    std::string kernel;
    dim3 grid, block;
    size_t shared = 0;
    cudaEvent_t start = nullptr, stop = nullptr;
    double ms = -1;
    std::string untimed;   // why there is no time
};
std::mutex g_mutex;
std::vector<Launch> g_launches;
std::vector<std::pair<const void*, const void*>> g_handles;   // kernel handle -> the host stub it stands for
size_t g_written = 0;
bool g_atexit = false;
// A <<<...>>> whose configuration was popped by nvcc's stub but whose launch call the timer did
// not see (a launch path other than cudaLaunchKernel): listed, untimed, so the count is right.
thread_local bool t_popped = false;
thread_local Launch t_pop;

void unseenLaunch() {
    if (!t_popped) return;
    t_popped = false;
    t_pop.kernel = "(a kernel launched by nvcc's stub)";
    t_pop.untimed = "its launch call did not pass through cudaLaunchKernel, which the timer wraps";
    g_launches.push_back(t_pop);
}

std::string kernelName(const void* func) {
    for (auto& h : g_handles)
        if (h.first == func) func = h.second;
    const char* name = nullptr;
#if CUDART_VERSION >= 12030
    if (cudaFuncGetName(&name, func) != cudaSuccess) name = nullptr;
#endif
    if (!name) return "(unknown kernel)";
    int status = 0;
    char* d = abi::__cxa_demangle(name, nullptr, nullptr, &status);
    std::string out = status == 0 && d ? d : name;
    std::free(d);
    return out;
}

std::string jsonText(const std::string& s) {
    std::string o = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\', o += c;
        else if (static_cast<unsigned char>(c) < 0x20) o += ' ';
        else o += c;
    }
    return o + "\"";
}

// Every launch's time (waiting for the GPU where `wait`), then the lines not yet written.
void settle(bool wait) {
    for (auto& l : g_launches) {
        if (l.ms >= 0 || !l.untimed.empty() || !l.stop) continue;
        cudaError_t e = wait ? cudaEventSynchronize(l.stop) : cudaEventQuery(l.stop);
        if (e == cudaErrorNotReady) continue;
        float ms = 0;
        if (e == cudaSuccess && cudaEventElapsedTime(&ms, l.start, l.stop) == cudaSuccess) l.ms = ms;
        else l.untimed = std::string("the events failed: ") + cudaGetErrorName(e == cudaSuccess ? cudaErrorUnknown : e);
        cudaEventDestroy(l.start);
        cudaEventDestroy(l.stop);
        l.start = l.stop = nullptr;
        cudaGetLastError();   // the timer's own errors are not the program's
    }
    const char* path = std::getenv("WARPSCOPE_GPU_LAUNCHES");
    if (!wait || !path || !*path) return;
    FILE* f = std::fopen(path, g_written == 0 ? "w" : "a");
    if (!f) return;
    for (; g_written < g_launches.size(); ++g_written) {
        const Launch& l = g_launches[g_written];
        std::fprintf(f, "{\"kernel\": %s, \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], \"shared\": %zu, ", jsonText(l.kernel).c_str(),
                     l.grid.x, l.grid.y, l.grid.z, l.block.x, l.block.y, l.block.z, l.shared);
        if (l.ms >= 0) std::fprintf(f, "\"ms\": %.6f}\n", l.ms);
        else std::fprintf(f, "\"untimed\": %s}\n", jsonText(l.untimed.empty() ? "not finished at exit" : l.untimed).c_str());
    }
    std::fclose(f);
}

void atExit() {
    std::lock_guard<std::mutex> lock(g_mutex);
    unseenLaunch();
    settle(true);
}

#if CUDART_VERSION >= 12000
const cudaLaunchConfig_t* g_exConfig = nullptr;
#endif
// how: 0 cudaLaunchKernel, 1 cudaLaunchCooperativeKernel, 2 __cudaLaunchKernel, 3 cudaLaunchKernelExC, 4 __cudaLaunchKernel_ptsz.
cudaError_t timed(int how, const void* func, dim3 grid, dim3 block, void** args, size_t shared, cudaStream_t stream) {
    std::lock_guard<std::mutex> lock(g_mutex);
    t_popped = false;   // this is the launch the stub popped its configuration for
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(stream, &capture) != cudaSuccess) capture = cudaStreamCaptureStatusNone;
    // Inside a capture the timer's own calls (the kernel's name, which may load its module, and
    // the events of earlier launches) must not count as the program's: in the default global
    // mode an unsafe call invalidates the capture, and the program's next call would fail with
    // cudaErrorStreamCaptureInvalidated where without the timer it succeeds.
    cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    const bool capturing = capture != cudaStreamCaptureStatusNone;
    if (capturing && cudaThreadExchangeStreamCaptureMode(&mode) != cudaSuccess) mode = cudaStreamCaptureModeRelaxed;
    Launch l;
    l.kernel = kernelName(func);
    if (capturing) cudaThreadExchangeStreamCaptureMode(&mode);   // the program's own mode again
    l.grid = grid;
    l.block = block;
    l.shared = shared;
    const bool timeIt = capture == cudaStreamCaptureStatusNone && cudaEventCreate(&l.start) == cudaSuccess &&
                        cudaEventCreate(&l.stop) == cudaSuccess && cudaEventRecord(l.start, stream) == cudaSuccess;
    if (!timeIt) {
        l.untimed = capture != cudaStreamCaptureStatusNone ? "captured into a graph" : "the timer's events could not be made";
        cudaGetLastError();
    }
    cudaError_t e = cudaErrorNotSupported;
    if (how == 0) e = __real_cudaLaunchKernel(func, grid, block, args, shared, stream);
    else if (how == 1) e = __real_cudaLaunchCooperativeKernel(func, grid, block, args, shared, stream);
#if CUDART_VERSION >= 12000
    else if (how == 2) e = __real___cudaLaunchKernel((cudaKernel_t)func, grid, block, args, shared, stream);
    else if (how == 4) e = __real___cudaLaunchKernel_ptsz((cudaKernel_t)func, grid, block, args, shared, stream);
    else if (how == 3) e = __real_cudaLaunchKernelExC(g_exConfig, func, args);
#endif
    if (e != cudaSuccess) {
        l.untimed = std::string("the launch returned ") + cudaGetErrorName(e);
    } else if (timeIt && cudaEventRecord(l.stop, stream) != cudaSuccess) {
        l.untimed = "the timer's stop event could not be recorded";
    }
    if (!l.untimed.empty() && l.start) {
        cudaEventDestroy(l.start);
        if (l.stop) cudaEventDestroy(l.stop);
        l.start = l.stop = nullptr;
    }
    g_launches.push_back(l);
    if (!g_atexit) {   // after the runtime's own exit handler was registered (its first call), so it runs before that one
        g_atexit = true;
        std::atexit(atExit);
    }
    if (!capturing) settle(false);   // earlier launches' events are queried after the capture
    if (e != cudaSuccess) cudaPeekAtLastError();
    return e;
}
} // namespace

extern "C" cudaError_t __wrap_cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shared, cudaStream_t stream) {
    return timed(0, func, grid, block, args, shared, stream);
}
extern "C" cudaError_t __wrap_cudaLaunchCooperativeKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shared, cudaStream_t stream) {
    return timed(1, func, grid, block, args, shared, stream);
}
#if CUDART_VERSION >= 12000
extern "C" cudaError_t __wrap___cudaGetKernel(cudaKernel_t* handle, const void* func) {
    if (!__real___cudaGetKernel) return cudaErrorNotSupported;
    cudaError_t e = __real___cudaGetKernel(handle, func);
    if (e == cudaSuccess && handle) {
        std::lock_guard<std::mutex> lock(g_mutex);
        g_handles.push_back({(const void*)*handle, func});
    }
    return e;
}
// nvcc 13's stub calls the static inline __cudaLaunchKernel_helper (crt/device_functions.h), which
// calls libcudart's exported __cudaLaunchKernel (or its _ptsz twin): those are what can be wrapped.
extern "C" cudaError_t __wrap___cudaLaunchKernel(cudaKernel_t k, dim3 grid, dim3 block, void** args, size_t shared, cudaStream_t stream) {
    if (!__real___cudaLaunchKernel) return cudaErrorNotSupported;
    return timed(2, (const void*)k, grid, block, args, shared, stream);
}
extern "C" cudaError_t __wrap___cudaLaunchKernel_ptsz(cudaKernel_t k, dim3 grid, dim3 block, void** args, size_t shared, cudaStream_t stream) {
    if (!__real___cudaLaunchKernel_ptsz) return cudaErrorNotSupported;
    return timed(4, (const void*)k, grid, block, args, shared, stream);
}
extern "C" cudaError_t __wrap_cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
    if (!config) return __real_cudaLaunchKernelExC(config, func, args);
    g_exConfig = config;
    return timed(3, func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes, config->stream);
}
#endif
extern "C" cudaError_t __wrap___cudaPopCallConfiguration(dim3* grid, dim3* block, size_t* shared, void* stream) {
    cudaError_t e = __real___cudaPopCallConfiguration(grid, block, shared, stream);
    std::lock_guard<std::mutex> lock(g_mutex);
    unseenLaunch();
    if (e == cudaSuccess && grid && block) {
        t_popped = true;
        t_pop = Launch();
        t_pop.grid = *grid;
        t_pop.block = *block;
        t_pop.shared = shared ? *shared : 0;
        if (!g_atexit) {
            g_atexit = true;
            std::atexit(atExit);
        }
    }
    return e;
}
extern "C" cudaError_t __wrap_cudaDeviceReset(void) {
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        unseenLaunch();
        settle(true);
    }
    return __real_cudaDeviceReset();
}
)CU";

} // namespace

std::string findNvcc() {
    if (const char* p = std::getenv("WARPSCOPE_NVCC"); p && *p) return std::string(p) == "none" ? "" : p;   // "none": as if not installed
    for (auto& c : compile::available())
        if (c.compiler == compile::Compiler::Nvcc) return c.path;
    return "";
}

const char* launchTimerSource() { return kLaunchTimer; }

BuildResult buildProgramForGpu(const BuildOptions& o) {
    BuildResult r;
    if (o.sources.empty()) {
        r.error = "no source files";
        return r;
    }
    const std::string nvcc = findNvcc();
    if (nvcc.empty()) {
        r.error = "--backend gpu builds the program with the CUDA toolkit's nvcc, which is not installed here (looked on PATH, in "
                  "$CUDA_PATH/bin and /usr/local/cuda/bin; $WARPSCOPE_NVCC names it)";
        return r;
    }
    std::error_code ec;
    std::vector<std::string> texts;
    for (auto& s : o.sources) {
        std::string text;
        if (!readProgramSource(s, text, r.error)) return r;
        texts.push_back(text);
    }
    // A private folder for the timer and the executable (no cache: nvcc's own build is the reference).
    const fs::path work = fs::path(compile::cacheDir()) / "gpu-programs" / ("build." + std::to_string(getpid()));
    fs::remove_all(work, ec);
    fs::create_directories(work, ec);
    if (ec) {
        r.error = "cannot make " + work.string() + ": " + ec.message();
        return r;
    }
    {
        std::ofstream f(work / "warpscope_launch_timer.cpp", std::ios::binary);
        f << kLaunchTimer;
        if (!f) {
            r.error = "cannot write the launch timer into " + work.string();
            return r;
        }
    }
    // Like a learner's `nvcc -arch=native prog.cu -o prog`, plus line info for the profiler, the
    // include folders and definitions, each source's own folder first (as the simulator's build).
    std::vector<std::string> argv = {nvcc, "-arch=native", "-O3", "-lineinfo", "-std=c++17"};
    for (auto& s : o.sources) argv.push_back("-I" + fs::absolute(s).parent_path().string());
    for (auto& d : o.includeDirs) argv.push_back("-I" + fs::absolute(d).lexically_normal().string());
    for (auto& d : o.defines) argv.push_back("-D" + d);
    bool openmp = false;
    for (auto& t : texts) openmp = openmp || t.find("<omp.h>") != std::string::npos;
    if (openmp) argv.insert(argv.end(), {"-Xcompiler", "-fopenmp"});
    // nvcc compiles .cu as CUDA and .cpp/.c with the host compiler; absolute paths, as it runs elsewhere.
    for (auto& s : o.sources) argv.push_back(fs::absolute(s).string());
    argv.push_back((work / "warpscope_launch_timer.cpp").string());
    // Every way a launch reaches the runtime: cudaLaunchKernel (CUDA 12's <<<...>>>, and direct
    // calls), cudaLaunchCooperativeKernel, cudaLaunchKernelExC, and CUDA 13's <<<...>>> through a
    // kernel handle (__cudaGetKernel, __cudaLaunchKernel_helper; the H100 machine's nvcc 13.0 has
    // them); __cudaPopCallConfiguration lists a <<<...>>> whose launch none of these saw.
    for (const char* w : {"--wrap=cudaLaunchKernel", "--wrap=cudaLaunchCooperativeKernel", "--wrap=cudaLaunchKernelExC", "--wrap=__cudaGetKernel",
                          "--wrap=__cudaLaunchKernel", "--wrap=__cudaLaunchKernel_ptsz", "--wrap=cudaDeviceReset", "--wrap=__cudaPopCallConfiguration"})
        argv.insert(argv.end(), {"-Xlinker", w});
    if (texts.end() != std::find_if(texts.begin(), texts.end(), [](const std::string& t) { return t.find("<cuda.h>") != std::string::npos; }))
        argv.push_back("-lcuda");   // the driver API's device queries (deviceQuery, the SDK's helpers)
    if (o.cublas || texts.end() != std::find_if(texts.begin(), texts.end(), [](const std::string& t) { return t.find("cublas") != std::string::npos; }))
        argv.push_back("-lcublas");   // the real cuBLAS on the GPU (the simulator links warpscope's subset)
    const fs::path exe = o.output.empty() ? work / "program" : fs::path(o.output);
    argv.insert(argv.end(), {"-o", exe.string()});
    std::string cmd;
    for (auto& a : argv) cmd += (cmd.empty() ? "" : " ") + a;
    r.log += "$ " + cmd + "\n";
    compile::ProcessResult p = compile::runProcess(argv, work.string(), o.timeoutSeconds);
    r.log += p.output;
    if (p.exitCode != 0 || p.timedOut) {
        r.diagnostics = compile::parseDiagnostics(p.output);
        if (p.timedOut) r.error = "nvcc did not finish within " + std::to_string(int(o.timeoutSeconds)) + " s and was stopped";
        else if (p.startFailed) r.error = "cannot start " + nvcc + ": " + p.output;
        else r.error = "nvcc failed (exit code " + std::to_string(p.exitCode) + "):\n" + p.output;
        return r;
    }
    r.ok = true;
    r.executable = exe.string();
    return r;
}

} // namespace warpscope::cudart
