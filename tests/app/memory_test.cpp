// The memory, compare and checker models behind the new panels, without a window: counters the
// Session collects, lane -> bank and lane -> sector layouts, heat-map counts, the Nsight Compute
// import, the GPU toggle, checker reports with "go to line", and a stop that always works.
#include "gui/model/compare_model.hpp"
#include "gui/model/memory_model.hpp"
#include "gui/model/session.hpp"

#include "hw/cuda_device.hpp"
#include "runtime/sim_device.hpp"
#include "trace/counters.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace warpscope;
using namespace warpscope::gui;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {
runtime::Lesson lessonAt(const std::string& rel) { return runtime::loadLesson(fs::path(WARPSCOPE_SOURCE_DIR) / rel); }

std::shared_ptr<const Snapshot> runToEnd(Session& s, const runtime::Lesson& L, runtime::ParamValues p) {
    s.setSpeed(0);
    s.load(L, p);
    REQUIRE(s.waitIdle(60));
    s.run();
    for (int i = 0; i < 50; ++i) {   // run stops at each launch end: keep going until the script ends
        REQUIRE(s.waitIdle(60));
        auto snap = s.snapshot();
        if (snap->state == RunState::Finished || snap->state == RunState::Faulted || snap->state == RunState::Failed) return snap;
        s.run();
    }
    return s.snapshot();
}

// A warp access with lane l at base + l * strideBytes.
MemAccess access(bool shared, uint64_t base, uint64_t strideBytes, uint8_t bytes, uint32_t mask = 0xffffffffu, bool load = true) {
    MemAccess a;
    a.shared = shared;
    a.bytes = bytes;
    a.isLoad = load;
    a.isStore = !load;
    a.mask = mask;
    for (int l = 0; l < 32; ++l) a.addr[static_cast<size_t>(l)] = base + static_cast<uint64_t>(l) * strideBytes;
    return a;
}
} // namespace

TEST_CASE("memory: the Session's counters equal a CounterCollector run directly", "[memory]") {
    auto L = lessonAt("lessons/matmul");
    auto p = runtime::resolveParams(L, {{"M", "32"}, {"N", "32"}, {"K", "32"}});
    Session s;
    auto snap = runToEnd(s, L, p);
    REQUIRE(snap->state == RunState::Finished);

    runtime::SimDevice dev;
    std::vector<std::unique_ptr<trace::CounterCollector>> direct;
    dev.onLaunch = [&](sim::Gpu& g) {
        direct.push_back(std::make_unique<trace::CounterCollector>());
        direct.back()->setProgram(g.program());   // shared loads merged as ptxas merges them, as the run API does
        g.setListener(direct.back().get());
    };
    runtime::runLesson(L, p, dev);
    REQUIRE(snap->launchCounters.size() == direct.size());
    for (size_t i = 0; i < direct.size(); ++i) {
        const CounterView& cv = *snap->launchCounters[i];
        CHECK(cv.complete);
        CHECK(cv.metrics == direct[i]->metrics());
        auto lines = direct[i]->byLine();
        REQUIRE(cv.byLine.size() == lines.size());
        for (auto& [line, m] : lines) {
            CHECK(cv.byLine.at(line).globalLdSectors == m.globalLdSectors);
            CHECK(cv.byLine.at(line).sharedLdWavefronts == m.sharedLdWavefronts);
        }
        for (auto& e : trace::CounterCollector::estimatedMetrics()) CHECK(cv.estimated.count(e) == 1);
    }
    // counters while stepping belong to the current launch and grow from zero
    s.restart();
    REQUIRE(s.waitIdle(60));
    s.runSteps(50);
    REQUIRE(s.waitIdle(60));
    auto mid = s.snapshot();
    REQUIRE(mid->counters);
    CHECK_FALSE(mid->counters->complete);
    CHECK(mid->counters->metrics.at("smsp__inst_executed.sum") == 50);
}

