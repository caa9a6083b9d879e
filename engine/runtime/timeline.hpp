// Timelines of a host program's work: which engine did what, on which stream, when.
//
// A Timeline is data shared by both backends: SimDevice builds one with TimelineModel (the
// simulated schedule of copies, kernels and host calls), CudaDevice measures one with events
// around every operation. Both export to Chrome trace JSON (Perfetto, chrome://tracing).
//
// The model (TimelineModel) follows the Programming Guide's rules:
//  - work in one stream runs in issue order;
//  - the legacy default stream (stream 0) waits for all earlier work in blocking streams, and
//    work in a blocking stream waits for all earlier work in stream 0; non-blocking streams are
//    exempt from both;
//  - an event completes when the work recorded before it in its stream completes; a stream
//    waiting on an event holds its later work until then;
//  - copies run on copy engines (one per direction when the GPU has two or more, one shared
//    otherwise), in issue order, at PCIe bandwidth plus a fixed latency; copies from pageable
//    host memory run at the lower pageable bandwidth and keep the host thread until they finish,
//    so nothing issued after them can overlap them. Where the preset sets them (the H100, from
//    tests/validation/programs/streams-order.cu; docs/timing-validation.md): a pinned copy queued
//    behind another on its engine pays copyQueuedLatencyUs, its setup overlapping the copy ahead;
//    a copy issued while its stream's kernel still runs starts copyAfterKernelUs (pinned) or
//    pageableAfterKernelUs (pageable) after the kernel ends; a pageable host-to-device copy
//    returns once the host has staged it (pageableStageBytes pieces) and the DMA of the last
//    piece follows on the engine;
//  - kernels run on the compute engine; kernels from different streams share the SMs when their
//    blocks fit together (each kernel holds the fraction of the GPU's block slots it fills);
//  - every API call costs host time (launch, copy, event calls); a kernel cannot start before
//    its launch call returned plus the GPU's launch latency; a graph launch costs one host call,
//    and its kernels follow each other with the smaller per-node gap;
//  - a host function (cudaLaunchHostFunc, cudaStreamAddCallback) runs on the host once all
//    earlier work in its stream is done (for stream 0: in every blocking stream), after the
//    driver's callback thread wakes up (hostFuncLatencyUs), one at a time on that one thread
//    (host functions of different streams are serialised), and holds the stream's later work
//    until it returns. It is drawn on its stream's lane, not on the host thread's (it runs on a
//    thread of the driver's own);
//  - stream priorities: when a kernel from a stream of higher priority (a lower number) is
//    ready while the SMs are full of a lower-priority kernel's blocks, it takes the block slots
//    as that kernel's running blocks finish (at its next wave boundary; blocks are never
//    preempted). The lower-priority kernel's remaining waves then wait: it ends later by the time
//    it could not use those slots. The rule applies only while nothing was issued after the
//    low-priority kernel in its stream (the model schedules at issue and does not move later
//    work): otherwise the kernels run in issue order as without priorities.
//
// Sections: 1. Timeline data  2. TimelineModel  3. Chrome trace export and text summary
#pragma once
#include "timing/gpu_spec.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace warpscope::runtime {

// ---------------------------------------------------------------- 1. Timeline data
enum class TimelineEngine : uint8_t { Host, CopyHtoD, CopyDtoH, Compute };
std::string_view engineName(TimelineEngine e);     // "host", "copy H2D", "copy D2H", "compute"

enum class TimelineKind : uint8_t { CopyHtoD, CopyDtoH, CopyDtoD, Memset, Kernel, Graph, EventRecord, HostCall, HostWait, HostFunc };
std::string_view kindName(TimelineKind k);          // "memcpy HtoD", "kernel", ...

struct TimelineOp {
    TimelineKind kind = TimelineKind::Kernel;
    TimelineEngine engine = TimelineEngine::Compute;
    int stream = 0;                // the program's stream number (0 = legacy default stream); -1 for host lanes
    std::string label;             // kernel name, "a[0:262144]", "cudaStreamSynchronize(2)"
    double startUs = 0, endUs = 0; // from the start of the recorded program
    uint64_t bytes = 0;            // copies and memsets
    bool pinned = false;           // copies: host memory page-locked
    bool inGraph = false;          // issued as a node of a graph launch
    int launchIndex = -1;          // kernels: index into RunResult::launches
    int priority = 0;              // kernels: their stream's priority (0 = default, lower = higher)
    double yieldedUs = 0;          // kernels: time added to it by a higher-priority kernel taking its slots
    bool mapped = false;           // kernels: read or wrote mapped (zero-copy) host memory over PCIe
    double durationUs() const { return endUs - startUs; }
};

