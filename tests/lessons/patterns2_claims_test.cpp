// The claims of the spmv, stencil-3d and merge lessons' steps.md, checked on the simulator's counters,
// its per-instruction record and the cycle model (H100 preset, registers per thread as lesson.json
// gives them from `ptxas -v`); and their outputs against a CPU computation of the same formulas,
// since the lessons' own checks only compare their kernels with each other.
#include "support.hpp"
#include "lessons/lesson_trace.hpp"

#include "runtime/lesson.hpp"
#include "runtime/sim_device.hpp"
#include "timing/cycle_model.hpp"
#include "timing/gpu_spec.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>

using namespace warpscope;

namespace {
const char* kLdReq = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
const char* kLdSect = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
const char* kLdRatio = "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio";
const char* kDiv = "smsp__sass_branch_targets_threads_divergent.sum";
const char* kInst = "smsp__inst_executed.sum";
const char* kL1Hit = "l1tex__t_sector_hit_rate.pct";

// Predicted microseconds per launch of the lesson on the H100 preset, with the registers per thread
// given for each launch (0: a set-up launch, run without the cycle model; its entry is 0).
std::vector<double> predictedMicros(const std::string& id, const std::map<std::string, std::string>& params,
                                    const std::vector<uint32_t>& registers) {
    runtime::Lesson l = runtime::loadLesson(wst::sourcePath("lessons/" + id));
    runtime::SimDevice dev;
    static const timing::GpuSpec h100 = timing::findPreset("h100", {});
    std::vector<double> us;
    dev.onLaunch = [&](sim::Gpu& g) {
        if (registers.at(us.size()) == 0) {   // a set-up launch the table does not show: run it untimed
            us.push_back(0);
            return;
        }
        timing::TimingOptions opt;
        opt.registersPerThread = registers.at(us.size());
        opt.registersEstimated = false;
        timing::TimedRun run(g, h100, opt);
        run.run();
        us.push_back(run.result().microseconds);
    };
    runtime::RunResult r = runtime::runLesson(l, runtime::resolveParams(l, params), dev);
    for (auto& c : r.checks) {
        INFO(id << ": " << c.buffer << ": " << c.detail);
        CHECK(c.passed);
    }
    return us;
}

// The distinct 32-byte sectors one warp-level access touches.
size_t sectorsOf(const wst::IssuedInstr& r) {
    std::set<uint64_t> s;
    for (int l = 0; l < 32; ++l)
        if (r.execMask >> l & 1u) s.insert(r.addresses[size_t(l)] / 32);
    return s.size();
}

// Warp (block, warp)'s loads on a line, in issue order.
std::vector<wst::IssuedInstr> loadsOn(wst::TracedLaunch& t, uint32_t block, uint32_t warp, uint32_t line) {
    std::vector<wst::IssuedInstr> v;
    for (auto& r : t.issued.warp(block, warp))
        if (r.line == line && r.isLoad) v.push_back(r);
    return v;
}

// y = A x on the CPU, from build_matrix's formula: row r has len entries (len + extra for every
// 32nd row), entry k in column (r + 61 k) mod m with the value 0.125 (1 + (7 r + 3 k) mod 8).
std::vector<double> spmvOnCpu(const std::vector<float>& x, int len, int extra) {
    const int m = int(x.size());
    std::vector<double> y(size_t(m), 0.0);
    for (int r = 0; r < m; ++r) {
        int n = r % 32 == 0 ? len + extra : len;
        for (int k = 0; k < n; ++k) y[size_t(r)] += 0.125 * (1 + (7 * r + 3 * k) % 8) * x[size_t((r + 61ll * k) % m)];
    }
    return y;
}

void requireClose(const std::vector<float>& got, const std::vector<double>& want, double rel) {
    REQUIRE(got.size() == want.size());
    size_t wrong = 0;
    for (size_t i = 0; i < got.size(); ++i)
        if (std::fabs(double(got[i]) - want[i]) > rel * std::fabs(want[i]) + 1e-6) ++wrong;
    CHECK(wrong == 0);
}
} // namespace

