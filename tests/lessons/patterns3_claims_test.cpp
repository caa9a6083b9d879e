// The claims of the radix-sort and bfs lessons' steps.md, checked on the simulator's counters, its
// per-instruction record and the cycle model (H100 preset); and their outputs against the CPU
// (std::sort; a breadth-first search with a queue from build_graph's formula), since the lessons'
// own checks only compare their kernels with each other.
#include "support.hpp"
#include "lessons/lesson_trace.hpp"

#include "runtime/lesson.hpp"
#include "runtime/sim_device.hpp"
#include "timing/cycle_model.hpp"
#include "timing/gpu_spec.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <numeric>
#include <set>

using namespace warpscope;

namespace {
const char* kStReq = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
const char* kStSect = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
const char* kInst = "smsp__inst_executed.sum";
const char* kStConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";

// Predicted microseconds of every launch on the H100 preset (the cycle model's kernel time; the
// preset's gap between back-to-back launches is added by the callers that compare with a GPU).
std::vector<std::pair<std::string, double>> predicted(const std::string& id, const std::map<std::string, std::string>& params) {
    runtime::Lesson l = runtime::loadLesson(wst::sourcePath("lessons/" + id));
    runtime::SimDevice dev;
    static const timing::GpuSpec h100 = timing::findPreset("h100", {});
    std::vector<std::pair<std::string, double>> us;
    dev.onLaunch = [&](sim::Gpu& g) {
        timing::TimingOptions opt;
        opt.registersPerThread = 32;
        opt.registersEstimated = false;
        timing::TimedRun run(g, h100, opt);
        run.run();
        us.push_back({g.program().kernelName, run.result().microseconds});
    };
    runtime::RunResult r = runtime::runLesson(l, runtime::resolveParams(l, params), dev);
    for (auto& c : r.checks) {
        INFO(id << ": " << c.buffer << ": " << c.detail);
        CHECK(c.passed);
    }
    return us;
}

size_t sectorsOf(const wst::IssuedInstr& r) {
    std::set<uint64_t> s;
    for (int l = 0; l < 32; ++l)
        if (r.execMask >> l & 1u) s.insert(r.addresses[size_t(l)] / 32);
    return s.size();
}

// Warp (block, warp)'s last access of a kind on a line.
std::optional<wst::IssuedInstr> lastOn(wst::TracedLaunch& t, uint32_t block, uint32_t warp, uint32_t line, bool store) {
    std::optional<wst::IssuedInstr> last;
    for (auto& r : t.issued.warp(block, warp))
        if (r.line == line && (store ? r.isStore : r.isLoad)) last = r;
    return last;
}

bool isAtomic(const wst::IssuedInstr& r) { return !r.addresses.empty() && !r.isLoad && !r.isStore; }
} // namespace


TEST_CASE("radix-sort: both sorts equal std::sort, for sizes that are not whole tiles and for fewer passes", "[lessons]") {
    for (const char* n : {"4096", "300", "1", "33", "1000"}) {
        INFO("N=" << n);
        auto run = wst::runTraced("radix-sort", {{"N", n}}, nullptr, false);
        REQUIRE(run.result.allChecksPassed());
        auto keys = run.buffer<uint32_t>("keys");
        auto want = keys;
        std::sort(want.begin(), want.end());
        auto direct = run.buffer<uint32_t>("direct"), local = run.buffer<uint32_t>("local");
        CHECK(std::vector<uint32_t>(direct.begin(), direct.begin() + long(keys.size())) == want);
        CHECK(std::vector<uint32_t>(local.begin(), local.begin() + long(keys.size())) == want);
    }
    // Three passes: sorted stably by the lowest 12 bits, in the second half.
    auto run = wst::runTraced("radix-sort", {{"N", "777"}, {"PASSES", "3"}}, nullptr, false);
    REQUIRE(run.result.allChecksPassed());
    auto want = run.buffer<uint32_t>("keys");
    std::stable_sort(want.begin(), want.end(), [](uint32_t a, uint32_t b) { return (a & 0xfff) < (b & 0xfff); });
    auto local = run.buffer<uint32_t>("local");
    CHECK(std::vector<uint32_t>(local.begin() + 777, local.end()) == want);
}

