// The sandbox for students' code (device-memory and grid limits, the instruction budget, cancel)
// and the global-memory racecheck's model details that the planted-bug specs do not pin down
// (both sides named, kernel boundaries, the tracking limit).
#include "support.hpp"

#include "base/error.hpp"
#include "runtime/lesson.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <functional>
#include <thread>

using namespace warpscope;

namespace {
std::string errorOf(const std::function<void()>& f, Error::Kind* kind = nullptr) {
    try {
        f();
    } catch (const Error& e) {
        if (kind) *kind = e.kind();
        return e.what();
    }
    return "";
}
} // namespace

TEST_CASE("sandbox: allocations beyond the device-memory limit fail with a clear error", "[sim][sandbox]") {
    sim::LaunchOptions opt;
    opt.deviceMemoryBytes = 1 << 20;
    runtime::SimDevice dev(opt);
    auto a = dev.malloc(512 * 1024, "a");
    dev.malloc(256 * 1024, "b");
    Error::Kind kind{};
    std::string msg = errorOf([&] { dev.malloc(512 * 1024, "c"); }, &kind);
    CHECK(kind == Error::Kind::Input);
    CHECK(msg.find("'c'") != std::string::npos);
    CHECK(msg.find("1.0 MiB") != std::string::npos);          // the limit
    CHECK(msg.find("--device-memory") != std::string::npos);  // how to raise it
    dev.free(a);   // freeing makes room again
    CHECK_NOTHROW(dev.malloc(512 * 1024, "c"));
}

TEST_CASE("sandbox: a 100 GB cudaMalloc is refused, not attempted", "[sim][sandbox]") {
    runtime::SimDevice dev;   // default limit: half of this computer's memory
    Error::Kind kind{};
    std::string msg = errorOf([&] { dev.malloc(size_t(100) << 30, "huge"); }, &kind);
    CHECK(kind == Error::Kind::Input);
    CHECK(msg.find("huge") != std::string::npos);
    CHECK(dev.memory().liveBytes() == 0);
}

TEST_CASE("sandbox: a grid beyond the block limit is refused with the limit and the option", "[sim][sandbox]") {
    sim::LaunchOptions opt;
    opt.maxBlocks = 4;
    wst::Sim s("tests/bugs/beyond.ptx", opt);
    auto a = s.upload(std::vector<float>(256, 1.0f), "a");
    CHECK_NOTHROW(s.launch("per_block_disjoint_ok", 4, 32, {wst::arg(a), wst::arg(128)}));
    Error::Kind kind{};
    std::string msg = errorOf([&] { s.launch("per_block_disjoint_ok", 8, 32, {wst::arg(a), wst::arg(256)}); }, &kind);
    CHECK(kind == Error::Kind::Input);
    CHECK(msg.find("8 blocks") != std::string::npos);
    CHECK(msg.find("--max-blocks") != std::string::npos);
}

TEST_CASE("sandbox: the instruction budget names the option that raises it", "[sim][sandbox]") {
    sim::LaunchOptions opt;
    opt.instructionBudget = 10'000;
    runtime::SimDevice dev(opt);
    Error::Kind kind{};
    std::string msg = errorOf([&] { runtime::runLesson(runtime::loadLesson(wst::sourcePath("tests/bugs/runaway-loop.json")), {}, dev); }, &kind);
    CHECK(kind == Error::Kind::Budget);
    CHECK(msg.find("--budget") != std::string::npos);
}

