// warpscope's CUDA runtime: the CUDA Runtime API entry points a whole CUDA program calls (its own
// calls and the registration and launch calls clang emits for it), over one runtime::SimDevice.
// A program compiled against engine/cudart/include and linked with this library runs its
// kernels on the simulator, unmodified (docs/whole-programs.md).
//
// Sections (helpers first, then the API in the same order):
//   helpers: 1. the process's runtime state and the module  1b. kernel printf and assert
//            2. errors  5. memory and unified memory  6. copies
//   API:     2. errors  3. registration  4. device queries  5. memory  6. copies
//            7. streams and events  8. launches  9. kernel attributes, occupancy, host functions,
//            pitched copies, limits, graphs, and the calls that are not supported
//
// Design notes:
// - One runtime per process (CUDA's runtime is process-global too): a function-local static,
//   created on the first call, guarded by one mutex (host threads may call in parallel).
// - The simulator runs a kernel to completion when it is launched; CUDA reports a kernel's fault
//   at the next synchronising call. So a fault is stored as the sticky error and every later call
//   returns it, as CUDA does after cudaErrorIllegalAddress and friends; the fault report (kernel,
//   block, thread, lane, line, address) goes to stderr at once.
// - Unified memory (cudaMallocManaged): the allocation is a device allocation whose address is
//   also mapped in the host process (mmap at the same address), so one pointer is valid on both
//   sides. The host copy is pushed to the device before every operation that reads device memory
//   and pulled back after every one that may write it (launches, copies, memsets).
#include "cudart/include/driver_types.h"
#include "cudart/graphs.hpp"
#include "cudart/launch_counters.hpp"

#include "base/data_dir.hpp"
#include "base/error.hpp"
#include "mem/memory.hpp"
#include "runtime/sim_device.hpp"
#include "timing/cycle_model.hpp"
#include "timing/gpu_spec.hpp"
#include "timing/occupancy.hpp"

#include <cxxabi.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace warpscope;

// dim3 and uint3 as the program passes them (three unsigned ints, by value).
struct WsDim3 {
    unsigned x, y, z;
};
struct CUstream_st {
    int id;
    unsigned flags;
    int priority;   // clamped to cudaDeviceGetStreamPriorityRange; the timeline's block scheduler uses it
    cudaAccessPolicyWindow window;   // cudaStreamSetAttribute's hint, given back by Get
};
struct CUevent_st {
    int id;
    bool recorded;
    bool timing;   // not created with cudaEventDisableTiming
};

// Set by the program's build (engine/cudart/build.cpp): the warpscope data folder (GPU presets),
// for a program that runs outside the warpscope tree. Weak: absent when nobody defined it.
extern "C" __attribute__((weak)) const char* __warpscope_data_dir;

namespace {

// ---------------------------------------------------------------- 1. the process's runtime state
struct FatBinaryWrapper {   // what clang's module constructor passes to __cudaRegisterFatBinary
    int magic;
    int version;
    const char* data;       // the "GPU binary": here PTX text, NUL-terminated
    void* unused;
};
constexpr int kFatMagic = 0x466243b1;

struct PushedConfig {
    WsDim3 grid, block;
    size_t shared;
    void* stream;
};

struct Runtime {
    std::recursive_mutex mutex;
    size_t deviceHeapBytes = 0;                      // cudaLimitMallocHeapSize above 8 MiB: its allocation's size
    std::vector<std::string> ptxTexts;               // one per registered fat binary, in order
    std::string moduleText;                          // their merged module, as loaded
    std::map<const void*, std::string> kernels;      // host stub -> kernel (mangled) name
    std::map<const void*, std::string> variables;    // host shadow -> module variable name
    std::unique_ptr<runtime::SimDevice> device;
    bool loaded = false;
    std::string loadError;                           // why the PTX did not load (every launch says it)
    timing::GpuSpec spec;
    bool haveSpec = false;
    cudaError_t sticky = cudaSuccess;                // a kernel fault: every later call returns it
    cudaError_t pendingFault = cudaSuccess;          // a fault not yet seen by the host (see Call)
    std::string pendingFaultText;                    // its report, printed when the host sees it
    std::set<CUstream_st*> streams;
    std::set<CUevent_st*> events;
    std::map<uint64_t, size_t> managed;              // unified allocations: base -> bytes
    std::map<uintptr_t, int> managedPages;           // host pages mapped for them -> users
    std::set<uint64_t> managedOnHost;                // cudaStreamAttachMemAsync(..., cudaMemAttachHost)'d allocations
    std::set<std::string> unsupportedSaid;
    std::string pendingPrintf;                       // kernel printf output not yet flushed
    std::map<const void*, uint32_t> maxDynamicShared;   // cudaFuncSetAttribute's opt-in, per kernel
    size_t reportsShown = 0;                         // checker reports already printed
    std::set<void*> mappedHost;                      // cudaHostAlloc(..., cudaHostAllocMapped)
    int capturing = -1;                              // the stream being captured into a graph
    std::map<const void*, size_t> moduleOf;          // fat binary handle -> its index in ptxTexts
    // cudaHostRegister'd host ranges: base -> (bytes, flags, the device mirror of a mapped range)
    struct Registered {
        size_t bytes;
        unsigned flags;
        uint64_t mirror;   // 0 unless registered with cudaHostRegisterMapped
    };
    std::map<uintptr_t, Registered> registered;
    std::string launchLabel;                         // --timed: names the launch being run
    std::string launchKernel;                        // the launch being run (its PTX name), for $WARPSCOPE_LAUNCH_COUNTERS
    size_t l2FetchGranularity = 64, persistingL2 = 0;   // cudaDeviceSetLimit's hints, given back by Get
    std::map<uintptr_t, std::pair<size_t, unsigned>> pinnedHost;
    // The device's memory pool (cudaMallocAsync): its allocations, their bytes and the attributes.
    std::map<uint64_t, size_t> poolAllocs;
    uint64_t poolUsed = 0, poolUsedHigh = 0, poolThreshold = 0;
    int poolReuse[3] = {1, 1, 1};   // cudaMallocHost / cudaHostAlloc: base -> (bytes, flags)
    // Graph memory (cudaGraphAddMemAllocNode, cudaMallocAsync in a capture): base -> (bytes, allocated
    // now). The device memory stays reserved at its address for the program's life; a node (or
    // cudaFree after the launch) only allocates and frees it. Freed bytes stay cached until a trim.
    std::map<uint64_t, std::pair<size_t, bool>> graphAllocs;
    uint64_t graphUsed = 0, graphUsedHigh = 0, graphCached = 0, graphReservedHigh = 0;
    std::vector<uint64_t> captureAllocs;                 // the capture in progress: its cudaMallocAsync's
    std::map<int, std::vector<uint64_t>> capturedAllocs; // captured graph -> its allocations
    // $WARPSCOPE_TIMELINE_OUT: the ops in the last write of the timeline, and when it was.
    size_t timelineOpsWritten = 0;
    std::chrono::steady_clock::time_point timelineWrittenAt{};
};

thread_local cudaError_t t_lastError = cudaSuccess;
thread_local std::vector<PushedConfig> t_configs;

Runtime& state() {
    static Runtime* rt = new Runtime;   // never destroyed: module destructors call in at exit
    return *rt;
}

// Under warpscope run (WARPSCOPE_LINE_BUFFERED=1) stdout is line-buffered from before main, so a
// program stopped by a limit keeps what it printed, and stdout and stderr interleave as on a terminal.
__attribute__((constructor)) void lineBufferedStdout() {
    if (const char* l = std::getenv("WARPSCOPE_LINE_BUFFERED"); l && std::string(l) == "1") std::setvbuf(stdout, nullptr, _IOLBF, 0);
}

// The GPU preset the device reports ($WARPSCOPE_GPU, default h100).
void loadSpec(Runtime& rt) {
    if (const char* d = std::getenv("WARPSCOPE_DATA_DIR"); d && *d) base::useDataDir(d);
    else if (&__warpscope_data_dir && __warpscope_data_dir && *__warpscope_data_dir) base::useDataDir(__warpscope_data_dir);
    const char* name = std::getenv("WARPSCOPE_GPU");
    try {
        rt.spec = timing::findPreset(name && *name ? name : "h100", timing::presetFolders());
        rt.haveSpec = true;
    } catch (const Error& e) {
        std::fprintf(stderr, "warpscope: no GPU preset (%s); device properties are those of a generic GPU and events measure no time\n", e.what());
    }
}

// The program's status for `warpscope run` ($WARPSCOPE_STATUS_FILE, else .warpscope-status in the
// sandbox's folder): "fault" when a kernel faulted, "check" when a checker reported.
void writeStatus(const char* what) {
    std::string path;
    if (const char* p = std::getenv("WARPSCOPE_STATUS_FILE"); p && *p) path = p;
    else if (const char* d = std::getenv("WARPSCOPE_SANDBOX"); d && *d) path = std::string(d) + "/.warpscope-status";
    if (path.empty()) return;
    std::ofstream f(path, std::ios::app);
    f << what << "\n";
}

bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

// The module-scope symbols of one PTX text that are private to its translation unit (string
// literals, static variables, .weak template instances): neither .visible nor .extern.
std::set<std::string> privateSymbols(const std::string& text) {
    std::set<std::string> names;
    std::istringstream in(text);
    std::string line;
    int depth = 0;
    while (std::getline(in, line)) {
        size_t i = line.find_first_not_of(" \t");
        if (depth == 0 && i != std::string::npos && line[i] == '.') {
            std::string_view t = std::string_view(line).substr(i);
            // Internal linkage: not .visible, or a _ZL name (clang makes a static __device__ variable
            // that host code registers .visible, keeping its internal mangled name).
            const bool decl = t.starts_with(".global") || t.starts_with(".const") || t.starts_with(".weak") || t.starts_with(".func") ||
                              t.starts_with(".visible .global") || t.starts_with(".visible .const");
            const bool hidden = !t.starts_with(".visible") && !t.starts_with(".extern") && !t.starts_with(".entry");
            if (decl && (hidden || t.find(" _ZL") != std::string_view::npos)) {
                std::string name;
                if (size_t f = line.find(".func", i); f != std::string::npos) {
                    size_t p = line.find_first_not_of(" \t", f + 5);
                    if (p != std::string::npos && line[p] == '(') p = line.find(')', p) == std::string::npos ? p : line.find_first_not_of(" \t", line.find(')', p) + 1);
                    while (p != std::string::npos && p < line.size() && identChar(line[p])) name += line[p++];
                } else {
                    std::string head = line.substr(i, line.find_first_of("[=;", i) - i);
                    size_t e = head.find_last_not_of(" \t");
                    size_t b = e;
                    while (b != std::string::npos && b > 0 && identChar(head[b - 1])) --b;
                    if (e != std::string::npos) name = head.substr(b, e - b + 1);
                }
                if (!name.empty()) names.insert(name);
            }
        }
        for (char c : line) depth += c == '{' ? 1 : c == '}' ? -1 : 0;
    }
    return names;
}

// Merges the PTX of every registered fat binary (one per translation unit with kernels) into one
// module: the first keeps its header, the others lose .version/.target/.address_size, have their
// .file numbers moved up (their line tables stay apart) and their private symbols renamed
// (each unit has its own _$_str, static variables and template instances).
std::string mergePtx(const std::vector<std::string>& texts) {
    if (texts.size() == 1) return texts[0];
    std::string out;
    std::set<std::string> entries;   // kernels defined so far
    for (size_t k = 0; k < texts.size(); ++k) {
        std::set<std::string> rename = k > 0 ? privateSymbols(texts[k]) : std::set<std::string>();
        const std::string suffix = "_ws" + std::to_string(k);
        std::istringstream in(texts[k]);
        std::string line;
        int skipDepth = -1;   // inside a kernel an earlier unit already defined (a template instance)
        bool skipStarted = false;
        while (std::getline(in, line)) {
            size_t i = line.find_first_not_of(" \t");
            std::string_view t = i == std::string::npos ? std::string_view() : std::string_view(line).substr(i);
            if (skipDepth >= 0) {
                for (char ch : line) {
                    if (ch == '{') ++skipDepth, skipStarted = true;
                    if (ch == '}') --skipDepth;
                }
                if (skipStarted && skipDepth == 0) skipDepth = -1;
                continue;
            }
            if (size_t e = line.find(".entry"); e != std::string::npos && i != std::string::npos && line[i] == '.') {
                size_t p = line.find_first_not_of(" \t", e + 6), q = p;
                while (q != std::string::npos && q < line.size() && identChar(line[q])) ++q;
                std::string name = p == std::string::npos ? std::string() : line.substr(p, q - p);
                if (!name.empty() && !entries.insert(name).second) {   // the same kernel (ODR): keep the first
                    skipDepth = 0;
                    skipStarted = false;
                    for (char ch : line) {
                        if (ch == '{') ++skipDepth, skipStarted = true;
                        if (ch == '}') --skipDepth;
                    }
                    if (skipStarted && skipDepth == 0) skipDepth = -1;
                    continue;
                }
            }
            if (k > 0 && (t.starts_with(".version") || t.starts_with(".target") || t.starts_with(".address_size"))) continue;
            if (k > 0 && (t.starts_with(".file") || t.starts_with(".loc"))) {
                size_t n = line.find_first_of("0123456789", i);
                size_t e = line.find_first_not_of("0123456789", n);
                if (n != std::string::npos) {
                    int num = std::atoi(line.substr(n, e - n).c_str()) + int(k) * 1000;
                    line = line.substr(0, n) + std::to_string(num) + (e == std::string::npos ? "" : line.substr(e));
                }
            }
            if (!rename.empty() && !t.starts_with(".file")) {
                std::string renamed;
                for (size_t p = 0; p < line.size();) {
                    if (identChar(line[p]) && !std::isdigit(static_cast<unsigned char>(line[p])) && (p == 0 || !(identChar(line[p - 1]) || line[p - 1] == '%'))) {
                        size_t e = p;
                        while (e < line.size() && identChar(line[e])) ++e;
                        std::string tok = line.substr(p, e - p);
                        renamed += rename.count(tok) ? tok + suffix : tok;
                        p = e;
                    } else {
                        renamed += line[p++];
                    }
                }
                line = std::move(renamed);
            }
            out += line;
            out += '\n';
        }
    }
    return out;
}

// ---------------------------------------------------------------- 1b. kernel printf and assert
// The records the prelude's printf left in each translation unit's FIFO (warpscope_cuda.h,
// section 9), formatted on the host.
std::string deviceString(Runtime& rt, uint64_t addr) {
    const mem::Allocation* a = rt.device->memory().find(addr, 1);
    if (!a) return "(bad string address)";
    const char* p = reinterpret_cast<const char*>(a->data.get() + (addr - a->base));
    return std::string(p, strnlen(p, a->base + a->size - addr));
}

std::string formatRecord(Runtime& rt, const std::string& fmt, const uint64_t* args, size_t nargs) {
    std::string out;
    size_t next = 0;
    auto take = [&](uint64_t* v) {
        if (next >= nargs) return false;
        *v = args[next++];
        return true;
    };
    for (size_t p = 0; p < fmt.size(); ++p) {
        if (fmt[p] != '%') {
            out += fmt[p];
            continue;
        }
        size_t start = p++;
        if (p < fmt.size() && fmt[p] == '%') {
            out += '%';
            continue;
        }
        std::string spec = "%";
        while (p < fmt.size() && std::strchr("-+ #0", fmt[p])) spec += fmt[p++];
        uint64_t v = 0;
        if (p < fmt.size() && fmt[p] == '*') {
            ++p;
            if (take(&v)) spec += std::to_string(static_cast<int>(v));
        }
        while (p < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[p]))) spec += fmt[p++];
        if (p < fmt.size() && fmt[p] == '.') {
            spec += fmt[p++];
            if (p < fmt.size() && fmt[p] == '*') {
                ++p;
                if (take(&v)) spec += std::to_string(static_cast<int>(v));
            }
            while (p < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[p]))) spec += fmt[p++];
        }
        while (p < fmt.size() && std::strchr("hlLqjzt", fmt[p])) ++p;   // every argument arrived as 64 bits
        if (p >= fmt.size()) {
            out += fmt.substr(start);
            break;
        }
        const char conv = fmt[p];
        char buf[512];
        if (!std::strchr("diouxXcfFeEgGaAsp", conv) || !take(&v)) {
            out += fmt.substr(start, p - start + 1);
            continue;
        }
        if (conv == 'd' || conv == 'i') std::snprintf(buf, sizeof buf, (spec + "lld").c_str(), static_cast<long long>(v));
        else if (std::strchr("ouxX", conv)) std::snprintf(buf, sizeof buf, (spec + "ll" + conv).c_str(), static_cast<unsigned long long>(v));
        else if (conv == 'c') std::snprintf(buf, sizeof buf, (spec + "c").c_str(), static_cast<int>(v));
        else if (conv == 's') {
            std::string str = v ? deviceString(rt, v) : "(null)";
            std::vector<char> big(str.size() + 512);
            std::snprintf(big.data(), big.size(), (spec + "s").c_str(), str.c_str());
            out += big.data();
            continue;
        } else if (conv == 'p') std::snprintf(buf, sizeof buf, (spec + "p").c_str(), reinterpret_cast<void*>(v));
        else {
            double d;
            std::memcpy(&d, &v, sizeof d);
            std::snprintf(buf, sizeof buf, (spec + conv).c_str(), d);
        }
        out += buf;
    }
    return out;
}

// After a launch: moves the kernels' printf records to the pending output, emptying the FIFOs.
void drainPrintf(Runtime& rt) {
    if (!rt.loaded) return;
    for (auto& var : rt.device->module().variables) {
        if (var.name.find("__ws_printf_fifo") == std::string::npos) continue;
        std::string usedName = var.name;
        usedName.replace(usedName.find("fifo"), 4, "used");
        try {
            size_t fifoBytes = 0;
            const uint64_t fifo = rt.device->symbolAddress(var.name, &fifoBytes);
            const uint64_t usedAt = rt.device->symbolAddress(usedName);
            uint64_t* used = reinterpret_cast<uint64_t*>(rt.device->memory().hostPointer(usedAt, 8, "printf FIFO"));
            const uint64_t words = fifoBytes / 8;
            const uint64_t* w = reinterpret_cast<const uint64_t*>(rt.device->memory().hostPointer(fifo, fifoBytes, "printf FIFO"));
            const uint64_t end = std::min(*used, words);
            for (uint64_t at = 0; at + 2 <= end;) {
                const uint64_t len = w[at];
                if (len < 2 || at + len > end) break;   // a record cut off by a full FIFO
                rt.pendingPrintf += formatRecord(rt, deviceString(rt, w[at + 1]), w + at + 2, len - 2);
                at += len;
            }
            if (*used > words) rt.pendingPrintf += "warpscope: the kernel printf buffer (1 MiB) was full; later printf output of that launch was dropped, as on a GPU\n";
            *used = 0;
        } catch (const Error&) {
        }
    }
}

