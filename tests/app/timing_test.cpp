// Timed mode through the Session: launches run on the cycle model (timing::TimedRun), stepping
// goes by cycles, the snapshot carries the model's figures, and the kernel's results stay those
// of the functional run.
#include "gui/model/session.hpp"

#include "runtime/sim_device.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <numeric>

using namespace warpscope;
using namespace warpscope::gui;
namespace fs = std::filesystem;

namespace {
runtime::Lesson lessonAt(const std::string& rel) { return runtime::loadLesson(fs::path(WARPSCOPE_SOURCE_DIR) / rel); }

std::shared_ptr<const Snapshot> settle(Session& s) {
    REQUIRE(s.waitIdle(120));
    return s.snapshot();
}

TimingConfig timedOn(const std::string& preset, std::optional<uint32_t> registers = {}) {
    TimingConfig c;
    c.timed = true;
    c.spec = timing::findPreset(preset, {});
    c.registers = registers;
    return c;
}

// The same lesson headless: per-launch TimingResults, and the final buffers.
struct Headless {
    std::vector<timing::TimingResult> timings;
    runtime::RunResult result;
};
Headless runHeadless(const runtime::Lesson& L, const runtime::ParamValues& p, const timing::GpuSpec* spec, uint32_t registers) {
    Headless h;
    runtime::SimDevice dev;
    if (spec)
        dev.onLaunch = [&](sim::Gpu& g) {
            timing::TimingOptions o;
            o.registersPerThread = registers;
            o.registersEstimated = false;
            h.timings.push_back(timing::runTimed(g, *spec, o));
        };
    h.result = runtime::runLesson(L, p, dev);
    return h;
}
} // namespace

TEST_CASE("timed session: cycles match a headless TimedRun, results match the functional run", "[timing]") {
    auto L = lessonAt("lessons/matmul");
    auto p = runtime::resolveParams(L, {});
    TimingConfig cfg = timedOn("teaching", 24);
    Session s;
    s.setTiming(cfg);
    s.load(L, p);
    auto snap = settle(s);
    REQUIRE(snap->state == RunState::Paused);
    CHECK(snap->timed);
    CHECK(snap->gpuPreset == "teaching");
    REQUIRE(snap->timing);
    CHECK(snap->timing->spec.name == "teaching");
    CHECK(snap->totalCycleSteps == 0);

    // Step = one cycle: the cycle counter moves by one per step.
    for (int i = 0; i < 5; ++i) s.step();
    snap = settle(s);
    REQUIRE(snap->timing);
    CHECK(snap->totalCycleSteps == 5);
    CHECK(snap->timing->cycle == 4);   // cycles 0..4 processed
    CHECK(snap->timing->schedulers.size() == cfg.spec.schedulersPerSM);
    CHECK(snap->timing->timeline.size() == 5);
    CHECK(snap->timing->launch->result.registersPerThread == 24);
    CHECK_FALSE(snap->timing->launch->result.registersEstimated);

    // To the end of both launches.
    s.runSteps(100000000);
    snap = settle(s);
    REQUIRE(snap->state == RunState::Finished);
    for (auto& c : snap->checks) {
        INFO(c.buffer << ": " << c.detail);
        CHECK(c.passed);
    }
    Headless timedRef = runHeadless(L, p, &cfg.spec, 24);
    REQUIRE(snap->launchTimings.size() == timedRef.timings.size());
    REQUIRE(timedRef.timings.size() == 2);
    uint64_t cycleSteps = 0;
    for (size_t i = 0; i < timedRef.timings.size(); ++i) {
        INFO("launch " << i);
        const timing::TimingResult& a = snap->launchTimings[i]->result;
        const timing::TimingResult& b = timedRef.timings[i];
        CHECK(snap->launchTimings[i]->complete);
        CHECK(a.cycles == b.cycles);
        CHECK(a.warpInstructions == b.warpInstructions);
        CHECK(a.stalls == b.stalls);
        CHECK(a.occupancy.activeBlocksPerSM == b.occupancy.activeBlocksPerSM);
        cycleSteps += b.cycles;
    }
    // Stepping ends with the last issue; the predicted time also counts the memory still draining.
    INFO("cycle steps " << snap->totalCycleSteps << ", cycles " << cycleSteps);
    CHECK(snap->totalCycleSteps <= cycleSteps);

    // The results are those of the functional run (the cycle model only changes the order).
    Headless functional = runHeadless(L, p, nullptr, 0);
    CHECK(timedRef.result.buffers == functional.result.buffers);

    // ...and the Session's functional run executes the same warp-instructions.
    Session f;
    f.load(L, p);
    settle(f);
    f.runSteps(100000000);
    auto fs = settle(f);
    REQUIRE(fs->state == RunState::Finished);
    CHECK(fs->totalSteps == snap->totalSteps);
    CHECK(fs->threadInstructions == snap->threadInstructions);
    REQUIRE(fs->launchCounters.size() == snap->launchCounters.size());
    for (size_t i = 0; i < fs->launchCounters.size(); ++i) {
        for (auto& [name, v] : fs->launchCounters[i]->metrics) {
            if (fs->launchCounters[i]->estimated.count(name)) continue;   // cache model: depends on SM count and order
            INFO(name);
            CHECK(snap->launchCounters[i]->metrics.at(name) == v);
        }
    }
}

