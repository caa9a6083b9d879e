// Whole CUDA programs (tests/programs/*.cu) built through the real clang path with the CUDA
// toolkit hidden, linked with warpscope's CUDA runtime, run as child processes: their output and
// exit codes are CUDA's.
#include "compile/compile.hpp"
#include "cudart/build.hpp"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

using namespace warpscope;
namespace fs = std::filesystem;

namespace {

const fs::path kPrograms = fs::path(WARPSCOPE_SOURCE_DIR) / "tests" / "programs";

struct Env {
    std::string name;
    std::optional<std::string> old;
    Env(const std::string& n, const char* v) : name(n) {
        if (const char* o = std::getenv(n.c_str())) old = o;
        if (v) setenv(n.c_str(), v, 1);
        else unsetenv(n.c_str());
    }
    ~Env() {
        if (old) setenv(name.c_str(), old->c_str(), 1);
        else unsetenv(name.c_str());
    }
};

// A private cache (every build is a real one) and no CUDA toolkit in sight: no nvcc on PATH, no
// CUDA_PATH/CUDA_HOME, so only Debian's clang can build.
struct NoToolkit {
    fs::path cache;
    Env path{"PATH", "/usr/bin:/bin"};
    Env cudaPath{"CUDA_PATH", nullptr};
    Env cudaHome{"CUDA_HOME", nullptr};
    Env compiler{"WARPSCOPE_COMPILER", nullptr};
    std::optional<Env> xdg;
    NoToolkit() {
        std::string t = (fs::temp_directory_path() / "warpscope-cudart-test-XXXXXX").string();
        REQUIRE(mkdtemp(t.data()));
        cache = t;
        xdg.emplace("XDG_CACHE_HOME", cache.c_str());
    }
    ~NoToolkit() {
        std::error_code ec;
        fs::remove_all(cache, ec);
    }
};

bool haveClang() { return !compile::findClangPath().empty(); }

// Under AddressSanitizer (scripts/sanitize.sh) the program links its runtime too, whose shadow
// gap covers the simulator's device addresses: unified and mapped memory cannot be mapped there.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif

cudart::BuildResult build(std::vector<std::string> sources, std::vector<std::string> includeDirs = {}) {
    cudart::BuildOptions o;
    for (auto& s : sources) o.sources.push_back((kPrograms / s).string());
    for (auto& d : includeDirs) o.includeDirs.push_back((kPrograms / d).string());
    cudart::BuildResult r = cudart::buildProgram(o);
    if (!r.ok) {
        for (auto& d : r.diagnostics) UNSCOPED_INFO(d.text());
        UNSCOPED_INFO(r.error);
        UNSCOPED_INFO(r.log);
    }
    return r;
}

struct Run {
    int exitCode = -1;
    std::string output;   // stdout and stderr together
    std::string status;   // what the runtime wrote to $WARPSCOPE_STATUS_FILE
};

Run run(const cudart::BuildResult& b, std::vector<std::string> args = {}) {
    fs::path status = fs::path(std::getenv("XDG_CACHE_HOME")) / "status.txt";
    std::error_code ec;
    fs::remove(status, ec);
    Env st("WARPSCOPE_STATUS_FILE", status.c_str());
    Env data("WARPSCOPE_DATA_DIR", WARPSCOPE_SOURCE_DIR);
    std::vector<std::string> argv = {b.executable};
    argv.insert(argv.end(), args.begin(), args.end());
    compile::ProcessResult p = compile::runProcess(argv, fs::temp_directory_path().string(), 120);
    Run r;
    r.exitCode = p.exitCode;
    r.output = p.output;
    std::ifstream f(status);
    std::getline(f, r.status);
    INFO(r.output);
    CHECK_FALSE(p.timedOut);
    return r;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

} // namespace

TEST_CASE("cudart: add two numbers, built with no CUDA toolkit, cached the second time", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"add.cu"});
    REQUIRE(b.ok);
    CHECK_FALSE(b.cached);
    CHECK_FALSE(has(b.log, "nvcc"));
    Run r = run(b);
    CHECK(r.output == "2 + 7 = 9\n");
    CHECK(r.exitCode == 0);
    cudart::BuildResult again = build({"add.cu"});
    REQUIRE(again.ok);
    CHECK(again.cached);
}

