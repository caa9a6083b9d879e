// The simulator behind the Device interface: parses the PTX, places module variables in device
// memory, compiles kernels on first use and runs launches on a sim::Gpu.
#pragma once
#include "mem/memory.hpp"
#include "ptx/ast.hpp"
#include "runtime/device.hpp"
#include "sim/gpu.hpp"
#include "sim/program.hpp"
#include "timing/cycle_model.hpp"

#include <atomic>
#include <functional>
#include <map>
#include <set>
#include <memory>
#include <optional>

namespace warpscope::runtime {

class SimDevice : public Device {
public:
    explicit SimDevice(sim::LaunchOptions options = {}) : options_(options) {
        memory_.setTrackInit(options.initcheck);
        memory_.setLimit(options.deviceMemoryBytes ? options.deviceMemoryBytes : mem::defaultDeviceMemoryLimit());
    }

    std::string name() const override { return "warpscope simulator"; }
    bool isSimulator() const override { return true; }
    void loadModule(const std::string& ptxText, const std::string& displayName) override;
    void loadParsedModule(const std::string& ptxText, const ptx::Module& parsed, const std::string& displayName) override;
    DevPtr malloc(size_t bytes, const std::string& label) override;
    void free(DevPtr ptr) override;
    void memcpyHtoD(DevPtr dst, const void* src, size_t bytes) override;
    void memcpyDtoH(void* dst, DevPtr src, size_t bytes) override;
    void memcpyDtoD(DevPtr dst, DevPtr src, size_t bytes) override;
    void memset(DevPtr dst, uint8_t value, size_t bytes) override;
    DevPtr symbolAddress(const std::string& name, size_t* bytes = nullptr) override;
    LaunchResult launch(const std::string& kernel, const LaunchConfig& config,
                        const std::vector<ParamBytes>& params) override;
    void synchronize() override;

    void* hostAlloc(size_t bytes, bool pinned) override;
    void hostFree(void* ptr) override;
    int createStream(bool nonBlocking) override;
    int createEvent() override;
    void copyToDevice(DevPtr dst, const void* src, size_t bytes, int stream, bool hostSync, const std::string& label) override;
    void copyToHost(void* dst, DevPtr src, size_t bytes, int stream, bool hostSync, const std::string& label) override;
    LaunchResult launchOn(int stream, const std::string& kernel, const LaunchConfig& config,
                          const std::vector<ParamBytes>& params) override;
    void recordEvent(int event, int stream) override;
    void streamWaitEvent(int stream, int event) override;
    void synchronizeStream(int stream) override;
    void synchronizeEvent(int event) override;
    double eventElapsedMs(int from, int to) override;
    void beginCapture(int stream) override;
    int endCapture(int stream) override;
    void launchGraph(int graph, int stream) override;
    // While `stream` is being captured (or has joined the capture): appends an operation the
    // caller defines (a memset, a host function, a device-to-device copy: `effect` runs at each
    // graph launch, `model` puts it on the timeline) and returns true; else false and the caller
    // runs it now. `kind`: 'k' kernel, 'c' copy, 'm' memset, 'h' host function.
    bool captureOperation(int stream, char kind, std::function<void()> effect, std::function<void(int stream)> model = {});
    // A stream that waits on an event recorded in the capture joins it (CUDA's fork/join capture):
    // its work goes into the same graph until the capture ends.
    void joinCapture(int stream);
    bool inCapture(int stream) const { return capturing(stream); }
    // The kinds of a captured graph's nodes, in order (as captureOperation's `kind`).
    std::string graphNodeKinds(int graph) const;
    void resetTimeline() override;
    Timeline timeline() override;
    void setStreamPriority(int stream, int priority) override;
    void launchHostFunction(int stream, const std::function<void()>& fn, double costUs, const std::string& label) override;
    void setAccessPolicyWindow(int stream, const AccessPolicyWindow& window) override;
    void setPersistingL2Bytes(uint64_t bytes) override;
    void setMappedRange(DevPtr base, uint64_t bytes, bool mapped) override;
    // `base` with what the launch now running needs from the host program: its stream's L2 access
    // policy window, the persisting set-aside and the mapped host ranges. An onLaunch hook that
    // runs the cycle model itself gives it these options, as SimDevice's own timed run does.
    timing::TimingOptions launchTimingOptions(timing::TimingOptions base) const;
    // The cycle model's L2 lookups, hits and mapped sectors of the last timed launch.
    const timing::TimingResult& lastTiming() const { return lastTiming_; }