// After a kernel trapped: the failed assert the prelude's __assert_fail noted, in CUDA's words
// ("file:line: function: block [x,y,z], thread [x,y,z] Assertion `e` failed."), or empty.
std::string takeAssert(Runtime& rt) {
    std::string text;
    for (auto& var : rt.device->module().variables) {
        if (var.name.find("__ws_assert_info") == std::string::npos) continue;
        try {
            const uint64_t at = rt.device->symbolAddress(var.name);
            uint64_t* a = reinterpret_cast<uint64_t*>(rt.device->memory().hostPointer(at, 64, "assert record"));
            if (a[0] == 0 || !text.empty()) continue;
            std::ostringstream o;
            o << deviceString(rt, a[2]) << ":" << a[3] << ": " << deviceString(rt, a[4]) << ": block: [" << (a[5] & 0xffffffffu) << ","
              << (a[5] >> 32) << "," << (a[6] & 0xffffffffu) << "], thread: [" << (a[6] >> 32) << "," << (a[7] & 0xffffffffu) << ","
              << (a[7] >> 32) << "] Assertion `" << deviceString(rt, a[1]) << "` failed.";
            text = o.str();
            a[0] = 0;
        } catch (const Error&) {
        }
    }
    return text;
}

// At a synchronisation point, as CUDA does: the kernels' printf output so far goes to stdout.
void flushPrintf(Runtime& rt) {
    if (rt.pendingPrintf.empty()) return;
    std::fwrite(rt.pendingPrintf.data(), 1, rt.pendingPrintf.size(), stdout);
    std::fflush(stdout);
    rt.pendingPrintf.clear();
}

// Events get their times from the timeline model (copies, kernels, events on streams). It starts
// with the program's first event (earlier work cannot lie between two of its events), or from the
// start with WARPSCOPE_TIMELINE=1 or WARPSCOPE_TIMED=1; never with WARPSCOPE_TIMELINE=0 (events
// then measure 0 ms). A kernel's duration on it:
// - by default, the plain simulator runs the kernel and its time is the issue-rate bound (every
//   scheduler of every SM issuing every cycle: SimDevice's estimate when a hook ran the launch),
//   a lower bound that costs nothing; copies are modelled in full;
// - with WARPSCOPE_TIMED=1 (warpscope run --timed), the cycle model runs every kernel (about ten
//   times slower) and each launch's modelled time is printed on stderr.
// A kernel's time without the cycle model, from what the plain simulator counted: the larger of
// - the issue bound: every scheduler of every SM issuing one warp-instruction a cycle, and
// - the path bound: a warp's instructions at 4 cycles each (the simulator's %clock counts so, so a
//   kernel that spins on clock64() takes the time it waits for) times the waves of blocks the
//   occupancy calculator allows.
// Memory time is not in it: a memory-bound kernel takes longer on a GPU (--timed models it).
double plainKernelMicros(const sim::Gpu& g, const timing::GpuSpec& spec) {
    const auto& cfg = g.config();
    const double blocks = double(cfg.grid.x) * cfg.grid.y * cfg.grid.z;
    const uint32_t threads = cfg.block.x * cfg.block.y * cfg.block.z;
    const double warps = blocks * ((threads + 31) / 32);
    const double instr = double(g.stats().warpInstructions);
    if (warps <= 0 || instr <= 0 || spec.clockMHz <= 0) return 0;
    timing::OccupancyInput in;
    in.threadsPerBlock = threads;
    in.registersPerThread = timing::TimingOptions{}.registersPerThread;
    in.sharedBytesPerBlock = g.program().staticSharedBytes + cfg.dynamicSharedBytes;
    const timing::Occupancy occ = timing::computeOccupancy(spec, in);
    const double perWave = double(spec.smCount) * std::max<uint32_t>(occ.activeBlocksPerSM, 1);
    const double waves = std::ceil(blocks / perWave);
    const double issueCycles = instr / std::max(1.0, double(spec.smCount) * spec.schedulersPerSM);
    const double pathCycles = 4.0 * instr / warps * waves;
    return std::max(issueCycles, pathCycles) / spec.clockMHz;
}

bool timedMode() {
    const char* t = std::getenv("WARPSCOPE_TIMED");
    return t && std::string(t) == "1";
}

// The grader's per-launch counters file ($WARPSCOPE_LAUNCH_COUNTERS, launch_counters.hpp): "" when off.
const std::string& countersPath() {
    static const std::string path = [] {
        const char* p = std::getenv("WARPSCOPE_LAUNCH_COUNTERS");
        return std::string(p && *p ? p : "");
    }();
    return path;
}

std::string demangle(const std::string& name);
void appendCounters(Runtime& rt, const sim::Gpu& g, const cudart::LaunchProbe& probe, double micros, bool timed) {
    const auto& cfg = g.config();
    const uint32_t grid[3] = {cfg.grid.x, cfg.grid.y, cfg.grid.z}, block[3] = {cfg.block.x, cfg.block.y, cfg.block.z};
    std::string name = demangle(rt.launchKernel);
    if (auto paren = name.find('('); paren != std::string::npos) name.erase(paren);
    std::ofstream(countersPath(), std::ios::app) << cudart::launchCountersLine(rt.launchKernel, name, grid, block, g.stats().warpInstructions, probe, micros, timed);
}

void enableTimeline(Runtime& rt) {
    if (!rt.haveSpec || rt.device->timelineEnabled()) return;
    if (const char* tl = std::getenv("WARPSCOPE_TIMELINE"); tl && std::string(tl) == "0") return;
    rt.device->enableTimeline(rt.spec);
    runtime::SimDevice* dev = rt.device.get();
    if (!timedMode()) {
        dev->onLaunch = [dev, spec = rt.spec, &rt](sim::Gpu& g) {
            g.packRegisterFiles();
            // With the counters file, a probe watches the launch (on one thread: it does not fork).
            std::unique_ptr<cudart::LaunchProbe> probe = countersPath().empty() ? nullptr : std::make_unique<cudart::LaunchProbe>();
            if (probe) g.setListener(probe.get());
            g.runToEnd(dev->options().threads);   // SimDevice's own runToEnd after the hook finds it done
            if (probe) g.setListener(nullptr);
            const double us = plainKernelMicros(g, spec);
            dev->reportKernelMicros(us);
            if (probe) appendCounters(rt, g, *probe, us, false);
        };
        return;
    }
    const timing::GpuSpec spec = rt.spec;
    dev->onLaunch = [dev, spec, &rt](sim::Gpu& g) {
        std::unique_ptr<cudart::LaunchProbe> probe = countersPath().empty() ? nullptr : std::make_unique<cudart::LaunchProbe>();
        const timing::TimingResult r = timing::runTimed(g, spec, dev->launchTimingOptions({}), probe.get());
        dev->reportKernelMicros(r.microseconds);
        if (probe) appendCounters(rt, g, *probe, r.microseconds, true);
        // One line per launch with its modelled time, as a profiler's summary gives it.
        // warpscope compare prog.cu reads these lines (app/cli/cmd_program_gpu.cpp).
        std::fprintf(stderr, "warpscope --timed: %s: %.3f us (%llu cycles at %.0f MHz, %u blocks per SM, %llu warp-instructions)\n",
                     rt.launchLabel.c_str(), r.microseconds, static_cast<unsigned long long>(r.cycles), spec.clockMHz,
                     r.occupancy.activeBlocksPerSM, static_cast<unsigned long long>(g.stats().warpInstructions));
    };
}

// A kernel's fault is shown when the host first sees it (the next call, as CUDA prints a failed
// assert at the next synchronisation): what the kernel printed before it stopped, CUDA's assert
// line, then warpscope's report of where it happened.
void showFault(Runtime& rt) {
    flushPrintf(rt);
    if (rt.pendingFaultText.empty()) return;
    std::fflush(stdout);
    std::fputs(rt.pendingFaultText.c_str(), stderr);
    rt.pendingFaultText.clear();
}

// The app asks for the program's timeline ($WARPSCOPE_TIMELINE_OUT, with $WARPSCOPE_TIMELINE=1):
// one JSON object, the ops as runtime::TimelineOp holds them (kind and engine as their enum
// numbers). Written as the program goes, so the app's Timeline follows it: before each launch the
// app pauses at, after an API call that added to it (at most every kTimelineWriteEvery), and when
// the program ends. Each write replaces the file whole (a new file renamed over the old), so a
// reader never sees half of one.
void writeTimelineOut(Runtime& rt, bool onlyWhenGrown = false) {
    const char* path = std::getenv("WARPSCOPE_TIMELINE_OUT");
    if (!path || !*path || !rt.device || !rt.device->timelineEnabled()) return;
    runtime::Timeline t;
    try {
        t = rt.device->timeline();
    } catch (const std::exception&) {
        return;
    }
    if (onlyWhenGrown && t.ops.size() == rt.timelineOpsWritten) {
        rt.timelineWrittenAt = std::chrono::steady_clock::now();
        return;
    }
    const std::string part = std::string(path) + ".part";
    std::ofstream f(part);
    f << "{\"source\": " << cudart::jsonString(t.source) << ", \"ops\": [";
    for (size_t i = 0; i < t.ops.size(); ++i) {
        const runtime::TimelineOp& op = t.ops[i];
        char nums[256];
        std::snprintf(nums, sizeof nums, "\"kind\": %d, \"engine\": %d, \"stream\": %d, \"start\": %.17g, \"end\": %.17g, \"bytes\": %llu, \"pinned\": %s, \"graph\": %s, \"launch\": %d",
                      static_cast<int>(op.kind), static_cast<int>(op.engine), op.stream, op.startUs, op.endUs, static_cast<unsigned long long>(op.bytes),
                      op.pinned ? "true" : "false", op.inGraph ? "true" : "false", op.launchIndex);
        f << (i ? ",\n" : "\n") << "  {\"label\": " << cudart::jsonString(op.label) << ", " << nums << "}";
    }
    f << "\n]}\n";
    f.close();
    if (f) std::rename(part.c_str(), path);
    rt.timelineOpsWritten = t.ops.size();
    rt.timelineWrittenAt = std::chrono::steady_clock::now();
}

// After an API call: the timeline again when it grew and the last write is old enough.
constexpr std::chrono::milliseconds kTimelineWriteEvery{100};
void writeTimelineIfGrown(Runtime& rt) {
    if (!rt.device || !rt.device->timelineEnabled() || !std::getenv("WARPSCOPE_TIMELINE_OUT")) return;
    if (std::chrono::steady_clock::now() - rt.timelineWrittenAt < kTimelineWriteEvery) return;
    writeTimelineOut(rt, true);
}

void ensureDevice(Runtime& rt) {
    if (rt.device) return;
    static bool atExit = false;
    if (!atExit) {
        atExit = true;
        // Kernel printf output still pending when the program ends is printed then.
        std::atexit([] {
            Runtime& r = state();
            std::lock_guard<std::recursive_mutex> lock(r.mutex);
            showFault(r);   // a fault the program never called again after, and pending printf output
            writeTimelineOut(r);
        });
    }
    loadSpec(rt);
    sim::LaunchOptions opt;
    if (rt.haveSpec) opt.numSMs = rt.spec.smCount;
    // warpscope run --check initcheck,racecheck and --threads N.
    if (const char* chk = std::getenv("WARPSCOPE_CHECK"); chk && *chk) {
        const std::string list = chk;
        opt.initcheck = list.find("initcheck") != std::string::npos;
        opt.racecheck = list.find("racecheck") != std::string::npos;
    }
    // A launch spreads its blocks over every core, as a lesson's does (Gpu::runToEnd keeps it on
    // one thread where blocks may talk to each other, and the results are the same either way);
    // $WARPSCOPE_THREADS (warpscope run --threads N; the grader's program runs set 1) overrides.
    opt.threads = std::max(1u, std::thread::hardware_concurrency());
    if (rlimit np{}; getrlimit(RLIMIT_NPROC, &np) == 0 && np.rlim_cur != RLIM_INFINITY)
        opt.threads = static_cast<uint32_t>(std::clamp<rlim_t>(np.rlim_cur, 1, opt.threads));   // threads count as processes there
    if (const char* t = std::getenv("WARPSCOPE_THREADS"); t && *t) opt.threads = static_cast<uint32_t>(std::max(1L, std::strtol(t, nullptr, 10)));
    if (const char* b = std::getenv("WARPSCOPE_BUDGET"); b && *b) {   // warpscope run --budget
        const unsigned long long n = std::strtoull(b, nullptr, 10);
        if (n > 0) opt.instructionBudget = n;
    }
    // Under an address-space limit (warpscope run sets one) device memory gets half of it, so a
    // huge cudaMalloc is cudaErrorMemoryAllocation rather than the host running out.
    if (rlimit as{}; getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY)
        opt.deviceMemoryBytes = std::min<uint64_t>(mem::defaultDeviceMemoryLimit(), as.rlim_cur / 2);
    rt.device = std::make_unique<runtime::SimDevice>(opt);
    if (!rt.ptxTexts.empty()) {
        try {
            rt.moduleText = mergePtx(rt.ptxTexts);
            rt.device->loadModule(rt.moduleText, "program");
            rt.loaded = true;
        } catch (const Error& e) {
            rt.loadError = e.what();
            std::fprintf(stderr, "warpscope: the program's kernels did not load: %s\n", e.what());
        }
    }
    if (const char* tl = std::getenv("WARPSCOPE_TIMELINE"); (tl && std::string(tl) == "1") || timedMode() || !countersPath().empty())
        enableTimeline(rt);
}

// Every API call starts here: the state, locked, with the device created.
struct Call {
    Runtime& rt;
    std::lock_guard<std::recursive_mutex> lock;
    Call() : rt(state()), lock(rt.mutex) {
        ensureDevice(rt);
        // A GPU reports a kernel's fault once the host next waits on or talks to the device, not to
        // the launch or to cudaGetLastError right after it (the kernel is still running then).
        if (rt.pendingFault != cudaSuccess && rt.sticky == cudaSuccess) {
            rt.sticky = rt.pendingFault;
            showFault(rt);
        }
    }
    ~Call() { writeTimelineIfGrown(rt); }
};

// ---------------------------------------------------------------- 2. errors
cudaError_t ret(cudaError_t e) {
    if (e != cudaSuccess) t_lastError = e;
    return e;
}

// A query's answer into the caller's out-parameter: cudaErrorInvalidValue when it gave none.
template <class T, class V>
cudaError_t answer(T* out, V value) {
    if (!out) return ret(cudaErrorInvalidValue);
    *out = static_cast<T>(value);
    return cudaSuccess;
}

// A call that cannot proceed because an earlier kernel faulted.
#define WS_STICKY(rt) \
    do { \
        if ((rt).sticky != cudaSuccess) return ret((rt).sticky); \
    } while (0)

cudaError_t complain(cudaError_t e, const std::string& message) {
    std::fprintf(stderr, "warpscope: %s\n", message.c_str());
    return ret(e);
}

cudaError_t notSupported(const char* call, const char* why) {
    Runtime& rt = state();
    std::lock_guard<std::recursive_mutex> lock(rt.mutex);
    if (rt.unsupportedSaid.insert(call).second)
        std::fprintf(stderr, "warpscope: %s is not supported by warpscope's CUDA runtime (%s); it returns cudaErrorNotSupported\n", call, why);
    return ret(cudaErrorNotSupported);
}

// Hints that change no result: checked, accepted, and noted once on stderr (never a silent no-op).
void noteHint(Runtime& rt, const char* call, const char* why) {
    if (rt.unsupportedSaid.insert(call).second) std::fprintf(stderr, "warpscope: %s is accepted as a hint: %s\n", call, why);
}

