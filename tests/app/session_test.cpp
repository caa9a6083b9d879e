// The stepping controller without a window: every command, step back by replay, faults,
// parameter changes, runs across launches.
#include "gui/model/session.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace warpscope;
using namespace warpscope::gui;
namespace fs = std::filesystem;

namespace {
runtime::Lesson lessonAt(const std::string& rel) { return runtime::loadLesson(fs::path(WARPSCOPE_SOURCE_DIR) / rel); }

runtime::ParamValues params(const runtime::Lesson& L, std::map<std::string, std::string> o = {}) {
    return runtime::resolveParams(L, o);
}

std::shared_ptr<const Snapshot> settle(Session& s) {
    REQUIRE(s.waitIdle(60));
    return s.snapshot();
}

std::shared_ptr<const Snapshot> loaded(Session& s, const std::string& rel, std::map<std::string, std::string> o = {}) {
    auto L = lessonAt(rel);
    s.load(L, params(L, o));
    auto snap = settle(s);
    REQUIRE(snap->state == RunState::Paused);
    REQUIRE(snap->totalSteps == 0);
    return snap;
}
} // namespace

TEST_CASE("session: load stops before the first instruction", "[session]") {
    Session s;
    auto snap = loaded(s, "lessons/vector-add");
    CHECK(snap->launchIndex == 0);
    CHECK(snap->program);
    CHECK(snap->blockCount == 4);
    CHECK(snap->warpsPerBlock == 8);
    CHECK(snap->blocksLaunched == 4);
    CHECK(snap->resident.size() == 4);
    CHECK(snap->lesson->launchCount == 1);
    CHECK_FALSE(snap->lesson->sourceLines.empty());
    REQUIRE(snap->selected);
    CHECK(snap->selected->warp.pc == 0);
    for (auto l : snap->resident[0].warps[0].lanes) CHECK(l == LaneState::Active);
}

TEST_CASE("session: step issues one warp-instruction in scheduler order", "[session]") {
    Session s;
    loaded(s, "lessons/vector-add");
    for (int i = 0; i < 3; ++i) s.step();
    auto snap = settle(s);
    CHECK(snap->totalSteps == 3);
    CHECK(snap->stepInLaunch == 3);
    REQUIRE(snap->recent.size() == 3);
    // round robin: warps 0, 1, 2 of block 0
    CHECK(snap->recent[0].warpInBlock == 0);
    CHECK(snap->recent[1].warpInBlock == 1);
    CHECK(snap->recent[2].warpInBlock == 2);
    // follow mode selects the warp that issued last
    CHECK(snap->selBlock == 0);
    CHECK(snap->selWarp == 2);
    REQUIRE(snap->selected);
    CHECK(snap->selected->warp.issued == 1);
    CHECK_FALSE(snap->lineStats.empty());
}

TEST_CASE("session: step warp and step line follow the selected warp", "[session]") {
    Session s;
    loaded(s, "lessons/divergence");
    s.select(0, 1, false);
    s.stepWarp();
    s.stepWarp();
    auto snap = settle(s);
    CHECK(snap->totalSteps == 2);
    CHECK(snap->recent.back().warpInBlock == 1);
    REQUIRE(snap->selected);
    CHECK(snap->selected->warpInBlock == 1);
    uint32_t line0 = snap->selected->warp.line;
    s.stepLine();
    snap = settle(s);
    REQUIRE(snap->selected);
    CHECK(snap->selected->warp.line != line0);
    CHECK(snap->totalSteps > 2);
    for (auto& r : snap->recent) CHECK(r.warpInBlock == 1);   // nobody else had to run
}

TEST_CASE("session: divergent branch shows masked lanes and a deeper SIMT stack", "[session]") {
    Session s;
    loaded(s, "lessons/divergence");
    s.select(0, 0, false);
    // step warp 0 until its SIMT stack has more than one entry
    bool split = false;
    for (int i = 0; i < 40 && !split; ++i) {
        s.stepWarp();
        auto snap = settle(s);
        REQUIRE(snap->selected);
        split = snap->selected->frames.back().stack.size() > 1;
        if (split) {
            int masked = 0, active = 0;
            for (auto l : snap->selected->warp.lanes) {
                masked += l == LaneState::Masked;
                active += l == LaneState::Active;
            }
            CHECK(masked == 16);
            CHECK(active == 16);
        }
    }
    CHECK(split);
}

TEST_CASE("session: run to barrier stops when the barrier releases", "[session]") {
    Session s;
    loaded(s, "lessons/divergence");
    s.runToBarrier();
    auto snap = settle(s);
    CHECK(snap->state == RunState::Paused);
    CHECK(snap->barriers == 1);
    CHECK(snap->totalSteps > 0);
    // every warp of the block is past the barrier and ready
    for (auto& w : snap->resident[0].warps) CHECK_FALSE(w.masks.atBarrier);
}

TEST_CASE("session: run to the end evaluates the checks; steps continue across launches", "[session]") {
    Session s;
    s.setSpeed(0);
    loaded(s, "lessons/matmul", {{"M", "16"}, {"N", "16"}, {"K", "16"}});
    s.run();
    auto snap = settle(s);
    CHECK(snap->state == RunState::Finished);
    CHECK(snap->launchIndex == 1);
    REQUIRE(snap->checks.size() == 2);
    for (auto& c : snap->checks) CHECK(c.passed);
    uint64_t total = snap->totalSteps;
    CHECK(total > 0);
    // step back from the end lands on the last instruction of the second launch
    s.stepBack();
    snap = settle(s);
    CHECK(snap->state == RunState::Paused);
    CHECK(snap->launchIndex == 1);
    CHECK(snap->totalSteps == total - 1);
}