TEST_CASE("cudart: vector add with error checking", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"vector_add.cu"});
    REQUIRE(b.ok);
    Run r = run(b);
    CHECK(r.output == "vector add of 5000 elements: PASSED\n");
    CHECK(r.exitCode == 0);
    Run one = run(b, {"1"});
    CHECK(one.output == "vector add of 1 elements: PASSED\n");
}

TEST_CASE("cudart: __constant__ and __device__ variables through cudaMemcpyToSymbol/FromSymbol", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"constant.cu"});
    REQUIRE(b.ok);
    Run r = run(b);
    INFO(r.output);
    CHECK(has(r.output, "y[3] = 24.25, kernel threads counted = 64, mismatches = 0\n"));
    CHECK(has(r.output, "oversized copy: cudaErrorInvalidValue\n"));
    CHECK(has(r.output, "do not fit in 'coeffs' (16 bytes)"));
    CHECK(r.exitCode == 0);
}

TEST_CASE("cudart: 2048 threads per block is cudaErrorInvalidValue (as on the H100), not sticky", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"invalid_launch.cu"});
    REQUIRE(b.ok);
    Run r = run(b);
    INFO(r.output);
    CHECK(has(r.output, "launch with 2048 threads: cudaErrorInvalidValue (invalid argument)\n"));
    CHECK(has(r.output, "after reading it: cudaSuccess\n"));
    CHECK(has(r.output, "launch with 1024 threads: cudaSuccess\n"));
    CHECK(has(r.output, "p[1022] = 1022, p[1023] = 1023\n"));
    CHECK(has(r.output, "2048 threads per block (2048x1x1); the device allows 1024"));
    CHECK(r.exitCode == 0);
    CHECK(r.status.empty());
}

TEST_CASE("cudart: an out-of-bounds kernel is cudaErrorIllegalAddress, sticky, reported with its line", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"fault.cu"});
    REQUIRE(b.ok);
    Run r = run(b);
    INFO(r.output);
    CHECK(has(r.output, "kernel overrun(int*, int) faulted: Out-of-bounds store"));
    CHECK(has(r.output, "source line 10"));
    CHECK(has(r.output, "launch: cudaSuccess\n"));   // as on the H100: the launch itself was fine
    CHECK(has(r.output, "synchronize: cudaErrorIllegalAddress\n"));
    CHECK(has(r.output, "copy after the fault: cudaErrorIllegalAddress\n"));
    CHECK(has(r.output, "last error: cudaErrorIllegalAddress\n"));
    CHECK(r.status == "fault");
    CHECK(r.exitCode == 1);   // the program's own exit code (warpscope run turns a fault into 3)
}

TEST_CASE("cudart: streams and events with pinned memory", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"streams.cu"});
    REQUIRE(b.ok);
    Run r = run(b);
    INFO(r.output);
    CHECK(has(r.output, "elapsed: cudaSuccess, positive: yes\n"));
    CHECK(has(r.output, "mismatches: 0\n"));
    CHECK(has(r.output, "destroyed stream reused: cudaErrorInvalidResourceHandle\n"));
    CHECK(has(r.output, "elapsed with an untimed event: cudaErrorInvalidResourceHandle\n"));
    CHECK(r.exitCode == 0);
}

TEST_CASE("cudart: unified memory is one pointer on host and device", "[cudart]") {
    if (kAddressSanitizer) { WARN("AddressSanitizer's shadow gap covers the device addresses: skipped"); return; }
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"managed.cu"});
    REQUIRE(b.ok);
    Run r = run(b);
    CHECK(r.output == "x[999] = 1999, mismatches after the first launch = 0\n");
    CHECK(r.exitCode == 0);
}