struct ErrorText {
    cudaError_t code;
    const char* name;
    const char* text;
};
// Descriptions in the words of the CUDA Runtime API reference, shortened.
const ErrorText kErrors[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorCudartUnloading, "cudaErrorCudartUnloading", "driver shutting down"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidHostPointer, "cudaErrorInvalidHostPointer", "invalid host pointer"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {cudaErrorMissingConfiguration, "cudaErrorMissingConfiguration", "__global__ function call is not configured"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorInvalidKernelImage, "cudaErrorInvalidKernelImage", "device kernel image is invalid"},
    {cudaErrorInvalidPtx, "cudaErrorInvalidPtx", "a PTX JIT compilation failed"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorIllegalState, "cudaErrorIllegalState", "the operation cannot be performed in the present state"},
    {cudaErrorSymbolNotFound, "cudaErrorSymbolNotFound", "named symbol not found"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {cudaErrorUnsupportedLimit, "cudaErrorUnsupportedLimit", "limit is not supported on this architecture"},
    {cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {cudaErrorCooperativeLaunchTooLarge, "cudaErrorCooperativeLaunchTooLarge", "too many blocks in cooperative launch"},
    {cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
    {cudaErrorHostMemoryAlreadyRegistered, "cudaErrorHostMemoryAlreadyRegistered", "part or all of the requested memory range is already mapped"},
    {cudaErrorHostMemoryNotRegistered, "cudaErrorHostMemoryNotRegistered", "pointer does not correspond to a registered memory region"},
    {cudaErrorHardwareStackError, "cudaErrorHardwareStackError", "an illegal stack access was encountered"},
    {cudaErrorIllegalInstruction, "cudaErrorIllegalInstruction", "an illegal instruction was encountered"},
    {cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress", "misaligned address"},
    {cudaErrorInvalidAddressSpace, "cudaErrorInvalidAddressSpace", "operation not supported on global/shared address space"},
    {cudaErrorInvalidPc, "cudaErrorInvalidPc", "invalid program counter"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorNotPermitted, "cudaErrorNotPermitted", "operation not permitted"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorStreamCaptureUnsupported, "cudaErrorStreamCaptureUnsupported", "operation not permitted when stream is capturing"},
    {cudaErrorGraphExecUpdateFailure, "cudaErrorGraphExecUpdateFailure", "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};

const ErrorText* findError(cudaError_t e) {
    for (auto& t : kErrors)
        if (t.code == e) return &t;
    return nullptr;
}

// The error CUDA gives for what the simulator reported while running a kernel.
cudaError_t launchErrorFor(const Error& e) {
    const std::string m = e.what();
    switch (e.kind()) {
    case Error::Kind::Fault:
        if (m.find("isaligned") != std::string::npos) return cudaErrorMisalignedAddress;
        if (m.find("trap") != std::string::npos) return cudaErrorLaunchFailure;
        if (m.find("stack overflow") != std::string::npos) return cudaErrorHardwareStackError;
        if (m.find("Barrier") != std::string::npos) return cudaErrorLaunchFailure;
        return cudaErrorIllegalAddress;
    case Error::Kind::Budget: return cudaErrorLaunchTimeout;
    case Error::Kind::Deadlock:
    case Error::Kind::Cancelled: return cudaErrorLaunchFailure;
    case Error::Kind::Unsupported: return cudaErrorNotSupported;
    case Error::Kind::Input:
        return m.find("cudaErrorCooperativeLaunchTooLarge") != std::string::npos ? cudaErrorCooperativeLaunchTooLarge : cudaErrorInvalidValue;
    case Error::Kind::Device: return cudaErrorUnknown;
    }
    return cudaErrorUnknown;
}

// "vectorAdd(float const*, float const*, float*, int)" for "_Z9vectorAddPKfS0_Pfi".
std::string demangle(const std::string& name) {
    int status = 0;
    char* d = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
    std::string out = status == 0 && d ? d : name;
    std::free(d);
    return out;
}

// ---------------------------------------------------------------- 5. memory helpers
// Device addresses live in the simulator's own range (mem/memory.hpp); a host pointer never does.
bool inDeviceRange(const void* p) {
    uint64_t a = reinterpret_cast<uint64_t>(p);
    return a >= mem::kConstBase && a < mem::kGlobalBase + (uint64_t(1) << 40);
}

// A live device range [p, p+n), or a message saying what is wrong with it.
bool liveDevice(Runtime& rt, const void* p, size_t n, const char* call, const char* role, std::string* why) {
    uint64_t a = reinterpret_cast<uint64_t>(p);
    if (rt.device->memory().find(a, std::max<size_t>(n, 1))) return true;
    std::ostringstream o;
    o << call << ": the " << role << " " << p << " (" << n << " bytes) is not inside a live device allocation";
    if (const mem::Allocation* near = rt.device->memory().nearest(a)) {
        if (near->freed && a >= near->base && a < near->base + near->size) o << " ('" << near->name << "' was freed)";
        else if (a >= near->base && a < near->base + near->size) o << " (it runs past the end of '" << near->name << "', " << near->size << " bytes)";
    }
    *why = o.str();
    return false;
}

const size_t kPage = static_cast<size_t>(sysconf(_SC_PAGESIZE));

// Pushes the host view of unified memory to the device before device work, and pulls it back
// after; cheap when a program has none.
struct ManagedSync {
    Runtime& rt;
    explicit ManagedSync(Runtime& r) : rt(r) {
        for (auto& [base, n] : rt.managed)
            if (!rt.managedOnHost.count(base))   // attached to the host: the host owns it (cudaStreamAttachMemAsync)
            std::memcpy(rt.device->memory().hostPointer(base, n, "unified memory"), reinterpret_cast<const void*>(base), n);
    }
    ~ManagedSync() {
        for (auto& [base, n] : rt.managed) {
            const mem::Allocation* a = rt.managedOnHost.count(base) ? nullptr : rt.device->memory().find(base, n);
            if (a) std::memcpy(reinterpret_cast<void*>(base), a->data.get() + (base - a->base), n);
        }
    }
};

// Registered host memory mapped for kernels (cudaHostRegister with cudaHostRegisterMapped) has a
// device mirror at another address (cudaHostGetDevicePointer gives it): the host range is pushed
// to the mirror before every launch and pulled back after it. Copies never touch the mirror.
struct MirrorSync {
    Runtime& rt;
    explicit MirrorSync(Runtime& r) : rt(r) {
        for (auto& [base, reg] : rt.registered)
            if (reg.mirror) std::memcpy(rt.device->memory().hostPointer(reg.mirror, reg.bytes, "registered host memory"), reinterpret_cast<const void*>(base), reg.bytes);
    }
    ~MirrorSync() {
        for (auto& [base, reg] : rt.registered) {
            if (!reg.mirror) continue;
            const mem::Allocation* a = rt.device->memory().find(reg.mirror, reg.bytes);
            if (a) std::memcpy(reinterpret_cast<void*>(base), a->data.get() + (reg.mirror - a->base), reg.bytes);
        }
    }
};

// The registration that holds [p, p+n) whole, or null.
const Runtime::Registered* registeredRange(Runtime& rt, const void* p, size_t n) {
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    auto it = rt.registered.upper_bound(a);
    if (it == rt.registered.begin()) return nullptr;
    --it;
    return a + n <= it->first + it->second.bytes ? &it->second : nullptr;
}

bool mapManaged(Runtime& rt, uint64_t base, size_t n) {
    uintptr_t first = base / kPage * kPage, end = (base + n + kPage - 1) / kPage * kPage;
    std::vector<uintptr_t> mapped;
    for (uintptr_t p = first; p < end; p += kPage) {
        if (rt.managedPages[p]++ > 0) continue;
        void* got = mmap(reinterpret_cast<void*>(p), kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        if (got != reinterpret_cast<void*>(p)) {
            if (got != MAP_FAILED) munmap(got, kPage);
            rt.managedPages.erase(p);
            for (uintptr_t q : mapped) {
                munmap(reinterpret_cast<void*>(q), kPage);
                rt.managedPages.erase(q);
            }
            for (uintptr_t q = first; q < p; q += kPage)
                if (auto it = rt.managedPages.find(q); it != rt.managedPages.end() && --it->second == 0) rt.managedPages.erase(it);
            return false;
        }
        mapped.push_back(p);
    }
    return true;
}

void unmapManaged(Runtime& rt, uint64_t base, size_t n) {
    uintptr_t first = base / kPage * kPage, end = (base + n + kPage - 1) / kPage * kPage;
    for (uintptr_t p = first; p < end; p += kPage) {
        auto it = rt.managedPages.find(p);
        if (it == rt.managedPages.end()) continue;
        if (--it->second == 0) {
            munmap(reinterpret_cast<void*>(p), kPage);
            rt.managedPages.erase(it);
        }
    }
}

// One allocation valid on host and device (unified memory, mapped host memory): a device
// allocation whose address is also mapped in this process (ManagedSync keeps the two in step).
cudaError_t allocShared(Runtime& rt, void** out, size_t size, const char* call, const std::string& label) {
    uint64_t a = 0;
    try {
        a = rt.device->malloc(size, label);
    } catch (const Error& e) {
        return complain(cudaErrorMemoryAllocation, std::string(call) + ": " + e.what());
    } catch (const std::bad_alloc&) {
        return complain(cudaErrorMemoryAllocation, std::string(call) + ": the host has no memory left to simulate it");
    }
    if (!mapManaged(rt, a, size)) {
        rt.device->free(a);
        return complain(cudaErrorMemoryAllocation, std::string(call) + ": the host address range of the allocation is taken, so it cannot be mapped on the host");
    }
    rt.managed[a] = size;
    *out = reinterpret_cast<void*>(a);
    return cudaSuccess;
}

int streamId(Runtime& rt, cudaStream_t s, bool* ok) {
    *ok = true;
    if (s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread) return 0;
    if (!rt.streams.count(s)) {
        *ok = false;
        return 0;
    }
    return s->id;
}

// ---------------------------------------------------------------- 6. copies
cudaError_t copy(void* dst, const void* src, size_t n, cudaMemcpyKind kind, cudaStream_t stream, bool async, const char* call) {
    Call c;
    if (!async) flushPrintf(c.rt);   // a blocking copy synchronises
    WS_STICKY(c.rt);
    bool okStream = true;
    int sid = streamId(c.rt, stream, &okStream);
    if (!okStream) return complain(cudaErrorInvalidResourceHandle, std::string(call) + ": the stream was never created or was destroyed");
    if (n == 0) return cudaSuccess;
    if (!dst || !src) return complain(cudaErrorInvalidValue, std::string(call) + ": a null pointer");
    const bool dDev = inDeviceRange(dst), sDev = inDeviceRange(src);
    if (kind == cudaMemcpyDefault) kind = dDev ? (sDev ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice) : (sDev ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
    const bool wantD = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    const bool wantS = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return complain(cudaErrorInvalidMemcpyDirection, std::string(call) + ": not a cudaMemcpyKind");
    static const char* kKinds[] = {"cudaMemcpyHostToHost", "cudaMemcpyHostToDevice", "cudaMemcpyDeviceToHost", "cudaMemcpyDeviceToDevice"};
    if (wantD != dDev)
        return complain(cudaErrorInvalidValue, std::string(call) + " with " + kKinds[kind] + ": the destination " +
                                                   (dDev ? "is a device pointer" : "is a host pointer, not device memory"));
    if (wantS != sDev)
        return complain(cudaErrorInvalidValue, std::string(call) + " with " + kKinds[kind] + ": the source " +
                                                   (sDev ? "is a device pointer" : "is a host pointer, not device memory"));
    std::string why;
    if (dDev && !liveDevice(c.rt, dst, n, call, "destination", &why)) return complain(cudaErrorInvalidValue, why);
    if (sDev && !liveDevice(c.rt, src, n, call, "source", &why)) return complain(cudaErrorInvalidValue, why);
    try {
        ManagedSync sync(c.rt);
        const uint64_t d = reinterpret_cast<uint64_t>(dst), s = reinterpret_cast<uint64_t>(src);
        // Registered host memory is page-locked: its copies go through a pinned staging block so
        // that the timeline models them as pinned ones (the simulator copies at once, so the
        // block can go right after; a captured copy runs later, so it reads the range itself).
        const bool stage = c.rt.capturing < 0 && ((kind == cudaMemcpyHostToDevice && registeredRange(c.rt, src, n)) ||
                                                  (kind == cudaMemcpyDeviceToHost && registeredRange(c.rt, dst, n)));
        if (stage) {
            struct Staging {
                runtime::SimDevice& dev;
                void* p;
                ~Staging() { dev.hostFree(p); }
            } staging{*c.rt.device, c.rt.device->hostAlloc(n, true)};
            if (kind == cudaMemcpyHostToDevice) {
                std::memcpy(staging.p, src, n);
                c.rt.device->copyToDevice(d, staging.p, n, sid, !async, call);
            } else {
                c.rt.device->copyToHost(staging.p, s, n, sid, !async, call);
                std::memcpy(dst, staging.p, n);
            }
            return cudaSuccess;
        }
        switch (kind) {
        case cudaMemcpyHostToHost: std::memmove(dst, src, n); break;
        case cudaMemcpyHostToDevice: c.rt.device->copyToDevice(d, src, n, sid, !async, call); break;
        case cudaMemcpyDeviceToHost: c.rt.device->copyToHost(dst, s, n, sid, !async, call); break;
        default:
            if (c.rt.device->inCapture(sid)) {   // checked now, copied at each graph launch
                c.rt.device->memory().hostPointer(s, n, "cudaMemcpyAsync device-to-device (captured source)");
                c.rt.device->memory().hostPointer(d, n, "cudaMemcpyAsync device-to-device (captured destination)");
                runtime::SimDevice* dev = c.rt.device.get();
                c.rt.device->captureOperation(sid, 'c', [dev, d, s, n] { dev->memcpyDtoD(d, s, n); });
                break;
            }
            if (c.rt.capturing >= 0) return notSupported("a device-to-device copy on a stream outside the capture", "it would run now, not when the graph is launched");
            c.rt.device->memcpyDtoD(d, s, n);
            break;
        }
    } catch (const Error& e) {
        return complain(cudaErrorInvalidValue, std::string(call) + ": " + e.what());
    }
    return cudaSuccess;
}

cudaError_t symbolRange(Runtime& rt, const void* symbol, size_t count, size_t offset, uint64_t* addr, const char* call) {
    auto it = rt.variables.find(symbol);
    if (it == rt.variables.end()) return complain(cudaErrorInvalidSymbol, std::string(call) + ": the symbol is not a __device__ or __constant__ variable of the program");
    if (!rt.loaded) return complain(cudaErrorInvalidSymbol, std::string(call) + ": the program's kernels did not load: " + rt.loadError);
    size_t size = 0;
    try {
        *addr = rt.device->symbolAddress(it->second, &size);
    } catch (const Error& e) {
        return complain(cudaErrorInvalidSymbol, std::string(call) + ": " + e.what());
    }
    if (offset > size || count > size - offset)
        return complain(cudaErrorInvalidValue, std::string(call) + ": " + std::to_string(count) + " bytes at offset " + std::to_string(offset) +
                                                   " do not fit in '" + it->second + "' (" + std::to_string(size) + " bytes)");
    *addr += offset;
    return cudaSuccess;
}

} // namespace

extern "C" {

// ---------------------------------------------------------------- 2. errors (API)
cudaError_t cudaGetLastError(void) {
    cudaError_t e = t_lastError;
    Runtime& rt = state();
    t_lastError = rt.sticky;   // a sticky error stays
    return e != cudaSuccess ? e : rt.sticky;
}
cudaError_t cudaPeekAtLastError(void) { return t_lastError != cudaSuccess ? t_lastError : state().sticky; }
const char* cudaGetErrorName(cudaError_t error) {
    const ErrorText* t = findError(error);
    return t ? t->name : "cudaErrorUnknown";
}
const char* cudaGetErrorString(cudaError_t error) {
    const ErrorText* t = findError(error);
    return t ? t->text : "unrecognized error code";
}

// ---------------------------------------------------------------- 3. registration
void** __cudaRegisterFatBinary(void* fatCubin) {
    Runtime& rt = state();
    std::lock_guard<std::recursive_mutex> lock(rt.mutex);
    auto* w = static_cast<const FatBinaryWrapper*>(fatCubin);
    if (w && w->magic == kFatMagic && w->data) {
        rt.ptxTexts.emplace_back(w->data);
        rt.moduleOf[fatCubin] = rt.ptxTexts.size() - 1;
    }
    else std::fprintf(stderr, "warpscope: a fat binary that is not PTX text was registered and is ignored (built by nvcc, not by warpscope build?)\n");
    if (rt.device) std::fprintf(stderr, "warpscope: a module registered after the first CUDA call is not loaded\n");
    return static_cast<void**>(fatCubin);
}
void __cudaRegisterFatBinaryEnd(void**) {}
void __cudaUnregisterFatBinary(void**) {}
void __cudaRegisterFunction(void**, const char* hostFun, char*, const char* deviceName, int, void*, void*, void*, void*, int*) {
    Runtime& rt = state();
    std::lock_guard<std::recursive_mutex> lock(rt.mutex);
    rt.kernels[hostFun] = deviceName;
}
void __cudaRegisterVar(void** handle, char* hostVar, char*, const char* deviceName, int, size_t, int, int) {
    Runtime& rt = state();
    std::lock_guard<std::recursive_mutex> lock(rt.mutex);
    std::string name = deviceName;
    // A unit's private variable (static __device__) carries that unit's suffix in the merged module.
    if (auto m = rt.moduleOf.find(handle); m != rt.moduleOf.end() && m->second > 0 && privateSymbols(rt.ptxTexts[m->second]).count(name))
        name += "_ws" + std::to_string(m->second);
    rt.variables[hostVar] = name;
}

// ---------------------------------------------------------------- 4. device queries
cudaError_t cudaGetDeviceCount(int* count) { return answer(count, 1); }
cudaError_t cudaGetDevice(int* device) { return answer(device, 0); }
cudaError_t cudaSetDevice(int device) {
    if (device != 0) return complain(cudaErrorInvalidDevice, "cudaSetDevice(" + std::to_string(device) + "): the simulator has one device, 0");
    Call c;
    return cudaSuccess;
}
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
    if (!prop) return ret(cudaErrorInvalidValue);
    if (device != 0) return ret(cudaErrorInvalidDevice);
    Call c;
    const timing::GpuSpec& s = c.rt.spec;
    std::memset(prop, 0, sizeof *prop);
    std::string name = "warpscope simulator (" + (c.rt.haveSpec ? s.name : std::string("generic")) + ")";
    std::snprintf(prop->name, sizeof prop->name, "%s", name.c_str());
    int major = 7, minor = 5;
    if (c.rt.haveSpec) std::sscanf(s.computeCapability.c_str(), "%d.%d", &major, &minor);
    prop->major = major;
    prop->minor = minor;
    prop->totalGlobalMem = static_cast<size_t>(c.rt.device->memory().limit());
    prop->sharedMemPerBlock = c.rt.haveSpec ? s.defaultSharedPerBlock : 49152;
    prop->regsPerBlock = c.rt.haveSpec ? int(s.maxRegistersPerBlock) : 65536;
    prop->warpSize = 32;
    prop->memPitch = 2147483647;
    prop->maxThreadsPerBlock = c.rt.haveSpec ? int(s.maxThreadsPerBlock) : 1024;
    prop->maxThreadsDim[0] = 1024;
    prop->maxThreadsDim[1] = 1024;
    prop->maxThreadsDim[2] = 64;
    prop->maxGridSize[0] = 2147483647;
    prop->maxGridSize[1] = 65535;
    prop->maxGridSize[2] = 65535;
    prop->clockRate = c.rt.haveSpec ? int(s.clockMHz * 1000) : 1000000;
    prop->totalConstMem = 65536;
    prop->textureAlignment = 512;
    prop->deviceOverlap = 1;
    prop->multiProcessorCount = c.rt.haveSpec ? int(s.smCount) : 4;
    prop->canMapHostMemory = 1;   // cudaHostAllocMapped
    prop->concurrentKernels = 1;
    prop->asyncEngineCount = c.rt.haveSpec ? int(s.copyEngines) : 2;
    prop->unifiedAddressing = 1;
    prop->l2CacheSize = c.rt.haveSpec ? int(s.l2Bytes) : 0;
    prop->maxThreadsPerMultiProcessor = c.rt.haveSpec ? int(s.maxThreadsPerSM) : 2048;
    prop->streamPrioritiesSupported = 0;
    prop->globalL1CacheSupported = 1;
    prop->localL1CacheSupported = 1;
    prop->sharedMemPerMultiprocessor = c.rt.haveSpec ? s.sharedPerSM : 65536;
    prop->regsPerMultiprocessor = c.rt.haveSpec ? int(s.registersPerSM) : 65536;
    prop->managedMemory = 1;
    prop->concurrentManagedAccess = 0;
    prop->sharedMemPerBlockOptin = c.rt.haveSpec ? s.maxSharedPerBlock : 49152;
    prop->maxBlocksPerMultiProcessor = c.rt.haveSpec ? int(s.maxBlocksPerSM) : 16;
    prop->reservedSharedMemPerBlock = c.rt.haveSpec ? s.reservedSharedPerBlock : 0;
    // The preset gives the DRAM bandwidth, not the bus: report a 5120-bit bus (the H100's) and the
    // memory clock that makes the usual 2 * clock * width / 8 the preset's peak bandwidth.
    prop->memoryBusWidth = 5120;
    prop->memoryClockRate = c.rt.haveSpec ? int(s.dramGBs * 1e6 * 8 / (2.0 * prop->memoryBusWidth)) : 0;
    prop->computeMode = cudaComputeModeDefault;
    prop->pciBusID = 1;
    prop->cooperativeLaunch = 1;   // cudaLaunchCooperativeKernel: the whole grid resident (grid.sync())
    prop->computePreemptionSupported = 1;
    prop->persistingL2CacheMaxSize = c.rt.haveSpec ? int(s.l2Bytes * 3 / 4) : 0;
    prop->accessPolicyMaxWindowSize = 134213632;
    prop->singleToDoublePrecisionPerfRatio = 2;
    return cudaSuccess;
}
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
    if (!value) return ret(cudaErrorInvalidValue);
    cudaDeviceProp p;
    if (cudaError_t e = cudaGetDeviceProperties(&p, device); e != cudaSuccess) return e;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = int(p.sharedMemPerBlock); break;
    case cudaDevAttrTotalConstantMemory: *value = int(p.totalConstMem); break;
    case cudaDevAttrWarpSize: *value = 32; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrClockRate: *value = p.clockRate; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = int(p.sharedMemPerMultiprocessor); break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: *value = 1; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = int(p.sharedMemPerBlockOptin); break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrMaxPitch: *value = 2147483647; break;
    case cudaDevAttrTextureAlignment: *value = int(p.textureAlignment); break;
    case cudaDevAttrGpuOverlap: *value = p.deviceOverlap; break;
    case cudaDevAttrKernelExecTimeout: *value = p.kernelExecTimeoutEnabled; break;
    case cudaDevAttrIntegrated: *value = p.integrated; break;
    case cudaDevAttrCanMapHostMemory: *value = p.canMapHostMemory; break;
    case cudaDevAttrComputeMode: *value = p.computeMode; break;
    case cudaDevAttrConcurrentKernels: *value = p.concurrentKernels; break;
    case cudaDevAttrEccEnabled: *value = p.ECCEnabled; break;
    case cudaDevAttrPciBusId: *value = p.pciBusID; break;
    case cudaDevAttrPciDeviceId: *value = p.pciDeviceID; break;
    case cudaDevAttrPciDomainId: *value = p.pciDomainID; break;
    case cudaDevAttrTccDriver: *value = 0; break;
    case cudaDevAttrMemoryClockRate: *value = p.memoryClockRate; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
    case cudaDevAttrAsyncEngineCount: *value = p.asyncEngineCount; break;
    case cudaDevAttrUnifiedAddressing: *value = p.unifiedAddressing; break;
    case cudaDevAttrStreamPrioritiesSupported: *value = p.streamPrioritiesSupported; break;
    case cudaDevAttrGlobalL1CacheSupported: *value = p.globalL1CacheSupported; break;
    case cudaDevAttrLocalL1CacheSupported: *value = p.localL1CacheSupported; break;
    case cudaDevAttrIsMultiGpuBoard: *value = 0; break;
    case cudaDevAttrHostNativeAtomicSupported: *value = 0; break;
    case cudaDevAttrPageableMemoryAccess: *value = p.pageableMemoryAccess; break;
    case cudaDevAttrConcurrentManagedAccess: *value = p.concurrentManagedAccess; break;
    case cudaDevAttrComputePreemptionSupported: *value = 1; break;
    case cudaDevAttrCanUseHostPointerForRegisteredMem: *value = 0; break;
    case cudaDevAttrCooperativeLaunch: *value = p.cooperativeLaunch; break;
    case cudaDevAttrCooperativeMultiDeviceLaunch: *value = 0; break;
    case cudaDevAttrHostRegisterSupported: *value = 1; break;
    case cudaDevAttrDirectManagedMemAccessFromHost: *value = 0; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: *value = int(p.reservedSharedMemPerBlock); break;
    case cudaDevAttrMemoryPoolsSupported: *value = 1; break;
    default: return notSupported("cudaDeviceGetAttribute with this attribute", "warpscope reports the attributes listed in its driver_types.h");
    }
    return cudaSuccess;
}
// There is no profiler to start or stop: warpscope records every launch anyway.
cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
cudaError_t cudaProfilerStop(void) { return cudaSuccess; }
cudaError_t cudaRuntimeGetVersion(int* v) { return answer(v, 11050); }
cudaError_t cudaDriverGetVersion(int* v) { return answer(v, 11050); }
cudaError_t cudaMemGetInfo(size_t* freeBytes, size_t* total) {
    Call c;
    WS_STICKY(c.rt);
    const mem::GlobalMemory& m = c.rt.device->memory();
    if (total) *total = m.limit();
    if (freeBytes) *freeBytes = m.limit() > m.liveBytes() ? m.limit() - m.liveBytes() : 0;
    return cudaSuccess;
}
cudaError_t cudaDeviceSynchronize(void) {
    Call c;
    flushPrintf(c.rt);   // a synchronisation point: kernel printf output appears
    WS_STICKY(c.rt);
    try {
        c.rt.device->synchronize();
    } catch (const Error& e) {
        return complain(cudaErrorIllegalState, std::string("cudaDeviceSynchronize: ") + e.what());
    }
    return cudaSuccess;
}
cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }
cudaError_t cudaDeviceReset(void) {
    Runtime& rt = state();
    std::lock_guard<std::recursive_mutex> lock(rt.mutex);
    showFault(rt);
    for (auto& [base, n] : rt.managed) unmapManaged(rt, base, n);
    rt.managed.clear();
    rt.mappedHost.clear();
    rt.registered.clear();   // their mirrors go with the device
    rt.capturing = -1;
    for (auto* s : rt.streams) delete s;
    rt.streams.clear();
    for (auto* e : rt.events) delete e;
    rt.events.clear();
    rt.device.reset();
    rt.reportsShown = 0;
    rt.loaded = false;
    rt.sticky = cudaSuccess;
    rt.pendingFault = cudaSuccess;
    rt.pendingFaultText.clear();
    t_lastError = cudaSuccess;
    return cudaSuccess;
}

// ---------------------------------------------------------------- 5. memory
cudaError_t cudaMalloc(void** devPtr, size_t size) {
    if (!devPtr) return ret(cudaErrorInvalidValue);
    Call c;
    WS_STICKY(c.rt);
    try {
        *devPtr = reinterpret_cast<void*>(c.rt.device->malloc(std::max<size_t>(size, 1), "cudaMalloc #" + std::to_string(c.rt.device->memory().allocations().size() + 1)));
    } catch (const Error& e) {
        *devPtr = nullptr;
        return complain(cudaErrorMemoryAllocation, std::string("cudaMalloc(") + std::to_string(size) + " bytes): " + e.what());
    } catch (const std::bad_alloc&) {
        *devPtr = nullptr;
        return complain(cudaErrorMemoryAllocation, std::string("cudaMalloc(") + std::to_string(size) + " bytes): the host has no memory left to simulate it");
    }
    return cudaSuccess;
}
cudaError_t cudaFree(void* devPtr) {
    if (!devPtr) return cudaSuccess;
    Call c;
    WS_STICKY(c.rt);
    const uint64_t a = reinterpret_cast<uint64_t>(devPtr);
    if (c.rt.graphAllocs.count(a)) return warpscope::cudart::graphMemFree(devPtr, "cudaFree");
    const mem::Allocation* al = c.rt.device->memory().find(a, 1);
    if (!inDeviceRange(devPtr) || !al || al->base != a) {
        std::string what = !inDeviceRange(devPtr) ? "is a host pointer, not one from cudaMalloc" : !al ? "is not a live allocation (freed twice?)" : "points inside an allocation, not at its start";
        char ptr[32];
        std::snprintf(ptr, sizeof ptr, "%p", devPtr);
        return complain(cudaErrorInvalidValue, std::string("cudaFree(") + ptr + "): the pointer " + what);
    }
    if (auto m = c.rt.managed.find(a); m != c.rt.managed.end()) {
        unmapManaged(c.rt, m->first, m->second);
        c.rt.managedOnHost.erase(m->first);
        c.rt.managed.erase(m);
    }
    try {
        c.rt.device->free(a);
    } catch (const Error& e) {
        return complain(cudaErrorInvalidValue, std::string("cudaFree: ") + e.what());
    }
    return cudaSuccess;
}
cudaError_t cudaMallocHost(void** ptr, size_t size) {
    if (!ptr) return ret(cudaErrorInvalidValue);
    Call c;
    WS_STICKY(c.rt);
    try {
        *ptr = c.rt.device->hostAlloc(size, true);
    } catch (const std::bad_alloc&) {
        *ptr = nullptr;
        return complain(cudaErrorMemoryAllocation, "cudaMallocHost(" + std::to_string(size) + " bytes): out of host memory");
    }
    c.rt.pinnedHost[reinterpret_cast<uintptr_t>(*ptr)] = {std::max<size_t>(size, 1), 0};
    return cudaSuccess;
}
cudaError_t cudaHostAlloc(void** ptr, size_t size, unsigned int flags) {
    if (!ptr || flags > (cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined)) return ret(cudaErrorInvalidValue);
    if (!(flags & cudaHostAllocMapped)) {   // portable, write-combined: nothing to do on one simulated device
        cudaError_t e = cudaMallocHost(ptr, size);
        if (e == cudaSuccess) state().pinnedHost[reinterpret_cast<uintptr_t>(*ptr)].second = flags;
        return e;
    }
    // Mapped (zero-copy) host memory: kernels read and write it through the same pointer, as
    // unified memory. (Copies from it are modelled as pageable on the timeline.)
    Call c;
    WS_STICKY(c.rt);
    cudaError_t e = allocShared(c.rt, ptr, std::max<size_t>(size, 1), "cudaHostAlloc", "cudaHostAlloc mapped #" + std::to_string(c.rt.device->memory().allocations().size() + 1));
    if (e == cudaSuccess) {
        c.rt.mappedHost.insert(*ptr);
        c.rt.device->setMappedRange(reinterpret_cast<uint64_t>(*ptr), std::max<size_t>(size, 1), true);   // kernels reach it over PCIe
    }
    return e;
}
cudaError_t cudaFreeHost(void* ptr) {
    if (!ptr) return cudaSuccess;
    Call c;
    WS_STICKY(c.rt);
    if (c.rt.mappedHost.erase(ptr)) {
        const uint64_t a = reinterpret_cast<uint64_t>(ptr);
        unmapManaged(c.rt, a, c.rt.managed[a]);
        c.rt.managed.erase(a);
        c.rt.device->free(a);
        return cudaSuccess;
    }
    try {
        c.rt.device->hostFree(ptr);
        c.rt.pinnedHost.erase(reinterpret_cast<uintptr_t>(ptr));
    } catch (const Error&) {
        return complain(cudaErrorInvalidValue, "cudaFreeHost: the pointer did not come from cudaMallocHost or cudaHostAlloc");
    }
    return cudaSuccess;
}
cudaError_t cudaMallocManaged(void** devPtr, size_t size, unsigned int flags) {
    if (!devPtr || size == 0) return ret(cudaErrorInvalidValue);
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost) return ret(cudaErrorInvalidValue);
    Call c;
    WS_STICKY(c.rt);
    return allocShared(c.rt, devPtr, size, "cudaMallocManaged", "cudaMallocManaged #" + std::to_string(c.rt.device->memory().allocations().size() + 1));
}
cudaError_t cudaMemPrefetchAsync(const void* devPtr, size_t count, int dstDevice, cudaStream_t stream) {
    // Unified memory is always where it is needed (ManagedSync): a prefetch has nothing to move.
    if (dstDevice != 0 && dstDevice != cudaCpuDeviceId) return ret(cudaErrorInvalidDevice);
    Call c;
    WS_STICKY(c.rt);
    bool ok = true;
    streamId(c.rt, stream, &ok);
    if (!ok) return complain(cudaErrorInvalidResourceHandle, "cudaMemPrefetchAsync: not a live stream");
    const uint64_t a = reinterpret_cast<uint64_t>(devPtr);
    auto it = c.rt.managed.upper_bound(a);
    if (count == 0 || it == c.rt.managed.begin() || a + count > std::prev(it)->first + std::prev(it)->second)
        return complain(cudaErrorInvalidValue, "cudaMemPrefetchAsync: the range is not inside one cudaMallocManaged allocation");
    noteHint(c.rt, "cudaMemPrefetchAsync", "the simulator's unified memory is always where it is used, so there is nothing to move");
    return cudaSuccess;
}
// The device reports concurrentManagedAccess 0, so attaching means what it means there: an
// allocation attached to the host (cudaMemAttachHost) is the host's alone, and the host may use it
// while kernels run (UnifiedMemoryStreams' host tasks on OpenMP threads): device work neither
// pushes nor pulls it. Global and Single give it back to the device (a kernel in any stream sees
// it; Single's one stream is checked but not enforced). Work in a stream is done when it is
// issued, so the attachment takes effect at once.
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void* devPtr, size_t length, unsigned int flags) {
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost && flags != cudaMemAttachSingle)
        return complain(cudaErrorInvalidValue, "cudaStreamAttachMemAsync: flags must be cudaMemAttachGlobal, cudaMemAttachHost or cudaMemAttachSingle");
    Call c;
    WS_STICKY(c.rt);
    bool ok = true;
    streamId(c.rt, stream, &ok);
    if (!ok) return complain(cudaErrorInvalidResourceHandle, "cudaStreamAttachMemAsync: not a live stream");
    if (flags == cudaMemAttachSingle && (stream == nullptr || stream == cudaStreamLegacy))
        return complain(cudaErrorInvalidValue, "cudaStreamAttachMemAsync: cudaMemAttachSingle needs a stream of its own, not the default stream");
    const uint64_t a = reinterpret_cast<uint64_t>(devPtr);
    auto it = c.rt.managed.find(a);
    if (it == c.rt.managed.end() || c.rt.mappedHost.count(devPtr))
        return complain(cudaErrorInvalidValue, "cudaStreamAttachMemAsync: the pointer is not the start of a cudaMallocManaged allocation");
    if (length != 0 && length != it->second)
        return complain(cudaErrorInvalidValue, "cudaStreamAttachMemAsync: the length must be 0 or the whole allocation (" + std::to_string(it->second) + " bytes) on a device without concurrent managed access");
    // The host's copy is already the newer one (every device operation pulls it back).
    if (flags == cudaMemAttachHost) c.rt.managedOnHost.insert(a);
    else c.rt.managedOnHost.erase(a);   // pushed again before the next device work (ManagedSync)
    return cudaSuccess;
}

// ---------------------------------------------------------------- 6. copies (API)
cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
    return copy(dst, src, count, kind, nullptr, false, "cudaMemcpy");
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t stream) {
    return copy(dst, src, count, kind, stream, true, "cudaMemcpyAsync");
}
static cudaError_t memsetImpl(void* devPtr, int value, size_t count, const char* call, int sid = 0) {
    Call c;
    WS_STICKY(c.rt);
    const bool captured = c.rt.device->inCapture(sid);
    if (c.rt.capturing >= 0 && !captured)
        return notSupported("cudaMemset on a stream outside the capture during stream capture", "a memset would run now, not when the graph is launched");
    if (count == 0) return cudaSuccess;
    std::string why;
    if (!inDeviceRange(devPtr)) return complain(cudaErrorInvalidValue, std::string(call) + ": the pointer is a host pointer, not device memory");
    if (!liveDevice(c.rt, devPtr, count, call, "destination", &why)) return complain(cudaErrorInvalidValue, why);
    if (captured) {   // a memset node: it runs at each launch of the graph
        runtime::SimDevice* dev = c.rt.device.get();
        const uint64_t at = reinterpret_cast<uint64_t>(devPtr);
        dev->captureOperation(sid, 'm', [dev, at, value, count] { dev->memset(at, static_cast<uint8_t>(value), count); });
        return cudaSuccess;
    }
    ManagedSync sync(c.rt);
    c.rt.device->memset(reinterpret_cast<uint64_t>(devPtr), static_cast<uint8_t>(value), count);
    return cudaSuccess;
}
cudaError_t cudaMemset(void* devPtr, int value, size_t count) { return memsetImpl(devPtr, value, count, "cudaMemset"); }
cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream) {
    bool ok = true;
    int sid = 0;
    {
        Call c;
        sid = streamId(c.rt, stream, &ok);
    }
    if (!ok) return complain(cudaErrorInvalidResourceHandle, "cudaMemsetAsync: the stream was never created or was destroyed");
    return memsetImpl(devPtr, value, count, "cudaMemsetAsync", sid);
}
cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count, size_t offset, cudaMemcpyKind kind, cudaStream_t stream) {
    uint64_t addr = 0;
    {
        Call c;
        WS_STICKY(c.rt);
        if (cudaError_t e = symbolRange(c.rt, symbol, count, offset, &addr, "cudaMemcpyToSymbol"); e != cudaSuccess) return e;
    }
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault) return ret(cudaErrorInvalidMemcpyDirection);
    return copy(reinterpret_cast<void*>(addr), src, count, kind, stream, stream != nullptr, "cudaMemcpyToSymbol");
}
cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset, cudaMemcpyKind kind) {
    return cudaMemcpyToSymbolAsync(symbol, src, count, offset, kind, nullptr);
}
cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count, size_t offset, cudaMemcpyKind kind, cudaStream_t stream) {
    uint64_t addr = 0;
    {
        Call c;
        WS_STICKY(c.rt);
        if (cudaError_t e = symbolRange(c.rt, symbol, count, offset, &addr, "cudaMemcpyFromSymbol"); e != cudaSuccess) return e;
    }
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault) return ret(cudaErrorInvalidMemcpyDirection);
    return copy(dst, reinterpret_cast<const void*>(addr), count, kind, stream, stream != nullptr, "cudaMemcpyFromSymbol");
}
cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset, cudaMemcpyKind kind) {
    return cudaMemcpyFromSymbolAsync(dst, symbol, count, offset, kind, nullptr);
}
cudaError_t cudaGetSymbolAddress(void** devPtr, const void* symbol) {
    if (!devPtr) return ret(cudaErrorInvalidValue);
    Call c;
    WS_STICKY(c.rt);
    uint64_t addr = 0;
    if (cudaError_t e = symbolRange(c.rt, symbol, 0, 0, &addr, "cudaGetSymbolAddress"); e != cudaSuccess) return e;
    *devPtr = reinterpret_cast<void*>(addr);
    return cudaSuccess;
}
cudaError_t cudaGetSymbolSize(size_t* size, const void* symbol) {
    if (!size) return ret(cudaErrorInvalidValue);
    Call c;
    WS_STICKY(c.rt);
    auto it = c.rt.variables.find(symbol);
    if (it == c.rt.variables.end() || !c.rt.loaded) return ret(cudaErrorInvalidSymbol);
    c.rt.device->symbolAddress(it->second, size);
    return cudaSuccess;
}