TEST_CASE("session: step back reproduces stepping forward exactly", "[session]") {
    Session a, b;
    loaded(a, "lessons/divergence");
    loaded(b, "lessons/divergence");
    // a mix of every kind of command
    a.runSteps(30);
    a.select(0, 1, false);
    a.stepWarp();
    a.stepWarp();
    a.stepLine();
    a.setFollow(true);
    a.runToBarrier();
    a.step();
    auto before = settle(a);
    a.step();
    a.step();
    auto ahead = settle(a);
    CHECK(ahead->totalSteps == before->totalSteps + 2);
    a.stepBack();
    a.stepBack();
    auto back = settle(a);
    std::string why;
    CHECK(sameMachineState(*before, *back, &why));
    INFO(why);
    CHECK(back->generation > before->generation);   // it really replayed

    // and a fresh session stepping forward N times equals N+1 then back
    b.runSteps(before->totalSteps + 1);
    b.stepBack();
    auto bb = settle(b);
    auto fresh = std::make_unique<Session>();
    loaded(*fresh, "lessons/divergence");
    fresh->runSteps(before->totalSteps);
    auto fw = settle(*fresh);
    CHECK(sameMachineState(*bb, *fw, &why));
    INFO(why);
}

TEST_CASE("session: a kernel fault is shown and the session stays usable", "[session]") {
    Session s;
    s.setSpeed(0);
    auto L = lessonAt("tests/app/oob-spec.json");
    s.load(L, params(L));
    auto snap = settle(s);
    REQUIRE(snap->state == RunState::Paused);
    s.run();
    snap = settle(s);
    REQUIRE(snap->state == RunState::Faulted);
    REQUIRE(snap->error);
    CHECK(snap->error->kind == Error::Kind::Fault);
    CHECK(snap->error->site.lane.has_value());
    CHECK(snap->error->site.sourceLine.has_value());
    CHECK(snap->error->site.address.has_value());
    CHECK_FALSE(snap->resident.empty());   // the machine as it was when it stopped
    uint64_t at = snap->totalSteps;

    // stepping further only explains; it does not crash
    s.step();
    snap = settle(s);
    CHECK(snap->state == RunState::Faulted);

    // step back: the state just before the faulting instruction, no error
    s.stepBack();
    snap = settle(s);
    CHECK(snap->state == RunState::Paused);
    CHECK_FALSE(snap->error);
    CHECK(snap->totalSteps == at);

    // restart works
    s.restart();
    snap = settle(s);
    CHECK(snap->state == RunState::Paused);
    CHECK(snap->totalSteps == 0);
    CHECK_FALSE(snap->error);
    s.step();
    snap = settle(s);
    CHECK(snap->totalSteps == 1);
}

TEST_CASE("session: a runaway loop stops at the instruction budget", "[session]") {
    sim::LaunchOptions opt;
    opt.instructionBudget = 200;
    Session s(opt);
    s.setSpeed(0);
    loaded(s, "lessons/divergence");
    s.run();
    auto snap = settle(s);
    REQUIRE(snap->state == RunState::Faulted);
    REQUIRE(snap->error);
    CHECK(snap->error->kind == Error::Kind::Budget);
}

TEST_CASE("session: a lesson that cannot launch reports it", "[session]") {
    Session s;
    auto L = lessonAt("lessons/vector-add");
    auto p = params(L);
    p["BLOCK"] = 2048;   // bypasses validation: the launch itself must refuse
    s.load(L, p);
    auto snap = settle(s);
    CHECK(snap->state == RunState::Failed);
    REQUIRE(snap->error);
    CHECK(snap->error->kind == Error::Kind::Input);
    // and a good parameter set recovers
    s.setParams(params(L));
    snap = settle(s);
    CHECK(snap->state == RunState::Paused);
}

TEST_CASE("session: changing a parameter rebuilds the launch", "[session]") {
    Session s;
    auto L = lessonAt("lessons/vector-add");
    loaded(s, "lessons/vector-add");
    s.runSteps(10);
    settle(s);
    s.setParams(params(L, {{"N", "64"}, {"BLOCK", "32"}}));
    auto snap = settle(s);
    CHECK(snap->state == RunState::Paused);
    CHECK(snap->totalSteps == 0);
    CHECK(snap->blockCount == 2);
    CHECK(snap->grid[0] == 2);
    CHECK(snap->block[0] == 32);
    CHECK(snap->params.at("N") == 64);
}

TEST_CASE("session: pause stops a free run; the UI can read snapshots meanwhile", "[session]") {
    Session s;
    s.setSpeed(2000);
    loaded(s, "lessons/matmul", {{"M", "64"}, {"N", "64"}, {"K", "64"}});
    s.run();
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    auto mid = s.snapshot();
    CHECK(mid->state == RunState::Running);
    s.pause();
    auto snap = settle(s);
    CHECK(snap->state == RunState::Paused);
    CHECK(snap->totalSteps > 0);
    CHECK(snap->totalSteps < 5000);   // throttled by the speed setting
}
