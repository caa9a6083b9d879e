// CudaDevice: the runtime::Device interface over a real NVIDIA GPU, through the CUDA *driver* API.
//
// libcuda.so.1 is opened with dlopen at run time and every entry point is looked up with dlsym,
// so warpscope builds and runs where no CUDA is installed; only opening a CudaDevice fails there,
// with a sentence saying why. The PTX handed to loadModule is the same text the simulator runs;
// the driver JIT-compiles it for the GPU in the machine.
//
// Sections: availability probe, factory, the class.
#pragma once
#include "runtime/device.hpp"

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace warpscope::hw {

// "" when a CUDA GPU can be opened, else the reason in one sentence (for the GUI's disabled
// hardware toggle). Never throws.
std::string cudaAvailability();

// Opens GPU `ordinal` (0 = first). Throws warpscope::Error(Kind::Device) with a clear sentence
// when there is no driver, the driver cannot initialise, or there is no such GPU.
std::unique_ptr<runtime::Device> openCudaDevice(int ordinal = 0);
// The first GPU, or null with the reason in `why` (cudaAvailability's sentence, or why opening
// it failed). Never throws.
std::unique_ptr<runtime::Device> openCudaDeviceOrWhy(std::string& why);

struct DriverApi;   // the dlopen'ed entry points (cuda_device.cpp)

class CudaDevice : public runtime::Device {
public:
    // Prefer openCudaDevice(); this throws the same errors.
    explicit CudaDevice(int ordinal);
    ~CudaDevice() override;
    CudaDevice(const CudaDevice&) = delete;
    CudaDevice& operator=(const CudaDevice&) = delete;

    std::string name() const override { return name_; }
    bool isSimulator() const override { return false; }

    void loadModule(const std::string& ptxText, const std::string& displayName) override;

    runtime::DevPtr malloc(size_t bytes, const std::string& label) override;
    void free(runtime::DevPtr ptr) override;
    void memcpyHtoD(runtime::DevPtr dst, const void* src, size_t bytes) override;
    void memcpyDtoH(void* dst, runtime::DevPtr src, size_t bytes) override;
    void memcpyDtoD(runtime::DevPtr dst, runtime::DevPtr src, size_t bytes) override;
    void memset(runtime::DevPtr dst, uint8_t value, size_t bytes) override;

    runtime::DevPtr symbolAddress(const std::string& name, size_t* bytes = nullptr) override;

    runtime::LaunchResult launch(const std::string& kernel, const runtime::LaunchConfig& config,
                                 const std::vector<runtime::ParamBytes>& params) override;
    void synchronize() override;

    void* hostAlloc(size_t bytes, bool pinned) override;
    void hostFree(void* ptr) override;
    int createStream(bool nonBlocking) override;
    int createEvent() override;
    void copyToDevice(runtime::DevPtr dst, const void* src, size_t bytes, int stream, bool hostSync, const std::string& label) override;
    void copyToHost(void* dst, runtime::DevPtr src, size_t bytes, int stream, bool hostSync, const std::string& label) override;
    runtime::LaunchResult launchOn(int stream, const std::string& kernel, const runtime::LaunchConfig& config,
                                   const std::vector<runtime::ParamBytes>& params) override;
    void recordEvent(int event, int stream) override;
    void streamWaitEvent(int stream, int event) override;
    void synchronizeStream(int stream) override;
    void synchronizeEvent(int event) override;
    double eventElapsedMs(int from, int to) override;
    void beginCapture(int stream) override;
    int endCapture(int stream) override;
    void launchGraph(int graph, int stream) override;
    // Every operation issued outside a capture is bracketed by two events in its stream; the
    // timeline reads them back (start refined by the previous operation on the same copy engine).
    void resetTimeline() override;
    runtime::Timeline timeline() override;
    // Off: only host calls and waits are timed (by the host clock), no events around each
    // operation, so the program runs as fast as without instrumentation. Synchronous launches
    // are always timed.
    void recordEachOperation(bool on) { recordOps_ = on; }
    // Steady-state kernel timing (warpscope time-compare): when > 0, every synchronous launch is
    // followed by one untimed warm-up and `repeats` more launches of the same kernel with the same
    // arguments, queued behind a spin kernel so that they run back to back with an event between
    // each, and its elapsedMs becomes the median of those intervals. This keeps the host's launch
    // overhead, lazy module loading and first-touch effects out of the measurement (the GPU is
    // never idle between the events; each interval still holds the GPU's own gap between queued
    // kernels, about 1.6-1.9 us on the H100). The
    // kernel then runs repeats + 2 times: only for measuring, since kernels that accumulate into
    // their output (atomics, in-place updates) leave different results.
    void setSteadyStateRepeats(int repeats) { steadyRepeats_ = repeats; }
    // The repeats `compare` and `time-compare` time by default (median of back-to-back launches).
    static constexpr int kSteadyStateRepeats = 20;
    // Registers per thread that the driver's JIT (ptxas) gave `kernel` of the loaded module; 0
    // when the driver cannot say.
    int registersPerThread(const std::string& kernel);

    // After a kernel fault (illegal address, trap, ...) the CUDA context is poisoned: every later
    // call fails. Then this is true and every method throws Error(Kind::Device) saying so;
    // destroy this object and open a new device (the destructor resets the context).
    bool needsReopen() const { return !lostReason_.empty(); }

    int ordinal() const { return ordinal_; }
    // The CUcontext (for CUPTI), and making it current on the calling thread.
    void* contextHandle() const { return context_; }
    void makeCurrent() const { bind(); }
    int computeCapabilityMajor() const { return ccMajor_; }
    int computeCapabilityMinor() const { return ccMinor_; }
    int driverVersion() const { return driverVersion_; }      // e.g. 13000 for CUDA 13.0
    const std::string& jitInfoLog() const { return jitInfoLog_; }  // of the last loadModule

private:
    struct Allocation {
        size_t bytes = 0;
        std::string label;
    };

    void bind() const;                      // make our context current on this thread
    void ensureUsable() const;              // throws when needsReopen()
    void check(int result, const char* what);   // throws Error(Device) on failure
    void checkRange(runtime::DevPtr ptr, size_t bytes, const char* what) const;
    void* function(const std::string& kernel);         // CUfunction, cached per module
    void markLost(int result, const std::string& kernel);
    void* streamHandle(int stream, const char* what) const;
    void* eventHandle(int event, const char* what) const;
    void enqueueKernel(void* stream, const std::string& kernel, const runtime::LaunchConfig& config,
                       const std::vector<runtime::ParamBytes>& params);
    void throwLaunchFailure(int result, const std::string& kernel);
    double steadyStateMs(const std::string& kernel, const runtime::LaunchConfig& config,
                         const std::vector<runtime::ParamBytes>& params);
    // Timeline recording: events around one operation, host call times.
    struct Record {
        runtime::TimelineOp op;
        void* before = nullptr;   // CUevent
        void* after = nullptr;
    };
    bool capturing(int stream) const { return captureStream_ >= 0 && stream == captureStream_; }
    size_t beginRecord(runtime::TimelineOp op, int stream, bool always = false);
    void* takeEvent();
    void endRecord(size_t index, int stream);
    double hostNowUs() const;
    void hostOp(runtime::TimelineKind kind, const std::string& label, double startUs);
    // A host wait on the GPU: `wait()` is the driver call (`call` names it). A fault it reports
    // poisons the context; the wait goes on the host timeline as `label` (not at all when empty).
    void hostWait(const char* call, const std::string& label, const std::function<int()>& wait);
    // copyToDevice and copyToHost past their checks: `copy(CUstream)` is the driver call (`call`
    // names it), recorded on the timeline as `kind` unless the stream is being captured.
    void copyAsync(runtime::TimelineKind kind, const void* host, size_t bytes, int stream, bool hostSync, const std::string& label,
                   const char* call, const std::function<int(void*)>& copy);
    void releaseRuntime();

    std::shared_ptr<const DriverApi> api_;
    int ordinal_ = 0;
    int device_ = 0;                        // CUdevice
    void* context_ = nullptr;               // CUcontext (the device's primary context)
    void* module_ = nullptr;                // CUmodule
    std::string moduleName_;
    std::string moduleText_;                // PTX of the loaded module
    std::map<std::string, void*> functions_;
    std::map<runtime::DevPtr, Allocation> allocations_;
    std::string name_;
    int ccMajor_ = 0, ccMinor_ = 0, driverVersion_ = 0;
    std::string jitInfoLog_;
    std::string lostReason_;                // non-empty once the context is poisoned

    std::vector<void*> streams_{nullptr};   // CUstream; [0] = the legacy default stream
    std::vector<void*> events_;             // CUevent, by event number
    std::vector<void*> graphs_, graphExecs_;
    std::map<void*, bool> hostBlocks_;      // host allocations: pointer -> pinned
    int captureStream_ = -1;
    size_t captureNodes_ = 0;
    std::vector<size_t> graphNodes_;
    std::vector<Record> records_;
    std::vector<runtime::TimelineOp> hostOps_;
    void* baseEvent_ = nullptr;
    std::vector<void*> eventPool_;          // CUevents reused by the timeline's records
    size_t poolUsed_ = 0;
    bool recordOps_ = true;
    int steadyRepeats_ = 0;
    void* spinModule_ = nullptr;            // CUmodule of the steady-state timing's spin kernel
    void* spinFunction_ = nullptr;
    std::chrono::steady_clock::time_point hostBase_{};
};

} // namespace warpscope::hw
