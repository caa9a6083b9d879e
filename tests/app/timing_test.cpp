// Timed mode through the Session: launches run on the cycle model (timing::TimedRun), stepping
// goes by cycles, the snapshot carries the model's figures, and the kernel's results stay those
// of the functional run.
#include "gui/model/session.hpp"

#include "run/run.hpp"
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

// Issue 33: a launch stepped in the app is timed as `warpscope run --timed` times it (both build
// their launch with run::launchSetup): the access policy window of streams-advanced's L2 step and
// the mapped memory of its zero-copy step reach the Session's cycle model, so cycles, the L2 hit
// rate, the PCIe sectors and the counters are the CLI's, digit for digit.
namespace {
struct CliLaunch {
    timing::TimingResult timing;
    std::map<std::string, double> metrics;
};
// What `warpscope run LESSON --gpu PRESET --metrics` computes (cmd_run.cpp fills the same RunSpec).
std::vector<CliLaunch> runLikeCli(const runtime::Lesson& L, const runtime::ParamValues& p, const std::string& preset) {
    run::RunSpec spec;
    spec.timed = true;
    spec.counters = true;
    spec.preset = preset;
    run::RunReport rep = run::run(L, p, spec);
    REQUIRE(rep.ok());
    std::vector<CliLaunch> v;
    for (auto& l : rep.launches) {
        REQUIRE(l.timing);
        REQUIRE(l.counters);
        v.push_back({*l.timing, l.counters->metrics()});
    }
    return v;
}
// The Session in Timed mode: a few single cycles, then to the end of the host program.
std::shared_ptr<const Snapshot> stepTimed(const runtime::Lesson& L, const runtime::ParamValues& p, const std::string& preset) {
    Session s;
    s.setTiming(timedOn(preset));
    s.load(L, p);
    auto snap = settle(s);
    REQUIRE(snap->state == RunState::Paused);
    for (int i = 0; i < 3; ++i) s.step();
    snap = settle(s);
    REQUIRE(snap->totalCycleSteps == 3);
    s.runSteps(1000000000);
    snap = settle(s);
    REQUIRE(snap->state == RunState::Finished);
    for (auto& c : snap->checks) {
        INFO(c.buffer << ": " << c.detail);
        CHECK(c.passed);
    }
    return snap;
}
void requireSame(const Snapshot& app, const std::vector<CliLaunch>& cli) {
    REQUIRE(app.launchTimings.size() == cli.size());
    REQUIRE(app.launchCounters.size() == cli.size());
    for (size_t i = 0; i < cli.size(); ++i) {
        const timing::TimingResult& a = app.launchTimings[i]->result;
        const timing::TimingResult& c = cli[i].timing;
        INFO("launch " << i << ": app " << a.cycles << " cycles, L2 " << a.l2Hits << "/" << a.l2Lookups << ", mapped " << a.mappedSectors
                       << "; CLI " << c.cycles << " cycles, L2 " << c.l2Hits << "/" << c.l2Lookups << ", mapped " << c.mappedSectors);
        CHECK(app.launchTimings[i]->complete);
        CHECK(a.cycles == c.cycles);
        CHECK(a.microseconds == c.microseconds);
        CHECK(a.l2Hits == c.l2Hits);
        CHECK(a.l2Lookups == c.l2Lookups);
        CHECK(a.dramSectors == c.dramSectors);
        CHECK(a.mappedSectors == c.mappedSectors);
        CHECK(a.mappedWriteSectors == c.mappedWriteSectors);
        CHECK(a.stalls == c.stalls);
        CHECK(app.launchCounters[i]->metrics == cli[i].metrics);   // the Metrics panel's table
    }
}
} // namespace

TEST_CASE("timed session: an L2 access policy window reaches the app's cycle model as it reaches warpscope run --timed", "[timing]") {
    auto L = lessonAt("lessons/streams-advanced");
    // The lesson's L2 step, on the teaching preset (a 256 KiB L2), with and without the window.
    auto on = runtime::resolveParams(L, {{"MODE", "4"}, {"WINDOW", "1"}});
    auto off = runtime::resolveParams(L, {{"MODE", "4"}, {"WINDOW", "0"}});
    auto cliOn = runLikeCli(L, on, "teaching");
    auto cliOff = runLikeCli(L, off, "teaching");
    REQUIRE(cliOn.size() == 1);
    // The window matters to this launch (else the comparison below would prove nothing).
    CHECK(cliOn[0].timing.l2Hits > cliOff[0].timing.l2Hits);
    CHECK(cliOn[0].timing.cycles != cliOff[0].timing.cycles);

    auto snap = stepTimed(L, on, "teaching");
    requireSame(*snap, cliOn);
    const TimedLaunchView& t = *snap->launchTimings[0];
    CHECK(t.windowBytes == 4 * 32768);   // the table, TABLE floats
    CHECK(t.windowHitRatio == 1.0);
    CHECK(t.windowHitProp == "persisting");
    CHECK(t.windowMissProp == "streaming");
    CHECK(t.persistingBytes == 196608);
    CHECK(t.mappedBytes == 4);               // zdata, mapped, is one float outside MODE 3
    CHECK(t.result.mappedSectors == 0);      // and this kernel does not touch it
    const double rate = double(t.result.l2Hits) / double(t.result.l2Lookups);
    INFO("the app's L2 hit rate " << rate);
    CHECK(rate == Approx(0.125).epsilon(0.1));   // steps.md: "from 0 to about 12.5 %"

    // Without the window the app shows no window and the CLI's lower hit rate.
    auto snapOff = stepTimed(L, off, "teaching");
    requireSame(*snapOff, cliOff);
    CHECK(snapOff->launchTimings[0]->windowBytes == 0);
}

TEST_CASE("timed session: a kernel on mapped host memory crosses PCIe in the app as in warpscope run --timed", "[timing]") {
    auto L = lessonAt("lessons/streams-advanced");
    // The lesson's zero-copy step (MODE 3, h100), at a quarter of its size to stay quick.
    auto p = runtime::resolveParams(L, {{"MODE", "3"}, {"N", "262144"}});
    auto cli = runLikeCli(L, p, "h100");
    REQUIRE(cli.size() == 1);
    const uint64_t bytes = 262144 * 4;
    CHECK(cli[0].timing.mappedSectors == 2 * bytes / 32);   // each element read once and written once
    CHECK(cli[0].timing.mappedWriteSectors == bytes / 32);

    auto snap = stepTimed(L, p, "h100");
    requireSame(*snap, cli);
    const TimedLaunchView& t = *snap->launchTimings[0];
    CHECK(t.mappedBytes == bytes);
    CHECK(t.windowBytes == 0);
    CHECK(t.result.mappedSectors - t.result.mappedWriteSectors == bytes / 32);   // the panel's sysmem reads
}