TEST_CASE("memory: shared-bank layout for stride 1, 2, 32 and a broadcast", "[memory]") {
    SECTION("stride 1: one lane per bank, row 0, one wavefront") {
        auto d = buildSharedDiagram(access(true, 0, 4, 4));
        REQUIRE(d.valid);
        REQUIRE(d.phases.size() == 1);
        for (int l = 0; l < 32; ++l) {
            CHECK(d.laneBank[static_cast<size_t>(l)] == l);
            CHECK(d.laneRow[static_cast<size_t>(l)] == 0);
        }
        CHECK(d.phases[0].ways == 1);
        CHECK(d.wavefronts == 1);
        CHECK(d.conflicts == 0);
        CHECK(d.conflictBanks == 0);
    }
    SECTION("stride 2: even banks, two rows, 2-way") {
        auto d = buildSharedDiagram(access(true, 0, 8, 4));
        for (int l = 0; l < 32; ++l) {
            CHECK(d.laneBank[static_cast<size_t>(l)] == (2 * l) % 32);
            CHECK(d.laneRow[static_cast<size_t>(l)] == (l >= 16 ? 1 : 0));
        }
        CHECK(d.phases[0].ways == 2);
        CHECK(d.wavefronts == 2);
        CHECK(d.conflicts == 1);
        CHECK(d.conflictBanks == 16);
        CHECK(d.phases[0].banks[1].empty());
    }
    SECTION("stride 32 words: every lane in bank 0, rows 0..31, 32-way") {
        auto d = buildSharedDiagram(access(true, 0, 128, 4));
        for (int l = 0; l < 32; ++l) {
            CHECK(d.laneBank[static_cast<size_t>(l)] == 0);
            CHECK(d.laneRow[static_cast<size_t>(l)] == l);
        }
        REQUIRE(d.phases[0].banks[0].size() == 32);
        CHECK(d.phases[0].ways == 32);
        CHECK(d.wavefronts == 32);
        CHECK(d.conflicts == 31);
        CHECK(d.worstBank == 0);
        CHECK(d.minRow == 0);
        CHECK(d.maxRow == 31);
    }
    SECTION("broadcast: every lane on one word is no conflict") {
        auto d = buildSharedDiagram(access(true, 64, 0, 4));
        REQUIRE(d.phases[0].banks[16].size() == 1);
        CHECK(d.phases[0].banks[16][0].lanes == 0xffffffffu);
        CHECK(d.broadcastWords == 1);
        CHECK(d.wavefronts == 1);
        CHECK(d.conflicts == 0);
    }
    SECTION("64-bit accesses run in two phases of 16 lanes, two banks each") {
        auto d = buildSharedDiagram(access(true, 0, 8, 8));
        REQUIRE(d.phases.size() == 2);
        CHECK(d.phases[0].laneMask == 0x0000ffffu);
        CHECK(d.phases[1].laneMask == 0xffff0000u);
        CHECK(d.phases[0].banks[0].size() == 1);
        CHECK(d.phases[0].banks[1].size() == 1);
        CHECK(d.phases[0].ways == 1);
        CHECK(d.wavefronts == 2);
        CHECK(d.conflicts == 0);
    }
}

TEST_CASE("memory: global sector diagram for offset 0, offset 1 and stride 2", "[memory]") {
    const uint64_t base = 0x700000000ull;
    SECTION("offset 0: 4 full sectors in one line") {
        auto d = buildGlobalDiagram(access(false, base, 4, 4));
        REQUIRE(d.valid);
        CHECK(d.requests == 1);
        CHECK(d.sectorCount == 4);
        CHECK(d.sectors.size() == 4);
        CHECK(d.lineCount == 1);
        REQUIRE(d.lines.size() == 1);
        CHECK(d.lines[0].sectorMask == 0xf);
        for (auto& s : d.sectors) CHECK(s.usedBytes == 32);
        CHECK(d.bytesUsed == 128);
        CHECK(d.bytesMoved == 128);
        CHECK(d.efficiency() == Approx(100));
        for (int l = 0; l < 32; ++l) CHECK(d.laneSector[static_cast<size_t>(l)] == l / 8);
    }
    SECTION("offset 1 element: 5 sectors over 2 lines, 4 wasted bytes at each end") {
        auto d = buildGlobalDiagram(access(false, base + 4, 4, 4));
        CHECK(d.sectorCount == 5);
        REQUIRE(d.sectors.size() == 5);
        CHECK(d.lineCount == 2);
        CHECK(d.sectors.front().usedBytes == 28);
        CHECK((d.sectors.front().usedMask & 0xf) == 0);
        CHECK(d.sectors.back().usedBytes == 4);
        CHECK(d.bytesUsed == 128);
        CHECK(d.bytesMoved == 160);
        CHECK(d.efficiency() == Approx(80));
        CHECK(d.lines[0].sectorMask == 0xf);
        CHECK(d.lines[1].sectorMask == 0x1);
        CHECK(d.laneSector[0] == 0);
        CHECK(d.laneSector[31] == 4);
    }
    SECTION("stride 2: 8 sectors, half of every sector wasted") {
        auto d = buildGlobalDiagram(access(false, base, 8, 4));
        CHECK(d.sectorCount == 8);
        CHECK(d.lineCount == 2);
        for (auto& s : d.sectors) {
            CHECK(s.usedBytes == 16);
            CHECK(s.usedMask == 0x0f0f0f0fu);
        }
        CHECK(d.bytesMoved == 256);
        CHECK(d.efficiency() == Approx(50));
        CHECK(d.sectorsPerRequest() == Approx(8));
    }
    SECTION("shared accesses have no global diagram and vice versa") {
        CHECK_FALSE(buildGlobalDiagram(access(true, 0, 4, 4)).valid);
        CHECK_FALSE(buildSharedDiagram(access(false, base, 4, 4)).valid);
    }
}

