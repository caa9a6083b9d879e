// Parallel run to the end (Gpu::runToEnd with threads): every lesson and every planted-bug kernel
// gives the same memory, launch statistics, per-line statistics and errors on 4 threads as on one,
// and kernels whose blocks may talk to each other run serially.
#include "support.hpp"

#include "base/error.hpp"
#include "runtime/lesson.hpp"
#include "runtime/sim_device.hpp"
#include "trace/line_stats.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace warpscope;
namespace fs = std::filesystem;

namespace {

struct Outcome {
    std::vector<std::vector<uint8_t>> memory;
    std::vector<uint64_t> stats;   // warp/thread instructions, branches, divergent, barriers, blocks (summed)
    std::map<uint32_t, trace::LineStats> lines;
    std::string error;
    std::vector<std::string> serialReasons;
};

// viaSteps: the collector sits behind a FanOut, so it sees every Step (onStep) instead of the
// per-pc sums Gpu::run hands a sums-only listener at the end.
Outcome runOn(const fs::path& spec, uint32_t threads, bool viaSteps = false) {
    runtime::Lesson l = runtime::loadLesson(spec);
    sim::LaunchOptions opt;
    opt.threads = threads;
    opt.instructionBudget = 20'000'000;
    runtime::SimDevice dev(opt);
    trace::LineStatsCollector lines;
    sim::FanOut fan;
    fan.add(&lines);
    Outcome o;
    dev.onLaunch = [&](sim::Gpu& g) {
        g.setListener(viaSteps ? static_cast<sim::StepListener*>(&fan) : &lines);
        o.serialReasons.push_back(g.serialReason());
    };
    try {
        runtime::runLesson(l, runtime::resolveParams(l, {}), dev);
    } catch (const Error& e) {
        o.error = e.what();
    }
    for (auto& a : dev.memory().allocations())
        if (!a->freed) o.memory.emplace_back(a->data.get(), a->data.get() + a->size);
    const auto& s = dev.lastStats();
    o.stats = {s.warpInstructions, s.threadInstructions, s.branches, s.divergentBranches, s.barriers, s.blocksCompleted};
    o.lines = lines.byLine();
    return o;
}

// Every lesson and every planted-bug case.
std::vector<fs::path> allCases() {
    std::vector<fs::path> specs;
    for (auto& e : fs::directory_iterator(wst::sourcePath("lessons")))
        if (fs::exists(e.path() / "lesson.json")) specs.push_back(e.path());
    for (auto& e : fs::directory_iterator(wst::sourcePath("tests/bugs")))
        if (e.path().extension() == ".json") specs.push_back(e.path());
    return specs;
}

void checkSameLines(const Outcome& want, Outcome& got) {
    REQUIRE(want.lines.size() == got.lines.size());
    for (auto& [line, st] : want.lines) {
        CHECK(got.lines[line].warpInstructions == st.warpInstructions);
        CHECK(got.lines[line].threadInstructions == st.threadInstructions);
        CHECK(got.lines[line].activeLanes == st.activeLanes);
        CHECK(got.lines[line].branches == st.branches);
        CHECK(got.lines[line].divergentBranches == st.divergentBranches);
    }
}

} // namespace

TEST_CASE("a parallel run to the end gives the serial run's results, statistics and faults", "[sim][parallel]") {
    const std::vector<fs::path> specs = allCases();
    int parallel = 0, serial = 0;
    for (auto& p : specs) {
        INFO("case " << p.string());
        Outcome one = runOn(p, 1), four = runOn(p, 4);
        CHECK(one.error == four.error);
        // Blocks racing on global words (planted race bugs) may leave other winners in parallel.
        if (p.filename().string().find("-race") == std::string::npos) CHECK(one.memory == four.memory);
        CHECK(one.stats == four.stats);
        checkSameLines(one, four);
        for (auto& r : four.serialReasons) (r.empty() ? parallel : serial)++;
    }
    CHECK(parallel >= 5);   // most lessons' launches run in parallel
    CHECK(serial >= 2);     // the global-atomic kernels do not
}

TEST_CASE("kernels whose blocks may communicate run serially", "[sim][parallel]") {
    Outcome o = runOn(wst::sourcePath("tests/bugs/last-block-sum-ok.json"), 4);
    REQUIRE_FALSE(o.serialReasons.empty());
    CHECK(o.serialReasons[0].find("(blocks may communicate)") != std::string::npos);   // a fence and a global atomic
    CHECK(o.error.empty());
    Outcome m = runOn(wst::sourcePath("lessons/matmul"), 4);
    INFO("error: " << m.error);
    REQUIRE_FALSE(m.serialReasons.empty());
    CHECK(m.serialReasons[0].empty());
}

TEST_CASE("per-line statistics summed by pc in a run equal the ones summed from every Step", "[sim][parallel]") {
    for (auto& p : allCases()) {
        INFO("case " << p.string());
        Outcome sums = runOn(p, 1), steps = runOn(p, 1, true);
        CHECK(sums.error == steps.error);
        CHECK(sums.memory == steps.memory);
        CHECK(sums.stats == steps.stats);
        checkSameLines(steps, sums);
    }
}
