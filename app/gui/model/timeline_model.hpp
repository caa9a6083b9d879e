// The model behind the Timeline panel (window-free, tested):
//  - a run: the lesson's host program on a fresh SimDevice with a modelled timeline on a GPU
//    preset and, when asked and possible, on the real GPU for a measured one;
//  - TimelineRunner: does those runs on its own thread (debounced, restartable, cancellable), so
//    the UI never blocks, and publishes copies of the results under a mutex;
//  - the lane layout: which lanes a timeline has (host thread, copy engines, compute, one per
//    stream), how overlapping operations stack in rows, and where each operation lands in pixels
//    for a given view (pure functions);
//  - the view: zoom around a point, pan, clamping, tick spacing;
//  - kernel -> CUDA source line (for "click a kernel, see its source").
//
// Sections: 1. runs  2. the runner  3. lanes and rectangles  4. view  5. helpers
#pragma once
#include "gui/model/background.hpp"
#include "runtime/lesson.hpp"
#include "runtime/timeline.hpp"
#include "timing/gpu_spec.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::gui {

// ---------------------------------------------------------------- 1. runs
struct TimelineRequest {
    runtime::Lesson lesson;
    runtime::ParamValues params;
    timing::GpuSpec spec;           // the preset the simulated timeline is modelled on
    bool useGpu = false;            // also measure on GPU 0 ("Run on GPU" on and a GPU available)
    double timeLimitSeconds = 60;   // a simulated run longer than this is stopped with an error
};

struct TimelineResult {
    uint64_t id = 0;                // the request it answers (TimelineRunner::request's return)
    std::string lessonId, preset;
    runtime::ParamValues params;
    bool simOk = false;
    runtime::Timeline sim;
    std::string simError;           // why there is no simulated timeline
    double simSeconds = 0;          // how long the simulation took (wall clock)
    bool hwTried = false;           // useGpu was on
    bool hwOk = false;
    runtime::Timeline hw;
    std::string hwDevice, hwError;  // hwError: why there is no measured timeline
};

// Never throws: failures are recorded in the result. `cancel` (optional) is polled while kernels
// run; when it turns true the run stops with simError "cancelled".
TimelineResult runTimeline(const TimelineRequest& req, const std::atomic<bool>* cancel = nullptr);

// ---------------------------------------------------------------- 2. the runner
// request(req, debounceSeconds) queues a run that starts that much later unless another request
// replaces it first; a run in progress for an older request is cancelled. result() is the latest
// finished run (possibly for an older request), latestRequest() the newest request's id.
class TimelineRunner : public BackgroundRunner<TimelineRequest, TimelineResult> {
public:
    TimelineRunner();
};

// ---------------------------------------------------------------- 3. lanes and rectangles
enum class LaneKind : uint8_t { Host, CopyHtoD, Compute, CopyDtoH, Stream };

struct TimelineLane {
    LaneKind kind = LaneKind::Host;
    int stream = -1;                 // Stream lanes
    std::string name;                // "host thread", "copy engine HtoD", "stream 0 (legacy default)", ...
    int rows = 1;                    // operations that overlap in time stack in rows
    std::vector<size_t> ops;         // indices into Timeline::ops, in start order
    std::vector<int> opRows;         // the row of each entry of ops
};

// Lanes in drawing order: host thread, copy engine HtoD, compute, copy engine DtoH (each only
// when it has work, except host and compute which always show), then one per stream in
// stream-number order. Host operations go on the host lane; device operations on their engine's
// lane and on their stream's lane; graph spans and event records only on the stream lane.
std::vector<TimelineLane> timelineLanes(const runtime::Timeline& t);

struct TimelineRect {
    size_t op = 0;                  // index into Timeline::ops
    int lane = 0, row = 0;
    float x0 = 0, x1 = 0;           // pixels from the left edge of the drawing area, within [0, width]
    bool clippedLeft = false, clippedRight = false;   // the operation goes on past the view
    bool marker = false;            // an instant (event record): drawn as a tick at x0
    bool span = false;              // a graph launch: drawn behind its nodes
};

// Operations inside [viewStartUs, viewEndUs] mapped to [0, widthPx] (at least minWidthPx wide, so
// short ones stay visible), by lane, then start time. Operations wholly outside are left out.
std::vector<TimelineRect> layoutTimeline(const runtime::Timeline& t, const std::vector<TimelineLane>& lanes,
                                         double viewStartUs, double viewEndUs, float widthPx, float minWidthPx = 1.0f);

// ---------------------------------------------------------------- 4. view
struct TimelineView {
    double startUs = 0, spanUs = 0;   // spanUs 0: fit everything
};
// Keeps the view inside [0, totalUs] (a little margin) and its span between minSpanUs and totalUs.
TimelineView clampView(TimelineView v, double totalUs, double minSpanUs = 0.01);
// Zooms by `factor` (< 1 zooms in) keeping the time under `anchorUs` in place.
TimelineView zoomView(TimelineView v, double anchorUs, double factor, double totalUs);
// Tick spacing of 1, 2 or 5 x 10^k microseconds so that ticks are at least minPx apart.
double tickStepUs(double spanUs, float widthPx, float minPx);

// The Timeline panel's UI state (zoom, pan, export, the last request it made).
struct TimelinePanelState {
    TimelineView view;
    std::string requestedKey, requestedLesson;   // lesson + params + preset + GPU of the last request
    int selectedLaunch = -1;                     // kernel clicked last
    bool dragging = false, dragMoved = false;
    double dragFromUs = 0;
    float dragFromX = 0;
    char exportPath[512] = "./warpscope-trace.json";
    std::string exportStatus;
    bool exportOk = false;
};

// ---------------------------------------------------------------- 5. helpers
// The CUDA source line (1-based) where `kernel` is defined (the line that names it, followed by
// "(", with __global__ on it or just above), or 0 when not found.
uint32_t kernelSourceLine(const std::vector<std::string>& sourceLines, const std::string& kernel);
// "12.3 µs", "1.24 ms"
std::string formatUs(double us);
// "4.0 MiB", "512 B"
std::string formatBytes(uint64_t bytes);
// What the hover tooltip says about one operation (several lines).
std::string describeOp(const runtime::TimelineOp& op);
// Summary figures for the panel header.
struct TimelineFigures {
    double totalUs = 0, hostUs = 0, htodUs = 0, computeUs = 0, dtohUs = 0, overlapUs = 0;
    int copies = 0, kernels = 0;
};
TimelineFigures timelineFigures(const runtime::Timeline& t);
// The preset the timeline is modelled on: the app's pick, else the default preset, else the
// first bundled one (an empty spec when there is none).
timing::GpuSpec timelinePreset(const timing::GpuSpec* chosen);
// Writes the simulated and measured timelines as one Chrome trace (Perfetto) to `path` (empty:
// ./warpscope-trace.json) and says what it wrote, or why it could not.
struct TraceExport {
    bool ok = false;
    std::string status;
};
TraceExport exportChromeTrace(const TimelineResult& r, const std::string& path);

} // namespace warpscope::gui