// ---------------------------------------------------------------- 7. streams and events
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* pStream, unsigned int flags) {
    if (!pStream || flags > cudaStreamNonBlocking) return ret(cudaErrorInvalidValue);
    Call c;
    WS_STICKY(c.rt);
    auto* s = new CUstream_st{c.rt.device->createStream(flags & cudaStreamNonBlocking), flags, 0, {}};
    c.rt.streams.insert(s);
    *pStream = s;
    return cudaSuccess;
}
cudaError_t cudaStreamCreate(cudaStream_t* pStream) { return cudaStreamCreateWithFlags(pStream, cudaStreamDefault); }
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
    Call c;
    WS_STICKY(c.rt);
    if (!c.rt.streams.erase(stream)) return complain(cudaErrorInvalidResourceHandle, "cudaStreamDestroy: not a live stream");
    delete stream;   // the simulator's stream number stays (work on it has already been modelled)
    return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
    Call c;
    flushPrintf(c.rt);   // a synchronisation point: kernel printf output appears
    WS_STICKY(c.rt);
    bool ok = true;
    int sid = streamId(c.rt, stream, &ok);
    if (!ok) return complain(cudaErrorInvalidResourceHandle, "cudaStreamSynchronize: not a live stream");
    try {
        c.rt.device->synchronizeStream(sid);
    } catch (const Error& e) {
        return complain(cudaErrorIllegalState, std::string("cudaStreamSynchronize: ") + e.what());
    }
    return cudaSuccess;
}
cudaError_t cudaStreamQuery(cudaStream_t stream) {
    Call c;
    WS_STICKY(c.rt);
    bool ok = true;
    streamId(c.rt, stream, &ok);
    // The simulator has done a stream's work by the time the call that issued it returned.
    return ok ? cudaSuccess : ret(cudaErrorInvalidResourceHandle);
}
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int) {
    Call c;
    WS_STICKY(c.rt);
    bool ok = true;
    int sid = streamId(c.rt, stream, &ok);
    if (!ok || !c.rt.events.count(event)) return complain(cudaErrorInvalidResourceHandle, "cudaStreamWaitEvent: not a live stream or event");
    if (!event->recorded) return cudaSuccess;   // CUDA: waiting for a never-recorded event does nothing
    try {
        c.rt.device->streamWaitEvent(sid, event->id);   // an event recorded in a capture: this stream joins it
    } catch (const Error& e) {
        return complain(cudaErrorIllegalState, std::string("cudaStreamWaitEvent: ") + e.what());
    }
    return cudaSuccess;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
    if (!event || flags > (cudaEventBlockingSync | cudaEventDisableTiming | 0x04)) return ret(cudaErrorInvalidValue);
    Call c;
    WS_STICKY(c.rt);
    enableTimeline(c.rt);
    auto* e = new CUevent_st{c.rt.device->createEvent(), false, !(flags & cudaEventDisableTiming)};
    c.rt.events.insert(e);
    *event = e;
    return cudaSuccess;
}
cudaError_t cudaEventCreate(cudaEvent_t* event) { return cudaEventCreateWithFlags(event, cudaEventDefault); }
cudaError_t cudaEventDestroy(cudaEvent_t event) {
    Call c;
    WS_STICKY(c.rt);
    if (!c.rt.events.erase(event)) return complain(cudaErrorInvalidResourceHandle, "cudaEventDestroy: not a live event");
    delete event;
    return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
    Call c;
    WS_STICKY(c.rt);
    bool ok = true;
    int sid = streamId(c.rt, stream, &ok);
    if (!ok || !c.rt.events.count(event)) return complain(cudaErrorInvalidResourceHandle, "cudaEventRecord: not a live stream or event");
    try {
        c.rt.device->recordEvent(event->id, sid);
    } catch (const Error& e) {
        return complain(cudaErrorIllegalState, std::string("cudaEventRecord: ") + e.what());
    }
    event->recorded = true;
    return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t event) {
    Call c;
    flushPrintf(c.rt);   // a synchronisation point: kernel printf output appears
    WS_STICKY(c.rt);
    if (!c.rt.events.count(event)) return complain(cudaErrorInvalidResourceHandle, "cudaEventSynchronize: not a live event");
    if (!event->recorded) return cudaSuccess;
    c.rt.device->synchronizeEvent(event->id);
    return cudaSuccess;
}
cudaError_t cudaEventQuery(cudaEvent_t event) {
    Call c;
    WS_STICKY(c.rt);
    if (!c.rt.events.count(event)) return ret(cudaErrorInvalidResourceHandle);
    return cudaSuccess;
}
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
    if (!ms) return ret(cudaErrorInvalidValue);
    Call c;
    WS_STICKY(c.rt);
    if (!c.rt.events.count(start) || !c.rt.events.count(end)) return complain(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime: not a live event");
    if (!start->recorded || !end->recorded) return complain(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime: an event was never recorded");
    if (!start->timing || !end->timing) return complain(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime: an event was created with cudaEventDisableTiming");
    try {
        *ms = static_cast<float>(c.rt.device->eventElapsedMs(start->id, end->id));
    } catch (const Error& e) {
        return complain(cudaErrorInvalidResourceHandle, std::string("cudaEventElapsedTime: ") + e.what());
    }
    return cudaSuccess;
}

// ---------------------------------------------------------------- 8b. pausing at a launch (the app)
// The app runs a program with $WARPSCOPE_PAUSE="<to app fd>,<from app fd>" (the pipes of the
// sandboxed child). Before a launch runs, the runtime writes what the app needs to replay it as a
// lesson (docs/lesson-format.md) into a folder of its own: the program's PTX module, every live
// device allocation and module variable as raw bytes, and a lesson.json whose buffers recreate
// the allocations at the same device addresses (the simulator's allocator is a bump allocator,
// so gaps left by freed memory are refilled with filler buffers) and whose one launch has the
// program's grid, block, dynamic shared memory and parameter bytes (a pointer parameter as its
// allocation plus an offset). Then it writes "launch N PATH" and waits for a line back:
// "continue" runs the launch and goes on to the next pause, "run" turns pausing off. End of file
// (the app went away) turns it off too. $WARPSCOPE_PAUSE_MAX_THREADS pauses only launches of at
// most that many threads (0: every launch); $WARPSCOPE_PROGRAM_SOURCE names the source the
// lesson shows.
namespace {

struct PauseState {
    bool checked = false, on = false;
    int toApp = -1, fromApp = -1;
    uint64_t maxThreads = 0;
    int launches = 0;
};

PauseState& pauseState() {
    static PauseState p;
    if (!p.checked) {
        p.checked = true;
        if (const char* e = std::getenv("WARPSCOPE_PAUSE"); e && *e && std::sscanf(e, "%d,%d", &p.toApp, &p.fromApp) == 2) p.on = true;
        if (const char* m = std::getenv("WARPSCOPE_PAUSE_MAX_THREADS"); m && *m) p.maxThreads = std::strtoull(m, nullptr, 10);
    }
    return p;
}

std::string jsonString(const std::string& t) {
    std::string o = "\"";
    for (char ch : t) {
        if (ch == '"' || ch == '\\') {
            o += '\\';
            o += ch;
        } else if (static_cast<unsigned char>(ch) < 0x20) {
            char b[8];
            std::snprintf(b, sizeof b, "\\u%04x", ch);
            o += b;
        } else {
            o += ch;
        }
    }
    return o + "\"";
}

bool writeBytes(const std::string& path, const uint8_t* data, size_t n) {
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(n));
    return static_cast<bool>(f);
}

// Writes the launch's lesson into `dir`; false (with *why) when it cannot be replayed.
bool captureLaunch(Runtime& rt, const std::string& dir, const std::string& kernel, const ptx::Function& fn, const runtime::LaunchConfig& cfg,
                   const std::vector<runtime::ParamBytes>& params, std::string* why) {
    mkdir(dir.c_str(), 0755);
    const mem::GlobalMemory& memory = rt.device->memory();
    const ptx::Module& module = rt.device->module();
    if (!writeBytes(dir + "/module.ptx", reinterpret_cast<const uint8_t*>(rt.moduleText.data()), rt.moduleText.size())) {
        *why = "cannot write the capture (" + dir + ")";
        return false;
    }
    std::ostringstream buffers, symbols, args;
    struct Data {
        std::string name;
        uint64_t base, size;
    };
    std::vector<Data> data;
    uint64_t next = 0;   // where the replay's next global allocation lands
    int gaps = 0, symbolCount = 0;
    uint64_t filler = 0;
    bool firstBuffer = true;
    auto addBuffer = [&](const std::string& name, uint64_t count, const std::string& init) {
        buffers << (firstBuffer ? "" : ",\n") << "    " << jsonString(name) << ": {\"type\": \"u8\", \"count\": " << count << ", \"init\": " << init << "}";
        firstBuffer = false;
    };
    // Module variables (allocated when the module loads, in both runs) first; then the program's
    // allocations in address order.
    for (auto& a : memory.allocations()) {
        if (a->freed) continue;
        const ptx::VariableDecl* v = module.findVariable(a->name);
        if (!v || rt.device->symbolAddress(a->name) != a->base) continue;
        if (!a->readOnly) next = std::max(next, a->base + ((a->size + mem::kAllocationAlign - 1) / mem::kAllocationAlign + 1) * mem::kAllocationAlign);
        if (a->name.rfind("__ws_", 0) == 0 || a->name.find("__ws_printf_fifo") != std::string::npos ||
            a->name.find("__ws_assert_info") != std::string::npos)
            continue;   // the runtime's own printf FIFO and assert record
        const std::string file = "symbol" + std::to_string(symbolCount) + ".bin";
        if (!writeBytes(dir + "/" + file, a->data.get(), a->size)) {
            *why = "cannot write the capture";
            return false;
        }
        // zz...: after every data buffer in the lesson's (alphabetical) allocation order.
        const std::string buf = "zz_symbol" + std::to_string(symbolCount++);
        addBuffer(buf, a->size, "{\"file\": " + jsonString(file) + "}");
        symbols << "    {\"symbol\": " << jsonString(a->name) << ", \"from\": " << jsonString(buf) << "},\n";
    }
    if (next == 0) next = mem::kGlobalBase;
    int index = 0;
    for (auto& a : memory.allocations()) {
        if (a->freed || a->readOnly || a->base < mem::kGlobalBase) continue;
        if (module.findVariable(a->name) && rt.device->symbolAddress(a->name) == a->base) continue;
        if (a->base > next) {
            // A freed allocation left a gap: a filler of the size that moves the allocator past it.
            const uint64_t gap = a->base - next;
            if (gap < 2 * mem::kAllocationAlign) {
                *why = "the device memory's layout cannot be rebuilt (a gap of " + std::to_string(gap) + " bytes)";
                return false;
            }
            filler += gap - mem::kAllocationAlign;
            char name[32];
            std::snprintf(name, sizeof name, "m%04d_gap", index++);
            addBuffer(name, gap - mem::kAllocationAlign, "\"uninitialized\"");
            ++gaps;
            next = a->base;
        }
        char name[32];
        std::snprintf(name, sizeof name, "m%04d", index++);
        const std::string file = std::string(name) + ".bin";
        if (!writeBytes(dir + "/" + file, a->data.get(), a->size)) {
            *why = "cannot write the capture";
            return false;
        }
        addBuffer(name, a->size, "{\"file\": " + jsonString(file) + "}");
        data.push_back({name, a->base, a->size});
        next = a->base + ((std::max<uint64_t>(a->size, 1) + mem::kAllocationAlign - 1) / mem::kAllocationAlign + 1) * mem::kAllocationAlign;
    }
    if (filler > (uint64_t(256) << 20)) {
        *why = "freed device memory would need " + mem::formatBytes(filler) + " of filler to rebuild the layout";
        return false;
    }
    if (index > 9000) {
        *why = "too many allocations to replay";
        return false;
    }
    // The parameters: a 64-bit value inside an allocation is that buffer plus an offset (the same
    // address in the replay); everything else is its bytes.
    for (size_t i = 0; i < params.size(); ++i) {
        const runtime::ParamBytes& b = params[i];
        args << (i ? ", " : "");
        if (b.size() == 8 && fn.params[i].arrayCount < 0) {
            uint64_t v = 0;
            std::memcpy(&v, b.data(), 8);
            const Data* hit = nullptr;
            for (auto& d : data)
                if (v >= d.base && v < d.base + std::max<uint64_t>(d.size, 1)) hit = &d;
            if (hit) {
                args << "{\"buffer\": " << jsonString(hit->name) << ", \"offset\": " << (v - hit->base) << "}";
                continue;
            }
        }
        std::string hex;
        for (uint8_t byte : b) {
            char h[3];
            std::snprintf(h, sizeof h, "%02x", byte);
            hex += h;
        }
        args << "{\"bytes\": \"" << hex << "\"}";
    }
    std::string source;
    if (const char* src = std::getenv("WARPSCOPE_PROGRAM_SOURCE"); src && *src) source = src;
    std::ofstream j(dir + "/lesson.json");
    j << "{\n  \"id\": " << jsonString("launch-" + std::to_string(pauseState().launches)) << ",\n";
    j << "  \"title\": " << jsonString(rt.launchLabel) << ",\n";
    j << "  \"summary\": " << jsonString("Launch " + std::to_string(pauseState().launches) + " of the program, paused before it ran: " + rt.launchLabel) << ",\n";
    if (!source.empty()) j << "  \"source\": " << jsonString(source) << ",\n";
    j << "  \"ptx\": \"module.ptx\",\n  \"buffers\": {\n" << buffers.str() << "\n  },\n  \"host\": [\n" << symbols.str();
    j << "    {\"launch\": " << jsonString(kernel) << ", \"grid\": [" << cfg.grid.x << ", " << cfg.grid.y << ", " << cfg.grid.z << "], \"block\": ["
      << cfg.block.x << ", " << cfg.block.y << ", " << cfg.block.z << "], \"shared\": " << cfg.dynamicSharedBytes << ", \"args\": [" << args.str() << "]}\n  ]\n}\n";
    if (!j) {
        *why = "cannot write the capture";
        return false;
    }
    return true;
}

bool readLine(int fd, std::string* line) {
    line->clear();
    char ch;
    for (;;) {
        ssize_t n = read(fd, &ch, 1);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return !line->empty();
        if (ch == '\n') return true;
        *line += ch;
    }
}

// Before launch `kernel` runs: hands it to the app and waits for Continue (see above).
void pauseAtLaunch(Runtime& rt, const std::string& kernel, const ptx::Function& fn, const runtime::LaunchConfig& cfg,
                   const std::vector<runtime::ParamBytes>& params) {
    PauseState& p = pauseState();
    if (!p.on || rt.capturing >= 0) return;   // a launch captured into a graph runs later
    const int index = p.launches++;
    const uint64_t threads = uint64_t(cfg.grid.x) * cfg.grid.y * cfg.grid.z * cfg.block.x * cfg.block.y * cfg.block.z;
    std::string msg;
    if (p.maxThreads && threads > p.maxThreads) {
        msg = "skip " + std::to_string(index) + " " + std::to_string(threads) + " threads, more than the pause limit of " + std::to_string(p.maxThreads) + "\n";
    } else {
        const char* base = std::getenv("WARPSCOPE_PAUSE_DIR");
        const char* box = std::getenv("WARPSCOPE_SANDBOX");
        std::string root = base && *base ? base : box && *box ? box : "/tmp";
        root += "/launches";
        mkdir(root.c_str(), 0755);
        const std::string dir = root + "/" + std::to_string(index);
        std::string why;
        if (captureLaunch(rt, dir, kernel, fn, cfg, params, &why)) msg = "launch " + std::to_string(index) + " " + dir + "/lesson.json\n";
        else msg = "skip " + std::to_string(index) + " " + why + "\n";
    }
    std::fflush(stdout);
    std::fflush(stderr);
    if (msg.rfind("launch", 0) == 0) writeTimelineOut(rt);   // the app's Timeline shows what came before the pause
    if (write(p.toApp, msg.data(), msg.size()) != static_cast<ssize_t>(msg.size())) {
        p.on = false;
        return;
    }
    if (msg.rfind("skip", 0) == 0) return;
    std::string reply;
    if (!readLine(p.fromApp, &reply) || reply == "run") p.on = false;
}

} // namespace


// ---------------------------------------------------------------- 8. launches
unsigned __cudaPushCallConfiguration(WsDim3 grid, WsDim3 block, size_t shared, void* stream) {
    t_configs.push_back({grid, block, shared, stream});
    return 0;
}
cudaError_t __cudaPopCallConfiguration(WsDim3* grid, WsDim3* block, size_t* shared, void* stream) {
    if (t_configs.empty()) return ret(cudaErrorMissingConfiguration);
    PushedConfig p = t_configs.back();
    t_configs.pop_back();
    *grid = p.grid;
    *block = p.block;
    *shared = p.shared;
    *static_cast<void**>(stream) = p.stream;
    return cudaSuccess;
}

static cudaError_t launchKernel(const void* func, WsDim3 grid, WsDim3 block, void** args, size_t sharedMem, cudaStream_t stream,
                                bool cooperative);
cudaError_t cudaLaunchKernel(const void* func, WsDim3 grid, WsDim3 block, void** args, size_t sharedMem, cudaStream_t stream) {
    return launchKernel(func, grid, block, args, sharedMem, stream, false);
}
// Every block resident at once, so grid.sync() works; a grid larger than the preset holds at
// once answers cudaErrorCooperativeLaunchTooLarge (SimDevice checks it from the occupancy).
cudaError_t cudaLaunchCooperativeKernel(const void* func, WsDim3 grid, WsDim3 block, void** args, size_t sharedMem, cudaStream_t stream) {
    return launchKernel(func, grid, block, args, sharedMem, stream, true);
}
static cudaError_t launchKernel(const void* func, WsDim3 grid, WsDim3 block, void** args, size_t sharedMem, cudaStream_t stream,
                                bool cooperative) {
    Call c;
    WS_STICKY(c.rt);
    auto k = c.rt.kernels.find(func);
    if (k == c.rt.kernels.end()) return complain(cudaErrorInvalidDeviceFunction, "cudaLaunchKernel: the function is not a kernel of this program");
    const std::string& name = k->second;
    if (!c.rt.loaded) return complain(cudaErrorInvalidPtx, "launch of " + demangle(name) + ": the program's kernels did not load: " + c.rt.loadError);
    bool ok = true;
    int sid = streamId(c.rt, stream, &ok);
    if (!ok) return complain(cudaErrorInvalidResourceHandle, "launch of " + demangle(name) + ": the stream was never created or was destroyed");
    // The launch limits of the device (cudaErrorInvalidConfiguration when they are broken).
    const uint64_t threads = uint64_t(block.x) * block.y * block.z;
    const uint32_t maxThreads = c.rt.haveSpec ? c.rt.spec.maxThreadsPerBlock : 1024;
    uint32_t maxShared = c.rt.haveSpec ? c.rt.spec.defaultSharedPerBlock : 49152;
    if (auto opt = c.rt.maxDynamicShared.find(func); opt != c.rt.maxDynamicShared.end()) maxShared = std::max(maxShared, opt->second);
    std::ostringstream bad;
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0) bad << "a grid or block dimension is 0";
    else if (threads > maxThreads) bad << threads << " threads per block (" << block.x << "x" << block.y << "x" << block.z << "); the device allows " << maxThreads;
    else if (block.x > 1024 || block.y > 1024 || block.z > 64) bad << "block (" << block.x << "," << block.y << "," << block.z << ") exceeds the largest block dimensions (1024, 1024, 64)";
    else if (grid.x > 2147483647u || grid.y > 65535 || grid.z > 65535) bad << "grid (" << grid.x << "," << grid.y << "," << grid.z << ") exceeds the largest grid dimensions (2147483647, 65535, 65535)";
    else if (sharedMem > maxShared) bad << sharedMem << " bytes of dynamic shared memory; the device allows " << maxShared << " per block";
    // A block too large answers cudaErrorInvalidValue, as CUDA 13 on the H100 did
    // (tests/programs/run-on-gpu.sh); the other limits keep the reference's InvalidConfiguration.
    const bool tooBig = threads > maxThreads || block.x > 1024 || block.y > 1024 || block.z > 64;
    if (!bad.str().empty())
        return complain(tooBig && threads > 0 ? cudaErrorInvalidValue : cudaErrorInvalidConfiguration,
                        "launch of " + demangle(name) + ": invalid configuration: " + bad.str());
    const ptx::Function* fn = c.rt.device->module().findFunction(name);
    if (!fn || !fn->isEntry) return complain(cudaErrorInvalidDeviceFunction, "launch of " + demangle(name) + ": no such kernel in the PTX");
    std::vector<runtime::ParamBytes> params;
    for (size_t i = 0; i < fn->params.size(); ++i) {
        const int64_t n = fn->params[i].sizeInBytes();
        if (!args || !args[i]) return complain(cudaErrorInvalidValue, "launch of " + demangle(name) + ": argument " + std::to_string(i) + " is missing");
        const auto* b = static_cast<const uint8_t*>(args[i]);
        params.emplace_back(b, b + std::max<int64_t>(n, 0));
    }
    runtime::LaunchConfig cfg;
    cfg.grid = {grid.x, grid.y, grid.z};
    cfg.block = {block.x, block.y, block.z};
    cfg.dynamicSharedBytes = static_cast<uint32_t>(sharedMem);
    cfg.cooperative = cooperative;
    struct Drain {   // the kernel's printf records and checker reports, whether it finished or faulted
        Runtime& rt;
        ~Drain() {
            drainPrintf(rt);
            const auto& reports = rt.device->reports();
            for (; rt.reportsShown < reports.size(); ++rt.reportsShown) {
                const sim::CheckReport& r = reports[rt.reportsShown];
                std::fprintf(stderr, "warpscope: %s: %s: %s\n", r.tool.c_str(), r.hazard.c_str(), r.message.c_str());
                writeStatus("check");
            }
        }
    } drain{c.rt};
    try {
        ManagedSync sync(c.rt);
        MirrorSync mirrors(c.rt);
        std::ostringstream label;
        label << demangle(name) << "<<<(" << grid.x << "," << grid.y << "," << grid.z << "), (" << block.x << "," << block.y << "," << block.z << ")>>>";
        c.rt.launchLabel = label.str();
        c.rt.launchKernel = name;
        pauseAtLaunch(c.rt, name, *fn, cfg, params);
        c.rt.device->launchOn(sid, name, cfg, params);
    } catch (const Error& e) {
        cudaError_t code = launchErrorFor(e);
        if (e.kind() == Error::Kind::Unsupported || e.kind() == Error::Kind::Input)
            return complain(code, "launch of " + demangle(name) + ": " + e.what());
        if (std::string failed = takeAssert(c.rt); !failed.empty()) {
            c.rt.pendingFaultText += failed + "\n";   // CUDA's assert line, after what the kernel printed
            code = cudaErrorAssert;
        }
        // A fault: sticky, as on a GPU; shown with where it happened when the host next calls.
        c.rt.pendingFaultText += "warpscope: kernel " + demangle(name) + " faulted: " + e.what() + "\n  CUDA reports this as " +
                                 cudaGetErrorName(code) + " (" + cudaGetErrorString(code) +
                                 ") to this call and every later one; the launch and a cudaGetLastError right after it returned "
                                 "cudaSuccess, as on a GPU, where the kernel was still running then.\n";
        writeStatus("fault");
        c.rt.pendingFault = code;
        // The launch itself succeeds, as an asynchronous launch does; the error shows from the next call on.
        return cudaSuccess;
    }
    return cudaSuccess;
}