TEST_CASE("radix-sort: 294 keys of digit 0; 14 sectors for warp 0's direct store, 5 from the sorted tile; 16.4 against 6.5 per request", "[lessons]") {
    auto run = wst::runTraced("radix-sort", {});
    REQUIRE(run.result.allChecksPassed());
    REQUIRE(run.launches.size() == 48);
    const auto keys = run.buffer<uint32_t>("keys");
    CHECK(std::count_if(keys.begin(), keys.end(), [](uint32_t k) { return (k & 15) == 0; }) == 294);
    // radix_count: no global atomics; the scan adds 16 x 16 counts.
    CHECK(run.launch(0).counters.total().globalAtomRequests == 0);
    CHECK(run.buffer<int32_t>("counts").size() == 256);
    // Warp 0's keys have 13 digits; its store on line 79 touches 14 sectors.
    std::set<uint32_t> digits;
    for (size_t l = 0; l < 32; ++l) digits.insert(keys[l] & 15);
    CHECK(digits.size() == 13);
    auto direct = lastOn(run.launch(2), 0, 0, 79, true);
    REQUIRE(direct);
    CHECK(direct->lanes() == 32);
    CHECK(sectorsOf(*direct) == 14);
    CHECK(run.launch(2).metric(kStReq) == 128);
    CHECK(run.launch(2).metric(kStSect) == 2096);
    // radix_local: 48080 instructions against radix_count's 3728; 508 store bank conflicts, on line 108.
    CHECK(run.launch(24).metric(kInst) == 48080);
    CHECK(run.launch(0).metric(kInst) == 3728);
    CHECK(run.launch(24).metric(kStConflicts) == 508);
    CHECK(run.launch(24).counters.byLine().at(108).sharedStConflicts == 508);
    // The sorted tile: block 0's first 32 keys are the runs of digits 0 and 1 (in digit order).
    const auto tiles = run.buffer<uint32_t>("tiles");   // the last pass's tiles: check the first pass's order directly
    std::vector<uint32_t> tile0(keys.begin(), keys.begin() + 256);
    std::stable_sort(tile0.begin(), tile0.end(), [](uint32_t a, uint32_t b) { return (a & 15) < (b & 15); });
    std::set<uint32_t> warp0Digits;
    for (size_t l = 0; l < 32; ++l) warp0Digits.insert(tile0[l] & 15);
    CHECK(warp0Digits == std::set<uint32_t>{0, 1});
    CHECK(tiles.size() == 4096);
    // radix_scatter: warp 0's store on line 142 touches 5 sectors; the launch 829 for 128 requests.
    auto coalesced = lastOn(run.launch(26), 0, 0, 142, true);
    REQUIRE(coalesced);
    CHECK(coalesced->lanes() == 32);
    CHECK(sectorsOf(*coalesced) == 5);
    CHECK(run.launch(26).metric(kStReq) == 128);
    CHECK(run.launch(26).metric(kStSect) == 829);
    CHECK(run.launch(2).metric(kStSect) / 128 == Approx(16.4).margin(0.05));
    CHECK(run.launch(26).metric(kStSect) / 128 == Approx(6.5).margin(0.05));
    double ds = 0, ls = 0;
    for (size_t p = 0; p < 8; ++p) {
        CHECK(run.launch(3 * p + 2).metric(kStReq) == 128);
        CHECK(run.launch(24 + 3 * p + 2).metric(kStReq) == 128);
        ds += run.launch(3 * p + 2).metric(kStSect);
        ls += run.launch(24 + 3 * p + 2).metric(kStSect);
    }
    CHECK(ds / 1024 == Approx(16.2).margin(0.05));
    CHECK(ls / 1024 == Approx(6.4).margin(0.05));
}

