#include "runtime/timeline.hpp"

#include "base/error.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

namespace warpscope::runtime {

// ---------------------------------------------------------------- 1. Timeline data
std::string_view engineName(TimelineEngine e) {
    switch (e) {
    case TimelineEngine::Host: return "host";
    case TimelineEngine::CopyHtoD: return "copy engine HtoD";
    case TimelineEngine::CopyDtoH: return "copy engine DtoH";
    case TimelineEngine::Compute: return "compute";
    }
    return "?";
}

std::string_view kindName(TimelineKind k) {
    switch (k) {
    case TimelineKind::CopyHtoD: return "memcpy HtoD";
    case TimelineKind::CopyDtoH: return "memcpy DtoH";
    case TimelineKind::CopyDtoD: return "memcpy DtoD";
    case TimelineKind::Memset: return "memset";
    case TimelineKind::Kernel: return "kernel";
    case TimelineKind::Graph: return "graph launch";
    case TimelineKind::EventRecord: return "event record";
    case TimelineKind::HostCall: return "API call";
    case TimelineKind::HostWait: return "host waits";
    case TimelineKind::HostFunc: return "host function";
    }
    return "?";
}

namespace {
using Interval = std::pair<double, double>;

std::vector<Interval> unionOf(std::vector<Interval> v) {
    std::sort(v.begin(), v.end());
    std::vector<Interval> out;
    for (auto& iv : v) {
        if (iv.second <= iv.first) continue;
        if (!out.empty() && iv.first <= out.back().second) out.back().second = std::max(out.back().second, iv.second);
        else out.push_back(iv);
    }
    return out;
}

double length(const std::vector<Interval>& v) {
    double s = 0;
    for (auto& iv : v) s += iv.second - iv.first;
    return s;
}

// Host functions run on a driver thread, not the program's host thread: they show on their
// stream's lane only.
bool onEngineLane(const TimelineOp& op) {
    return op.kind != TimelineKind::Graph && op.kind != TimelineKind::EventRecord && op.kind != TimelineKind::HostFunc;
}
} // namespace

double Timeline::totalUs() const {
    double t = 0;
    for (auto& op : ops) t = std::max(t, op.endUs);
    return t;
}

double Timeline::deviceEndUs() const {
    double t = 0;
    for (auto& op : ops)
        if (op.engine != TimelineEngine::Host) t = std::max(t, op.endUs);
    return t;
}

double Timeline::busyUs(TimelineEngine e) const {
    std::vector<Interval> v;
    for (auto& op : ops)
        if (op.engine == e && onEngineLane(op)) v.push_back({op.startUs, op.endUs});
    return length(unionOf(v));
}

double Timeline::overlapUs() const {
    std::vector<Interval> copies, compute;
    for (auto& op : ops) {
        if (!onEngineLane(op)) continue;
        if (op.engine == TimelineEngine::CopyHtoD || op.engine == TimelineEngine::CopyDtoH) copies.push_back({op.startUs, op.endUs});
        else if (op.engine == TimelineEngine::Compute) compute.push_back({op.startUs, op.endUs});
    }
    auto a = unionOf(copies), b = unionOf(compute);
    double s = 0;
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        double lo = std::max(a[i].first, b[j].first), hi = std::min(a[i].second, b[j].second);
        if (hi > lo) s += hi - lo;
        (a[i].second < b[j].second) ? ++i : ++j;
    }
    return s;
}

// ---------------------------------------------------------------- 2. TimelineModel
TimelineModel::TimelineModel(const timing::GpuSpec& spec) : spec_(spec) {
    streams_.push_back({});
    tl_.source = "simulated: " + spec.name + " preset (" + spec.description + ")";
}

int TimelineModel::createStream(bool nonBlocking, int priority) {
    Stream st;
    st.nonBlocking = nonBlocking;
    st.priority = std::clamp(priority, kHighestPriority, kLowestPriority);
    streams_.push_back(st);
    return static_cast<int>(streams_.size()) - 1;
}

void TimelineModel::setStreamPriority(int stream, int priority) {
    readyTime(stream);   // validates the stream
    streams_[static_cast<size_t>(stream)].priority = std::clamp(priority, kHighestPriority, kLowestPriority);
}

int TimelineModel::streamPriority(int stream) const {
    return streamExists(stream) ? streams_[static_cast<size_t>(stream)].priority : 0;
}

bool TimelineModel::streamExists(int stream) const { return stream >= 0 && static_cast<size_t>(stream) < streams_.size(); }