// ---------------------------------------------------------------- 9. more of the API, and calls that are not supported
// (kernel attributes, occupancy, host functions, pitched copies, limits, graphs)
// Kernel attributes and occupancy from the PTX and the preset. Registers: the engine has no
// register allocator (ptxas decides on a GPU), so the count is the cycle model's assumption.
static const sim::Program* programOf(Runtime& rt, const void* func, std::string* name) {
    auto k = rt.kernels.find(func);
    if (k == rt.kernels.end() || !rt.loaded) return nullptr;
    *name = k->second;
    try {
        return &rt.device->program(k->second);
    } catch (const Error& e) {
        complain(cudaErrorInvalidDeviceFunction, demangle(k->second) + ": " + e.what());
        return nullptr;
    }
}

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
    if (!attr) return ret(cudaErrorInvalidValue);
    Call c;
    WS_STICKY(c.rt);
    std::string name;
    const sim::Program* p = programOf(c.rt, func, &name);
    if (!p) return ret(cudaErrorInvalidDeviceFunction);
    std::memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = p->staticSharedBytes;
    attr->localSizeBytes = p->functions.empty() ? 0 : p->functions[0].localBytes;
    attr->maxThreadsPerBlock = c.rt.haveSpec ? int(c.rt.spec.maxThreadsPerBlock) : 1024;
    attr->numRegs = int(timing::TimingOptions{}.registersPerThread);
    int major = 7, minor = 5;
    if (c.rt.haveSpec) std::sscanf(c.rt.spec.computeCapability.c_str(), "%d.%d", &major, &minor);
    attr->ptxVersion = 75;
    attr->binaryVersion = major * 10 + minor;
    attr->maxDynamicSharedSizeBytes = c.rt.haveSpec ? int(c.rt.spec.defaultSharedPerBlock - p->staticSharedBytes) : 49152;
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func, int blockSize, size_t dynamicSMemSize) {
    if (!numBlocks || blockSize <= 0) return ret(cudaErrorInvalidValue);
    Call c;
    WS_STICKY(c.rt);
    std::string name;
    const sim::Program* p = programOf(c.rt, func, &name);
    if (!p) return ret(cudaErrorInvalidDeviceFunction);
    if (!c.rt.haveSpec) return notSupported("cudaOccupancyMaxActiveBlocksPerMultiprocessor without a GPU preset", "the occupancy calculator needs the preset's limits");
    timing::OccupancyInput in;
    in.threadsPerBlock = static_cast<uint32_t>(blockSize);
    in.registersPerThread = timing::TimingOptions{}.registersPerThread;
    in.sharedBytesPerBlock = p->staticSharedBytes + static_cast<uint32_t>(dynamicSMemSize);
    timing::Occupancy occ = timing::computeOccupancy(c.rt.spec, in);
    *numBlocks = occ.problem.empty() ? int(occ.activeBlocksPerSM) : 0;
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, const void* func, int blockSize, size_t dynamicSMemSize,
                                                                   unsigned int flags) {
    if (flags > cudaOccupancyDisableCachingOverride) return ret(cudaErrorInvalidValue);
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, func, blockSize, dynamicSMemSize);   // no cache carveout to override
}