TEST_CASE("radix-sort: the predicted times of one pass, N = 65536", "[lessons]") {
    static const double gap = timing::findPreset("h100", {}).kernelGapUs;
    auto us = predicted("radix-sort", {{"N", "65536"}, {"PASSES", "1"}});
    REQUIRE(us.size() == 6);
    std::vector<double> withGap;
    for (auto& [k, t] : us) withGap.push_back(t + gap);
    INFO("count " << withGap[0] << ", scan " << withGap[1] << ", direct " << withGap[2] << ", local " << withGap[3] << ", scan " << withGap[4]
                  << ", scatter " << withGap[5]);
    CHECK(gap == Approx(1.9));
    CHECK(withGap[0] == Approx(2.6).epsilon(0.1));
    CHECK(withGap[1] == Approx(6.6).epsilon(0.1));
    CHECK(withGap[2] == Approx(3.6).epsilon(0.1));
    CHECK(withGap[3] == Approx(4.0).epsilon(0.1));
    CHECK(withGap[4] == Approx(6.6).epsilon(0.1));
    CHECK(withGap[5] == Approx(5.4).epsilon(0.1));
    CHECK(withGap[5] > withGap[2]);   // the model: the coalesced scatter is not the faster one
}

namespace {
// build_graph's graph on the CPU, and its BFS levels from vertex 0 (-1: not reached within `levels`).
std::vector<int32_t> bfsOnCpu(int n, int deg, int extra, int levels) {
    std::vector<std::vector<int>> adj(static_cast<size_t>(n));
    for (int v = 0; v < n; ++v) {
        int d = v % 32 == 0 ? deg + extra : deg;
        for (int k = 0; k < d; ++k) {
            uint32_t h = uint32_t(v) * 2654435761u + uint32_t(k) * 2246822519u;
            h ^= h >> 13;
            h *= 3266489917u;
            h ^= h >> 16;
            adj[size_t(v)].push_back(k == 0 ? (v + 1) % n : int(h % uint32_t(n)));
        }
    }
    std::vector<int32_t> level(size_t(n), -1);
    std::deque<int> q{0};
    level[0] = 0;
    while (!q.empty()) {
        int v = q.front();
        q.pop_front();
        if (level[size_t(v)] == levels) continue;
        for (int u : adj[size_t(v)])
            if (level[size_t(u)] < 0) {
                level[size_t(u)] = level[size_t(v)] + 1;
                q.push_back(u);
            }
    }
    return level;
}
} // namespace

TEST_CASE("bfs: the three searches find the CPU's levels, on small, odd and hub-heavy graphs and with too few levels", "[lessons]") {
    struct P { const char *n, *deg, *hub, *levels; };
    for (P p : {P{"4096", "4", "60", "7"}, P{"1000", "2", "0", "20"}, P{"33", "4", "252", "3"}, P{"777", "8", "60", "6"}, P{"2", "2", "0", "2"},
                P{"4096", "4", "0", "4"}}) {
        INFO("N=" << p.n << " DEG=" << p.deg << " HUB=" << p.hub << " LEVELS=" << p.levels);
        auto run = wst::runTraced("bfs", {{"N", p.n}, {"DEG", p.deg}, {"HUB", p.hub}, {"LEVELS", p.levels}}, nullptr, false);
        REQUIRE(run.result.allChecksPassed());
        auto want = bfsOnCpu(std::stoi(p.n), std::stoi(p.deg), std::stoi(p.hub), std::stoi(p.levels));
        CHECK(run.buffer<int32_t>("level_v") == want);
        CHECK(run.buffer<int32_t>("level_q") == want);
        CHECK(run.buffer<int32_t>("level_w") == want);
    }
}