TEST_CASE("spmv: the three kernels compute A x (a CPU check of build_matrix's matrix), for even and skewed rows and odd sizes", "[lessons]") {
    struct P { const char *m, *len, *extra; };
    for (P p : {P{"2048", "8", "0"}, P{"2048", "8", "56"}, P{"1000", "32", "24"}, P{"20", "4", "248"}, P{"1", "8", "0"}}) {
        INFO("M=" << p.m << " LEN=" << p.len << " LONG=" << p.extra);
        auto run = wst::runTraced("spmv", {{"M", p.m}, {"LEN", p.len}, {"LONG", p.extra}}, nullptr, false);
        REQUIRE(run.result.allChecksPassed());
        auto want = spmvOnCpu(run.buffer<float>("x"), std::stoi(p.len), std::stoi(p.extra));
        requireClose(run.buffer<float>("y_csr"), want, 1e-5);
        requireClose(run.buffer<float>("y_ell"), want, 1e-5);
        requireClose(run.buffer<float>("y_warp"), want, 1e-5);
    }
}

TEST_CASE("spmv: CSR's 32 sectors per read against ELL's 4, the L1 hits that soften it", "[lessons]") {
    auto run = wst::runTraced("spmv", {});
    REQUIRE(run.result.allChecksPassed());
    REQUIRE(run.launches.size() == 4);
    // spmv_csr: lines 38 and 39 each 512 requests of 32 sectors; x on line 40 4.9 per request.
    auto csr = run.launch(1).counters.byLine();
    for (uint32_t line : {38u, 39u}) {
        CHECK(csr.at(line).globalLdRequests == 512);
        CHECK(csr.at(line).globalLdSectors == 16384);
    }
    CHECK(csr.at(40).globalLdRequests == 512);
    CHECK(csr.at(40).globalLdSectors == 2496);
    CHECK(double(csr.at(40).globalLdSectors) / 512 == Approx(4.9).margin(0.03));
    // Warp 0's read of vals: every lane, 32 sectors, each time (the last one is what Do it pins).
    auto vals0 = loadsOn(run.launch(1), 0, 0, 39);
    REQUIRE(vals0.size() == 8);
    for (auto& r : vals0) {
        CHECK(r.execMask == 0xFFFFFFFFu);
        CHECK(sectorsOf(r) == 32);
    }
    // spmv_ell: line 55 is 4 sectors a request; the launch 1536 requests, 6592 sectors.
    auto ell = run.launch(2).counters.byLine();
    CHECK(ell.at(55).globalLdRequests == 512);
    CHECK(ell.at(55).globalLdSectors == 2048);
    for (auto& r : loadsOn(run.launch(2), 0, 0, 55)) CHECK(sectorsOf(r) == 4);
    CHECK(run.launch(1).metric(kLdReq) == 1664);
    CHECK(run.launch(1).metric(kLdSect) == 35840);
    CHECK(run.launch(1).metric(kLdRatio) == Approx(21.5).margin(0.05));
    CHECK(run.launch(2).metric(kLdReq) == 1536);
    CHECK(run.launch(2).metric(kLdSect) == 6592);
    CHECK(run.launch(2).metric(kLdRatio) == Approx(4.3).margin(0.05));
    // The cache model's L1 hit rate: about 86 % for CSR, 27 % for ELL.
    CHECK(run.launch(1).metric(kL1Hit) == Approx(86).margin(1));
    CHECK(run.launch(2).metric(kL1Hit) == Approx(27).margin(1));
    // The same multiply-adds: ELL equals CSR bit for bit.
    CHECK(run.result.buffers.at("y_ell") == run.result.buffers.at("y_csr"));
    // Warp per row with 8 entries: 184320 instructions against CSR's 6592.
    CHECK(run.launch(3).metric(kInst) == 184320);
    CHECK(run.launch(1).metric(kInst) == 6592);
    // 2048 rows of 8: 16384 nonzeros; the dense matrix would hold 2048 * 2048.
    CHECK(run.buffer<int32_t>("row_ptr").back() == 16384);
}