double TimelineModel::readyTime(int stream) {
    if (!streamExists(stream)) throw Error(Error::Kind::Input, "Stream " + std::to_string(stream) + " does not exist.");
    // Whatever reads a stream's tail depends on its last kernel's end: that kernel can no longer
    // yield slots to a higher-priority one (see yieldTo).
    auto seal = [&](size_t s) { streams_[s].lastKernelOp = SIZE_MAX; };
    double t = streams_[static_cast<size_t>(stream)].tail;
    seal(static_cast<size_t>(stream));
    if (stream == 0) {
        for (size_t s = 1; s < streams_.size(); ++s)
            if (!streams_[s].nonBlocking) {
                t = std::max(t, streams_[s].tail);
                seal(s);
            }
    } else if (!streams_[static_cast<size_t>(stream)].nonBlocking) {
        t = std::max(t, streams_[0].tail);
        seal(0);
    }
    return t;
}

namespace {
// Appends an operation to `ops` (the fields a kind of operation adds are its caller's).
TimelineOp& pushOp(std::vector<TimelineOp>& ops, TimelineKind kind, TimelineEngine engine, int stream, const std::string& label,
                   double start, double end) {
    return ops.emplace_back(TimelineOp{.kind = kind, .engine = engine, .stream = stream, .label = label, .startUs = start, .endUs = end});
}
} // namespace

// Appends a device operation and moves its stream's tail to its end.
TimelineOp& TimelineModel::addDeviceOp(TimelineKind kind, TimelineEngine engine, int stream, const std::string& label, double start, double end) {
    TimelineOp& op = pushOp(tl_.ops, kind, engine, stream, label, start, end);
    op.inGraph = inGraph_;
    auto& s = streams_[static_cast<size_t>(stream)];
    s.tail = std::max(s.tail, end);
    return op;
}

void TimelineModel::hostCall(double costUs, const std::string& label) {
    host_ = pushOp(tl_.ops, TimelineKind::HostCall, TimelineEngine::Host, -1, label, host_, host_ + costUs).endUs;
}

void TimelineModel::hostWaitUntil(double t, const std::string& label) {
    if (t <= host_) return;
    host_ = pushOp(tl_.ops, TimelineKind::HostWait, TimelineEngine::Host, -1, label, host_, t + spec_.syncWakeUs).endUs;
}