TEST_CASE("memory: the selected warp's memory history and heat-map counts", "[memory]") {
    auto L = lessonAt("lessons/vector-add");
    Session s;
    auto snap = runToEnd(s, L, runtime::resolveParams(L, {}));
    REQUIRE(snap->state == RunState::Finished);
    REQUIRE(snap->heat);
    uint64_t seen = 0;
    for (auto& b : snap->heat->buffers) {
        if (b.name != "a" && b.name != "b" && b.name != "c") continue;
        ++seen;
        CHECK(b.count == 1000);
        CHECK(b.elemBytes == 4);
        for (uint64_t i = 0; i < b.count; ++i) {
            CHECK(b.launchAccesses[i] == 1);
            CHECK(b.launchWasted[i] == 0);
        }
        REQUIRE(b.data.size() == 4000);
        CHECK_FALSE(formatElement(b, 0).empty());
    }
    CHECK(seen == 3);

    // stepping: the selected warp's global instructions appear with their buffer
    s.restart();
    REQUIRE(s.waitIdle(60));
    s.select(0, 0, false);
    for (int i = 0; i < 40; ++i) s.stepWarp();
    REQUIRE(s.waitIdle(60));
    auto mid = s.snapshot();
    const MemAccess* a = pickAccess(mid->memHistory, false, 0);
    REQUIRE(a);
    CHECK(a->block == 0);
    CHECK(a->warpInBlock == 0);
    CHECK(a->mask == 0xffffffffu);
    CHECK(a->isStore);
    CHECK(a->buffer == "c");
    auto d = buildGlobalDiagram(*a);
    CHECK(d.sectorCount == 4);
    CHECK(pickAccess(mid->memHistory, true, 0) == nullptr);
    CHECK(defaultHeatWidth(65536) == 256);
    CHECK(defaultHeatWidth(1000) >= 16);
}

TEST_CASE("compare: matmul.csv imports into the compare model", "[memory]") {
    auto ncu = loadNcuCsv((fs::path(WARPSCOPE_SOURCE_DIR) / "tests/validation/ncu/matmul.csv").string());
    REQUIRE(ncu->report.rows.size() == 2);
    auto L = lessonAt("lessons/matmul");
    CompareResult r = runCompare(L, runtime::resolveParams(L, {}), false);
    REQUIRE(r.simOk);
    CHECK(r.simChecksPassed);
    CHECK_FALSE(r.hwRan);
    CHECK_FALSE(r.hwError.empty());
    REQUIRE(r.launches.size() == 2);
    CHECK(r.launches[0].kernel == "matmul_naive");
    CHECK(ncuMatchNote(*ncu, r).empty());
    for (size_t i = 0; i < 2; ++i) {
        auto rows = counterRows(r.launches[i].simMetrics, r.estimated, &ncu->report.rows[i], &ncu->report.units);
        REQUIRE_FALSE(rows.empty());
        bool sawSectors = false, sawInst = false;
        for (auto& row : rows) {
            if (row.metric == "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") {
                sawSectors = true;
                REQUIRE(row.hw);
                CHECK(*row.hw == row.sim);   // naive 32768, tiled 4096 on the H100 and in the simulator
                CHECK(row.sim == (i == 0 ? 32768 : 4096));
                CHECK_FALSE(row.estimated);
            }
            if (row.metric == "smsp__inst_executed.sum") {
                sawInst = true;
                CHECK(row.sassVsPtx);
                CHECK(row.hw);
            }
            if (row.metric == "lts__t_sector_hit_rate.pct") CHECK(row.estimated);
        }
        CHECK(sawSectors);
        CHECK(sawInst);
    }
    // no import: simulator rows only
    auto plain = counterRows(r.launches[0].simMetrics, r.estimated, nullptr);
    for (auto& row : plain) CHECK_FALSE(row.hw);
    CHECK_THROWS_AS(loadNcuCsv((fs::path(WARPSCOPE_SOURCE_DIR) / "lessons/matmul/lesson.json").string()), Error);
    CHECK_THROWS_AS(loadNcuCsv("/no/such/file.csv"), Error);
}