TEST_CASE("spmv: 32 entries a row, CSR still 32 sectors a read; a warp per row 4 for vals, 32 for x", "[lessons]") {
    auto run = wst::runTraced("spmv", {{"LEN", "32"}});
    REQUIRE(run.result.allChecksPassed());
    auto vals0 = loadsOn(run.launch(1), 0, 0, 39);
    REQUIRE_FALSE(vals0.empty());
    CHECK(sectorsOf(vals0.back()) == 32);
    CHECK(run.launch(1).metric(kL1Hit) > 70);   // the default run's L1 still holds most of the rows
    std::set<uint64_t> gaps;   // lanes 128 bytes apart
    for (int l = 1; l < 32; ++l) gaps.insert(vals0.back().addresses[size_t(l)] - vals0.back().addresses[size_t(l - 1)]);
    CHECK(gaps == std::set<uint64_t>{128});
    // spmv_csr_warp: warp 0 reads row 0's 32 entries in one request of 4 sectors (line 72);
    // the x reads (line 73) scatter, 32 sectors per request over the launch.
    auto w = loadsOn(run.launch(3), 0, 0, 72);
    REQUIRE(w.size() == 1);
    CHECK(w[0].execMask == 0xFFFFFFFFu);
    CHECK(sectorsOf(w[0]) == 4);
    auto warp = run.launch(3).counters.byLine();
    CHECK(warp.at(73).globalLdSectors == 32 * warp.at(73).globalLdRequests);
    // Five shuffles per warp on line 76, then lane 0 alone stores.
    int shuffles = 0;
    for (auto& r : run.launch(3).issued.warp(0, 0))
        if (r.line == 78 && r.isStore) CHECK(r.execMask == 1u);
    for (auto& r : run.launch(3).issued.warp(0, 0))
        if (r.line == 76 && !r.isLoad && !r.isStore) ++shuffles;
    CHECK(shuffles >= 5);
}

TEST_CASE("spmv: long rows idle 31 lanes in CSR and pad every row in ELL", "[lessons]") {
    auto run = wst::runTraced("spmv", {{"LONG", "56"}});
    REQUIRE(run.result.allChecksPassed());
    // Warp 0: the first 8 entries with every lane, the other 56 with lane 0 alone.
    auto vals0 = loadsOn(run.launch(1), 0, 0, 39);
    int all = 0, alone = 0;
    for (auto& r : vals0) {
        if (r.execMask == 0xFFFFFFFFu) ++all;
        else if (r.execMask == 1u) ++alone;
    }
    CHECK(vals0.size() == 64);
    CHECK(all == 8);
    CHECK(alone == 56);
    auto csr = run.launch(1).counters.byLine();
    for (uint32_t line : {38u, 39u, 40u})
        CHECK(double(csr.at(line).threadInstPredOn) / double(csr.at(line).inst) == Approx(4.9).margin(0.05));
    CHECK(run.launch(1).metric(kDiv) == 64);
    CHECK(csr.at(37).divergentBranches == 64);
    // ELL: no divergence, 64 slots for every row: 4096 requests on line 55 instead of 512.
    CHECK(run.launch(2).metric(kDiv) == 0);
    CHECK(run.launch(2).counters.byLine().at(55).globalLdRequests == 4096);
    const auto ev = run.buffer<float>("ell_vals");
    size_t zeros = 0;
    for (float v : ev) zeros += v == 0.0f;
    // 7 of every 8 slots of the ordinary rows are padding (the long rows have none).
    CHECK(double(zeros) / double(ev.size()) == Approx(56.0 / 64 * 31 / 32).margin(0.001));
}

TEST_CASE("spmv: the predicted times of the table, M = 262144", "[lessons]") {
    struct Row { const char *len, *extra; double csr, ell, warp; };
    for (Row row : {Row{"8", "0", 8.9, 9.5, 48}, Row{"32", "0", 73, 36, 59}, Row{"8", "56", 20, 72, 52}}) {
        auto us = predictedMicros("spmv", {{"M", "262144"}, {"LEN", row.len}, {"LONG", row.extra}}, {0, 32, 32, 32});
        REQUIRE(us.size() == 4);
        INFO("LEN " << row.len << " LONG " << row.extra << ": " << us[1] << ", " << us[2] << ", " << us[3] << " us");
        CHECK(us[1] == Approx(row.csr).epsilon(0.1));
        CHECK(us[2] == Approx(row.ell).epsilon(0.1));
        CHECK(us[3] == Approx(row.warp).epsilon(0.1));
    }
}