size_t TimelineModel::copy(TimelineKind kind, int stream, uint64_t bytes, bool pinned, bool hostSync, const std::string& label) {
    if (kind != TimelineKind::CopyHtoD && kind != TimelineKind::CopyDtoH) throw Error(Error::Kind::Input, "TimelineModel::copy: not a host copy");
    double submit;
    if (inGraph_) {
        submit = host_ + spec_.launchLatencyUs;
    } else {
        hostCall(spec_.copyHostUs, std::string(hostSync ? "cudaMemcpy " : "cudaMemcpyAsync ") + label);
        submit = host_;
    }
    double ready = std::max(readyTime(stream), submit);
    // A copy issued while its stream's kernel still runs waits for the compute engine to signal
    // the kernel's end (a semaphore the copy engine, or for pageable memory the host, waits on).
    const size_t prevKernel = streams_[static_cast<size_t>(stream)].lastOpKernel;
    if (!inGraph_ && prevKernel != SIZE_MAX) {
        const double kernelEnd = tl_.ops[prevKernel].endUs;
        const double wait = pinned ? spec_.copyAfterKernelUs : spec_.pageableAfterKernelUs;
        if (wait > 0 && kernelEnd > submit) ready = std::max(ready, kernelEnd + wait);
    }
    int engine = (kind == TimelineKind::CopyDtoH && spec_.copyEngines >= 2) ? 1 : 0;
    double start = std::max(ready, copyFree_[engine]);
    const bool toHost = kind == TimelineKind::CopyDtoH;
    double gbs = pinned ? spec_.pcieGBs : (toHost && spec_.pageableDtoHGBs > 0 ? spec_.pageableDtoHGBs : spec_.pageableGBs);
    double latency = pinned ? spec_.copyLatencyUs
                            : (toHost && spec_.pageableDtoHLatencyUs > 0 ? spec_.pageableDtoHLatencyUs : spec_.pageableLatencyUs);
    // A pinned copy queued behind another on its engine set itself up while it waited: it pays
    // copyQueuedLatencyUs after the engine frees, or the lone copy's latency from when it was
    // ready, whichever ends later.
    if (pinned && spec_.copyQueuedLatencyUs > 0 && copyFree_[engine] > ready)
        latency = std::max(ready + latency, copyFree_[engine] + spec_.copyQueuedLatencyUs) - start;
    double transfer = static_cast<double>(bytes) / (std::max(gbs, 1e-6) * 1e3);   // GB/s = 1e3 bytes/us
    // Pageable host-to-device: the host copies the data into the driver's pinned staging buffer
    // piece by piece (latency + bytes at the pageable rate, the host busy all along) while the
    // engine moves each piece; the call returns when the last piece is staged, and that piece's
    // DMA at PCIe bandwidth is what remains on the engine. (cudaMemcpy too: the runtime API's
    // synchronisation notes say it returns once a pageable source is in the staging memory.)
    if (!pinned && !toHost && !inGraph_ && spec_.pageableStageBytes > 0) {
        const double staged = start + latency + transfer;
        const double lastPiece = std::min(static_cast<double>(bytes), spec_.pageableStageBytes);
        const double end = staged + lastPiece / (std::max(spec_.pcieGBs, 1e-6) * 1e3);
        copyFree_[engine] = end;
        TimelineOp& op = addDeviceOp(kind, TimelineEngine::CopyHtoD, stream, label, start, end);
        op.bytes = bytes;
        op.pinned = false;
        streams_[static_cast<size_t>(stream)].lastOpKernel = SIZE_MAX;
        const size_t index = tl_.ops.size() - 1;
        hostWaitUntil(staged, label + " (host stages it)");
        return index;
    }
    // While the other direction's engine is busy, both share the link: the part of this copy
    // that overlaps it runs at duplexEfficiency of the bandwidth.
    if (spec_.copyEngines >= 2) {
        double otherFree = copyFree_[1 - engine];
        double overlap = std::clamp(otherFree - start, 0.0, transfer);
        double eff = std::clamp(spec_.duplexEfficiency, 0.05, 1.0);
        transfer += overlap * (1.0 / eff - 1.0);
    }
    double end = start + latency + transfer;
    copyFree_[engine] = end;
    TimelineOp& op = addDeviceOp(kind, kind == TimelineKind::CopyHtoD ? TimelineEngine::CopyHtoD : TimelineEngine::CopyDtoH, stream,
                                 label, start, end);
    op.bytes = bytes;
    op.pinned = pinned;
    streams_[static_cast<size_t>(stream)].lastOpKernel = SIZE_MAX;
    const size_t index = tl_.ops.size() - 1;   // the copy's, not the host wait's after it
    // Pageable memory is staged through a driver buffer by the calling thread: the call returns
    // when the copy is done, whatever the API says. cudaMemcpy (hostSync) waits too.
    if (!inGraph_ && (hostSync || !pinned)) hostWaitUntil(end, label + " (host waits)");
    return index;
}

size_t TimelineModel::kernel(int stream, double durationUs, double smFraction, const std::string& label, int launchIndex, double waves) {
    double submit;
    if (inGraph_) {
        submit = host_ + spec_.launchLatencyUs;
    } else {
        hostCall(spec_.launchHostUs, "cudaLaunchKernel " + label);
        submit = host_ + spec_.launchLatencyUs;
    }
    double ready = std::max(readyTime(stream), submit);
    const auto& st = streams_[static_cast<size_t>(stream)];
    if (st.tail > 0) ready = std::max(ready, st.tail + (inGraph_ ? spec_.graphNodeUs : spec_.kernelGapUs));
    double frac = std::clamp(smFraction, 1e-6, 1.0);
    double d = std::max(durationUs, 0.0) + spec_.kernelOverheadUs;
    // Kernels are dispatched in issue order; a kernel starts once enough block slots are free
    // for its grid (kernels that together fit run side by side).
    double t = std::max(ready, lastKernelStart_);
    kernels_.erase(std::remove_if(kernels_.begin(), kernels_.end(), [&](const Running& k) { return k.end <= lastKernelStart_; }),
                   kernels_.end());
    auto loadAt = [&](double p) {
        double l = 0;
        for (auto& k : kernels_)
            if (k.start <= p && p < k.end) l += k.fraction;
        return l;
    };
    auto fits = [&](double c) {
        if (loadAt(c) + frac > 1.0 + 1e-9) return false;
        for (auto& k : kernels_)
            if (k.start > c && k.start < c + d && loadAt(k.start) + frac > 1.0 + 1e-9) return false;
        return true;
    };
    std::vector<double> candidates{t};
    for (auto& k : kernels_)
        if (k.end > t) candidates.push_back(k.end);
    std::sort(candidates.begin(), candidates.end());
    double start = candidates.back();
    if (inGraph_ || !yieldTo(t, frac, d, st.priority, &start)) {
        for (double c : candidates)
            if (fits(c)) {
                start = c;
                break;
            }
    }
    double end = start + d;
    Running run{start, end, frac};
    run.priority = st.priority;
    run.stream = stream;
    run.op = tl_.ops.size();
    run.waveUs = d / std::max(1.0, std::ceil(waves - 1e-9));
    kernels_.push_back(run);
    lastKernelStart_ = start;
    TimelineOp& op = addDeviceOp(TimelineKind::Kernel, TimelineEngine::Compute, stream, label, start, end);
    op.launchIndex = launchIndex;
    op.priority = st.priority;
    streams_[static_cast<size_t>(stream)].lastKernelOp = run.op;
    streams_[static_cast<size_t>(stream)].lastOpKernel = run.op;
    return tl_.ops.size() - 1;
}

