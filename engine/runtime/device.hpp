// The backend-neutral device interface. SimDevice (the simulator) and CudaDevice (the real GPU
// through the CUDA driver API, loaded at run time) both implement it, so a lesson's host script
// runs unchanged on either. All failures throw warpscope::Error.
#pragma once
#include "base/launch.hpp"
#include "ptx/ast.hpp"
#include "runtime/timeline.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace warpscope::runtime {

// The launch types live in base/ (the simulator needs them too); the device API names them here.
using base::DevPtr;
using base::Dim3;
using base::LaunchConfig;
using base::ParamBytes;

struct LaunchResult {
    std::string kernel;
    std::string family;                // the host operation's "family" (empty when none)
    Dim3 grid, block;
    uint32_t dynamicSharedBytes = 0;
    double elapsedMs = 0;              // GPU time (hardware, from events) or host time of the simulation
    double firstLaunchMs = 0;          // hardware with steady-state timing: the program's own launch
                                       // (cold, first); elapsedMs is then the steady-state median
    // Simulator only (zero on hardware):
    uint64_t warpInstructions = 0;     // warp-level PTX instructions issued
    uint64_t threadInstructions = 0;   // sum of executing lanes over those
    uint64_t branches = 0;             // executed bra instructions (warp level)
    uint64_t divergentBranches = 0;    // of those, the ones that split the warp
};

class Device {
public:
    virtual ~Device() = default;
    virtual std::string name() const = 0;     // "simulator" or the GPU's name
    virtual bool isSimulator() const = 0;

    // Loads PTX text (replacing any module loaded before). Errors carry the PTX/JIT log.
    // Kernel signatures come from parsing the same PTX on the host (ptx::Module), not from here.
    virtual void loadModule(const std::string& ptxText, const std::string& displayName) = 0;
    // The same, for a caller that has parsed the text already (the host script looks up kernel
    // signatures in it): the simulator takes the parsed module instead of parsing it again.
    virtual void loadParsedModule(const std::string& ptxText, const ptx::Module& parsed, const std::string& displayName) {
        (void)parsed;
        loadModule(ptxText, displayName);
    }

    virtual DevPtr malloc(size_t bytes, const std::string& label) = 0;
    virtual void free(DevPtr ptr) = 0;
    virtual void memcpyHtoD(DevPtr dst, const void* src, size_t bytes) = 0;
    virtual void memcpyDtoH(void* dst, DevPtr src, size_t bytes) = 0;
    virtual void memcpyDtoD(DevPtr dst, DevPtr src, size_t bytes) = 0;
    virtual void memset(DevPtr dst, uint8_t value, size_t bytes) = 0;

    // Address and size of a module-scope .global/.const variable (e.g. __constant__ data).
    virtual DevPtr symbolAddress(const std::string& name, size_t* bytes = nullptr) = 0;

    // Runs a kernel to completion on the legacy default stream and waits for it.
    virtual LaunchResult launch(const std::string& kernel, const LaunchConfig& config,
                                const std::vector<ParamBytes>& params) = 0;
    virtual void synchronize() = 0;

    // ---- Host runtime: host memory, streams, events, graphs (engine/runtime/timeline.hpp).
    // Streams are numbers: 0 is the legacy default stream; createStream returns 1, 2, ...
    // Events and graphs are numbers too. The simulator executes every operation's effect when it
    // is issued (issue order is a valid order for a program that synchronises correctly) and
    // models when it would run; a GPU runs them asynchronously and measures them.

    // Host memory the copies read and write: page-locked (cudaMallocHost) or ordinary pageable.
    virtual void* hostAlloc(size_t bytes, bool pinned) = 0;
    virtual void hostFree(void* ptr) = 0;

    virtual int createStream(bool nonBlocking) = 0;
    virtual int createEvent() = 0;
    // cudaMemcpyAsync (hostSync false) or cudaMemcpy (true) between host memory and the device.
    virtual void copyToDevice(DevPtr dst, const void* src, size_t bytes, int stream, bool hostSync, const std::string& label) = 0;
    virtual void copyToHost(void* dst, DevPtr src, size_t bytes, int stream, bool hostSync, const std::string& label) = 0;
    // A launch on a stream that does not wait for the kernel. On a GPU the result's elapsedMs is 0
    // (the timeline holds the kernel's time).
    virtual LaunchResult launchOn(int stream, const std::string& kernel, const LaunchConfig& config,
                                  const std::vector<ParamBytes>& params) = 0;
    virtual void recordEvent(int event, int stream) = 0;
    virtual void streamWaitEvent(int stream, int event) = 0;
    virtual void synchronizeStream(int stream) = 0;
    virtual void synchronizeEvent(int event) = 0;
    virtual double eventElapsedMs(int from, int to) = 0;   // both events recorded and complete
    // Stream capture: the work issued to `stream` between begin and end becomes a graph (not
    // executed then); endCapture instantiates it and returns its number.
    virtual void beginCapture(int stream) = 0;
    virtual int endCapture(int stream) = 0;
    virtual void launchGraph(int graph, int stream) = 0;

    // ---- The Programming Guide's extras (docs/guide-topics.md). The defaults are for a backend
    // that does not model them (a GPU does them itself): no effect, and a host function runs when
    // its stream's earlier work is done. SimDevice models them on its timeline and cycle model.
    // A stream's priority (cudaStreamCreateWithPriority): 0 the lowest, -5 the highest.
    virtual void setStreamPriority(int stream, int priority) {
        (void)stream;
        (void)priority;
    }
    // cudaLaunchHostFunc: `fn` runs on the host once the stream's earlier work is done and holds
    // its later work until it returns; `costUs` is its host time for the timeline model.
    virtual void launchHostFunction(int stream, const std::function<void()>& fn, double costUs, const std::string& label) {
        (void)costUs;
        (void)label;
        synchronizeStream(stream);
        if (fn) fn();
    }
    // An access policy window on a stream (cudaStreamAttributeAccessPolicyWindow): hitProp and
    // missProp are cudaAccessProperty values (0 normal, 1 streaming, 2 persisting).
    struct AccessPolicyWindow {
        DevPtr base = 0;
        uint64_t bytes = 0;
        double hitRatio = 0;
        int hitProp = 0, missProp = 0;
    };
    virtual void setAccessPolicyWindow(int stream, const AccessPolicyWindow& window) {
        (void)stream;
        (void)window;
    }
    virtual void setPersistingL2Bytes(uint64_t bytes) { (void)bytes; }   // cudaLimitPersistingL2CacheSize
    // [base, base + bytes) is mapped (zero-copy) host memory: kernels reach it over PCIe.
    virtual void setMappedRange(DevPtr base, uint64_t bytes, bool mapped) {
        (void)base;
        (void)bytes;
        (void)mapped;
    }

    // The timeline of everything issued since the last resetTimeline() (synchronises first).
    // Empty when the backend does not record one (a SimDevice without a timeline GPU).
    virtual void resetTimeline() = 0;
    virtual Timeline timeline() = 0;
};

} // namespace warpscope::runtime