TEST_CASE("cudart: API misuse gets CUDA's error codes and a message; unsupported calls say so once", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"misuse.cu"});
    REQUIRE(b.ok);
    Run r = run(b);
    INFO(r.output);
    CHECK(has(r.output, "copy to a freed pointer: cudaErrorInvalidValue\n"));
    CHECK(has(r.output, "('cudaMalloc #1' was freed)"));
    CHECK(has(r.output, "free it again: cudaErrorInvalidValue\n"));
    CHECK(has(r.output, "host pointer as the device side: cudaErrorInvalidValue\n"));
    CHECK(has(r.output, "copy past the end: cudaErrorInvalidValue\n"));
    CHECK(has(r.output, "good copy: cudaSuccess\n"));
    CHECK(has(r.output, "register host memory: cudaSuccess\n"));
    CHECK(has(r.output, "register again: cudaErrorHostMemoryAlreadyRegistered\n"));
    CHECK(has(r.output, "unregister: cudaSuccess\n"));
    CHECK(has(r.output, "malloc heap limit: cudaSuccess\n"));   // as on the H100: a larger device heap
    CHECK(has(r.output, "printf FIFO limit: cudaErrorNotSupported\nprintf FIFO limit again: cudaErrorNotSupported\n"));
    size_t first = r.output.find("cudaDeviceSetLimit(cudaLimitPrintfFifoSize) above 1 MiB is not supported");
    REQUIRE(first != std::string::npos);
    CHECK(r.output.find("cudaDeviceSetLimit(cudaLimitPrintfFifoSize) above 1 MiB is not supported", first + 1) == std::string::npos);
    CHECK(has(r.output, "device 1: cudaErrorInvalidDevice\n"));
    CHECK(has(r.output, "1 TiB: cudaErrorMemoryAllocation, pointer null\n"));
    CHECK(has(r.output, "last error: cudaErrorMemoryAllocation, then cudaSuccess\n"));
    CHECK(r.exitCode == 0);
}

TEST_CASE("cudart: device properties come from the GPU preset", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"properties.cu"});
    REQUIRE(b.ok);
    Run r = run(b);
    CHECK(r.output ==
          "devices: 1\n"
          "name: warpscope simulator (h100)\n"
          "compute capability 9.0, 132 SMs (attribute 132), warp 32, 1024 threads per block\n"
          "runtime version 11050\n");
    Env gpu("WARPSCOPE_GPU", "teaching");
    Run t = run(b);
    CHECK(has(t.output, "name: warpscope simulator (teaching)\n"));
}

TEST_CASE("cudart: two translation units: templates instantiated in both, same-named statics, printf in both", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"two_units/main.cu", "two_units/scale.cu"});
    REQUIRE(b.ok);
    Run r = run(b);
    CHECK(r.output ==
          "iota: 100 elements\nscaleKernel: 100 elements\nscaleKernel: 100 elements\n"
          "x[99] = 49.5, y[5] = 6, launches: main.cu 10, scale.cu 2, error: cudaSuccess\n");
    CHECK(r.exitCode == 0);
}

TEST_CASE("cudart: a program that does not compile gives file:line:col", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildOptions o;
    o.sources = {(kPrograms / "build_error.cu").string()};
    cudart::BuildResult b = cudart::buildProgram(o);
    CHECK_FALSE(b.ok);
    auto err = std::find_if(b.diagnostics.begin(), b.diagnostics.end(),
                            [](auto& x) { return x.severity == compile::Diagnostic::Severity::Error; });
    REQUIRE(err != b.diagnostics.end());
    const compile::Diagnostic& d = *err;
    for (auto& x : b.diagnostics) CHECK(x.severity == compile::Diagnostic::Severity::Error);   // no warnings from warpscope's headers
    CHECK(d.file == o.sources[0]);
    CHECK(d.line == 4);
    CHECK(d.column == 34);
    CHECK(has(d.message, "undeclared_name"));
    o.sources = {(kPrograms / "no_such_file.cu").string()};
    cudart::BuildResult missing = cudart::buildProgram(o);
    CHECK_FALSE(missing.ok);
    CHECK(has(missing.error, "no such file"));
}