// Stream priorities (the Programming Guide: "as blocks in low-priority schemes finish, waiting
// blocks in higher-priority streams are scheduled in their place"). A kernel of priority
// `priority` is ready at `ready` but the SMs are full. If every kernel running then is of lower
// priority, still has waves to come, and is the last thing issued to its stream, the new kernel
// starts at the latest of their next wave boundaries (the running blocks finish; none is
// preempted) and the running kernels keep only the slots it leaves free (1 - frac, shared in
// issue order) until it ends: each ends later by the slot-time it lost divided by its own share.
// Returns false (nothing changed) when the rule does not apply.
bool TimelineModel::yieldTo(double ready, double frac, double durationUs, int priority, double* start) {
    double load = 0;
    std::vector<size_t> blockers;
    for (size_t i = 0; i < kernels_.size(); ++i) {
        const Running& k = kernels_[i];
        if (k.start > ready + 1e-9) return false;   // work already placed later: keep issue order
        if (k.start <= ready && ready < k.end) {
            load += k.fraction;
            blockers.push_back(i);
        }
    }
    if (blockers.empty() || load + frac <= 1.0 + 1e-9) return false;   // it fits: the ordinary rule
    double at = ready;
    for (size_t i : blockers) {
        const Running& k = kernels_[i];
        if (k.priority <= priority || k.op == SIZE_MAX || k.waveUs <= 0) return false;
        if (streams_[static_cast<size_t>(k.stream)].lastKernelOp != k.op) return false;
        double boundary = k.start + std::ceil((ready - k.start) / k.waveUs - 1e-9) * k.waveUs;
        if (boundary >= k.end - 1e-9) return false;   // its last wave is running: nothing to hand over
        at = std::max(at, boundary);
    }
    const double end = at + durationUs;
    double avail = std::max(0.0, 1.0 - frac);
    std::vector<Running> segments;
    for (size_t i : blockers) {
        Running k = kernels_[i];
        const double keep = std::min(k.fraction, avail);
        avail -= keep;
        const double remaining = (k.end - at) * k.fraction;   // slot-time still to do after `at`
        double newEnd;
        if (keep > 0 && keep * durationUs >= remaining) newEnd = at + remaining / keep;
        else newEnd = end + (remaining - keep * durationUs) / k.fraction;
        Running before = k, during = k, after = k;
        before.end = at;
        before.op = SIZE_MAX;
        during.start = at;
        during.end = std::min(end, newEnd);
        during.fraction = keep;
        during.op = SIZE_MAX;
        after.start = end;
        after.end = newEnd;
        TimelineOp& op = tl_.ops[k.op];
        op.yieldedUs += newEnd - op.endUs;
        op.endUs = newEnd;
        auto& s = streams_[static_cast<size_t>(k.stream)];
        s.tail = std::max(newEnd, s.tail == k.end ? 0.0 : s.tail);
        if (before.end > before.start) segments.push_back(before);
        if (keep > 0 && during.end > during.start) segments.push_back(during);
        if (newEnd > end) segments.push_back(after);   // keeps `op`: it may yield again
    }
    for (size_t n = blockers.size(); n-- > 0;) kernels_.erase(kernels_.begin() + static_cast<std::ptrdiff_t>(blockers[n]));
    kernels_.insert(kernels_.end(), segments.begin(), segments.end());
    *start = at;
    return true;
}