TEST_CASE("bfs: level sizes, idle lanes, 24064 claims and 4095 appends, a hub's 60 trips alone, 948 appends per warp", "[lessons]") {
    auto run = wst::runTraced("bfs", {});
    REQUIRE(run.result.allChecksPassed());
    REQUIRE(run.launches.size() == 23);
    CHECK(run.buffer<int32_t>("sizes") == std::vector<int32_t>{1, 64, 302, 1192, 2126, 402, 9, 0});
    CHECK(run.buffer<int32_t>("row_ptr").back() == 24064);
    CHECK(bfsOnCpu(4096, 4, 60, 64) == run.buffer<int32_t>("level_v"));   // 7 levels reach every vertex
    // bfs_vertex at level 0: lane 0 alone on line 44; at the largest level (launch 6) 2.7 lanes on average.
    for (auto& r : run.launch(1).issued.warp(0, 0))
        if (r.line == 44) CHECK(r.lanes() == 1);
    int lanesOn44 = 0;
    for (auto& r : run.launch(1).issued.all) if (r.line == 44 && r.isLoad) lanesOn44 += r.lanes();
    CHECK(lanesOn44 == 64);   // vertex 0's 64 edges
    auto big = run.launch(5).counters.byLine().at(44);
    CHECK(double(big.threadInstPredOn) / double(big.inst) == Approx(2.7).margin(0.05));
    // bfs_queue: an atomicCAS per edge, an atomicAdd per vertex found, in 948 requests.
    uint64_t casLanes = 0, addLanes = 0, addRequests = 0, warpAddLanes = 0, warpAddRequests = 0;
    for (size_t l = 8; l < 15; ++l)
        for (auto& r : run.launch(l).issued.all) {
            if (!isAtomic(r)) continue;
            if (r.line == 62) casLanes += uint64_t(r.lanes());
            if (r.line == 63) {
                addLanes += uint64_t(r.lanes());
                ++addRequests;
            }
        }
    CHECK(casLanes == 24064);
    CHECK(addLanes == 4095);
    CHECK(addRequests == 948);
    CHECK(double(addLanes) / double(addRequests) == Approx(4.3).margin(0.05));
    // bfs_queue_warp: the same 948 requests, one lane each.
    for (size_t l = 15; l < 22; ++l)
        for (auto& r : run.launch(l).issued.all)
            if (isAtomic(r) && r.line == 91) {
                warpAddLanes += uint64_t(r.lanes());
                ++warpAddRequests;
            }
    CHECK(warpAddRequests == 948);
    CHECK(warpAddLanes == 948);
    // Warp 2 of block 1 first works at level 3 (launch 12): 64 trips, the first four with 32 lanes,
    // the other 60 with the hub's lane alone.
    for (size_t l = 8; l < 11; ++l)
        for (auto& r : run.launch(l).issued.warp(1, 2)) CHECK(r.line != 61);
    std::vector<int> lanes;
    for (auto& r : run.launch(11).issued.warp(1, 2))
        if (r.line == 61 && r.isLoad) lanes.push_back(r.lanes());
    REQUIRE(lanes.size() == 64);
    for (size_t k = 0; k < 64; ++k) CHECK(lanes[k] == (k < 4 ? 32 : 1));
    // Warp 0 of the first bfs_queue_warp launch reaches line 92 (launch 16).
    bool shuffled = false;
    for (auto& r : run.launch(15).issued.warp(0, 0)) shuffled = shuffled || r.line == 92;
    CHECK(shuffled);
}

TEST_CASE("bfs: the predicted times of the table, N = 4096", "[lessons]") {
    static const double gap = timing::findPreset("h100", {}).kernelGapUs;
    struct Row { const char *hub, *levels; double vertex, queue, warp; };
    for (Row row : {Row{"0", "11", 42.2, 65.3, 68.0}, Row{"60", "7", 96.9, 241.8, 244.7}, Row{"252", "5", 190.2, 588.9, 590.2}}) {
        auto us = predicted("bfs", {{"HUB", row.hub}, {"LEVELS", row.levels}});
        std::map<std::string, double> sum;
        for (auto& [k, t] : us) sum[k] += t + gap;
        INFO("HUB " << row.hub << ": " << sum["bfs_vertex"] << ", " << sum["bfs_queue"] << ", " << sum["bfs_queue_warp"] << " us");
        CHECK(sum["bfs_vertex"] == Approx(row.vertex).epsilon(0.1));
        CHECK(sum["bfs_queue"] == Approx(row.queue).epsilon(0.1));
        CHECK(sum["bfs_queue_warp"] == Approx(row.warp).epsilon(0.1));
        CHECK(sum["bfs_vertex"] < sum["bfs_queue"]);   // as on the H100
    }
}
