#include "runtime/sim_device.hpp"

#include "ptx/parser.hpp"
#include "base/error.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <sstream>

namespace warpscope::runtime {

void SimDevice::loadModule(const std::string& ptxText, const std::string& displayName) { load(ptx::parse(ptxText, displayName)); }

void SimDevice::loadParsedModule(const std::string&, const ptx::Module& parsed, const std::string&) { load(parsed); }

void SimDevice::load(ptx::Module m) {
    // Module variables become named allocations; their initialisers are copied in. Addresses in
    // initialisers (generic(sym)) are patched once every variable has a place.
    memory_.reset();
    memory_.setTrackInit(options_.initcheck);
    symbols_.clear();
    symbolSizes_.clear();
    programs_.clear();
    for (auto& v : m.variables) {
        if (v.space != ptx::StateSpace::Global && v.space != ptx::StateSpace::Const) continue;
        if (v.isExtern) continue;
        int64_t size = v.sizeInBytes();
        if (size <= 0) size = static_cast<int64_t>(v.init.size());
        if (size > (int64_t(256) << 20))
            throw Error(Error::Kind::Input, "Module variable '" + v.name + "' has " + std::to_string(size) +
                                                " bytes; the simulator allows at most 256 MiB per variable.");
        DevPtr p = memory_.allocate(static_cast<uint64_t>(std::max<int64_t>(size, 1)), v.name, v.space == ptx::StateSpace::Const);
        symbols_[v.name] = p;
        symbolSizes_[v.name] = static_cast<size_t>(size);
    }
    for (auto& v : m.variables) {
        auto it = symbols_.find(v.name);
        if (it == symbols_.end() || v.init.empty()) continue;
        std::vector<uint8_t> bytes = v.init;
        for (auto& [off, sym] : v.initSymbols) {
            auto s = symbols_.find(sym);
            uint64_t base = 0;
            if (s != symbols_.end()) {
                base = s->second;
            } else {
                // A function (a vtable or a table of function pointers): its address in the
                // function window, where an indirect call finds it.
                const std::string& name = sym;   // (clang 14 cannot capture a structured binding)
                auto fn = std::find_if(m.functions.begin(), m.functions.end(), [&](const ptx::Function& f) { return f.name == name; });
                if (fn == m.functions.end()) continue;   // a shared symbol: leave the offset
                base = mem::functionAddress(static_cast<size_t>(fn - m.functions.begin()));
            }
            uint64_t add = 0;
            std::memcpy(&add, bytes.data() + off, std::min<size_t>(8, bytes.size() - off));
            uint64_t val = base + add;
            std::memcpy(bytes.data() + off, &val, std::min<size_t>(8, bytes.size() - off));
        }
        uint8_t* dst = memory_.hostPointer(it->second, bytes.size(), "module initialiser");
        std::memcpy(dst, bytes.data(), bytes.size());
    }
    // Module variables are zero-initialised by the loader: all of their bytes count as written.
    for (auto& [name, addr] : symbols_) memory_.markWritten(addr, std::max<size_t>(symbolSizes_[name], 1));
    module_ = std::move(m);
    loaded_ = true;
}

const sim::Program& SimDevice::program(const std::string& kernel) {
    if (!loaded_) throw Error(Error::Kind::Input, "No PTX module is loaded.");
    auto it = programs_.find(kernel);
    if (it == programs_.end())
        it = programs_.emplace(kernel, std::make_unique<sim::Program>(sim::compile(module_, kernel, symbols_))).first;
    return *it->second;
}

DevPtr SimDevice::malloc(size_t bytes, const std::string& label) { return memory_.allocate(bytes, label); }
void SimDevice::free(DevPtr ptr) {
    memory_.free(ptr);
    mapped_.erase(ptr);
}

void SimDevice::memcpyHtoD(DevPtr dst, const void* src, size_t bytes) {
    if (bytes == 0) return;
    std::memcpy(memory_.hostPointer(dst, bytes, "cudaMemcpy host-to-device"), src, bytes);
    memory_.markWritten(dst, bytes);
}
void SimDevice::memcpyDtoH(void* dst, DevPtr src, size_t bytes) {
    if (bytes == 0) return;
    std::memcpy(dst, memory_.hostPointer(src, bytes, "cudaMemcpy device-to-host"), bytes);
}
void SimDevice::memcpyDtoD(DevPtr dst, DevPtr src, size_t bytes) {
    if (bytes == 0) return;
    const uint8_t* s = memory_.hostPointer(src, bytes, "cudaMemcpy device-to-device (source)");
    std::memmove(memory_.hostPointer(dst, bytes, "cudaMemcpy device-to-device (destination)"), s, bytes);
    memory_.markWritten(dst, bytes);
}
void SimDevice::memset(DevPtr dst, uint8_t value, size_t bytes) {
    if (bytes == 0) return;
    std::memset(memory_.hostPointer(dst, bytes, "cudaMemset"), value, bytes);
    memory_.markWritten(dst, bytes);
}

DevPtr SimDevice::symbolAddress(const std::string& name, size_t* bytes) {
    auto it = symbols_.find(name);
    if (it == symbols_.end()) throw Error(Error::Kind::Input, "No __device__ or __constant__ variable named '" + name + "' in the module.");
    if (bytes) *bytes = symbolSizes_[name];
    return it->second;
}

LaunchResult SimDevice::runKernel(const std::string& kernel, const LaunchConfig& config, const std::vector<ParamBytes>& params,
                                  double* micros) {
    const sim::Program& prog = program(kernel);
    auto t0 = std::chrono::steady_clock::now();
    sim::LaunchOptions opt = options_;
    opt.cancel = &cancel_;
    // A cooperative launch: the whole grid must fit on the device at once (as the driver checks,
    // from the occupancy of this preset), every block is resident, and grid.sync() gets a zeroed
    // workspace for its arrival counter.
    struct Workspace {
        mem::GlobalMemory& m;
        DevPtr p = 0;
        ~Workspace() {
            if (p) m.free(p);
        }
    } workspace{memory_};
    if (config.cooperative) {
        // (Without a timeline the device has no preset of its own: the default one decides.)
        const timing::GpuSpec sp = model_ ? model_->spec() : timing::resolvePreset();
        const timing::Occupancy occ = occupancy(sp, prog, config);
        const uint64_t fit = uint64_t(sp.smCount) * occ.activeBlocksPerSM;
        if (config.grid.count() > fit) {
            std::ostringstream os;
            os << "Cooperative launch of " << kernel << " too large (cudaErrorCooperativeLaunchTooLarge): its grid has "
               << config.grid.count() << " blocks, but only " << fit << " can be resident at once on the " << sp.name << " ("
               << sp.smCount << " SMs x " << occ.activeBlocksPerSM << " blocks of " << config.block.count()
               << " threads per SM); grid.sync() needs every block resident. Use at most that many blocks (a grid-stride loop "
                  "covers the rest), or cudaOccupancyMaxActiveBlocksPerMultiprocessor to size the grid.";
            throw Error(Error::Kind::Input, os.str());
        }
        opt.maxResidentBlocks = static_cast<uint32_t>(std::max<uint64_t>(1, config.grid.count()));
        workspace.p = memory_.allocate(8, "grid.sync() workspace");
        memory_.markWritten(workspace.p, 8);
        opt.gridWorkspace = workspace.p;
    }
    sim::Gpu gpu(prog, memory_, config, params, opt);
    reportedMicros_ = -1;
    struct KeepReports {   // keep the checkers' findings even when the launch faults
        sim::Gpu& g;
        SimDevice& d;
        ~KeepReports() {
            d.reports_.insert(d.reports_.end(), g.reports().begin(), g.reports().end());
            for (auto& n : g.notes())
                if (std::find(d.notes_.begin(), d.notes_.end(), n) == d.notes_.end()) d.notes_.push_back(n);
            d.peakRaceShadow_ = std::max(d.peakRaceShadow_, g.raceShadowBytes());
        }
    } keep{gpu, *this};
    if (onLaunch) onLaunch(gpu);
    else gpu.packRegisterFiles();   // the launch runs to its end here and the Gpu goes with it: nobody sees a register
    if (model_ && !onLaunch) {
        // The cycle model decides the order in which warps issue and how long the kernel takes.
        timing::TimingResult tr = timing::runTimed(gpu, model_->spec(), launchTimingOptions(timingOptions_));
        reportedMicros_ = tr.microseconds;
        lastTiming_ = tr;
    }
    gpu.runToEnd(opt.threads);
    auto t1 = std::chrono::steady_clock::now();
    if (micros) {
        if (reportedMicros_ >= 0) {
            *micros = reportedMicros_;
        } else {
            // A hook ran the launch without the cycle model: the issue-rate bound of the work
            // (every scheduler issuing every cycle) stands in for its duration.
            const auto& sp = model_->spec();
            double slots = double(sp.smCount) * sp.schedulersPerSM * sp.clockMHz;   // issues per us
            *micros = double(gpu.stats().warpInstructions) / std::max(slots, 1.0);
        }
    }
    lastStats_ = gpu.stats();
    LaunchResult r;
    r.elapsedMs = std::chrono::duration<double, std::milli>(t1 - t0).count();
    r.warpInstructions = gpu.stats().warpInstructions;
    r.threadInstructions = gpu.stats().threadInstructions;
    r.branches = gpu.stats().branches;
    r.divergentBranches = gpu.stats().divergentBranches;
    r.kernel = kernel;
    r.grid = config.grid;
    r.block = config.block;
    r.dynamicSharedBytes = config.dynamicSharedBytes;
    return r;
}

// The launch's occupancy on preset sp: its block size, the registers the timing options give,
// its static and dynamic shared memory.
timing::Occupancy SimDevice::occupancy(const timing::GpuSpec& sp, const sim::Program& prog, const LaunchConfig& config) const {
    timing::OccupancyInput in;
    in.threadsPerBlock = static_cast<uint32_t>(config.block.count());
    in.registersPerThread = timingOptions_.registersPerThread;
    uint32_t staticShared = 0;
    for (auto& v : prog.sharedVars) staticShared = std::max<uint32_t>(staticShared, static_cast<uint32_t>(v.offset + v.size));
    in.sharedBytesPerBlock = staticShared + config.dynamicSharedBytes;
    return timing::computeOccupancy(sp, in);
}

double SimDevice::smFraction(const std::string& kernel, const LaunchConfig& config, double* waves) {
    const auto& sp = model_->spec();
    const sim::Program& prog = program(kernel);
    const timing::Occupancy occ = occupancy(sp, prog, config);
    double slots = double(sp.smCount) * std::max<uint32_t>(occ.activeBlocksPerSM, 1);
    if (waves) *waves = std::max(1.0, double(config.grid.count()) / slots);
    return std::min(1.0, double(config.grid.count()) / slots);
}

LaunchResult SimDevice::launch(const std::string& kernel, const LaunchConfig& config, const std::vector<ParamBytes>& params) {
    LaunchResult r = launchOn(0, kernel, config, params);
    synchronizeStream(0);
    return r;
}

// ---------------------------------------------------------------- host runtime
void* SimDevice::hostAlloc(size_t bytes, bool pinned) {
    HostBlock b;
    b.size = std::max<size_t>(bytes, 1);
    b.bytes = std::make_unique<uint8_t[]>(b.size);
    b.pinned = pinned;
    uint8_t* p = b.bytes.get();
    hostBlocks_[p] = std::move(b);
    return p;
}

void SimDevice::hostFree(void* ptr) {
    if (!ptr) return;
    auto it = hostBlocks_.find(static_cast<const uint8_t*>(ptr));
    if (it == hostBlocks_.end()) throw Error(Error::Kind::Input, "hostFree: not a pointer from hostAlloc.");
    hostBlocks_.erase(it);
}

bool SimDevice::isPinned(const void* p, size_t bytes) const {
    auto* c = static_cast<const uint8_t*>(p);
    auto it = hostBlocks_.upper_bound(c);
    if (it == hostBlocks_.begin()) return false;
    --it;
    return it->second.pinned && c + bytes <= it->first + it->second.size;
}

void SimDevice::checkStream(int stream, const char* what) const {
    if (stream < 0 || stream >= streams_)
        throw Error(Error::Kind::Input, std::string(what) + ": stream " + std::to_string(stream) + " was never created.");
    if (captureStream_ >= 0 && stream != captureStream_ && stream == 0)
        throw Error(Error::Kind::Input, std::string(what) + ": the legacy default stream cannot be used while stream " +
                                            std::to_string(captureStream_) + " is being captured.");
}

int SimDevice::createStream(bool nonBlocking) {
    int s = streams_++;
    nonBlocking_.push_back(nonBlocking);
    priority_.push_back(0);
    if (model_) model_->createStream(nonBlocking);
    return s;
}

int SimDevice::createEvent() { return events_++; }

void SimDevice::copyToDevice(DevPtr dst, const void* src, size_t bytes, int stream, bool hostSync, const std::string& label) {
    copyOverPcie(TimelineKind::CopyHtoD, "copy to device", "cudaMemcpyAsync host-to-device (captured)", dst, src, bytes, stream, hostSync, label,
                 [this, dst, src, bytes] { memcpyHtoD(dst, src, bytes); });
}

void SimDevice::copyToHost(void* dst, DevPtr src, size_t bytes, int stream, bool hostSync, const std::string& label) {
    copyOverPcie(TimelineKind::CopyDtoH, "copy to host", "cudaMemcpyAsync device-to-host (captured)", src, dst, bytes, stream, hostSync, label,
                 [this, dst, src, bytes] { memcpyDtoH(dst, src, bytes); });
}

// A copy between host and device memory: its effect now (or, in a capture, when the graph runs)
// and its span on the timeline, pinned or pageable as the host side is.
void SimDevice::copyOverPcie(TimelineKind kind, const char* what, const char* captured, DevPtr device, const void* host, size_t bytes, int stream,
                             bool hostSync, const std::string& label, std::function<void()> effect) {
    checkStream(stream, what);
    const bool pinned = isPinned(host, bytes);
    auto model = [this, kind, bytes, pinned, hostSync, label](int s) {
        if (model_) model_->copy(kind, s, bytes, pinned, hostSync, label);
    };
    if (capturing(stream)) {
        memory_.hostPointer(device, bytes, captured);   // checks the device range now
        capture_.push_back({std::move(effect), model, 'c'});
        return;
    }
    effect();
    model(stream);
}

LaunchResult SimDevice::launchOn(int stream, const std::string& kernel, const LaunchConfig& config, const std::vector<ParamBytes>& params) {
    checkStream(stream, "launch");
    if (capturing(stream)) {
        program(kernel);   // unknown kernels fail at capture, as cudaLaunchKernel would
        auto shared = std::make_shared<double>(0);
        capture_.push_back({[this, kernel, config, params, shared, stream] {
                                launchStream_ = stream;
                                runKernel(kernel, config, params, model_ ? shared.get() : nullptr);
                            },
                            [this, kernel, config, shared](int s) {
                                if (model_) model_->kernel(s, *shared, smFraction(kernel, config), kernel, -1);
                            },
                            'k'});
        LaunchResult r;
        r.kernel = kernel;
        r.grid = config.grid;
        r.block = config.block;
        r.dynamicSharedBytes = config.dynamicSharedBytes;
        return r;
    }
    double us = 0;
    launchStream_ = stream;
    lastTiming_ = {};
    LaunchResult r = runKernel(kernel, config, params, model_ ? &us : nullptr);
    if (model_) {
        double waves = 1;
        const double frac = smFraction(kernel, config, &waves);
        size_t i = model_->kernel(stream, us, frac, kernel, launchCount_, waves);
        if (lastTiming_.mappedSectors) model_->markMapped(i);
    }
    ++launchCount_;
    return r;
}

void SimDevice::recordEvent(int event, int stream) {
    checkStream(stream, "event record");
    if (event < 0 || event >= events_) throw Error(Error::Kind::Input, "Event " + std::to_string(event) + " was never created.");
    if (capturing(stream)) {
        // Recorded inside a capture, the event orders the capture's own work (a stream that waits
        // on it joins the capture); the graph runs its nodes in issue order, which keeps that order.
        capturedEvents_.insert(event);
        everCaptured_.insert(event);
        return;
    }
    capturedEvents_.erase(event);
    eventRecorded_[event] = true;
    if (model_) model_->recordEvent(event, stream);
}

void SimDevice::streamWaitEvent(int stream, int event) {
    checkStream(stream, "stream wait");
    if (event < 0 || event >= events_) throw Error(Error::Kind::Input, "Event " + std::to_string(event) + " was never created.");
    if (capturedEvents_.count(event)) {   // the event was recorded in the capture: this stream joins it
        if (captureStream_ < 0) throw Error(Error::Kind::Input, "Event " + std::to_string(event) + " was recorded in a capture that has ended.");
        joinCapture(stream);
        return;
    }
    if (capturing(stream)) return;   // an event from outside the capture: the graph launch is ordered after it already
    if (model_) model_->streamWaitEvent(stream, event);
}

void SimDevice::synchronizeStream(int stream) {
    checkStream(stream, "stream synchronize");
    if (capturing(stream)) throw Error(Error::Kind::Input, "cudaStreamSynchronize on a stream that is being captured is not allowed.");
    if (model_) model_->synchronizeStream(stream);
}

void SimDevice::synchronizeEvent(int event) {
    if (!eventRecorded_.count(event) && everCaptured_.count(event)) return;   // recorded only inside a capture: nothing to wait for
    if (!eventRecorded_.count(event)) throw Error(Error::Kind::Input, "Event " + std::to_string(event) + " was never recorded.");
    if (model_) model_->synchronizeEvent(event);
}

void SimDevice::synchronize() {
    if (captureStream_ >= 0) throw Error(Error::Kind::Input, "cudaDeviceSynchronize while a stream is being captured is not allowed.");
    if (model_) model_->synchronizeDevice();
}

double SimDevice::eventElapsedMs(int from, int to) {
    if (!eventRecorded_.count(from) || !eventRecorded_.count(to))
        throw Error(Error::Kind::Input, everCaptured_.count(from) || everCaptured_.count(to)
                                            ? "Elapsed time between events recorded inside a stream capture is not kept."
                                            : "Elapsed time needs two recorded events.");
    if (!model_) return 0;   // no timeline: the simulator has no notion of time
    return (model_->eventTimeUs(to) - model_->eventTimeUs(from)) / 1000.0;
}

void SimDevice::beginCapture(int stream) {
    checkStream(stream, "begin capture");
    if (stream == 0) throw Error(Error::Kind::Input, "The legacy default stream cannot be captured; capture a created stream.");
    if (captureStream_ >= 0) throw Error(Error::Kind::Input, "Stream " + std::to_string(captureStream_) + " is already being captured.");
    captureStream_ = stream;
    joined_.clear();
    capturedEvents_.clear();
    capture_.clear();
}

bool SimDevice::captureOperation(int stream, char kind, std::function<void()> effect, std::function<void(int)> model) {
    if (!capturing(stream)) return false;
    capture_.push_back({std::move(effect), model ? std::move(model) : [](int) {}, kind});
    return true;
}

void SimDevice::joinCapture(int stream) {
    checkStream(stream, "stream wait");
    if (captureStream_ < 0) throw Error(Error::Kind::Input, "No stream is being captured.");
    if (stream != captureStream_) joined_.insert(stream);
}

std::string SimDevice::graphNodeKinds(int graph) const {
    std::string k;
    if (graph >= 0 && static_cast<size_t>(graph) < graphs_.size())
        for (auto& n : graphs_[static_cast<size_t>(graph)]) k += n.kind;
    return k;
}

int SimDevice::endCapture(int stream) {
    if (captureStream_ != stream) throw Error(Error::Kind::Input, "Stream " + std::to_string(stream) + " is not being captured.");
    captureStream_ = -1;
    joined_.clear();
    capturedEvents_.clear();
    graphs_.push_back(std::move(capture_));
    capture_.clear();
    return static_cast<int>(graphs_.size()) - 1;
}

void SimDevice::launchGraph(int graph, int stream) {
    checkStream(stream, "graph launch");
    if (graph < 0 || static_cast<size_t>(graph) >= graphs_.size()) throw Error(Error::Kind::Input, "Graph " + std::to_string(graph) + " does not exist.");
    if (captureStream_ >= 0) throw Error(Error::Kind::Input, "Launching a graph while capturing is not supported by the simulator.");
    auto& nodes = graphs_[static_cast<size_t>(graph)];
    if (model_) model_->beginGraphLaunch(stream, "graph " + std::to_string(graph) + " (" + std::to_string(nodes.size()) + " nodes)");
    struct End {
        TimelineModel* m;
        ~End() {
            if (m) m->endGraphLaunch();
        }
    } end{model_.get()};
    for (auto& n : nodes) {
        n.effect();
        n.model(stream);
    }
}

void SimDevice::enableTimeline(const timing::GpuSpec& gpu, timing::TimingOptions timingOptions) {
    timingOptions_ = timingOptions;
    model_ = std::make_unique<TimelineModel>(gpu);
    for (int s = 1; s < streams_; ++s) model_->createStream(nonBlocking_[static_cast<size_t>(s)], priority_[static_cast<size_t>(s)]);
}

void SimDevice::setStreamPriority(int stream, int priority) {
    checkStream(stream, "stream priority");
    if (stream == 0) return;   // the legacy default stream keeps the default priority
    priority_[static_cast<size_t>(stream)] = std::clamp(priority, TimelineModel::kHighestPriority, TimelineModel::kLowestPriority);
    if (model_) model_->setStreamPriority(stream, priority);
}

void SimDevice::launchHostFunction(int stream, const std::function<void()>& fn, double costUs, const std::string& label) {
    checkStream(stream, "host function");
    if (capturing(stream)) throw Error(Error::Kind::Input, "Host functions inside a captured graph are not supported by the simulator yet.");
    // The simulator has done the stream's earlier work already: the function may run now.
    if (fn) fn();
    if (model_) model_->hostFunction(stream, costUs, label);
}

void SimDevice::setAccessPolicyWindow(int stream, const AccessPolicyWindow& window) {
    checkStream(stream, "access policy window");
    if (!(window.hitRatio >= 0 && window.hitRatio <= 1)) throw Error(Error::Kind::Input, "An access policy window's hitRatio is between 0 and 1.");
    if (window.hitProp < 0 || window.hitProp > 2 || window.missProp < 0 || window.missProp > 2)
        throw Error(Error::Kind::Input, "An access policy window's properties are normal (0), streaming (1) or persisting (2).");
    if (window.bytes == 0) windows_.erase(stream);
    else windows_[stream] = window;
}

void SimDevice::setPersistingL2Bytes(uint64_t bytes) { persistingL2_ = bytes; }

timing::TimingOptions SimDevice::launchTimingOptions(timing::TimingOptions to) const {
    if (auto w = windows_.find(launchStream_); w != windows_.end()) {
        to.l2Window.base = w->second.base;
        to.l2Window.bytes = w->second.bytes;
        to.l2Window.hitRatio = w->second.hitRatio;
        to.l2Window.hitProp = static_cast<mem::AccessProp>(std::clamp(w->second.hitProp, 0, 2));
        to.l2Window.missProp = static_cast<mem::AccessProp>(std::clamp(w->second.missProp, 0, 2));
    }
    to.l2PersistingBytes = persistingL2_;
    for (auto& [b, n] : mapped_) to.mappedRanges.push_back({b, n});
    return to;
}

void SimDevice::setMappedRange(DevPtr base, uint64_t bytes, bool mapped) {
    if (mapped && bytes) mapped_[base] = bytes;
    else mapped_.erase(base);
}

void SimDevice::resetTimeline() {
    if (!model_) return;
    timing::GpuSpec spec = model_->spec();
    enableTimeline(spec, timingOptions_);
}

Timeline SimDevice::timeline() {
    if (!model_) return {};
    return model_->timeline();
}

} // namespace warpscope::runtime