size_t TimelineModel::hostFunction(int stream, double costUs, const std::string& label) {
    if (inGraph_) throw Error(Error::Kind::Input, "host functions inside a graph launch are not modelled");
    hostCall(spec_.launchHostUs, "cudaLaunchHostFunc " + label);
    // One driver thread runs the host functions of all streams, one at a time (the CUDA runtime
    // API: host functions in independent streams "execute in undefined order and may be serialized").
    double start = std::max(std::max(readyTime(stream), host_) + spec_.hostFuncLatencyUs, hostFuncFree_);
    double end = start + std::max(costUs, 0.0);
    hostFuncFree_ = end;
    addDeviceOp(TimelineKind::HostFunc, TimelineEngine::Host, stream, label, start, end);
    return tl_.ops.size() - 1;
}

size_t TimelineModel::deviceOp(TimelineKind kind, int stream, uint64_t bytes, const std::string& label) {
    // memset and device-to-device copies run as small kernels that stream through DRAM (a copy
    // reads and writes every byte).
    double traffic = static_cast<double>(bytes) * (kind == TimelineKind::CopyDtoD ? 2.0 : 1.0);
    double us = 1.0 + traffic / (spec_.dramGBs * spec_.dramEfficiency * 1e3);
    size_t i = kernel(stream, us, 1.0, label, -1);
    tl_.ops[i].kind = kind;
    tl_.ops[i].bytes = bytes;
    return i;
}

void TimelineModel::recordEvent(int event, int stream) {
    if (!inGraph_) hostCall(spec_.eventHostUs, "cudaEventRecord e" + std::to_string(event));
    double t = std::max(readyTime(stream), host_);
    events_[event] = t;
    streams_[static_cast<size_t>(stream)].tail = std::max(streams_[static_cast<size_t>(stream)].tail, t);
    pushOp(tl_.ops, TimelineKind::EventRecord, TimelineEngine::Compute, stream, "event " + std::to_string(event), t, t);
}

void TimelineModel::streamWaitEvent(int stream, int event) {
    readyTime(stream);   // validates the stream
    if (!inGraph_) hostCall(spec_.eventHostUs, "cudaStreamWaitEvent");
    auto it = events_.find(event);
    if (it == events_.end()) return;   // an event never recorded counts as complete
    auto& s = streams_[static_cast<size_t>(stream)];
    s.tail = std::max(s.tail, it->second);
}

void TimelineModel::synchronizeStream(int stream) {
    double t = readyTime(stream);
    hostCall(spec_.eventHostUs, "cudaStreamSynchronize(" + std::to_string(stream) + ")");
    hostWaitUntil(t, "wait for stream " + std::to_string(stream));
}

void TimelineModel::synchronizeEvent(int event) {
    hostCall(spec_.eventHostUs, "cudaEventSynchronize");
    hostWaitUntil(eventTimeUs(event), "wait for event " + std::to_string(event));
}

void TimelineModel::synchronizeDevice() {
    double t = 0;
    for (auto& s : streams_) t = std::max(t, s.tail);
    t = std::max({t, copyFree_[0], copyFree_[1]});
    hostCall(spec_.eventHostUs, "cudaDeviceSynchronize");
    hostWaitUntil(t, "wait for the device");
}

double TimelineModel::eventTimeUs(int event) const {
    auto it = events_.find(event);
    if (it == events_.end()) throw Error(Error::Kind::Input, "Event " + std::to_string(event) + " was never recorded.");
    return it->second;
}

void TimelineModel::beginGraphLaunch(int stream, const std::string& label) {
    if (inGraph_) throw Error(Error::Kind::Input, "nested graph launch");
    readyTime(stream);
    hostCall(spec_.graphLaunchHostUs, "cudaGraphLaunch " + label);
    pushOp(tl_.ops, TimelineKind::Graph, TimelineEngine::Compute, stream, label, host_, host_);
    graphOp_ = tl_.ops.size() - 1;
    inGraph_ = true;
}

void TimelineModel::endGraphLaunch() {
    if (!inGraph_) return;
    inGraph_ = false;
    auto& g = tl_.ops[graphOp_];
    double start = -1, end = g.startUs;
    for (size_t i = graphOp_ + 1; i < tl_.ops.size(); ++i) {
        if (tl_.ops[i].engine == TimelineEngine::Host) continue;
        if (start < 0 || tl_.ops[i].startUs < start) start = tl_.ops[i].startUs;
        end = std::max(end, tl_.ops[i].endUs);
    }
    if (start >= 0) g.startUs = start;
    g.endUs = end;
}

