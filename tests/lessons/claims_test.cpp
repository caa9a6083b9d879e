// Every claim a lesson's steps.md makes about the machine, checked on the simulator's counters.
#include "support.hpp"
#include "lessons/lesson_trace.hpp"

#include "runtime/lesson.hpp"
#include "trace/counters.hpp"
#include "timing/gpu_spec.hpp"
#include "timing/occupancy.hpp"

#include <catch2/catch.hpp>

#include <set>

using namespace warpscope;

namespace {
struct LessonRun {
    runtime::RunResult result;
    std::vector<std::unique_ptr<trace::CounterCollector>> counters;   // one per launch
    std::vector<sim::CheckReport> reports;
    double metric(size_t launch, const std::string& name) const { return counters.at(launch)->metrics().at(name); }
};

LessonRun runLessonWith(const std::string& id, const std::map<std::string, std::string>& params, bool racecheck = false) {
    runtime::Lesson l = runtime::loadLesson(wst::sourcePath("lessons/" + id));
    sim::LaunchOptions opt;
    opt.racecheck = racecheck;
    runtime::SimDevice dev(opt);
    LessonRun run;
    dev.onLaunch = [&](sim::Gpu& g) {
        run.counters.push_back(std::make_unique<trace::CounterCollector>());
        run.counters.back()->setProgram(g.program());   // shared loads as ptxas merges them
        g.setListener(run.counters.back().get());
    };
    run.result = runtime::runLesson(l, runtime::resolveParams(l, params), dev);
    run.reports = dev.reports();
    for (auto& c : run.result.checks) {
        INFO(id << ": " << c.buffer << ": " << c.detail);
        CHECK(c.passed);
    }
    return run;
}

const char* kSectorsPerReq = "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio";
const char* kBytesPerSector = "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct";
} // namespace

TEST_CASE("coalescing: 4 sectors aligned, 5 misaligned, 4 again at 8 elements; strides 8, 16, 32, 32", "[lessons]") {
    auto off = [](int o) { return runLessonWith("coalescing", {{"OFFSET", std::to_string(o)}}); };
    auto r0 = off(0), r1 = off(1), r8 = off(8);
    CHECK(r0.metric(0, kSectorsPerReq) == 4.0);
    CHECK(r0.metric(0, kBytesPerSector) == 100.0);
    CHECK(r1.metric(0, kSectorsPerReq) == 5.0);
    CHECK(r1.metric(0, kBytesPerSector) == 80.0);
    CHECK(r8.metric(0, kSectorsPerReq) == 4.0);
    auto stride = [](int s) { return runLessonWith("coalescing", {{"STRIDE", std::to_string(s)}}); };
    auto s2 = stride(2), s4 = stride(4), s8 = stride(8), s32 = stride(32);
    CHECK(s2.metric(1, kSectorsPerReq) == 8.0);
    CHECK(s2.metric(1, kBytesPerSector) == 50.0);
    CHECK(s4.metric(1, kSectorsPerReq) == 16.0);
    CHECK(s4.metric(1, kBytesPerSector) == 25.0);
    CHECK(s8.metric(1, kSectorsPerReq) == 32.0);
    CHECK(s8.metric(1, kBytesPerSector) == 12.5);
    CHECK(s32.metric(1, kSectorsPerReq) == 32.0);
}