TEST_CASE("cudart: printf in a kernel appears at the next synchronisation point", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"printf.cu"});
    REQUIRE(b.ok);
    Run r = run(b);
    CHECK(r.output ==
          "host, before synchronizing\n"
          "thread 0 of block 0: x=5 f=1.50 str Q|1.2e+04|%\n"
          "thread 1 of block 0: x=5 f=1.50 str Q|1.2e+04|%\n"
          "thread 0 of block 1: x=5 f=1.50 str Q|1.2e+04|%\n"
          "thread 1 of block 1: x=5 f=1.50 str Q|1.2e+04|%\n"
          "host, after 2.5\n");
    CHECK(r.exitCode == 0);
}

TEST_CASE("cudart: a failed assert in a kernel is CUDA's message and cudaErrorAssert, sticky", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"assert.cu"});
    REQUIRE(b.ok);
    Run r = run(b);
    INFO(r.output);
    CHECK(has(r.output, "assert.cu:7: void check(const int *, int): block: [1,0,0], thread: [5,0,0] Assertion `v[i] >= 0` failed.\n"));
    CHECK(has(r.output, "after the assert: cudaErrorAssert\n"));
    CHECK(has(r.output, "next call: cudaErrorAssert\n"));
    CHECK(r.status == "fault");
}

TEST_CASE("cudart: kernel attributes, occupancy, shared-memory opt-in, host functions, pitched copies", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"api_more.cu"});
    REQUIRE(b.ok);
    Run r = run(b);
    INFO(r.output);
    CHECK(has(r.output, "tile: 1024 bytes of static shared memory\n"));
    CHECK(has(r.output, "blocks of 256 per SM: 8\n"));   // H100: 2048 threads per SM, 32 registers assumed
    CHECK(has(r.output, "potential block size > 0: yes, grid > 0: yes\n"));
    CHECK(has(r.output, "64 KiB dynamic shared without opt-in: cudaErrorInvalidConfiguration\n"));
    CHECK(has(r.output, "with opt-in: cudaSuccess\n"));
    CHECK(has(r.output, "dyn[100] = 200\n"));
    CHECK(has(r.output, "host function, value 42\ncallback, status cudaSuccess\n"));
    CHECK(has(r.output, "host min/max: 3 7 1.5\n"));
    CHECK(has(r.output, "limits: set cudaSuccess, stack 4096, printf FIFO 1048576\n"));
    CHECK(has(r.output, "pitch 512, back[2][4] = 24, error cudaSuccess\n"));
    CHECK(r.exitCode == 0);
}

TEST_CASE("cudart: a course-style program with the C++ standard library and a templated reduction", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"reduction.cu"});
    REQUIRE(b.ok);
    Run r = run(b);
    INFO(r.output);
    CHECK(has(r.output, "PASSED\n"));
    CHECK(has(r.output, " 43\n"));   // std::max and std::min in host code
    CHECK(r.exitCode == 0);
}

TEST_CASE("cudart: __managed__ variables are an error at their use, not two silent copies", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"managed_var.cu"});
    CHECK_FALSE(b.ok);
    REQUIRE_FALSE(b.diagnostics.empty());
    CHECK(b.diagnostics.front().line == 5);
    CHECK(has(b.diagnostics.front().message, "'counter' is unavailable: __managed__ variables are not supported"));
}

TEST_CASE("cudart: zero copy through cudaHostAllocMapped and cudaHostGetDevicePointer", "[cudart]") {
    if (kAddressSanitizer) { WARN("AddressSanitizer's shadow gap covers the device addresses: skipped"); return; }
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"zero_copy.cu"});
    REQUIRE(b.ok);
    Run r = run(b);
    INFO(r.output);
    CHECK(has(r.output, "b[299] = 598, mismatches 0, unmapped pointer: cudaErrorInvalidValue\n"));
    CHECK(r.exitCode == 0);
}