// ---------------------------------------------------------------- 3. export
namespace {
using nlohmann::json;

// Thread ids within a process: engines first, then one per stream.
int engineTid(TimelineEngine e) { return static_cast<int>(e); }
int streamTid(int stream) { return 10 + stream; }

void appendTrace(json& events, const Timeline& t, int pid) {
    events.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", pid}, {"args", {{"name", t.source}}}});
    events.push_back({{"ph", "M"}, {"name", "process_sort_index"}, {"pid", pid}, {"args", {{"sort_index", pid}}}});
    std::set<int> tids;
    auto name = [&](int tid, const std::string& n) {
        if (!tids.insert(tid).second) return;
        events.push_back({{"ph", "M"}, {"name", "thread_name"}, {"pid", pid}, {"tid", tid}, {"args", {{"name", n}}}});
        events.push_back({{"ph", "M"}, {"name", "thread_sort_index"}, {"pid", pid}, {"tid", tid}, {"args", {{"sort_index", tid}}}});
    };
    for (auto& op : t.ops) {
        json args = {{"kind", std::string(kindName(op.kind))}};
        if (op.bytes) args["bytes"] = op.bytes;
        if (op.kind == TimelineKind::CopyHtoD || op.kind == TimelineKind::CopyDtoH) {
            args["host_memory"] = op.pinned ? "pinned" : "pageable";
            if (op.durationUs() > 0) args["GB_per_s"] = static_cast<double>(op.bytes) / op.durationUs() / 1e3;
        }
        if (op.inGraph) args["graph_node"] = true;
        if (op.launchIndex >= 0) args["launch"] = op.launchIndex;
        if (op.priority != 0) args["stream_priority"] = op.priority;
        if (op.yieldedUs > 0) args["yielded_us"] = op.yieldedUs;
        if (op.mapped) args["mapped_host_memory"] = true;
        if (op.stream >= 0) args["stream"] = op.stream;
        auto emit = [&](int tid) {
            if (op.kind == TimelineKind::EventRecord)
                events.push_back({{"ph", "i"}, {"s", "t"}, {"name", op.label}, {"pid", pid}, {"tid", tid}, {"ts", op.startUs}, {"args", args}});
            else
                events.push_back({{"ph", "X"}, {"name", op.label}, {"cat", std::string(kindName(op.kind))}, {"pid", pid}, {"tid", tid},
                                  {"ts", op.startUs}, {"dur", op.durationUs()}, {"args", args}});
        };
        if (op.engine == TimelineEngine::Host && op.kind != TimelineKind::HostFunc) {
            name(engineTid(TimelineEngine::Host), "host thread");
            emit(engineTid(TimelineEngine::Host));
            continue;
        }
        if (onEngineLane(op)) {
            name(engineTid(op.engine), std::string(engineName(op.engine)));
            emit(engineTid(op.engine));
        }
        name(streamTid(op.stream), op.stream == 0 ? "stream 0 (legacy default)" : "stream " + std::to_string(op.stream));
        emit(streamTid(op.stream));
    }
}
} // namespace

std::string toChromeTrace(const std::vector<Timeline>& ts) {
    json events = json::array();
    int pid = 1;
    for (auto& t : ts) appendTrace(events, t, pid++);
    json doc = {{"traceEvents", events}, {"displayTimeUnit", "ns"}};
    return doc.dump(1);
}

std::string toChromeTrace(const Timeline& t) { return toChromeTrace(std::vector<Timeline>{t}); }

std::string summarize(const Timeline& t) {
    std::ostringstream os;
    char buf[256];
    std::snprintf(buf, sizeof buf, "timeline (%s): %.1f us in all, device busy until %.1f us\n", t.source.c_str(), t.totalUs(), t.deviceEndUs());
    os << buf;
    for (auto e : {TimelineEngine::CopyHtoD, TimelineEngine::Compute, TimelineEngine::CopyDtoH, TimelineEngine::Host}) {
        size_t n = 0;
        for (auto& op : t.ops)
            if (op.engine == e && onEngineLane(op) && op.kind != TimelineKind::HostCall) ++n;
        std::snprintf(buf, sizeof buf, "  %-17s busy %9.1f us", std::string(engineName(e)).c_str(), t.busyUs(e));
        os << buf;
        if (e != TimelineEngine::Host) os << " (" << n << " operations)";
        os << "\n";
    }
    std::snprintf(buf, sizeof buf, "  copy and compute overlap for %.1f us\n", t.overlapUs());
    os << buf;
    return os.str();
}

} // namespace warpscope::runtime
