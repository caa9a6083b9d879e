// The app's sandbox: Cancel from another thread (a run to the end, a step back's replay, a paused
// launch, the start of a run) ends the run promptly as cancelled and leaves the session usable;
// the limits set in the settings reach the runs, an error names the limit it hit, and raising it
// lets the lesson run.
#include "gui/model/session.hpp"
#include "gui/model/settings.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <thread>

using namespace warpscope;
using namespace warpscope::gui;
namespace fs = std::filesystem;

namespace {
using Clock = std::chrono::steady_clock;
runtime::Lesson lessonAt(const std::string& rel) { return runtime::loadLesson(fs::path(WARPSCOPE_SOURCE_DIR) / rel); }

double seconds(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Cancels from a thread of its own (as the UI thread does) and returns how long the session took
// to become idle.
double cancelFromThread(Session& s) {
    auto t0 = Clock::now();
    std::thread ui([&] { s.cancel(); });
    ui.join();
    REQUIRE(s.waitIdle(10));
    return seconds(t0);
}

void checkCancelled(Session& s) {
    auto snap = s.snapshot();
    CHECK(snap->state == RunState::Faulted);
    REQUIRE(snap->error);
    CHECK(snap->error->kind == Error::Kind::Cancelled);
    CHECK(snap->error->limit == LimitKind::None);
    CHECK(snap->statusText.find("cancelled") != std::string::npos);
}

// After a cancel the session still restarts and steps.
void checkUsable(Session& s) {
    s.restart();
    REQUIRE(s.waitIdle(30));
    auto snap = s.snapshot();
    CHECK(snap->state == RunState::Paused);
    CHECK(snap->totalSteps == 0);
    CHECK_FALSE(snap->error);
    s.step();
    REQUIRE(s.waitIdle(30));
    CHECK(s.snapshot()->totalSteps == 1);
}

sim::LaunchOptions endless() {
    sim::LaunchOptions o;
    o.instructionBudget = uint64_t(1) << 50;   // only Cancel (or Pause) stops the runaway kernel
    return o;
}
} // namespace

TEST_CASE("sandbox app: cancel ends a run to the end promptly", "[session][sandbox]") {
    auto L = lessonAt("tests/app/runaway-spec.json");
    Session s(endless());
    s.load(L, runtime::resolveParams(L, {}));
    REQUIRE(s.waitIdle(60));
    s.runToEnd();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    CHECK(s.busy());
    CHECK(cancelFromThread(s) < 1.0);
    checkCancelled(s);
    CHECK(s.snapshot()->totalSteps > 0);
    checkUsable(s);
}

TEST_CASE("sandbox app: cancel stops a step back's replay", "[session][sandbox]") {
    auto L = lessonAt("tests/app/runaway-spec.json");
    Session s(endless());
    s.setSpeed(0);
    s.load(L, runtime::resolveParams(L, {}));
    REQUIRE(s.waitIdle(60));
    s.run();   // a long stretch, so that the replay to one step before its end takes a while
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    s.pause();
    REQUIRE(s.waitIdle(10));
    uint64_t reached = s.snapshot()->totalSteps;
    REQUIRE(reached > 1000);
    s.stepBack();
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    CHECK(cancelFromThread(s) < 1.0);
    auto snap = s.snapshot();
    // Either the cancel caught the replay, or the replay was already over and the cancel ended the
    // paused launch: both end as cancelled, never at the end of a replay that was asked to stop.
    checkCancelled(s);
    CHECK(snap->totalSteps < reached);
    checkUsable(s);
}

TEST_CASE("sandbox app: cancel while paused or while the run starts", "[session][sandbox]") {
    auto L = lessonAt("lessons/vector-add");
    Session s;
    SECTION("paused in a launch") {
        s.load(L, runtime::resolveParams(L, {}));
        REQUIRE(s.waitIdle(60));
        s.step();
        REQUIRE(s.waitIdle(10));
        CHECK(cancelFromThread(s) < 1.0);
        checkCancelled(s);
        checkUsable(s);
    }
    SECTION("right after load, while the host program starts") {
        s.load(L, runtime::resolveParams(L, {}));
        cancelFromThread(s);
        auto snap = s.snapshot();
        // The cancel lands before or in the first launch; never a freeze, and the session recovers.
        CHECK((snap->state == RunState::Faulted || snap->state == RunState::Paused));
        checkUsable(s);
    }
    SECTION("nothing loaded: harmless") {
        CHECK(cancelFromThread(s) < 1.0);
        CHECK(s.snapshot()->state == RunState::NoLesson);
    }
    SECTION("a finished lesson stays finished") {
        s.load(L, runtime::resolveParams(L, {}));
        REQUIRE(s.waitIdle(60));
        s.setSpeed(0);
        s.run();
        REQUIRE(s.waitIdle(60));
        REQUIRE(s.snapshot()->state == RunState::Finished);
        cancelFromThread(s);
        CHECK(s.snapshot()->state == RunState::Finished);
    }
}

TEST_CASE("sandbox app: the limits from the settings reach the run and can be raised", "[session][sandbox]") {
    Settings st;
    auto L = lessonAt("lessons/vector-add");   // 4 blocks of 256 threads, three 4 KiB buffers
    SECTION("instruction budget") {
        st.limits.instructionBudget = 100;
        Session s(launchOptions(st));
        s.setSpeed(0);
        s.load(L, runtime::resolveParams(L, {}));
        REQUIRE(s.waitIdle(60));
        s.run();
        REQUIRE(s.waitIdle(60));
        auto snap = s.snapshot();
        REQUIRE(snap->error);
        CHECK(snap->error->kind == Error::Kind::Budget);
        CHECK(snap->error->limit == LimitKind::InstructionBudget);
        SandboxLimits up = raisedLimits(st.limits, LimitKind::InstructionBudget);
        CHECK(up.instructionBudget == 1000);
        up = raisedLimits(up, LimitKind::InstructionBudget);
        s.setLimits(up);   // 10000: enough for this lesson
        REQUIRE(s.waitIdle(60));
        s.run();
        REQUIRE(s.waitIdle(60));
        CHECK(s.snapshot()->state == RunState::Finished);
    }
    SECTION("blocks per launch") {
        st.limits.maxBlocks = 2;
        Session s(launchOptions(st));
        s.load(L, runtime::resolveParams(L, {}));
        REQUIRE(s.waitIdle(60));
        auto snap = s.snapshot();
        REQUIRE(snap->error);
        CHECK(snap->error->limit == LimitKind::Blocks);
        CHECK(raisedLimits(st.limits, LimitKind::Blocks).maxBlocks == 32);
        s.setLimits(raisedLimits(st.limits, LimitKind::Blocks));
        REQUIRE(s.waitIdle(60));
        CHECK(s.snapshot()->state == RunState::Paused);
        CHECK_FALSE(s.snapshot()->error);
    }
    SECTION("device memory") {
        st.limits.deviceMemoryBytes = 6000;   // the second 4 KiB buffer does not fit
        Session s(launchOptions(st));
        s.load(L, runtime::resolveParams(L, {}));
        REQUIRE(s.waitIdle(60));
        auto snap = s.snapshot();
        REQUIRE(snap->error);
        CHECK(snap->state == RunState::Failed);
        CHECK(snap->error->limit == LimitKind::DeviceMemory);
        SandboxLimits up = raisedLimits(st.limits, LimitKind::DeviceMemory);
        CHECK(up.deviceMemoryBytes == 24000);
        s.setLimits(up);
        REQUIRE(s.waitIdle(60));
        CHECK(s.snapshot()->state == RunState::Paused);
    }
    SECTION("an unset device-memory limit is raised from the simulator's default") {
        CHECK(raisedLimits(st.limits, LimitKind::DeviceMemory).deviceMemoryBytes == effectiveDeviceMemory(st.limits) * 4);
        CHECK(effectiveDeviceMemory(st.limits) > 0);
    }
}

TEST_CASE("sandbox app: the limits persist in the settings file", "[settings][sandbox]") {
    fs::path dir = fs::temp_directory_path() / ("warpscope-limits-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    Settings st;
    st.limits.deviceMemoryBytes = uint64_t(3) << 30;
    st.limits.maxBlocks = 77;
    st.limits.instructionBudget = 123456789;
    REQUIRE(saveSettings(st, dir / "settings.json"));
    Settings back = loadSettings(dir / "settings.json");
    CHECK(back.limits.deviceMemoryBytes == st.limits.deviceMemoryBytes);
    CHECK(back.limits.maxBlocks == 77);
    CHECK(back.limits.instructionBudget == 123456789);
    sim::LaunchOptions o = launchOptions(back);
    CHECK(o.deviceMemoryBytes == st.limits.deviceMemoryBytes);
    CHECK(o.maxBlocks == 77);
    CHECK(o.instructionBudget == 123456789);
    // Defaults when the file has none; a zero budget is not accepted (it would stop every run).
    Settings none = loadSettings(dir / "missing.json");
    CHECK(none.limits.instructionBudget == sim::LaunchOptions{}.instructionBudget);
    std::ofstream(dir / "bad.json") << R"({"limits": {"instruction_budget": 0, "max_blocks": 0}})";
    Settings bad = loadSettings(dir / "bad.json");
    CHECK(bad.limits.instructionBudget >= 1);
    CHECK(bad.limits.maxBlocks >= 1);
    fs::remove_all(dir);
}