cudaError_t cudaFuncSetAttribute(const void* func, int attr, int value) {
    Call c;
    WS_STICKY(c.rt);
    if (!c.rt.kernels.count(func)) return ret(cudaErrorInvalidDeviceFunction);
    if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) return cudaSuccess;   // a hint; the model always has the largest carveout
    if (attr != cudaFuncAttributeMaxDynamicSharedMemorySize) return ret(cudaErrorInvalidValue);
    const int most = c.rt.haveSpec ? int(c.rt.spec.maxSharedPerBlock) : 49152;
    if (value < 0 || value > most)
        return complain(cudaErrorInvalidValue, "cudaFuncSetAttribute: " + std::to_string(value) + " bytes of dynamic shared memory; the device allows at most " + std::to_string(most));
    c.rt.maxDynamicShared[func] = static_cast<uint32_t>(value);
    return cudaSuccess;
}

// The simulator has done a stream's earlier work when the call that issued it returned, so a host
// function enqueued now may run now: that is after everything before it in the stream.
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData) {
    if (!fn) return ret(cudaErrorInvalidValue);
    {
        Call c;
        WS_STICKY(c.rt);
        bool ok = true;
        const int sid = streamId(c.rt, stream, &ok);
        if (!ok) return complain(cudaErrorInvalidResourceHandle, "cudaLaunchHostFunc: not a live stream");
        if (c.rt.device->captureOperation(sid, 'h', [fn, userData] { fn(userData); })) return cudaSuccess;   // a host node
        if (c.rt.capturing >= 0)
            return notSupported("cudaLaunchHostFunc on a stream outside the capture during stream capture", "a host function would run now, not when the graph is launched");
        flushPrintf(c.rt);
        c.rt.device->launchHostFunction(streamId(c.rt, stream, &ok), nullptr, 0, "host function");   // on the timeline
    }
    fn(userData);   // outside the lock: a host function may not call CUDA, but must not deadlock if it does
    return cudaSuccess;
}
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* userData, unsigned int flags) {
    if (!callback || flags != 0) return ret(cudaErrorInvalidValue);
    cudaError_t status;
    {
        Call c;
        bool ok = true;
        streamId(c.rt, stream, &ok);
        if (!ok) return complain(cudaErrorInvalidResourceHandle, "cudaStreamAddCallback: not a live stream");
        flushPrintf(c.rt);
        c.rt.device->launchHostFunction(streamId(c.rt, stream, &ok), nullptr, 0, "stream callback");   // on the timeline
        status = c.rt.sticky;   // the callback is told of an earlier fault, as CUDA does
    }
    callback(stream, status, userData);
    return cudaSuccess;
}

// Stream priorities: the timeline model hands block slots to the higher-priority stream's kernel.
cudaError_t cudaDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority) {
    if (leastPriority) *leastPriority = 0;
    if (greatestPriority) *greatestPriority = -5;
    return cudaSuccess;
}
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* pStream, unsigned int flags, int priority) {
    cudaError_t e = cudaStreamCreateWithFlags(pStream, flags);
    if (e == cudaSuccess) {
        (*pStream)->priority = std::clamp(priority, -5, 0);   // CUDA clamps to the range
        Call c;
        c.rt.device->setStreamPriority((*pStream)->id, (*pStream)->priority);
    }
    return e;
}

// Pitched memory: rows padded to 512 bytes, as cudaMallocPitch's alignment is on current GPUs.
cudaError_t cudaMallocPitch(void** devPtr, size_t* pitch, size_t width, size_t height) {
    if (!devPtr || !pitch) return ret(cudaErrorInvalidValue);
    *pitch = (std::max<size_t>(width, 1) + 511) / 512 * 512;
    return cudaMalloc(devPtr, *pitch * std::max<size_t>(height, 1));
}
static cudaError_t copy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height, cudaMemcpyKind kind,
                          cudaStream_t stream, bool async, const char* call) {
    if (width > dpitch || width > spitch) return complain(cudaErrorInvalidPitchValue, std::string(call) + ": the width is larger than a pitch");
    for (size_t row = 0; row < height; ++row) {
        cudaError_t e = copy(static_cast<char*>(dst) + row * dpitch, static_cast<const char*>(src) + row * spitch, width, kind, stream, async, call);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}
cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height, cudaMemcpyKind kind) {
    return copy2D(dst, dpitch, src, spitch, width, height, kind, nullptr, false, "cudaMemcpy2D");
}
cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height, cudaMemcpyKind kind,
                              cudaStream_t stream) {
    return copy2D(dst, dpitch, src, spitch, width, height, kind, stream, true, "cudaMemcpy2DAsync");
}

// Page-locking existing host memory (cudaHostRegister): its copies are modelled as pinned; with
// cudaHostRegisterMapped, kernels reach it through the device pointer cudaHostGetDevicePointer
// gives (a device mirror kept in step at each launch: MirrorSync). Errors as the Runtime API
// reference gives them: an overlap with a registered range is cudaErrorHostMemoryAlreadyRegistered,
// unregistering what was not registered cudaErrorHostMemoryNotRegistered.
cudaError_t cudaHostRegister(void* ptr, size_t size, unsigned int flags) {
    const unsigned known = cudaHostRegisterPortable | cudaHostRegisterMapped | cudaHostRegisterIoMemory | cudaHostRegisterReadOnly;
    if (!ptr || size == 0 || (flags & ~known)) return ret(cudaErrorInvalidValue);
    Call c;
    WS_STICKY(c.rt);
    if (flags & cudaHostRegisterIoMemory)
        return complain(cudaErrorInvalidValue, "cudaHostRegister: cudaHostRegisterIoMemory is for a device's I/O memory, which a simulated program has none of");
    if (inDeviceRange(ptr)) return complain(cudaErrorInvalidValue, "cudaHostRegister: the pointer is device memory, not host memory");
    const uintptr_t a = reinterpret_cast<uintptr_t>(ptr);
    auto next = c.rt.registered.lower_bound(a);
    const bool overlapsNext = next != c.rt.registered.end() && next->first < a + size;
    const bool overlapsPrev = next != c.rt.registered.begin() && std::prev(next)->first + std::prev(next)->second.bytes > a;
    if (overlapsNext || overlapsPrev) {
        if (c.rt.unsupportedSaid.insert("cudaHostRegister twice").second)
            std::fprintf(stderr, "warpscope: cudaHostRegister: part of [%p, +%zu) is already registered\n", ptr, size);
        return ret(cudaErrorHostMemoryAlreadyRegistered);
    }
    Runtime::Registered reg{size, flags, 0};
    if (flags & cudaHostRegisterMapped) {
        try {
            reg.mirror = c.rt.device->malloc(size, "cudaHostRegister mapped #" + std::to_string(c.rt.registered.size() + 1));
        } catch (const Error& e) {
            return complain(cudaErrorMemoryAllocation, std::string("cudaHostRegister: ") + e.what());
        } catch (const std::bad_alloc&) {
            return complain(cudaErrorMemoryAllocation, "cudaHostRegister: the host has no memory left to simulate the mapping");
        }
    }
    c.rt.registered[a] = reg;
    return cudaSuccess;
}
cudaError_t cudaHostUnregister(void* ptr) {
    if (!ptr) return ret(cudaErrorInvalidValue);
    Call c;
    WS_STICKY(c.rt);
    auto it = c.rt.registered.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == c.rt.registered.end())
        return complain(cudaErrorHostMemoryNotRegistered, "cudaHostUnregister: the pointer is not the start of a range registered with cudaHostRegister");
    if (it->second.mirror) c.rt.device->free(it->second.mirror);
    c.rt.registered.erase(it);
    return cudaSuccess;
}
cudaError_t cudaHostGetDevicePointer(void** pDevice, void* pHost, unsigned int flags) {
    if (!pDevice || flags != 0) return ret(cudaErrorInvalidValue);
    Call c;
    WS_STICKY(c.rt);
    if (const Runtime::Registered* reg = registeredRange(c.rt, pHost, 1)) {
        if (!reg->mirror)
            return complain(cudaErrorInvalidValue, "cudaHostGetDevicePointer: the memory was registered without cudaHostRegisterMapped");
        auto it = c.rt.registered.upper_bound(reinterpret_cast<uintptr_t>(pHost));
        --it;
        *pDevice = reinterpret_cast<void*>(reg->mirror + (reinterpret_cast<uintptr_t>(pHost) - it->first));
        return cudaSuccess;
    }
    const uint64_t a = reinterpret_cast<uint64_t>(pHost);
    auto it = c.rt.managed.upper_bound(a);
    if (it != c.rt.managed.begin() && a < std::prev(it)->first + std::prev(it)->second) {
        *pDevice = pHost;   // mapped and unified memory have one address on both sides
        return cudaSuccess;
    }
    return complain(cudaErrorInvalidValue, "cudaHostGetDevicePointer: the pointer is not mapped host memory; in warpscope, allocate it with cudaHostAlloc(..., cudaHostAllocMapped)");
}
// Advice about unified memory: checked as the reference says (a managed range, a known advice, a
// device or cudaCpuDeviceId), then accepted. It changes no result, and the simulator's unified
// memory has no page migration for it to tune.
cudaError_t cudaMemAdvise(const void* devPtr, size_t count, int advice, int device) {
    if (advice < cudaMemAdviseSetReadMostly || advice > cudaMemAdviseUnsetAccessedBy) return ret(cudaErrorInvalidValue);
    const bool needsDevice = advice != cudaMemAdviseSetReadMostly && advice != cudaMemAdviseUnsetReadMostly;
    if (needsDevice && device != 0 && device != cudaCpuDeviceId) return ret(cudaErrorInvalidDevice);
    Call c;
    WS_STICKY(c.rt);
    const uint64_t a = reinterpret_cast<uint64_t>(devPtr);
    auto it = c.rt.managed.upper_bound(a);
    if (count == 0 || it == c.rt.managed.begin() || a + count > std::prev(it)->first + std::prev(it)->second)
        return complain(cudaErrorInvalidValue, "cudaMemAdvise: the range is not inside one cudaMallocManaged allocation");
    noteHint(c.rt, "cudaMemAdvise", "the simulator's unified memory is always where it is used, so there is no page placement to advise");
    return cudaSuccess;
}
// Device limits: the stack is the simulator's local memory per thread; the printf FIFO is the
// prelude's, 1 MiB; there is no device-side malloc heap.
constexpr size_t kPrintfFifoBytes = size_t(1) << 20;
constexpr size_t kDeviceHeapBytes = size_t(8) << 20;   // __WS_HEAP_BYTES in the prelude