TEST_CASE("bank conflicts: the column read is 32 wavefronts (31 conflicts) per warp, 1 with padding", "[lessons]") {
    auto plain = runLessonWith("bank-conflicts", {{"PAD", "0"}});
    auto padded = runLessonWith("bank-conflicts", {{"PAD", "1"}});
    const double warps = 2 * 2 * 32;   // 64x64: 4 blocks of 32 warps
    CHECK(plain.metric(0, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == 32 * warps);
    CHECK(plain.metric(0, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") == 31 * warps);
    CHECK(plain.metric(0, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum") == warps);   // the row write is free
    CHECK(padded.metric(0, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == warps);
    CHECK(padded.metric(0, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") == 0);
    CHECK(plain.result.buffers.at("out") == padded.result.buffers.at("out"));   // same transpose
}

TEST_CASE("stencil: R lanes load the halo, the barrier makes it safe, no barrier is a race", "[lessons]") {
    auto run = runLessonWith("stencil-1d", {{"RADIUS", "3"}}, true);
    // Line 9 (the halo branch): only warp 0 of each block has lanes below R, so the halo store on
    // line 10 is one warp-instruction per block (8 blocks), and warp 0 splits there.
    const auto lines = run.counters[0]->byLine();
    CHECK(lines.at(10).sharedStRequests == 8);
    CHECK(run.metric(0, "smsp__sass_branch_targets_threads_divergent.sum") >= 8);
    bool syncedRace = false, unsyncedRace = false;
    for (auto& r : run.reports) {
        if (r.site.kernel == "stencil") syncedRace = true;
        if (r.site.kernel == "stencil_no_sync" && r.hazard == "read-after-write") unsyncedRace = true;
    }
    CHECK_FALSE(syncedRace);
    CHECK(unsyncedRace);
    // Each input is read from global memory once per block (plus the halos), not 2R + 1 times.
    const double n = 1024, blocks = 1024 / 128;
    CHECK(run.metric(0, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") <= n / 8 + blocks * 2 * 2 + blocks * 4);
}

TEST_CASE("vector add: 4 blocks, 32 warps; only the last warp of the last block is partial, with 8 lanes", "[lessons]") {
    auto run = wst::runTraced("vector-add", {{"N", "1000"}});
    REQUIRE(run.result.allChecksPassed());
    REQUIRE(run.result.launches.size() == 1);
    CHECK(run.result.launches[0].grid.x == 4);   // ceil_div(1000, 256)
    const auto& issued = run.launch(0).issued;
    // Line 10 (c[i] = a[i] + b[i]): its store, per warp. 31 warps store with all 32 lanes; warp 7
    // of block 3 (threads 992 to 1023) with lanes 0 to 7 only.
    std::map<std::pair<uint32_t, uint32_t>, wst::IssuedInstr> stores;
    for (auto& r : issued.all)
        if (r.line == 10 && r.isStore) stores[{r.block, r.warpInBlock}] = r;
    REQUIRE(stores.size() == 32);
    for (auto& [bw, r] : stores) {
        INFO("block " << bw.first << " warp " << bw.second);
        CHECK(r.execMask == (bw == std::make_pair(3u, 7u) ? 0x000000FFu : 0xFFFFFFFFu));
    }
    // Lane k of warp 0 stores to c[k]; lane k of the last warp to c[992 + k].
    const auto& first = stores.at({0u, 0u});
    const auto& last = stores.at({3u, 7u});
    for (uint32_t k = 0; k < 32; ++k) CHECK(first.addresses[k] - first.addresses[0] == 4 * k);
    for (uint32_t k = 0; k < 8; ++k) CHECK(last.addresses[k] - first.addresses[0] == 4 * (992 + k));
    // The bounds check splits that warp and no other: one divergent branch, on line 9.
    int divergent = 0;
    for (auto& r : issued.all)
        if (r.divergent) {
            ++divergent;
            CHECK(r.line == 9);
            CHECK(r.block == 3);
            CHECK(r.warpInBlock == 7);
        }
    CHECK(divergent == 1);
    CHECK(run.launch(0).metric("smsp__sass_branch_targets_threads_divergent.sum") == 1);
    // Every warp issues the same K instructions for line 10: 31 warps with 32 lanes and one with 8
    // make 1000 lanes per instruction, not 1024.
    const auto line10 = run.launch(0).counters.byLine().at(10);
    REQUIRE(line10.inst % 32 == 0);
    const uint64_t perWarp = line10.inst / 32;
    CHECK(perWarp >= 4);   // at least the two loads, the add and the store
    CHECK(line10.threadInstPredOn == 1000 * perWarp);

    // N = 1024: the same 4 blocks, every warp full, nothing diverges.
    auto full = wst::runTraced("vector-add", {{"N", "1024"}});
    CHECK(full.result.launches[0].grid.x == 4);
    CHECK(full.launch(0).metric("smsp__sass_branch_targets_threads_divergent.sum") == 0);
    for (auto& r : full.launch(0).issued.all)
        if (r.line == 10) CHECK(r.execMask == 0xFFFFFFFFu);
}

TEST_CASE("vector add: host to device, the launch, device to host, one after the other", "[lessons]") {
    runtime::SimDevice dev;
    dev.enableTimeline(timing::findPreset("h100", {}));
    auto run = wst::runTraced("vector-add", {{"N", "1000"}}, &dev, false);
    REQUIRE(run.result.allChecksPassed());
    std::vector<runtime::TimelineOp> ops;
    for (auto& op : run.result.timeline.ops)
        if (op.kind == runtime::TimelineKind::CopyHtoD || op.kind == runtime::TimelineKind::CopyDtoH ||
            op.kind == runtime::TimelineKind::Kernel)
            ops.push_back(op);
    REQUIRE(ops.size() == 4);
    CHECK(ops[0].kind == runtime::TimelineKind::CopyHtoD);
    CHECK(ops[1].kind == runtime::TimelineKind::CopyHtoD);
    CHECK(ops[2].kind == runtime::TimelineKind::Kernel);
    CHECK(ops[3].kind == runtime::TimelineKind::CopyDtoH);
    for (size_t k = 0; k < 4; ++k) {
        if (k != 2) CHECK(ops[k].bytes == 4000);   // 1000 floats
        if (k > 0) CHECK(ops[k].startUs >= ops[k - 1].endUs);
        CHECK(ops[k].endUs > ops[k].startUs);
    }
}

TEST_CASE("vector add: CUDA accepts a 1000-thread block; its 32nd warp has 8 threads", "[lessons]") {
    wst::Sim s("lessons/vector-add/kernel.ptx");
    const uint32_t n = 1000;
    std::vector<float> a(n), b(n);
    for (uint32_t i = 0; i < n; ++i) {
        a[i] = float(i);
        b[i] = 0.5f;
    }
    auto pa = s.upload(a, "a"), pb = s.upload(b, "b"), pc = s.upload(std::vector<float>(n), "c");
    wst::IssueRecorder rec;
    s.dev.onLaunch = [&](sim::Gpu& g) { g.setListener(&rec); };
    s.launch("vadd", 1, 1000, {wst::arg(pa), wst::arg(pb), wst::arg(pc), wst::arg(int32_t(n))});
    auto c = s.download<float>(pc, n);
    for (uint32_t i = 0; i < n; ++i) REQUIRE(c[i] == float(i) + 0.5f);
    std::set<uint32_t> warps;
    for (auto& r : rec.all) {
        warps.insert(r.warpInBlock);
        CHECK(r.activeMask == (r.warpInBlock == 31 ? 0x000000FFu : 0xFFFFFFFFu));
    }
    CHECK(warps.size() == 32);
    // All 1000 threads have an element: no branch diverges.
    for (auto& r : rec.all) CHECK_FALSE(r.divergent);
}

TEST_CASE("reduction: divergence, conflicts, sequential addressing and shuffles as the steps say", "[lessons]") {
    auto run = runLessonWith("reduction", {{"BLOCKS", "16"}});
    const double blocks = 16;
    auto m = [&](size_t launch, const char* name) { return run.metric(launch, name); };
    const char* kDiv = "smsp__sass_branch_targets_threads_divergent.sum";
    const char* kConf = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
    const char* kWave = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
    const char* kInst = "smsp__inst_executed.sum";
    const char* kEff = "smsp__thread_inst_executed_per_inst_executed.ratio";
    // 1. divergent: 48 divergent branches per block, about 24 of 32 lanes working.
    CHECK(m(0, kDiv) == 48 * blocks);
    CHECK(m(0, kEff) == Approx(24.1).margin(0.5));
    CHECK(m(0, kConf) == 0);
    // 2. strided index: 6 divergent branches per block, a fifth fewer instructions, 70 conflicts per block.
    CHECK(m(1, kDiv) == 6 * blocks);
    CHECK(m(1, kInst) < 0.85 * m(0, kInst));
    CHECK(m(1, kConf) == 70 * blocks);
    // 3. sequential: no conflicts, a quarter of the wavefronts.
    CHECK(m(2, kConf) == 0);
    CHECK(m(2, kWave) * 3.8 == Approx(m(1, kWave)).epsilon(0.01));
    // 4. shuffles: about half the instructions of sequential, one shared-load wavefront per block,
    //    10 divergent branches per block.
    CHECK(m(3, kInst) < 0.6 * m(2, kInst));
    CHECK(m(3, kWave) == blocks);
    CHECK(m(3, kDiv) == 10 * blocks);
}

TEST_CASE("matmul: global requests fall by the tile factor; tiles fit the H100 but 32 does not fit the teaching GPU", "[lessons]") {
    const char* req = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
    const char* sect = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
    const char* wf = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
    const char* conf = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
    std::map<int, std::pair<double, double>> expect = {{8, {2048, 8192}}, {16, {1024, 4096}}, {32, {512, 2048}}};
    for (auto& [tile, rs] : expect) {
        auto r = runLessonWith("matmul", {{"TILE", std::to_string(tile)}});
        INFO("TILE " << tile);
        REQUIRE(r.result.launches.size() == 2);
        CHECK(r.metric(0, req) == 16384);
        CHECK(r.metric(0, sect) == 32768);
        CHECK(r.metric(1, req) == rs.first);
        CHECK(r.metric(1, sect) == rs.second);
        CHECK(r.metric(0, req) / r.metric(1, req) == tile);
        // "12288 shared wavefronts as the H100 counts them (16384 loads in the PTX)": ptxas merges
        // the As reads into LDS.128 at every tile size (tests/validation/ncu/matmul.csv: 12288).
        CHECK(r.metric(1, wf) == 12288);
        CHECK(r.metric(1, "ptx__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == 16384);
        CHECK(r.metric(1, conf) == 0);
        CHECK(r.result.buffers.at("C_tiled") == r.result.buffers.at("C_naive"));
    }
    // Occupancy on the H100: 64 warps as 32, 8 or 2 blocks; 1.5, 3 and 9 KiB of shared memory allocated.
    timing::GpuSpec h100 = timing::findPreset("h100", {});
    std::map<int, std::pair<uint32_t, uint32_t>> occ = {{8, {32, 1536}}, {16, {8, 3072}}, {32, {2, 9216}}};
    for (auto& [tile, o] : occ) {
        timing::Occupancy oc = timing::computeOccupancy(h100, {uint32_t(tile * tile), 32, uint32_t(2 * tile * tile * 4)});
        INFO("TILE " << tile);
        CHECK(oc.activeBlocksPerSM == o.first);
        CHECK(oc.activeWarpsPerSM == 64);
        CHECK(oc.sharedPerBlockAllocated == o.second);
    }
    // The teaching GPU allows 256 threads per block: the 32 x 32 tile cannot launch.
    runtime::Lesson l = runtime::loadLesson(wst::sourcePath("lessons/matmul"));
    runtime::SimDevice dev;
    dev.enableTimeline(timing::findPreset("teaching", {}));
    CHECK_THROWS_WITH(runtime::runLesson(l, runtime::resolveParams(l, {{"TILE", "32"}}), dev),
                      Catch::Contains("1024 threads") && Catch::Contains("256"));
}