TEST_CASE("timed session: step back is exact, by cycles", "[timing]") {
    auto L = lessonAt("lessons/reduction");
    Session s;
    s.setTiming(timedOn("teaching"));
    s.load(L, runtime::resolveParams(L, {}));
    settle(s);
    s.runSteps(300);
    auto at300 = settle(s);
    s.step();
    settle(s);
    s.stepBack();
    auto back = settle(s);
    std::string why;
    CHECK(sameMachineState(*at300, *back, &why));
    INFO(why);
    REQUIRE(back->timing);
    CHECK(back->timing->cycle == at300->timing->cycle);
    CHECK(back->totalCycleSteps == 300);
    CHECK(back->timing->launch->result.stalls == at300->timing->launch->result.stalls);
}

TEST_CASE("timed session: stepping a single warp is refused; to-end finishes the launch", "[timing]") {
    auto L = lessonAt("lessons/vector-add");
    Session s;
    s.setTiming(timedOn("h100"));
    s.load(L, runtime::resolveParams(L, {}));
    settle(s);
    s.stepWarp();
    auto snap = settle(s);
    CHECK(snap->totalSteps == 0);
    CHECK(snap->statusText.find("not available in Timed mode") != std::string::npos);
    s.runToEnd();
    snap = settle(s);
    CHECK(snap->state == RunState::LaunchDone);
    REQUIRE(snap->timing);
    CHECK(snap->timing->finished);
    CHECK(snap->timing->launch->complete);
    CHECK(snap->timing->launch->result.cycles > 0);
    // Switching Timed mode off restarts functionally.
    TimingConfig off;
    off.spec = timing::findPreset("h100", {});
    s.setTiming(off);
    snap = settle(s);
    CHECK_FALSE(snap->timed);
    CHECK(snap->state == RunState::Paused);
    CHECK_FALSE(snap->timing);
}

TEST_CASE("timed session: a block that does not fit the preset is an error, not a crash", "[timing]") {
    auto L = lessonAt("lessons/vector-add");
    Session s;
    s.setTiming(timedOn("teaching"));   // at most 256 threads per block
    s.load(L, runtime::resolveParams(L, {{"BLOCK", "512"}}));
    auto snap = settle(s);
    CHECK(snap->state == RunState::Failed);
    REQUIRE(snap->error);
    CHECK(snap->error->kind == Error::Kind::Input);
    CHECK(snap->statusText.find("Cannot run 'vadd' on the teaching preset") != std::string::npos);
    CHECK(snap->program);   // the launch's picture stays, so the occupancy panel can say why
    CHECK(snap->block[0] == 512);
    // The session stays usable: another preset runs it.
    s.setTiming(timedOn("h100"));
    snap = settle(s);
    CHECK(snap->state == RunState::Paused);
}