namespace {
// The stencil on the CPU: out = 0.5 in[p] + (1/12) (sum of the six neighbours) for interior p, else 0.
std::vector<double> stencilOnCpu(const std::vector<float>& in, int n) {
    std::vector<double> out(in.size(), 0.0);
    const size_t nn = size_t(n) * size_t(n);
    for (int z = 1; z < n - 1; ++z)
        for (int y = 1; y < n - 1; ++y)
            for (int x = 1; x < n - 1; ++x) {
                size_t i = (size_t(z) * size_t(n) + size_t(y)) * size_t(n) + size_t(x);
                out[i] = 0.5 * in[i] + (1.0 / 12) * (double(in[i - 1]) + in[i + 1] + in[i - size_t(n)] + in[i + size_t(n)] + in[i - nn] + in[i + nn]);
            }
    return out;
}
} // namespace

TEST_CASE("stencil-3d: the three kernels compute the stencil (a CPU check), on grids that are not multiples of the tiles", "[lessons]") {
    for (const char* n : {"32", "17", "3", "40"}) {
        INFO("N=" << n);
        auto run = wst::runTraced("stencil-3d", {{"N", n}}, nullptr, false);
        REQUIRE(run.result.allChecksPassed());
        auto want = stencilOnCpu(run.buffer<float>("in"), std::stoi(n));
        requireClose(run.buffer<float>("out_naive"), want, 1e-5);
        CHECK(run.result.buffers.at("out_shared") == run.result.buffers.at("out_naive"));
        CHECK(run.result.buffers.at("out_coarse") == run.result.buffers.at("out_naive"));
    }
}