// A device heap larger than the prelude's 8 MiB array: one allocation of `bytes`, which every
// unit's malloc then hands out (its __ws_heapx_base/__ws_heapx_bytes point at it, its top starts
// at 0 there). At most 8 MiB asks for nothing: the array is there.
cudaError_t setDeviceHeap(Runtime& rt, size_t bytes) {
    if (bytes <= std::max(kDeviceHeapBytes, rt.deviceHeapBytes)) return cudaSuccess;
    if (!rt.loaded) return cudaSuccess;   // no module, no device malloc
    uint64_t heap = 0;
    try {
        heap = rt.device->malloc(bytes, "device heap (cudaLimitMallocHeapSize)");
    } catch (const Error&) {
        return ret(cudaErrorMemoryAllocation);
    }
    for (auto& var : rt.device->module().variables) {
        const size_t at = var.name.find("__ws_heapx_base");
        if (at == std::string::npos) continue;
        std::string sizeName = var.name, topName = var.name;
        sizeName.replace(at, 15, "__ws_heapx_bytes");
        topName.replace(at, 15, "__ws_heap_top");
        // A static's mangled name counts its length: _ZL15__ws_heapx_base -> _ZL16__ws_heapx_bytes.
        if (sizeName.rfind("_ZL15", 0) == 0) sizeName.replace(0, 5, "_ZL16");
        if (topName.rfind("_ZL15", 0) == 0) topName.replace(0, 5, "_ZL13");
        try {
            const uint64_t b = rt.device->symbolAddress(var.name), n = rt.device->symbolAddress(sizeName), t = rt.device->symbolAddress(topName);
            const uint64_t size = bytes, zero = 0;
            std::memcpy(rt.device->memory().hostPointer(b, 8, "device heap"), &heap, 8);
            std::memcpy(rt.device->memory().hostPointer(n, 8, "device heap"), &size, 8);
            std::memcpy(rt.device->memory().hostPointer(t, 8, "device heap"), &zero, 8);
        } catch (const Error&) {
        }
    }
    rt.deviceHeapBytes = bytes;
    return cudaSuccess;
}
cudaError_t cudaDeviceSetLimit(int limit, size_t value) {
    Call c;
    WS_STICKY(c.rt);
    switch (limit) {
    case cudaLimitStackSize:
        if (value == 0) return ret(cudaErrorInvalidValue);
        c.rt.device->options().maxLocalBytesPerThread = value;
        return cudaSuccess;
    case cudaLimitPrintfFifoSize:
        if (value <= kPrintfFifoBytes) return cudaSuccess;   // the FIFO already holds that much
        return notSupported("cudaDeviceSetLimit(cudaLimitPrintfFifoSize) above 1 MiB", "the kernel printf FIFO is 1 MiB");
    case cudaLimitMallocHeapSize:   // the prelude's heap: 8 MiB in each module, or one the runtime allocates
        return setDeviceHeap(c.rt, value);
    case cudaLimitMaxL2FetchGranularity:
        if (value > 128) return ret(cudaErrorInvalidValue);
        c.rt.l2FetchGranularity = value;
        return cudaSuccess;
    case cudaLimitPersistingL2CacheSize:
        if (c.rt.haveSpec && value > c.rt.spec.l2Bytes * 3 / 4) return ret(cudaErrorInvalidValue);
        c.rt.persistingL2 = value;
        c.rt.device->setPersistingL2Bytes(value);
        return cudaSuccess;
    default: return ret(cudaErrorUnsupportedLimit);
    }
}
cudaError_t cudaDeviceGetLimit(size_t* value, int limit) {
    if (!value) return ret(cudaErrorInvalidValue);
    Call c;
    WS_STICKY(c.rt);
    switch (limit) {
    case cudaLimitStackSize: *value = c.rt.device->options().maxLocalBytesPerThread; return cudaSuccess;
    case cudaLimitPrintfFifoSize: *value = kPrintfFifoBytes; return cudaSuccess;
    case cudaLimitMallocHeapSize: *value = c.rt.deviceHeapBytes ? c.rt.deviceHeapBytes : kDeviceHeapBytes; return cudaSuccess;
    case cudaLimitMaxL2FetchGranularity: *value = c.rt.l2FetchGranularity; return cudaSuccess;
    case cudaLimitPersistingL2CacheSize: *value = c.rt.persistingL2; return cudaSuccess;
    default: return ret(cudaErrorUnsupportedLimit);
    }
}
// How the host waits (spin, yield, block) and whether host memory may be mapped: the simulator
// runs work when it is issued and always allows mapping, so every valid combination is accepted.
unsigned g_deviceFlags = cudaDeviceMapHost;   // CUDA reports cudaDeviceMapHost set on current GPUs
cudaError_t cudaSetDeviceFlags(unsigned int flags) {
    if (flags > 0x1f) return ret(cudaErrorInvalidValue);
    g_deviceFlags = flags | cudaDeviceMapHost;
    return cudaSuccess;
}
cudaError_t cudaGetDeviceFlags(unsigned int* flags) { return answer(flags, g_deviceFlags); }

cudaError_t cudaStreamSetAttribute(cudaStream_t stream, int attr, const cudaStreamAttrValue* value) {
    if (!value) return ret(cudaErrorInvalidValue);
    Call c;
    WS_STICKY(c.rt);
    bool ok = true;
    streamId(c.rt, stream, &ok);
    if (!ok) return complain(cudaErrorInvalidResourceHandle, "cudaStreamSetAttribute: not a live stream");
    CUstream_st* s = stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread ? nullptr : stream;
    switch (attr) {
    case cudaStreamAttributeAccessPolicyWindow: {
        const cudaAccessPolicyWindow& w = value->accessPolicyWindow;
        if (w.hitRatio < 0 || w.hitRatio > 1 || w.hitProp > cudaAccessPropertyPersisting || w.missProp > cudaAccessPropertyPersisting)
            return ret(cudaErrorInvalidValue);
        if (s) s->window = w;
        runtime::Device::AccessPolicyWindow dw;
        dw.base = reinterpret_cast<uint64_t>(w.base_ptr);
        dw.bytes = w.num_bytes;
        dw.hitRatio = w.hitRatio;
        dw.hitProp = static_cast<int>(w.hitProp);
        dw.missProp = static_cast<int>(w.missProp);
        c.rt.device->setAccessPolicyWindow(streamId(c.rt, stream, &ok), dw);   // the cycle model's L2 keeps persisting lines
        return cudaSuccess;
    }
    case cudaStreamAttributePriority:
        if (s) s->priority = std::clamp(value->priority, -5, 0);
        if (s) c.rt.device->setStreamPriority(s->id, s->priority);
        return cudaSuccess;
    case cudaStreamAttributeSynchronizationPolicy: return cudaSuccess;   // how the host waits: the simulator never waits
    default: return ret(cudaErrorInvalidValue);
    }
}
cudaError_t cudaStreamGetAttribute(cudaStream_t stream, int attr, cudaStreamAttrValue* value) {
    if (!value) return ret(cudaErrorInvalidValue);
    Call c;
    WS_STICKY(c.rt);
    bool ok = true;
    streamId(c.rt, stream, &ok);
    if (!ok) return complain(cudaErrorInvalidResourceHandle, "cudaStreamGetAttribute: not a live stream");
    CUstream_st* s = stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread ? nullptr : stream;
    std::memset(value, 0, sizeof *value);
    switch (attr) {
    case cudaStreamAttributeAccessPolicyWindow: if (s) value->accessPolicyWindow = s->window; return cudaSuccess;
    case cudaStreamAttributePriority: value->priority = s ? s->priority : 0; return cudaSuccess;
    case cudaStreamAttributeSynchronizationPolicy: value->syncPolicy = 1; return cudaSuccess;   // cudaSyncPolicyAuto
    default: return ret(cudaErrorInvalidValue);
    }
}
cudaError_t cudaCtxResetPersistingL2Cache(void) {
    Call c;
    WS_STICKY(c.rt);
    return cudaSuccess;   // no line is ever persisting in the model
}
cudaError_t cudaStreamGetPriority(cudaStream_t stream, int* priority) {
    if (!priority) return ret(cudaErrorInvalidValue);
    Call c;
    bool ok = true;
    streamId(c.rt, stream, &ok);
    if (!ok) return ret(cudaErrorInvalidResourceHandle);
    *priority = stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread ? 0 : stream->priority;
    return cudaSuccess;
}
cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int* flags) {
    if (!flags) return ret(cudaErrorInvalidValue);
    Call c;
    bool ok = true;
    streamId(c.rt, stream, &ok);
    if (!ok) return ret(cudaErrorInvalidResourceHandle);
    *flags = stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread ? 0 : stream->flags;
    return cudaSuccess;
}
cudaError_t cudaDeviceCanAccessPeer(int* canAccessPeer, int device, int peerDevice) {
    if (!canAccessPeer) return ret(cudaErrorInvalidValue);
    if (device != 0 || peerDevice != 0) return ret(cudaErrorInvalidDevice);
    *canAccessPeer = 0;   // a device is not its own peer
    return cudaSuccess;
}
// What a pointer is: device memory, unified (managed or mapped) memory, pinned or registered host
// memory, or plain host memory (cudaMemoryTypeUnregistered, as CUDA 11 and later answer).
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attr, const void* ptr) {
    if (!attr) return ret(cudaErrorInvalidValue);
    Call c;
    WS_STICKY(c.rt);
    std::memset(attr, 0, sizeof *attr);
    attr->device = 0;
    const uint64_t a = reinterpret_cast<uint64_t>(ptr);
    auto m = c.rt.managed.upper_bound(a);
    if (m != c.rt.managed.begin() && a < std::prev(m)->first + std::prev(m)->second) {
        const bool mapped = c.rt.mappedHost.count(reinterpret_cast<void*>(std::prev(m)->first)) > 0;
        attr->type = mapped ? cudaMemoryTypeHost : cudaMemoryTypeManaged;
        attr->devicePointer = attr->hostPointer = const_cast<void*>(ptr);
        return cudaSuccess;
    }
    if (inDeviceRange(ptr)) {
        if (!c.rt.device->memory().find(a, 1)) return ret(cudaErrorInvalidValue);
        attr->type = cudaMemoryTypeDevice;
        attr->devicePointer = const_cast<void*>(ptr);
        return cudaSuccess;
    }
    if (const Runtime::Registered* reg = registeredRange(c.rt, ptr, 1)) {
        attr->type = cudaMemoryTypeHost;
        attr->hostPointer = const_cast<void*>(ptr);
        if (reg->mirror) {
            auto it = std::prev(c.rt.registered.upper_bound(a));
            attr->devicePointer = reinterpret_cast<void*>(reg->mirror + (a - it->first));
        }
        return cudaSuccess;
    }
    if (auto p = c.rt.pinnedHost.upper_bound(a); p != c.rt.pinnedHost.begin() && a < std::prev(p)->first + std::prev(p)->second.first) {
        attr->type = cudaMemoryTypeHost;   // cudaMallocHost / cudaHostAlloc
        attr->hostPointer = const_cast<void*>(ptr);
        return cudaSuccess;
    }
    attr->type = cudaMemoryTypeUnregistered;   // pageable host memory
    attr->device = -2;
    attr->hostPointer = const_cast<void*>(ptr);
    return cudaSuccess;
}
cudaError_t cudaHostGetFlags(unsigned int* pFlags, void* pHost) {
    if (!pFlags) return ret(cudaErrorInvalidValue);
    Call c;
    WS_STICKY(c.rt);
    if (c.rt.mappedHost.count(pHost)) {
        *pFlags = cudaHostAllocMapped;
        return cudaSuccess;
    }
    if (const Runtime::Registered* reg = registeredRange(c.rt, pHost, 1)) {
        *pFlags = reg->flags;
        return cudaSuccess;
    }
    if (auto p = c.rt.pinnedHost.find(reinterpret_cast<uintptr_t>(pHost)); p != c.rt.pinnedHost.end()) {
        *pFlags = p->second.second;
        return cudaSuccess;
    }
    return ret(cudaErrorInvalidValue);
}
// Stream capture and graphs, over SimDevice's: copies and kernels issued to the captured stream
// are recorded, not run; each graph launch runs them again. Memsets, device-to-device copies,
// events and host functions inside a capture are not supported (they would run at once).
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, int) {
    Call c;
    WS_STICKY(c.rt);
    bool ok = true;
    int sid = streamId(c.rt, stream, &ok);
    if (!ok) return complain(cudaErrorInvalidResourceHandle, "cudaStreamBeginCapture: not a live stream");
    if (sid == 0) return complain(cudaErrorStreamCaptureUnsupported, "cudaStreamBeginCapture: the legacy default stream cannot be captured; capture a created stream");
    try {
        c.rt.device->beginCapture(sid);
    } catch (const Error& e) {
        return complain(cudaErrorIllegalState, std::string("cudaStreamBeginCapture: ") + e.what());
    }
    c.rt.capturing = sid;
    return cudaSuccess;
}
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* pGraph) {
    if (!pGraph) return ret(cudaErrorInvalidValue);
    Call c;
    WS_STICKY(c.rt);
    bool ok = true;
    int sid = streamId(c.rt, stream, &ok);
    if (!ok) return complain(cudaErrorInvalidResourceHandle, "cudaStreamEndCapture: not a live stream");
    try {
        int g = c.rt.device->endCapture(sid);
        *pGraph = warpscope::cudart::graphFromCapture(g, c.rt.device->graphNodeKinds(g));
        c.rt.capturedAllocs[g] = std::move(c.rt.captureAllocs);
        c.rt.captureAllocs.clear();
    } catch (const Error& e) {
        return complain(cudaErrorIllegalState, std::string("cudaStreamEndCapture: ") + e.what());
    }
    c.rt.capturing = -1;
    return cudaSuccess;
}
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status) {
    if (!status) return ret(cudaErrorInvalidValue);
    Call c;
    bool ok = true;
    int sid = streamId(c.rt, stream, &ok);
    if (!ok) return ret(cudaErrorInvalidResourceHandle);
    *status = c.rt.device->inCapture(sid) ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
    return cudaSuccess;
}
} // extern "C"

namespace warpscope::cudart {
// Runs captured graph `graph` (SimDevice's) on `stream`: graphs.cpp calls it for a graph made by
// stream capture, or for such a graph's node inside a graph built node by node.
cudaError_t launchCapturedGraph(int graph, cudaStream_t stream) {
    Call c;
    WS_STICKY(c.rt);
    bool ok = true;
    int sid = streamId(c.rt, stream, &ok);
    if (!ok) return complain(cudaErrorInvalidResourceHandle, "cudaGraphLaunch: not a live stream");
    for (uint64_t a : c.rt.capturedAllocs[graph])
        if (auto it = c.rt.graphAllocs.find(a); it != c.rt.graphAllocs.end() && it->second.second) {
            char at[32];
            std::snprintf(at, sizeof at, "0x%llx", static_cast<unsigned long long>(a));
            return complain(cudaErrorInvalidValue, std::string("cudaGraphLaunch: the graph's allocation at ") + at +
                                                       " from its previous launch is still allocated (free it first, as CUDA demands)");
        }
    struct Drain {
        Runtime& rt;
        ~Drain() { drainPrintf(rt); }
    } drain{c.rt};
    try {
        ManagedSync sync(c.rt);
        MirrorSync mirrors(c.rt);
        c.rt.launchLabel = "a kernel of a graph";
        c.rt.device->launchGraph(graph, sid);
    } catch (const Error& e) {
        cudaError_t code = launchErrorFor(e);
        if (e.kind() == Error::Kind::Unsupported || e.kind() == Error::Kind::Input) return complain(code, std::string("cudaGraphLaunch: ") + e.what());
        c.rt.pendingFaultText += std::string("warpscope: a kernel of the graph faulted: ") + e.what() + "\n  CUDA reports this as " +
                                 cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ") to this call and every later one.\n";
        writeStatus("fault");
        c.rt.pendingFault = code;
    }
    return cudaSuccess;
}

// The byte size of each parameter of kernel `func` (its host stub), from the PTX; false with `why`.
bool kernelParamSizes(const void* func, std::vector<size_t>* sizes, std::string* why) {
    Call c;
    auto k = c.rt.kernels.find(func);
    if (k == c.rt.kernels.end()) {
        *why = "the function is not a kernel of this program";
        return false;
    }
    if (!c.rt.loaded) {
        *why = "the program's kernels did not load: " + c.rt.loadError;
        return false;
    }
    const ptx::Function* fn = c.rt.device->module().findFunction(k->second);
    if (!fn || !fn->isEntry) {
        *why = "no kernel " + k->second + " in the PTX";
        return false;
    }
    sizes->clear();
    for (auto& p : fn->params) sizes->push_back(static_cast<size_t>(std::max<int64_t>(p.sizeInBytes(), 0)));
    return true;
}

// A graph API call that cannot be done: the message once on stderr, the code returned.
cudaError_t graphError(cudaError_t e, const std::string& message) { return complain(e, message); }
} // namespace warpscope::cudart