struct Timeline {
    std::string source;            // "simulated: H100 preset" or "measured: NVIDIA H100 80GB HBM3"
    bool measured = false;         // from a real GPU (events), not the model
    std::vector<TimelineOp> ops;
    double totalUs() const;        // end of the last operation (device or host)
    double deviceEndUs() const;    // end of the last device operation
    bool empty() const { return ops.empty(); }
    // Time during which at least one copy engine and the compute engine were both busy.
    double overlapUs() const;
    // Sum of busy time per engine (union of intervals on that engine).
    double busyUs(TimelineEngine e) const;
};

// ---------------------------------------------------------------- 2. TimelineModel
class TimelineModel {
public:
    explicit TimelineModel(const timing::GpuSpec& spec);
    const timing::GpuSpec& spec() const { return spec_; }

    int createStream(bool nonBlocking, int priority = 0);   // returns the new stream's number (1, 2, ...)
    bool streamExists(int stream) const;
    // A stream's priority (cudaStreamCreateWithPriority): 0 is the default and lowest, -5 the
    // highest on current GPUs (cudaDeviceGetStreamPriorityRange); clamped to that range.
    void setStreamPriority(int stream, int priority);
    int streamPriority(int stream) const;
    static constexpr int kLowestPriority = 0, kHighestPriority = -5;

    // Each call adds the operation and returns its index in timeline().ops. `hostSync` copies
    // (cudaMemcpy, or pageable memory) hold the host until they finish.
    size_t copy(TimelineKind kind, int stream, uint64_t bytes, bool pinned, bool hostSync, const std::string& label);
    // smFraction: the share of the GPU's block slots the kernel's grid fills (0..1]; waves: how
    // many times the grid fills them (grid blocks / slots; 1 when unknown), which sets where its
    // blocks finish and a higher-priority kernel may take their slots.
    size_t kernel(int stream, double durationUs, double smFraction, const std::string& label, int launchIndex, double waves = 1);
    size_t deviceOp(TimelineKind kind, int stream, uint64_t bytes, const std::string& label);   // memset, DtoD

    // A host function (cudaLaunchHostFunc / cudaStreamAddCallback) of `costUs` host time on
    // `stream`; the call itself costs the host one launch call.
    size_t hostFunction(int stream, double costUs, const std::string& label);
    void recordEvent(int event, int stream);
    void streamWaitEvent(int stream, int event);
    void synchronizeStream(int stream);
    void synchronizeEvent(int event);
    void synchronizeDevice();
    double eventTimeUs(int event) const;           // throws Error(Input) if never recorded

    // Graph launches: between begin and end, kernels and copies are graph nodes (no host cost
    // each; the per-node gap instead of the launch latency). begin costs one host call.
    void beginGraphLaunch(int stream, const std::string& label);
    void endGraphLaunch();

    void markMapped(size_t op) { tl_.ops.at(op).mapped = true; }   // the kernel reached mapped host memory
    double hostNowUs() const { return host_; }
    const Timeline& timeline() const { return tl_; }

private:
    double readyTime(int stream);                  // stream order and the legacy-stream rules (seals the streams it reads)
    TimelineOp& addDeviceOp(TimelineKind kind, TimelineEngine engine, int stream, const std::string& label, double start, double end);
    void hostCall(double costUs, const std::string& label);
    void hostWaitUntil(double t, const std::string& label);

    struct Stream {
        double tail = 0;          // completion of its last operation
        bool nonBlocking = false;
        int priority = 0;
        size_t lastKernelOp = SIZE_MAX;   // its last operation when that is a kernel nothing follows yet
        size_t lastOpKernel = SIZE_MAX;   // its last device operation when that is a kernel (for the
                                          // copy engines' wait on it; readyTime does not reset it)
    };
    struct Running {
        double start, end, fraction;
        int priority = 0;
        int stream = 0;
        size_t op = SIZE_MAX;     // index into tl_.ops (SIZE_MAX: a segment split off a yielding kernel)
        double waveUs = 0;        // the duration of one wave of its blocks
    };
    bool yieldTo(double ready, double frac, double durationUs, int priority, double* start);
    timing::GpuSpec spec_;
    Timeline tl_;
    double host_ = 0;
    std::vector<Stream> streams_;                 // [0] = legacy default stream
    std::map<int, double> events_;                // event -> completion time
    double copyFree_[2] = {0, 0};                 // HtoD, DtoH engines (one shared when copyEngines < 2)
    std::vector<Running> kernels_;
    double lastKernelStart_ = 0;
    double hostFuncFree_ = 0;                     // the driver's host-function thread is free
    bool inGraph_ = false;
    size_t graphOp_ = 0;
};

// ---------------------------------------------------------------- 3. export
// Chrome trace event JSON: one process per timeline, one thread per engine and per stream.
std::string toChromeTrace(const Timeline& t);
// Chrome trace with several timelines (e.g. simulated and measured) as separate processes.
std::string toChromeTrace(const std::vector<Timeline>& ts);
// A few lines of text: total time, per-engine busy time, overlap, and per-stream op counts.
std::string summarize(const Timeline& t);

} // namespace warpscope::runtime