TEST_CASE("stencil-3d: 6720 requests naive, 2000 with the tile and its idle halo, 1360 coarsened along z", "[lessons]") {
    auto run = wst::runTraced("stencil-3d", {});
    REQUIRE(run.result.allChecksPassed());
    REQUIRE(run.launches.size() == 3);
    // 27000 interior points (random inputs in [0, 1]: every interior output is positive).
    const auto outNaive = run.buffer<float>("out_naive");
    CHECK(std::count_if(outNaive.begin(), outNaive.end(), [](float v) { return v > 0; }) == 27000);
    std::set<uint32_t> tileBlocks;
    for (auto& r : run.launch(1).issued.all) tileBlocks.insert(r.block);
    CHECK(tileBlocks.size() == 125);
    // Naive: seven loads per interior thread, 960 warps with an interior point.
    CHECK(run.launch(0).metric(kLdReq) == 6720);
    CHECK(run.launch(0).metric(kLdSect) == 30600);
    CHECK(run.launch(0).metric(kL1Hit) == Approx(69).margin(1));
    auto w3 = loadsOn(run.launch(0), 0, 3, 14);
    REQUIRE(w3.size() == 7);
    std::multiset<size_t> sectors;
    for (auto& r : w3) {
        CHECK(r.lanes() == 28);   // rows y = 4..7 of the plane z = 1, x = 1..7
        sectors.insert(sectorsOf(r));
    }
    CHECK(sectors == std::multiset<size_t>{4, 4, 4, 4, 4, 4, 8});   // in[i + 1] reaches x = 8: the next sector
    CHECK(sectorsOf(w3.back()) == 4);   // what Do it pins
    std::set<std::pair<uint32_t, uint32_t>> warpsLoading;
    for (auto& r : run.launch(0).issued.all)
        if (r.line == 14 && r.isLoad) warpsLoading.insert({r.block, r.warpInBlock});
    CHECK(warpsLoading.size() == 960);
    // The tile: 125 blocks, 2000 requests for 12800 sectors; 216 of block 0's 512 threads compute,
    // line 34 with 24.4 lanes on average; no bank conflicts; 7200 store sectors against 3600.
    CHECK(run.launch(1).metric(kLdReq) == 2000);
    CHECK(run.launch(1).metric(kLdSect) == 12800);
    int computing = 0;
    for (auto& r : run.launch(1).issued.all)
        if (r.block == 0 && r.line == 34 && r.isStore) computing += r.lanes();
    CHECK(computing == 216);
    auto shared = run.launch(1).counters.byLine();
    CHECK(double(shared.at(34).threadInstPredOn) / double(shared.at(34).inst) == Approx(24.4).margin(0.05));
    CHECK(run.launch(1).metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") == 0);
    CHECK(run.launch(1).metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum") == 0);
    CHECK(run.launch(1).metric("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum") == 7200);
    CHECK(run.launch(0).metric("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum") == 3600);
    // Coarsened: 1360 requests of 4 sectors; warp 0's plane loads are whole 128-byte rows; 180 of a
    // block's 256 threads compute in each plane.
    CHECK(run.launch(2).metric(kLdReq) == 1360);
    CHECK(run.launch(2).metric(kLdSect) == 5440);
    auto above = loadsOn(run.launch(2), 0, 0, 59);
    REQUIRE(above.size() == 16);
    for (auto& r : above) {
        CHECK(r.execMask == 0xFFFFFFFFu);
        CHECK(sectorsOf(r) == 4);
    }
    int lanesFirstPlane = 0;
    std::map<uint32_t, int> storesPerWarp;
    for (auto& r : run.launch(2).issued.all)
        if (r.block == 0 && r.line == 65 && r.isStore && ++storesPerWarp[r.warpInBlock] == 1) lanesFirstPlane += r.lanes();
    CHECK(lanesFirstPlane == 180);
    CHECK(run.launch(2).metric(kLdSect) * 5 < run.launch(0).metric(kLdSect));   // under a fifth
}

TEST_CASE("stencil-3d: the predicted times of the table, N = 122", "[lessons]") {
    auto us = predictedMicros("stencil-3d", {{"N", "122"}}, {20, 20, 22});
    REQUIRE(us.size() == 3);
    INFO("predicted: " << us[0] << ", " << us[1] << ", " << us[2] << " us");
    CHECK(us[0] == Approx(13.4).epsilon(0.1));
    CHECK(us[1] == Approx(14.4).epsilon(0.1));
    CHECK(us[2] == Approx(7.9).epsilon(0.1));
    CHECK(us[2] < us[0]);
    CHECK(us[0] < us[1]);   // the same order as on the H100
}

TEST_CASE("merge: the three kernels merge (std::merge on the CPU), empty and lopsided inputs included", "[lessons]") {
    for (auto [m, n] : {std::pair{"3000", "5000"}, std::pair{"0", "9"}, std::pair{"1500", "0"}, std::pair{"1", "1"}, std::pair{"2049", "7"}}) {
        INFO("M=" << m << " N=" << n);
        auto run = wst::runTraced("merge", {{"M", m}, {"N", n}}, nullptr, false);
        REQUIRE(run.result.allChecksPassed());
        auto a = run.buffer<int32_t>("A"), b = run.buffer<int32_t>("B");
        std::vector<int32_t> want(a.size() + b.size());
        std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin());
        CHECK(run.buffer<int32_t>("C_one") == want);
        CHECK(run.buffer<int32_t>("C_basic") == want);
        CHECK(run.buffer<int32_t>("C_tiled") == want);
    }
}

TEST_CASE("merge: one lane for 166630 instructions, scattered co-rank searches, 17 times fewer sectors through the tile", "[lessons]") {
    auto run = wst::runTraced("merge", {});
    REQUIRE(run.result.allChecksPassed());
    REQUIRE(run.launches.size() == 3);
    const auto C = run.buffer<int32_t>("C_one");
    CHECK(std::vector<int32_t>(C.begin(), C.begin() + 8) == std::vector<int32_t>{0, 1, 3, 3, 5, 6, 7, 9});
    // One thread: line 43, one lane, about 21 instructions per output; one sector per request.
    auto one = run.launch(0).counters.byLine();
    CHECK(one.at(43).inst == 166630);
    CHECK(one.at(43).threadInst == one.at(43).inst);   // one active lane
    CHECK(double(one.at(43).inst) / 8000 == Approx(21).margin(0.3));
    CHECK(run.launch(0).metric(kLdReq) == 15498);
    CHECK(run.launch(0).metric(kLdSect) == 15498);
    CHECK(run.launch(0).metric("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum") == 8000);
    // merge_basic: the co-rank lines with about 21 active lanes, ~2820 requests of 6.6 sectors each;
    // the stores 16 sectors per request.
    auto basic = run.launch(1).counters.byLine();
    for (uint32_t line : {54u, 55u}) {
        CHECK(double(basic.at(line).threadInst) / double(basic.at(line).inst) == Approx(21).margin(0.3));   // active lanes
        CHECK(double(basic.at(line).globalLdRequests) == Approx(2820).margin(10));
        CHECK(double(basic.at(line).globalLdSectors) / double(basic.at(line).globalLdRequests) == Approx(6.6).margin(0.05));
    }
    std::vector<size_t> stores0;
    for (auto& r : run.launch(1).issued.warp(0, 0))
        if (r.line == 61 && r.isStore) stores0.push_back(sectorsOf(r));
    CHECK(stores0 == std::vector<size_t>{16, 16, 16, 16});   // 4 steps, lanes 16 bytes apart; Do it pins the last
    CHECK(run.launch(1).metric("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum") == 252);
    CHECK(run.launch(1).metric("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum") == 4000);
    // Thread 1 merges A[2..4) and B[2..4): co-rank(4) = 2.
    // merge_tiled: 2678 global sectors against 45328; 250 stores of 4 sectors; ~3000 bank conflicts
    // in the shared searches; thread 0's searches with one lane.
    const double basicSectors = run.launch(1).metric(kLdSect) + run.launch(1).metric("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum");
    const double tiledSectors = run.launch(2).metric(kLdSect) + run.launch(2).metric("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum");
    CHECK(basicSectors == 45328);
    CHECK(tiledSectors == 2678);
    CHECK(run.launch(2).metric(kLdSect) == 1678);
    CHECK(run.launch(2).metric("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum") == 250);
    CHECK(run.launch(2).metric("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum") == 1000);
    auto tiled = run.launch(2).counters.byLine();
    CHECK(double(tiled.at(91).sharedLdConflicts + tiled.at(92).sharedLdConflicts) == Approx(3000).margin(10));
    CHECK(tiled.at(80).threadInst == tiled.at(80).inst);   // one active lane
    for (auto& r : loadsOn(run.launch(2), 0, 0, 87)) CHECK(r.execMask == 0xFFFFFFFFu);
    size_t lastStore = 0;
    for (auto& r : run.launch(2).issued.warp(0, 0))
        if (r.line == 96 && r.isStore) lastStore = sectorsOf(r);
    CHECK(lastStore == 4);
    CHECK(run.launch(1).metric(kL1Hit) == Approx(94).margin(1));
}

TEST_CASE("merge: the predicted times of the table", "[lessons]") {
    auto small = predictedMicros("merge", {}, {26, 24, 32});
    REQUIRE(small.size() == 3);
    INFO("8000: " << small[0] << ", " << small[1] << ", " << small[2] << " us");
    CHECK(small[0] == Approx(717).epsilon(0.1));
    CHECK(small[1] == Approx(5.3).epsilon(0.1));
    CHECK(small[2] == Approx(11.5).epsilon(0.1));
    auto large = predictedMicros("merge", {{"M", "196608"}, {"N", "327680"}}, {26, 24, 32});
    REQUIRE(large.size() == 3);
    INFO("524288: " << large[0] << ", " << large[1] << ", " << large[2] << " us");
    CHECK(large[0] == Approx(47036).epsilon(0.1));
    CHECK(large[1] == Approx(12.9).epsilon(0.1));
    CHECK(large[2] == Approx(21.0).epsilon(0.1));
    CHECK(large[0] / large[1] == Approx(3600).epsilon(0.1));
    CHECK(large[2] / large[1] == Approx(1.6).epsilon(0.05));
}