TEST_CASE("compare: the GPU toggle is disabled with a reason when no GPU can be opened", "[memory]") {
    GpuToggle off = gpuToggleFrom("No NVIDIA driver: libcuda.so.1 cannot be loaded.");
    CHECK_FALSE(off.enabled);
    CHECK(off.reason.find("driver") != std::string::npos);
    CHECK(gpuToggleFrom("").enabled);
    std::string why = hw::cudaAvailability();
    GpuToggle t = gpuToggle();
    CHECK(t.enabled == why.empty());
    CHECK(t.reason == why);
    if (!why.empty()) {   // a hardware run is refused politely; the simulator side still works
        auto L = lessonAt("lessons/vector-add");
        CompareResult r = runCompare(L, runtime::resolveParams(L, {}), true);
        CHECK(r.simOk);
        CHECK_FALSE(r.hwRan);
        CHECK(r.hwError == why);
    }
}

TEST_CASE("checks: racecheck reports on missing-syncthreads and go to line selects the line", "[memory]") {
    auto L = lessonAt("tests/bugs/missing-syncthreads.json");
    Session s;
    s.setCheckers(false, true);
    auto snap = runToEnd(s, L, runtime::resolveParams(L, {}));
    CHECK(snap->racecheck);
    CHECK_FALSE(snap->initcheck);
    REQUIRE_FALSE(snap->reports.empty());
    const ReportView& r = snap->reports.front();
    CHECK(r.tool == "racecheck");
    CHECK(r.hazard == "read-after-write");
    CHECK(r.launchIndex == 0);
    CHECK(r.kernel == "missing_syncthreads");
    REQUIRE(r.site.sourceLine);
    // the line that reads what another warp writes
    std::ifstream cu(fs::path(WARPSCOPE_SOURCE_DIR) / "tests/bugs/bugs.cu");
    std::string text;
    uint32_t n = 0, expect = 0;
    bool inKernel = false;
    while (std::getline(cu, text)) {
        ++n;
        if (text.find("void missing_syncthreads(") != std::string::npos) inKernel = true;
        if (inKernel && expect == 0 && text.find("out[threadIdx.x] = s[63 - threadIdx.x];") != std::string::npos) expect = n;
    }
    REQUIRE(expect != 0);
    SiteTarget t = siteTarget(r.site, r.grid, r.block);
    CHECK(t.line == expect);
    REQUIRE(t.hasThread);
    CHECK(t.block == 0);
    REQUIRE(r.site.threadX);
    CHECK(t.warp == *r.site.threadX / 32);
    CHECK(t.lane == *r.site.threadX % 32);

    // without racecheck: no reports
    s.setCheckers(false, false);
    REQUIRE(s.waitIdle(60));
    s.run();
    REQUIRE(s.waitIdle(60));
    s.run();
    REQUIRE(s.waitIdle(60));
    auto off = s.snapshot();
    CHECK_FALSE(off->racecheck);
    CHECK(off->reports.empty());
}

TEST_CASE("session: pause and restart stop a runaway kernel promptly", "[memory]") {
    auto L = lessonAt("tests/app/runaway-spec.json");
    Session s;
    s.setSpeed(0);
    s.load(L, runtime::resolveParams(L, {}));
    REQUIRE(s.waitIdle(60));
    auto timed = [&](auto&& action) {
        auto t0 = Clock::now();
        action();
        REQUIRE(s.waitIdle(5));
        return std::chrono::duration<double>(Clock::now() - t0).count();
    };
    SECTION("free run: pause") {
        s.run();
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        CHECK(s.snapshot()->state == RunState::Running);
        CHECK(timed([&] { s.pause(); }) < 1.0);
        CHECK(s.snapshot()->state == RunState::Paused);
    }
    SECTION("run to barrier never finds one: shown as running, pause stops it") {
        s.runToBarrier();
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        CHECK(s.snapshot()->state == RunState::Running);
        CHECK(timed([&] { s.pause(); }) < 1.0);
        CHECK(s.snapshot()->state == RunState::Paused);
        CHECK(s.snapshot()->totalSteps > 0);
    }
    SECTION("step line in an endless loop: restart interrupts it") {
        s.select(0, 0, false);
        s.stepLine();
        s.stepLine();
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        CHECK(timed([&] { s.restart(); }) < 1.0);
        auto snap = s.snapshot();
        CHECK(snap->state == RunState::Paused);
        CHECK(snap->totalSteps == 0);
    }
}