TEST_CASE("cudart: virtual functions of objects made with device new, used and deleted in later kernels (as on the H100)", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"virtual.cu"});
    REQUIRE(b.ok);
    Run r = run(b);
    INFO(r.output);
    // The H100's output (CUDA 13.0, nvcc -arch=native), line for line.
    CHECK(r.output == "dog 1040, bird 2005, snake(5) 3005, snake(98) 3098\n0 mismatches, cudaSuccess\n");
    CHECK(r.exitCode == 0);
}

TEST_CASE("cudart: stream capture into a graph, launched three times", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"graph.cu"});
    REQUIRE(b.ok);
    Run r = run(b);
    INFO(r.output);
    CHECK(has(r.output, "capturing: yes; captured, not run: h[10] = 10; memset in a capture: cudaSuccess\n"));   // as on the H100
    CHECK(has(r.output, "after 3 launches: h[10] = 13, mismatches 0, error cudaSuccess\n"));
    CHECK(r.exitCode == 0);
}

TEST_CASE("cudart: a graph built node by node: memset, copies, kernel, host and empty nodes, exec update and clone (as on the H100)", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"graph_nodes.cu"});
    REQUIRE(b.ok);
    Run r = run(b);
    INFO(r.output);
    // The H100's output (CUDA 13.0, nvcc -arch=native), line for line.
    CHECK(r.output ==
          "nodes 6, roots 2, copy-out node type 1\n"
          "host node: call 1\nhost node: call 2\nhost node: call 3\n"
          "after 3 launches: out[5] = 10, out[16] = 32, out[299] = 20, host calls 3\n"
          "host node: call 4\nk = 3: out[5] = 15, out[16] = 48\n"
          "host node: call 5\nupdated, k = 5: out[5] = 25, result 0\n"
          "update after adding a node: cudaErrorGraphExecUpdateFailure, result 2\n"
          "host node: call 6\nclone: 7 nodes, out[5] = 25, host calls 6\n");
    CHECK(r.exitCode == 0);
}

TEST_CASE("cudart: stream capture of a memset, a fork and join through events, and a host function (as on the H100)", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"graph_capture.cu"});
    REQUIRE(b.ok);
    Run r = run(b);
    INFO(r.output);
    CHECK(r.output ==
          "memset cudaSuccess, record cudaSuccess, wait cudaSuccess, host function cudaSuccess, end cudaSuccess; second stream capturing: yes; "
          "host calls so far 0\n"
          "nodes in the captured graph: 5\n"
          "host function in the graph: call 1\nlaunch 1: h[0] = 11, h[255] = 11, mismatches 0, host calls 1\n"
          "host function in the graph: call 2\nlaunch 2: h[0] = 11, h[255] = 11, mismatches 0, host calls 2\n"
          "error: cudaSuccess\n");
    CHECK(r.exitCode == 0);
}

TEST_CASE("cudart: an SDK-style program: helpers from an -I folder keyed on CUDA's include guards, the program's own header first", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"sdk_style/main.cu"}, {"sdk_style/common"});
    REQUIRE(b.ok);
    Run r = run(b);
    INFO(r.output);
    CHECK(has(r.output, "device 0, driver API: ok, SMs agree: yes, major agrees: yes\n"));
    CHECK(has(r.output, "shadow.h from the program folder\n"));
    CHECK(has(r.output, "spun at least 10000 clocks: yes\n"));
    CHECK(has(r.output, "code=101(cudaErrorInvalidDevice) \"cudaSetDevice(7)\""));
    CHECK_FALSE(has(r.output, "not reached"));
    CHECK(r.exitCode == 1);
}

