// A lesson run with two listeners per launch: the Nsight-named counters, and a per-warp record
// of every issued instruction (line, masks, branch outcome, the first lanes' addresses), so a
// test can check what one particular warp did, not only launch totals.
#pragma once
#include "support.hpp"

#include "runtime/lesson.hpp"
#include "sim/gpu.hpp"
#include "sim/program.hpp"
#include "trace/counters.hpp"
#include "sim/step.hpp"

#include <bit>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace wst {

struct IssuedInstr {
    uint64_t index = 0;   // issue order within the launch
    uint32_t block = 0, warpInBlock = 0, warp = 0, line = 0;
    uint32_t activeMask = 0, execMask = 0;
    bool branch = false, divergent = false, isLoad = false, isStore = false;
    std::vector<uint64_t> addresses;   // 32 entries for memory instructions (valid in execMask)
    int lanes() const { return std::popcount(execMask); }
};

class IssueRecorder : public warpscope::sim::StepListener {
public:
    void onStep(const warpscope::sim::Step& s) override {
        IssuedInstr r;
        r.index = s.index;
        r.block = s.block;
        r.warpInBlock = s.warpInBlock;
        r.warp = s.warp;
        r.line = s.instr ? s.instr->line : 0;
        r.activeMask = s.activeMask;
        r.execMask = s.execMask;
        r.branch = s.branch;
        r.divergent = s.divergent;
        r.isLoad = s.isLoad;
        r.isStore = s.isStore;
        if (s.addresses) r.addresses.assign(s.addresses, s.addresses + 32);
        all.push_back(std::move(r));
    }
    // The instructions of one warp (block, warp in block), in issue order.
    std::vector<IssuedInstr> warp(uint32_t block, uint32_t warpInBlock) const {
        std::vector<IssuedInstr> v;
        for (auto& r : all)
            if (r.block == block && r.warpInBlock == warpInBlock) v.push_back(r);
        return v;
    }
    std::vector<IssuedInstr> all;
};

struct TracedLaunch {
    warpscope::trace::CounterCollector counters;
    IssueRecorder issued;
    warpscope::sim::FanOut fan;
    double metric(const std::string& name) const { return counters.metrics().at(name); }
};

struct TracedRun {
    warpscope::runtime::RunResult result;
    std::vector<std::unique_ptr<TracedLaunch>> launches;
    TracedLaunch& launch(size_t i) { return *launches.at(i); }
    template <class T>
    std::vector<T> buffer(const std::string& name) const {
        const auto& bytes = result.buffers.at(name);
        std::vector<T> v(bytes.size() / sizeof(T));
        std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
        return v;
    }
};

// Runs lessons/<id> with the given parameters on the simulator, tracing every launch (record:
// false keeps only the counters, for large launches).
inline TracedRun runTraced(const std::string& id, const std::map<std::string, std::string>& params,
                           warpscope::runtime::SimDevice* device = nullptr, bool record = true) {
    using namespace warpscope;
    runtime::Lesson l = runtime::loadLesson(sourcePath("lessons/" + id));
    runtime::SimDevice own;
    runtime::SimDevice& dev = device ? *device : own;
    TracedRun run;
    dev.onLaunch = [&](sim::Gpu& g) {
        run.launches.push_back(std::make_unique<TracedLaunch>());
        TracedLaunch& t = *run.launches.back();
        t.counters.setProgram(g.program());   // shared loads as ptxas merges them
        t.fan.add(&t.counters);
        if (record) t.fan.add(&t.issued);
        g.setListener(&t.fan);
    };
    run.result = runtime::runLesson(l, runtime::resolveParams(l, params), dev);
    dev.onLaunch = nullptr;
    return run;
}

} // namespace wst