extern "C" {
// ---------------------------------------------------------------- 10. the driver API's device queries (cuda.h)
// What deviceQuery and course programs read through the driver API, answered by the runtime.
typedef int CUresultWs;   // cuda.h's CUresult: the same numbers as the runtime's errors for these
static CUresultWs driverResult(cudaError_t e) { return e == cudaSuccess ? 0 : e == cudaErrorInvalidDevice ? 101 : e == cudaErrorInvalidValue ? 1 : 999; }
CUresultWs cuInit(unsigned int flags) { return flags == 0 ? 0 : 1; }
CUresultWs cuDriverGetVersion(int* v) { return driverResult(cudaDriverGetVersion(v)); }
CUresultWs cuDeviceGetCount(int* count) { return driverResult(cudaGetDeviceCount(count)); }
CUresultWs cuDeviceGet(int* device, int ordinal) {
    if (!device) return 1;
    if (ordinal != 0) return 101;
    *device = 0;
    return 0;
}
CUresultWs cuDeviceGetName(char* name, int len, int dev) {
    if (!name || len <= 0) return 1;
    cudaDeviceProp p;
    if (cudaError_t e = cudaGetDeviceProperties(&p, dev); e != cudaSuccess) return driverResult(e);
    std::snprintf(name, size_t(len), "%s", p.name);
    return 0;
}
CUresultWs cuDeviceGetAttribute(int* pi, int attrib, int dev) { return driverResult(cudaDeviceGetAttribute(pi, static_cast<cudaDeviceAttr>(attrib), dev)); }
CUresultWs cuDeviceTotalMem(size_t* bytes, int dev) {
    if (!bytes) return 1;
    cudaDeviceProp p;
    if (cudaError_t e = cudaGetDeviceProperties(&p, dev); e != cudaSuccess) return driverResult(e);
    *bytes = p.totalGlobalMem;
    return 0;
}
CUresultWs cuGetErrorName(CUresultWs error, const char** s) {
    if (!s) return 1;
    switch (error) {
    case 0: *s = "CUDA_SUCCESS"; return 0;
    case 1: *s = "CUDA_ERROR_INVALID_VALUE"; return 0;
    case 2: *s = "CUDA_ERROR_OUT_OF_MEMORY"; return 0;
    case 3: *s = "CUDA_ERROR_NOT_INITIALIZED"; return 0;
    case 100: *s = "CUDA_ERROR_NO_DEVICE"; return 0;
    case 101: *s = "CUDA_ERROR_INVALID_DEVICE"; return 0;
    case 801: *s = "CUDA_ERROR_NOT_SUPPORTED"; return 0;
    case 999: *s = "CUDA_ERROR_UNKNOWN"; return 0;
    default: *s = nullptr; return 1;
    }
}
CUresultWs cuGetErrorString(CUresultWs error, const char** s) {
    if (!s) return 1;
    const cudaError_t same = error == 0 ? cudaSuccess : error == 1 ? cudaErrorInvalidValue : error == 2 ? cudaErrorMemoryAllocation
                           : error == 3 ? cudaErrorInitializationError : error == 100 ? cudaErrorNoDevice : error == 101 ? cudaErrorInvalidDevice
                           : error == 801 ? cudaErrorNotSupported : cudaErrorUnknown;
    *s = cudaGetErrorString(same);
    return 0;
}

// ---------------------------------------------------------------- 11. stream-ordered allocation
// The simulator has finished a stream's earlier work when a call comes, so cudaMallocAsync
// allocates and cudaFreeAsync frees at once, which is a valid order for every stream.
struct CUmemPoolHandle_st {
    int device;
};
static CUmemPoolHandle_st g_pool{0};
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device) {
    if (!pool) return ret(cudaErrorInvalidValue);
    if (device != 0) return ret(cudaErrorInvalidDevice);
    *pool = &g_pool;
    return cudaSuccess;
}
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* pool, int device) { return cudaDeviceGetDefaultMemPool(pool, device); }
cudaError_t cudaMallocFromPoolAsync(void** devPtr, size_t size, cudaMemPool_t pool, cudaStream_t stream) {
    if (!devPtr || pool != &g_pool) return ret(cudaErrorInvalidValue);
    {
        Call c;
        WS_STICKY(c.rt);
        bool ok = true;
        streamId(c.rt, stream, &ok);
        if (!ok) return complain(cudaErrorInvalidResourceHandle, "cudaMallocAsync: not a live stream");
    }
    if (size == 0) {
        *devPtr = nullptr;
        return cudaSuccess;
    }
    {   // In a stream capture: an allocation node (the address now, allocated at each launch).
        Call c;
        bool ok = true;
        const int sid = streamId(c.rt, stream, &ok);
        if (c.rt.device->inCapture(sid)) {
            if (cudaError_t e = warpscope::cudart::graphMemReserve(size, devPtr); e != cudaSuccess) return e;
            const void* p = *devPtr;
            c.rt.device->captureOperation(sid, 'a', [p] { warpscope::cudart::graphMemSetAllocated(p, true); });
            c.rt.captureAllocs.push_back(reinterpret_cast<uint64_t>(p));
            return cudaSuccess;
        }
        if (c.rt.capturing >= 0)
            return notSupported("cudaMallocAsync on a stream outside the capture during stream capture", "it would allocate now, not when the graph is launched");
    }
    cudaError_t e = cudaMalloc(devPtr, size);
    if (e != cudaSuccess) return e;
    Runtime& rt = state();
    std::lock_guard<std::recursive_mutex> lock(rt.mutex);
    rt.poolAllocs[reinterpret_cast<uint64_t>(*devPtr)] = size;
    rt.poolUsed += size;
    rt.poolUsedHigh = std::max(rt.poolUsedHigh, rt.poolUsed);
    return cudaSuccess;
}
cudaError_t cudaMallocAsync(void** devPtr, size_t size, cudaStream_t stream) { return cudaMallocFromPoolAsync(devPtr, size, &g_pool, stream); }
cudaError_t cudaFreeAsync(void* devPtr, cudaStream_t stream) {
    {
        Call c;
        WS_STICKY(c.rt);
        bool ok = true;
        streamId(c.rt, stream, &ok);
        if (!ok) return complain(cudaErrorInvalidResourceHandle, "cudaFreeAsync: not a live stream");
        const int sid = streamId(c.rt, stream, &ok);
        if (c.rt.graphAllocs.count(reinterpret_cast<uint64_t>(devPtr))) {
            if (!c.rt.device->inCapture(sid)) return warpscope::cudart::graphMemFree(devPtr, "cudaFreeAsync");
            // In a capture: a free node.
            c.rt.device->captureOperation(sid, 'f', [devPtr] { warpscope::cudart::graphMemSetAllocated(devPtr, false); });
            return cudaSuccess;
        }
        if (c.rt.device->inCapture(sid) || c.rt.capturing >= 0)
            return notSupported("cudaFreeAsync during stream capture of memory the capture did not allocate", "it would free now, not when the graph is launched");
        if (auto it = c.rt.poolAllocs.find(reinterpret_cast<uint64_t>(devPtr)); it != c.rt.poolAllocs.end()) {
            c.rt.poolUsed -= it->second;
            c.rt.poolAllocs.erase(it);
        }
    }
    return cudaFree(devPtr);
}
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, int attr, void* value) {
    if (pool != &g_pool || !value) return ret(cudaErrorInvalidValue);
    Call c;
    switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies: c.rt.poolReuse[attr - 1] = *static_cast<int*>(value); return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold: c.rt.poolThreshold = *static_cast<uint64_t*>(value); return cudaSuccess;
    case cudaMemPoolAttrReservedMemHigh:
    case cudaMemPoolAttrUsedMemHigh:
        if (*static_cast<uint64_t*>(value) != 0) return ret(cudaErrorInvalidValue);   // only a reset to 0
        c.rt.poolUsedHigh = c.rt.poolUsed;
        return cudaSuccess;
    default: return ret(cudaErrorInvalidValue);
    }
}
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, int attr, void* value) {
    if (pool != &g_pool || !value) return ret(cudaErrorInvalidValue);
    Call c;
    switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies: *static_cast<int*>(value) = c.rt.poolReuse[attr - 1]; return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold: *static_cast<uint64_t*>(value) = c.rt.poolThreshold; return cudaSuccess;
    // The pool keeps nothing back: what it has reserved is what is in use.
    case cudaMemPoolAttrReservedMemCurrent:
    case cudaMemPoolAttrUsedMemCurrent: *static_cast<uint64_t*>(value) = c.rt.poolUsed; return cudaSuccess;
    case cudaMemPoolAttrReservedMemHigh:
    case cudaMemPoolAttrUsedMemHigh: *static_cast<uint64_t*>(value) = c.rt.poolUsedHigh; return cudaSuccess;
    default: return ret(cudaErrorInvalidValue);
    }
}
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t) { return pool == &g_pool ? cudaSuccess : ret(cudaErrorInvalidValue); }

// ---------------------------------------------------------------- 11b. graph memory
// A graph allocation's device memory is allocated once, when its node is made (its address is
// the node's for the graph's life, as in CUDA), and stays there; running the allocation node
// marks it allocated and a free node (or cudaFree/cudaFreeAsync after the launch) freed. The
// attributes count what is allocated now (used) and what was freed since the last trim (cached).
} // extern "C"

namespace warpscope::cudart {
cudaError_t graphMemReserve(size_t bytes, void** out) {
    if (cudaError_t e = cudaMalloc(out, bytes); e != cudaSuccess) return e;
    Runtime& rt = state();
    std::lock_guard<std::recursive_mutex> lock(rt.mutex);
    rt.graphAllocs[reinterpret_cast<uint64_t>(*out)] = {bytes, false};
    return cudaSuccess;
}
bool graphMemKnown(const void* p) {
    Runtime& rt = state();
    std::lock_guard<std::recursive_mutex> lock(rt.mutex);
    return rt.graphAllocs.count(reinterpret_cast<uint64_t>(p)) != 0;
}
bool graphMemAllocated(const void* p) {
    Runtime& rt = state();
    std::lock_guard<std::recursive_mutex> lock(rt.mutex);
    auto it = rt.graphAllocs.find(reinterpret_cast<uint64_t>(p));
    return it != rt.graphAllocs.end() && it->second.second;
}
void graphMemSetAllocated(const void* p, bool allocated) {
    Runtime& rt = state();
    std::lock_guard<std::recursive_mutex> lock(rt.mutex);
    auto it = rt.graphAllocs.find(reinterpret_cast<uint64_t>(p));
    if (it == rt.graphAllocs.end() || it->second.second == allocated) return;
    it->second.second = allocated;
    const uint64_t n = it->second.first;
    if (allocated) {
        rt.graphUsed += n;
        rt.graphCached -= std::min<uint64_t>(rt.graphCached, n);   // reuses what a free left cached
    } else {
        rt.graphUsed -= n;
        rt.graphCached += n;
    }
    rt.graphUsedHigh = std::max(rt.graphUsedHigh, rt.graphUsed);
    rt.graphReservedHigh = std::max(rt.graphReservedHigh, rt.graphUsed + rt.graphCached);
}
// cudaFree or cudaFreeAsync (outside a capture) of a graph allocation.
cudaError_t graphMemFree(void* p, const char* call) {
    if (!graphMemAllocated(p)) {
        char at[32];
        std::snprintf(at, sizeof at, "%p", p);
        return complain(cudaErrorInvalidValue, std::string(call) + "(" + at +
                                                   "): a graph's allocation that is not allocated now (its graph frees it itself, or it was freed "
                                                   "already, or the graph has not run)");
    }
    graphMemSetAllocated(p, false);
    return cudaSuccess;
}
} // namespace warpscope::cudart

extern "C" {
cudaError_t cudaDeviceGraphMemTrim(int device) {
    if (device != 0) return ret(cudaErrorInvalidDevice);
    Call c;
    WS_STICKY(c.rt);
    c.rt.graphCached = 0;
    return cudaSuccess;
}
cudaError_t cudaDeviceGetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void* value) {
    if (device != 0) return ret(cudaErrorInvalidDevice);
    if (!value) return ret(cudaErrorInvalidValue);
    Call c;
    WS_STICKY(c.rt);
    uint64_t v = 0;
    switch (attr) {
    case cudaGraphMemAttrUsedMemCurrent: v = c.rt.graphUsed; break;
    case cudaGraphMemAttrUsedMemHigh: v = c.rt.graphUsedHigh; break;
    case cudaGraphMemAttrReservedMemCurrent: v = c.rt.graphUsed + c.rt.graphCached; break;
    case cudaGraphMemAttrReservedMemHigh: v = c.rt.graphReservedHigh; break;
    default: return ret(cudaErrorInvalidValue);
    }
    *static_cast<uint64_t*>(value) = v;
    return cudaSuccess;
}
// Only the high-water marks can be set, and only to 0 (they start again from what is in use).
cudaError_t cudaDeviceSetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void* value) {
    if (device != 0) return ret(cudaErrorInvalidDevice);
    if (!value) return ret(cudaErrorInvalidValue);
    Call c;
    WS_STICKY(c.rt);
    if (*static_cast<uint64_t*>(value) != 0) return ret(cudaErrorInvalidValue);
    if (attr == cudaGraphMemAttrUsedMemHigh) c.rt.graphUsedHigh = c.rt.graphUsed;
    else if (attr == cudaGraphMemAttrReservedMemHigh) c.rt.graphReservedHigh = c.rt.graphUsed + c.rt.graphCached;
    else return ret(cudaErrorInvalidValue);
    return cudaSuccess;
}

// ---------------------------------------------------------------- 12. cache and bank preferences
// Hints on sm_70 and later too (the L1/shared split is chosen per launch, banks are 4 bytes wide):
// checked, and kept so that Get gives them back.
static int g_cacheConfig = cudaFuncCachePreferNone;
cudaError_t cudaFuncSetCacheConfig(const void* func, int config) {
    if (config < cudaFuncCachePreferNone || config > cudaFuncCachePreferEqual) return ret(cudaErrorInvalidValue);
    Call c;
    WS_STICKY(c.rt);
    return c.rt.kernels.count(func) ? cudaSuccess : ret(cudaErrorInvalidDeviceFunction);
}
cudaError_t cudaDeviceSetCacheConfig(int config) {
    if (config < cudaFuncCachePreferNone || config > cudaFuncCachePreferEqual) return ret(cudaErrorInvalidValue);
    g_cacheConfig = config;
    return cudaSuccess;
}
cudaError_t cudaDeviceGetCacheConfig(int* config) { return answer(config, g_cacheConfig); }
cudaError_t cudaFuncSetSharedMemConfig(const void* func, int config) {
    if (config < cudaSharedMemBankSizeDefault || config > cudaSharedMemBankSizeEightByte) return ret(cudaErrorInvalidValue);
    Call c;
    WS_STICKY(c.rt);
    return c.rt.kernels.count(func) ? cudaSuccess : ret(cudaErrorInvalidDeviceFunction);
}
cudaError_t cudaDeviceSetSharedMemConfig(int config) {
    return config < cudaSharedMemBankSizeDefault || config > cudaSharedMemBankSizeEightByte ? ret(cudaErrorInvalidValue) : cudaSuccess;
}
cudaError_t cudaDeviceGetSharedMemConfig(int* config) {
    if (!config) return ret(cudaErrorInvalidValue);
    *config = cudaSharedMemBankSizeFourByte;   // what sm_70 and later have, whatever was asked
    return cudaSuccess;
}

} // extern "C"

// ---------------------------------------------------------------- 10. the sandbox's watch
// Under `warpscope run` and the app a program runs in base/sandbox's child process, which sets
// $WARPSCOPE_SANDBOX to its private folder. The program is linked with --wrap for these calls
// (cudart/build.cpp), so the runtime sees them first: a write outside that folder, a network
// socket, or an allocation the address-space limit refuses stops the program at once with a note
// for the sandbox (base::sandbox::Runner reads it and names the limit). bubblewrap, where
// installed, enforces the same in the kernel; these wrappers make the message clear and cover the
// plain calls where it is not installed. Outside a sandbox they only pass the call on.
#include <fcntl.h>
#include <new>
#include <stdarg.h>
#include <sys/socket.h>

extern "C" {
FILE* __real_fopen(const char*, const char*);
FILE* __real_fopen64(const char*, const char*);
int __real_open(const char*, int, ...);
int __real_open64(const char*, int, ...);
int __real_openat(int, const char*, int, ...);
int __real_creat(const char*, mode_t);
int __real_socket(int, int, int);
void* __real_malloc(size_t);
void* __real_calloc(size_t, size_t);
void* __real_realloc(void*, size_t);
}

namespace {

// The sandbox's folder ("" outside one), read once (getenv is safe here: no allocation).
const char* sandboxDir() {
    static const char* dir = [] {
        const char* d = std::getenv("WARPSCOPE_SANDBOX");
        return d && *d ? d : "";
    }();
    return dir;
}

// Writes the note, says why on stderr, and ends the program (exit code 125).
[[noreturn]] void sandboxStop(const char* kind, const std::string& detail) {
    const std::string note = std::string(sandboxDir()) + "/.warpscope-sandbox";
    const std::string line = std::string("limit ") + kind + " " + detail + "\n";
    int fd = __real_open(note.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd >= 0) {
        (void)!write(fd, line.data(), line.size());
        close(fd);
    }
    std::fflush(stdout);
    _exit(125);
}

// Whether `path` (relative to the working folder) may be written: inside the sandbox's folder, or
// a device such as /dev/null or the program's own standard streams.
bool writable(const char* path) {
    if (!path) return true;
    std::string p = path;
    if (p.rfind("/dev/", 0) == 0 || p.rfind("/proc/self/fd/", 0) == 0) return true;
    if (p.empty() || p[0] != '/') {
        char cwd[4096];
        if (!getcwd(cwd, sizeof cwd)) return true;
        p = std::string(cwd) + "/" + p;
    }
    // Lexically normal: "a/../b" cannot climb out unnoticed.
    std::vector<std::string> parts;
    for (size_t i = 0; i <= p.size();) {
        size_t e = p.find('/', i);
        if (e == std::string::npos) e = p.size();
        std::string part = p.substr(i, e - i);
        if (part == "..") {
            if (!parts.empty()) parts.pop_back();
        } else if (!part.empty() && part != ".") {
            parts.push_back(part);
        }
        i = e + 1;
    }
    std::string norm;
    for (auto& part : parts) norm += "/" + part;
    const std::string dir = sandboxDir();
    return norm == dir || norm.rfind(dir + "/", 0) == 0;
}

void checkWrite(const char* path) {
    if (!*sandboxDir() || writable(path)) return;
    sandboxStop("write", std::string("'") + (path ? path : "") + "'");
}

bool writesMode(const char* mode) { return mode && (std::strchr(mode, 'w') || std::strchr(mode, 'a') || std::strchr(mode, '+')); }
bool writesFlags(int flags) { return (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND)) != 0; }

[[noreturn]] void outOfMemory(const std::string& what) { sandboxStop("memory", what + " failed"); }

void memoryRefused(size_t bytes, const char* call) {
    if (!*sandboxDir()) return;
    outOfMemory(std::string(call) + "(" + std::to_string(bytes) + " bytes)");
}

// operator new's failures (libstdc++'s own malloc calls are not wrapped) come here.
__attribute__((constructor)) void sandboxNewHandler() {
    if (*sandboxDir()) std::set_new_handler([] { outOfMemory("a C++ allocation (operator new)"); });
}

} // namespace

extern "C" {
FILE* __wrap_fopen(const char* path, const char* mode) {
    if (writesMode(mode)) checkWrite(path);
    return __real_fopen(path, mode);
}
FILE* __wrap_fopen64(const char* path, const char* mode) {
    if (writesMode(mode)) checkWrite(path);
    return __real_fopen64(path, mode);
}
static mode_t modeArg(int flags, va_list ap) { return (flags & (O_CREAT | O_TMPFILE)) ? static_cast<mode_t>(va_arg(ap, int)) : 0; }
int __wrap_open(const char* path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    const mode_t m = modeArg(flags, ap);
    va_end(ap);
    if (writesFlags(flags)) checkWrite(path);
    return __real_open(path, flags, m);
}
int __wrap_open64(const char* path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    const mode_t m = modeArg(flags, ap);
    va_end(ap);
    if (writesFlags(flags)) checkWrite(path);
    return __real_open64(path, flags, m);
}
int __wrap_openat(int dirfd, const char* path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    const mode_t m = modeArg(flags, ap);
    va_end(ap);
    if (writesFlags(flags) && (dirfd == AT_FDCWD || (path && path[0] == '/'))) checkWrite(path);
    return __real_openat(dirfd, path, flags, m);
}
int __wrap_creat(const char* path, mode_t m) {
    checkWrite(path);
    return __real_creat(path, m);
}
int __wrap_socket(int domain, int type, int protocol) {
    if (*sandboxDir() && domain != AF_UNIX)
        sandboxStop("network", std::string("socket(") + (domain == AF_INET ? "AF_INET" : domain == AF_INET6 ? "AF_INET6" : std::to_string(domain)) + ")");
    return __real_socket(domain, type, protocol);
}
void* __wrap_malloc(size_t n) {
    void* p = __real_malloc(n);
    if (!p && n) memoryRefused(n, "malloc");
    return p;
}
void* __wrap_calloc(size_t n, size_t size) {
    void* p = __real_calloc(n, size);
    if (!p && n && size) memoryRefused(n * size, "calloc");
    return p;
}
void* __wrap_realloc(void* old, size_t n) {
    void* p = __real_realloc(old, n);
    if (!p && n) memoryRefused(n, "realloc");
    return p;
}
}