TEST_CASE("cudart: cooperative groups: tiles, reduce, run-time tiles, coalesced groups, partitions, memcpy_async", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"coop_groups.cu"});
    REQUIRE(b.ok);
    Run r = run(b);
    CHECK(r.output ==
          "tile sums, warp maxima, two-warp sums: 0 mismatches\n"
          "run-time tile: size*100+rank = 805\n"
          "coalesced odd threads: size 16, rank 0, first value 9 (h[33] = 9)\n"
          "label partition size 12 (expected 12), binary partition size 19 (expected 19), ballot db64936d (expected db64936d)\n"
          "memcpy_async + wait: 0 mismatches, error cudaSuccess\n");
    CHECK(r.exitCode == 0);
}

TEST_CASE("cudart: cudaLaunchCooperativeKernel: grid.sync() between phases, a grid too large to be resident", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"grid_sync.cu"});
    REQUIRE(b.ok);
    Run r = run(b);
    INFO(r.output);
    CHECK(has(r.output, "cooperative launch attribute: 1\n"));
    CHECK(has(r.output, "cooperative launch: cudaSuccess, 0 mismatches, blocks 8\n"));
    // The h100 preset holds 2 blocks of 1024 threads per SM on 132 SMs.
    CHECK(has(r.output, "grid of 265 blocks of 1024: cudaErrorCooperativeLaunchTooLarge\n"));
    CHECK(r.exitCode == 0);
}

TEST_CASE("cudart: cudaHostRegister: pinned copies, mapped registered memory in a kernel, CUDA's errors, pointer attributes", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"host_register.cu"});
    REQUIRE(b.ok);
    Run r = run(b);
    INFO(r.output);
    CHECK(has(r.output, "register: cudaSuccess\n"));
    CHECK(has(r.output, "register again: cudaErrorHostMemoryAlreadyRegistered\n"));
    CHECK(has(r.output, "flags include mapped: yes\ndevice pointer: cudaSuccess\n"));
    CHECK(has(r.output, "kernel on mapped registered memory: 0 mismatches\n"));
    CHECK(has(r.output, "copy from registered memory faster than from pageable: yes\n"));
    CHECK(has(r.output, "copied: 1048573 1048576\n"));
    CHECK(has(r.output, "copied back into registered memory: 0 17\n"));
    CHECK(has(r.output, "types: device 2, pinned 1, registered 1 (device pointer as given), pageable 0\n"));
    CHECK(has(r.output, "unregister: cudaSuccess\nunregister again: cudaErrorHostMemoryNotRegistered\n"));
    CHECK(has(r.output, "unregister pageable: cudaErrorHostMemoryNotRegistered\n"));
    CHECK(has(r.output, "register 0 bytes: cudaErrorInvalidValue\nlast error: cudaErrorInvalidValue\n"));
    CHECK(r.exitCode == 0);
}

TEST_CASE("cudart: hints (memory advice, prefetch, L2 access policy, priorities) are checked, accepted and noted once", "[cudart]") {
    if (kAddressSanitizer) { WARN("AddressSanitizer's shadow gap covers the device addresses: skipped"); return; }
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"hints.cu"});
    REQUIRE(b.ok);
    Run r = run(b);
    INFO(r.output);
    CHECK(has(r.output, "advise read-mostly: cudaSuccess\nadvise preferred location cpu: cudaSuccess\n"));
    CHECK(has(r.output, "prefetch to the device: cudaSuccess\nprefetch to device 3: cudaErrorInvalidDevice\n"));
    CHECK(has(r.output, "m[4095] = 12285\n"));
    CHECK(has(r.output, "priority clamped to the greatest: yes, flags 1\n"));
    CHECK(has(r.output, "persisting L2 limit: cudaSuccess\nread back: same\n"));
    CHECK(has(r.output, "access policy window: cudaSuccess\nwindow read back: 16384 bytes, hit ratio 0.6\n"));
    CHECK(has(r.output, "hit ratio 1.5: cudaErrorInvalidValue\n"));
    CHECK(has(r.output, "reset persisting lines: cudaSuccess\n"));
    CHECK(has(r.output, "occupancy with flags: cudaSuccess, blocks > 0\n"));
    CHECK(has(r.output, "peer access to itself: 0\n"));
    CHECK(has(r.output, "warpscope: cudaMemAdvise is accepted as a hint"));
    size_t first = r.output.find("cudaMemAdvise is accepted as a hint");
    CHECK(r.output.find("cudaMemAdvise is accepted as a hint", first + 1) == std::string::npos);
    CHECK(r.exitCode == 0);
}

