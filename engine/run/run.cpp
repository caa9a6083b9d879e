#include "run/run.hpp"

#include "hw/cuda_device.hpp"
#include "trace/issue_order.hpp"

#include <utility>

namespace warpscope::run {

// ---------------------------------------------------------------- LaunchPipeline
LaunchPipeline::LaunchPipeline(sim::Gpu& gpu, Setup setup) : gpu_(gpu), setup_(std::move(setup)) {
    if (setup_.timed && !setup_.gpu) throw Error(Error::Kind::Input, "A timed launch needs a GPU preset.");
    const uint32_t regs = setup_.registers.value_or(setup_.timing.registersPerThread);
    if (setup_.counters) {
        // The caches of the preset: L1 per SM after the resident blocks' shared memory, its L2
        // (without a preset, trace::CacheConfig's defaults).
        trace::CacheConfig cc = setup_.gpu ? timing::cacheConfigFor(*setup_.gpu, gpu, regs) : trace::CacheConfig{};
        if (!setup_.timed && setup_.countersOnSimSMs) cc.numSMs = gpu.options().numSMs;
        counters_ = std::make_shared<trace::CounterCollector>(cc);
        counters_->setProgram(gpu.program());   // shared loads merged as ptxas merges them
        // Untimed, the collector may fork: the blocks spread over the threads and its caches
        // replay the serial issue order afterwards (the same numbers as one thread).
        if (!setup_.timed && setup_.parallelCounters) counters_->enableParallel(trace::LaunchShape::of(gpu), gpu.program());
    }
    std::vector<sim::StepListener*> listeners = setup_.observers;
    if (counters_) listeners.push_back(counters_.get());
    // One listener is attached as it is: a fan-out would hide that it wants only per-pc sums
    // (LineStatsCollector::sumsOnly), which lets the engine skip building Steps.
    sim::StepListener* listener = nullptr;
    if (listeners.size() == 1) {
        listener = listeners.front();
    } else if (listeners.size() > 1) {
        for (auto* l : listeners) fanOut_.add(l);
        listener = &fanOut_;
    }
    listener_ = listener;
    if (setup_.timed) {
        timing::TimingOptions o = setup_.timing;
        if (setup_.registers) {
            o.registersPerThread = *setup_.registers;
            o.registersEstimated = false;
        }
        // Nobody reads a register while this launch runs: pack the register files (faster, the
        // same results) before the cycle model looks at where each instruction's registers are.
        if (!setup_.observersReadRegisters) gpu.packRegisterFiles();
        // Takes the Gpu's listener slot and forwards every Step to the fan-out.
        timed_ = std::make_unique<timing::TimedRun>(gpu, *setup_.gpu, o, listener);
    } else if (listener) {
        gpu.setListener(listener);
    }
}

LaunchPipeline::~LaunchPipeline() {
    // The Gpu may outlive this pipeline (SimDevice collects the finished launch): leave it no
    // pointer to the fan-out or the cycle model.
    if ((listener_ && gpu_.listener() == listener_) || timed_) gpu_.setListener(nullptr);
}

void LaunchPipeline::run(uint32_t threads) {
    for (sim::StepListener* o : setup_.observers)
        if (o) o->onLaunchStart();
    if (timed_) {
        timed_->run();
    } else {
        gpu_.runToEnd(threads);
    }
}

LaunchReport LaunchPipeline::report() const {
    LaunchReport r;
    r.kernel = gpu_.program().kernelName;
    r.config = gpu_.config();
    r.blocks = gpu_.blockCount();
    r.stats = gpu_.stats();
    if (timed_) {
        r.timing = timed_->result();
        r.queuedUs = r.timing->microseconds + setup_.gpu->kernelGapUs;
    }
    r.counters = counters_;
    return r;
}

// ---------------------------------------------------------------- run
std::optional<uint32_t> registersFor(const RunSpec& spec, const runtime::Lesson* lesson, const std::string& kernel) {
    if (!spec.timing.registersEstimated) return spec.timing.registersPerThread;
    if (auto it = spec.registers.find(kernel); it != spec.registers.end()) return it->second;
    if (lesson) return lesson->registersFor(kernel);
    return std::nullopt;
}

LaunchPipeline::Setup launchSetup(const RunSpec& spec, const timing::GpuSpec* gpu, bool timed, const timing::TimingOptions& timing,
                                  const runtime::SimDevice& device, const runtime::Lesson* lesson, const std::string& kernel) {
    LaunchPipeline::Setup s;
    s.gpu = gpu;
    s.timed = timed;
    s.counters = spec.counters;
    s.countersOnSimSMs = true;
    s.timing = device.launchTimingOptions(timing);   // the stream's L2 window, mapped host memory
    s.registers = registersFor(spec, lesson, kernel);
    s.observers = spec.observers;
    return s;
}

double RunReport::predictedUs() const {
    double us = 0;
    for (auto& l : launches)
        if (l.timing) us += l.timing->microseconds;
    return us;
}

namespace {

bool needsPreset(const RunSpec& s) { return s.timed || s.warm || s.counters || s.timeline; }

} // namespace

RunReport run(const runtime::Lesson& lesson, const runtime::ParamValues& params, const RunSpec& spec, runtime::Device& device) {
    RunReport rep;
    rep.device = device.name();
    rep.lesson = lesson.id;
    rep.params = params;
    auto* sim = dynamic_cast<runtime::SimDevice*>(&device);
    const bool timed = sim && (spec.timed || spec.warm || spec.timeline);
    if (spec.gpu) rep.gpu = *spec.gpu;
    else if (needsPreset(spec)) rep.gpu = timing::resolvePreset(spec.preset);
    if (spec.lineStats) rep.lines = std::make_shared<trace::LineStatsCollector>();
    timing::TimingOptions topt = spec.timing;
    // Warm: one L2 for the whole program, so each launch finds what the earlier ones left.
    if (spec.warm && !topt.l2) topt.l2 = timing::warmL2(rep.gpu);

    if (sim) {
        const bool hook = timed || spec.counters || spec.lineStats || !spec.observers.empty();
        if (hook) {
            sim->onLaunch = [&](sim::Gpu& g) {
                const size_t index = rep.launches.size();
                LaunchPipeline::Setup s = launchSetup(spec, &rep.gpu, timed && (!spec.timeLaunch || spec.timeLaunch(index)), topt, *sim,
                                                      &lesson, g.program().kernelName);
                s.parallelCounters = true;
                if (rep.lines) s.observers.push_back(rep.lines.get());
                std::unique_ptr<LaunchPipeline> p;
                try {
                    p = std::make_unique<LaunchPipeline>(g, s);
                } catch (const Error& e) {
                    // A block that does not fit the preset: no prediction, a functional run.
                    if (e.kind() != Error::Kind::Input || !s.timed || !spec.untimedWhenNoFit) throw;
                    s.timed = false;
                    p = std::make_unique<LaunchPipeline>(g, s);
                }
                struct Keep {   // the launch's report, also when it faults
                    RunReport& r;
                    LaunchPipeline& p;
                    ~Keep() { r.launches.push_back(p.report()); }
                } keep{rep, *p};
                p->run(sim->options().threads);
                if (p->timed()) sim->reportKernelMicros(p->timed()->result().microseconds);
            };
        }
        if (spec.timeline) sim->enableTimeline(rep.gpu, topt);
    }
    try {
        rep.result = runtime::runLesson(lesson, params, device);
    } catch (const Error& e) {
        rep.error = e;
    }
    if (sim) {
        sim->onLaunch = nullptr;
        rep.reports = sim->reports();
        rep.notes = sim->notes();
        rep.raceShadowBytes = sim->peakRaceShadowBytes();
    }
    return rep;
}

RunReport run(const runtime::Lesson& lesson, const runtime::ParamValues& params, const RunSpec& spec) {
    if (spec.backend == Backend::Gpu) {
        std::unique_ptr<runtime::Device> gpu = hw::openCudaDevice(0);
        return run(lesson, params, spec, *gpu);
    }
    runtime::SimDevice dev(spec.sim);
    return run(lesson, params, spec, dev);
}

} // namespace warpscope::run