    // Models a timeline on `gpu`: every kernel is then run through the cycle model (TimedRun,
    // with `timingOptions`) to learn its duration, unless an onLaunch hook reports it with
    // reportKernelMicros. Without this, streams and events still work but no timeline is kept.
    void enableTimeline(const timing::GpuSpec& gpu, timing::TimingOptions timingOptions = {});
    bool timelineEnabled() const { return model_ != nullptr; }
    // For onLaunch hooks that run the launch through their own TimedRun.
    void reportKernelMicros(double us) { reportedMicros_ = us; }

    // Simulator-only access.
    const ptx::Module& module() const { return module_; }
    const sim::Program& program(const std::string& kernel);
    mem::GlobalMemory& memory() { return memory_; }
    sim::LaunchOptions& options() { return options_; }
    // Called for each launch before it runs, e.g. to attach a trace listener or step it by hand.
    // If the hook runs the launch itself (to completion) SimDevice only collects the result.
    std::function<void(sim::Gpu&)> onLaunch;
    const sim::LaunchStats& lastStats() const { return lastStats_; }
    // Checker reports of every launch so far (initcheck, racecheck), in launch order.
    const std::vector<sim::CheckReport>& reports() const { return reports_; }
    // Remarks of the launches so far that are not findings (racecheck's tracking limit), once each.
    const std::vector<std::string>& notes() const { return notes_; }
    // Largest racecheck shadow of any launch so far, in bytes (for cost measurements).
    uint64_t peakRaceShadowBytes() const { return peakRaceShadow_; }

    // Cancel from another thread (the app's Cancel button): the running launch stops with
    // Error(Cancelled) "Cancelled by the user ..." within a few thousand warp-instructions, and so
    // does every later launch until clearCancel(). Safe to call at any time from any thread.
    void requestCancel() { cancel_.store(true, std::memory_order_relaxed); }
    void clearCancel() { cancel_.store(false, std::memory_order_relaxed); }
    bool cancelRequested() const { return cancel_.load(std::memory_order_relaxed); }

private:
    struct HostBlock {
        std::unique_ptr<uint8_t[]> bytes;
        size_t size = 0;
        bool pinned = false;
    };
    // A captured operation: its effect (run at each graph launch) and its timeline entry.
    struct GraphNode {
        std::function<void()> effect;
        std::function<void(int stream)> model;
        char kind = 'k';
    };
    void load(ptx::Module m);
    bool isPinned(const void* p, size_t bytes) const;
    void checkStream(int stream, const char* what) const;
    void copyOverPcie(TimelineKind kind, const char* what, const char* captured, DevPtr device, const void* host, size_t bytes, int stream,
                      bool hostSync, const std::string& label, std::function<void()> effect);
    bool capturing(int stream) const { return stream >= 0 && captureStream_ >= 0 && (captureStream_ == stream || joined_.count(stream)); }
    LaunchResult runKernel(const std::string& kernel, const LaunchConfig& config, const std::vector<ParamBytes>& params,
                           double* micros);
    double smFraction(const std::string& kernel, const LaunchConfig& config, double* waves = nullptr);
    timing::Occupancy occupancy(const timing::GpuSpec& sp, const sim::Program& prog, const LaunchConfig& config) const;

    ptx::Module module_;
    bool loaded_ = false;
    mem::GlobalMemory memory_;
    sim::SymbolAddresses symbols_;
    std::map<std::string, size_t> symbolSizes_;
    std::map<std::string, std::unique_ptr<sim::Program>> programs_;
    sim::LaunchOptions options_;
    sim::LaunchStats lastStats_;
    std::vector<sim::CheckReport> reports_;
    std::vector<std::string> notes_;
    uint64_t peakRaceShadow_ = 0;
    std::atomic<bool> cancel_{false};

    std::map<const uint8_t*, HostBlock> hostBlocks_;
    int streams_ = 1;                          // 0 exists from the start
    std::vector<bool> nonBlocking_{false};
    std::vector<int> priority_{0};
    std::map<int, AccessPolicyWindow> windows_;   // by stream
    uint64_t persistingL2_ = 0;
    std::map<DevPtr, uint64_t> mapped_;
    int launchStream_ = 0;                        // the stream of the launch runKernel is running
    timing::TimingResult lastTiming_;
    int events_ = 0;
    std::map<int, bool> eventRecorded_;
    int captureStream_ = -1;
    std::set<int> joined_;   // streams that joined the capture through an event
    std::set<int> capturedEvents_;   // events recorded inside the capture in progress
    std::set<int> everCaptured_;     // events ever recorded inside a capture
    std::vector<GraphNode> capture_;
    std::vector<std::vector<GraphNode>> graphs_;
    std::unique_ptr<TimelineModel> model_;
    timing::TimingOptions timingOptions_;
    double reportedMicros_ = -1;
    int launchCount_ = 0;
};

} // namespace warpscope::runtime