TEST_CASE("cudart: stream-ordered allocation and its pool; memcpy and directed rounding in kernels", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"stream_alloc.cu"});
    REQUIRE(b.ok);
    Run r = run(b);
    CHECK(r.output ==
          "pools: 1, set release threshold: cudaSuccess\n"
          "in use after three allocations: all of them\n"
          "exact sums: 334, widened intervals: 666, h[1] = [1, 1.00000012]\n"
          "in use after the frees: 0\n"
          "1/3 rounded up > rounded down: yes, error cudaSuccess\n");
    CHECK(r.exitCode == 0);
}

TEST_CASE("cudart: events time a clock64() wait; WARPSCOPE_TIMED=1 gives the cycle model's time of each launch", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"clock_wait.cu"});
    REQUIRE(b.ok);
    Run plain = run(b);
    INFO(plain.output);
    CHECK(has(plain.output, "waited 200000 clocks: the events measured it within 10%: yes\n"));
    CHECK_FALSE(has(plain.output, "warpscope --timed"));
    Env timed("WARPSCOPE_TIMED", "1");
    Run t = run(b);
    INFO(t.output);
    CHECK(has(t.output, "warpscope --timed: wait(long long)<<<(1,1,1), (32,1,1)>>>: "));
    // (Not the 10 %: the simulator's %clock counts 4 cycles per issued instruction, while the
    // cycle model issues the wait loop faster, so the timed wait is shorter: docs/whole-programs.md.)
    CHECK(has(t.output, "waited 200000 clocks: the events measured it within 10%: "));
}

TEST_CASE("cudart: a static __shared__ value written by one thread is read by all after __syncthreads", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"shared_broadcast.cu"});
    REQUIRE(b.ok);
    Run r = run(b);
    CHECK(r.output == "h[1] = 11, h[257] = 277, mismatches 0\n");
    CHECK(r.exitCode == 0);
}

TEST_CASE("cudart: cuda_fp16.h and cuda_bf16.h in host and device code agree bit for bit", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"half.cu"});
    REQUIRE(b.ok);
    Run r = run(b);
    INFO(r.output);
    CHECK(has(r.output, "conversions: 20 cases, 0 differ; 1.00048828125 -> 3c00, 65520 -> 7c00, smallest subnormal -> 0001, back 5.96046e-08\n"));
    CHECK(has(r.output, "dot: 79 (low half 48 on the host), twice the low half 96, cudaSuccess\n"));
    CHECK(r.exitCode == 0);
}

TEST_CASE("cudart: a program that includes <omp.h> gets OpenMP on the host side", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"openmp.cu"});
    if (!b.ok && b.error.find("no OpenMP runtime") != std::string::npos) { WARN(b.error); return; }
    REQUIRE(b.ok);
    Run r = run(b);
    INFO(r.output);
    CHECK(has(r.output, "host thread 0 of 2\nhost thread 0 of 2\n"));
    CHECK(has(r.output, "kernel says 2\nkernel says 2\n"));
    CHECK(has(r.output, "threads 2\n"));
    CHECK(r.exitCode == 0);
}

TEST_CASE("cudart: device-side malloc, free, new[] and placement new", "[cudart]") {
    if (!haveClang()) { WARN("clang is not installed: skipped"); return; }
    NoToolkit env;
    cudart::BuildResult b = build({"device_malloc.cu"});
    REQUIRE(b.ok);
    Run r = run(b);
    INFO(r.output);
    CHECK(has(r.output, "heap 8 MiB; out[0] = 4008, out[63] = 1016, mismatches 0; 16 MiB malloc gives NULL: yes; cudaSuccess\n"));
    CHECK(r.exitCode == 0);
}