TEST_CASE("sandbox: a launch can be cancelled from another thread", "[sim][sandbox]") {
    sim::LaunchOptions opt;
    opt.instructionBudget = uint64_t(1) << 50;   // only the cancel can stop this runaway loop
    runtime::SimDevice dev(opt);
    runtime::Lesson l = runtime::loadLesson(wst::sourcePath("tests/bugs/runaway-loop.json"));
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        dev.requestCancel();
    });
    auto t0 = std::chrono::steady_clock::now();
    Error::Kind kind{};
    std::string msg = errorOf([&] { runtime::runLesson(l, {}, dev); }, &kind);
    canceller.join();
    CHECK(kind == Error::Kind::Cancelled);
    CHECK(msg.find("Cancelled") != std::string::npos);
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(20));
    // The flag stays set (later launches stop too) until cleared.
    CHECK(dev.cancelRequested());
    CHECK(errorOf([&] { runtime::runLesson(l, {}, dev); }).find("Cancelled") != std::string::npos);
    dev.clearCancel();
    dev.options().instructionBudget = 10'000;
    CHECK(errorOf([&] { runtime::runLesson(l, {}, dev); }).find("instruction budget") != std::string::npos);
}

TEST_CASE("racecheck: a global hazard names both sides, the allocation and the offset", "[sim][racecheck]") {
    sim::LaunchOptions opt;
    opt.racecheck = true;
    wst::Sim s("tests/bugs/beyond.ptx", opt);
    std::vector<float> init(128);
    for (size_t i = 0; i < init.size(); ++i) init[i] = float(i);
    auto a = s.upload(init, "a");
    s.launch("neighbour_in_place_race", 4, 32, {wst::arg(a), wst::arg(128)});
    REQUIRE(!s.dev.reports().empty());
    const sim::CheckReport& r = s.dev.reports().front();
    INFO(r.message);
    CHECK(r.tool == "racecheck");
    CHECK(r.hazard == "global write-after-read");
    // This side: block 1 thread 0 overwrites a[32], which block 0 thread 31 read.
    CHECK(r.site.blockX == 1u);
    CHECK(r.site.threadX == 0u);
    CHECK(r.site.allocation == "a");
    CHECK(r.site.offset == 128);
    CHECK(r.site.sourceLine.has_value());
    CHECK(r.message.find("block (0,0,0) thread (31,0,0)") != std::string::npos);
    CHECK(r.message.find("source line") != std::string::npos);
}

TEST_CASE("racecheck: a kernel boundary orders the launches before it", "[sim][racecheck]") {
    sim::LaunchOptions opt;
    opt.racecheck = true;
    wst::Sim s("tests/bugs/beyond.ptx", opt);
    auto a = s.upload(std::vector<float>(128, 1.0f), "a");
    // Block 1 of the first launch writes a[32]; block 0 of the second reads it: no race.
    s.launch("per_block_disjoint_ok", 4, 32, {wst::arg(a), wst::arg(128)});
    s.launch("neighbour_in_place_race", 1, 32, {wst::arg(a), wst::arg(33)});
    CHECK(s.dev.reports().empty());
}

TEST_CASE("racecheck: tracking stops at its limit with a note, and the shadow stays bounded", "[sim][racecheck]") {
    sim::LaunchOptions opt;
    opt.racecheck = true;
    opt.raceTrackBytes = 64 * 1024;
    wst::Sim s("tests/bugs/beyond.ptx", opt);
    const int n = 256 * 1024;   // 1 MiB of floats
    auto a = s.upload(std::vector<float>(size_t(n), 1.0f), "a");
    s.launch("per_block_disjoint_ok", n / 256, 256, {wst::arg(a), wst::arg(n)});
    CHECK(s.dev.reports().empty());
    REQUIRE(s.dev.notes().size() == 1);
    CHECK(s.dev.notes()[0].find("stopped tracking") != std::string::npos);
    CHECK(s.dev.notes()[0].find("--race-track-mb") != std::string::npos);
    CHECK(s.dev.peakRaceShadowBytes() > 0);
    CHECK(s.dev.peakRaceShadowBytes() < 64 * 1024 * 10);
    // Below the limit: no note.
    opt.raceTrackBytes = 8 << 20;
    wst::Sim big("tests/bugs/beyond.ptx", opt);
    auto b = big.upload(std::vector<float>(size_t(n), 1.0f), "a");
    big.launch("per_block_disjoint_ok", n / 256, 256, {wst::arg(b), wst::arg(n)});
    CHECK(big.dev.notes().empty());
}
