// The claims of the pattern lessons' steps.md (convolution-2d, histogram), checked on the
// simulator's counters, its per-instruction record and the cycle model (H100 preset, registers
// per thread as lesson.json gives them from `ptxas -v`).
#include "support.hpp"
#include "lessons/lesson_trace.hpp"

#include "runtime/lesson.hpp"
#include "runtime/sim_device.hpp"
#include "timing/cycle_model.hpp"
#include "timing/gpu_spec.hpp"

#include <catch2/catch.hpp>

#include <set>

using namespace warpscope;

namespace {
const char* kLdReq = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
const char* kLdSect = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
const char* kLdRatio = "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio";
const char* kRedReq = "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum";
const char* kRedSect = "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum";
const char* kDiv = "smsp__sass_branch_targets_threads_divergent.sum";

// Predicted microseconds per launch of the lesson on the H100 preset.
std::vector<double> predictedMicros(const std::string& id, const std::map<std::string, std::string>& params,
                                    const std::vector<uint32_t>& registers) {
    runtime::Lesson l = runtime::loadLesson(wst::sourcePath("lessons/" + id));
    runtime::SimDevice dev;
    static const timing::GpuSpec h100 = timing::findPreset("h100", {});
    std::vector<double> us;
    dev.onLaunch = [&](sim::Gpu& g) {
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

// Every active lane of a memory instruction reads the same address.
bool uniformAddress(const wst::IssuedInstr& r) {
    std::set<uint64_t> a;
    for (int l = 0; l < 32; ++l)
        if (r.execMask >> l & 1u) a.insert(r.addresses[size_t(l)]);
    return a.size() == 1;
}
} // namespace

TEST_CASE("convolution-2d: the filter as 32 lanes of one word, half the requests from constant memory, 368 with the tile", "[lessons]") {
    auto run = wst::runTraced("convolution-2d", {});
    REQUIRE(run.result.allChecksPassed());
    REQUIRE(run.launches.size() == 3);
    // 1. conv2d_global: 3140 filter loads (line 22) of 1 sector each, 3140 input loads (line 23).
    CHECK(run.launch(0).metric(kLdReq) == 6280);
    const auto g = run.launch(0).counters.byLine();
    CHECK(g.at(22).globalLdRequests == 3140);
    CHECK(g.at(22).globalLdSectors == 3140);
    CHECK(g.at(23).globalLdRequests == 3140);
    int filterLoads = 0;
    for (auto& r : run.launch(0).issued.all)
        if (r.line == 22 && r.isLoad) {
            ++filterLoads;
            CHECK(uniformAddress(r));
        }
    CHECK(filterLoads == 3140);
    // 2. conv2d_const: the weights are constant loads, every lane the same word (a broadcast);
    //    the global requests halve. 4.4 sectors per request: 4 for the centre column, 5 beside it.
    CHECK(run.launch(1).metric(kLdReq) == 3140);
    CHECK(run.launch(1).metric(kLdSect) == 13816);
    CHECK(run.launch(1).metric(kLdRatio) == Approx(4.4));
    int constLoads = 0, inputLoads = 0;
    for (auto& r : run.launch(1).issued.all)
        if (r.line == 44 && r.isLoad) {
            if (uniformAddress(r)) ++constLoads;   // no two input lanes share a pixel
            else ++inputLoads;
        }
    CHECK(constLoads >= 25);
    CHECK(inputLoads == 3140);
    // The last input load of block 0 warp 0 (dy = dx = 4): cols 2..33 of row 2, 5 sectors.
    const auto w0 = run.launch(1).issued.warp(0, 0);
    const wst::IssuedInstr* last = nullptr;
    for (auto& r : w0)
        if (r.line == 44 && r.isLoad && !uniformAddress(r)) last = &r;
    REQUIRE(last);
    CHECK(last->execMask == 0xFFFFFFFFu);
    std::set<uint64_t> sectors;
    for (auto a : last->addresses) sectors.insert(a / 32);
    CHECK(sectors.size() == 5);
    // 3. conv2d_tiled: 24 requests per interior block (12 rows x 2), 368 in all; 25 shared loads
    //    per warp without a bank conflict, one shared store per cell.
    CHECK(run.launch(2).metric(kLdReq) == 368);
    CHECK(run.launch(2).metric("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == 3200);
    CHECK(run.launch(2).metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") == 0);
    CHECK(run.launch(2).metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum") == 0);
    std::map<uint32_t, int> perBlock;
    for (auto& r : run.launch(2).issued.all)
        if (r.line == 59 && r.isLoad) ++perBlock[r.block];
    CHECK(perBlock.at(2) == 24);   // block (0, 1): every tile row lies inside the image
    CHECK(run.launch(1).metric(kLdReq) / run.launch(2).metric(kLdReq) == Approx(8.53).margin(0.01));
    // The same image three times (fused multiply-adds in the same order; a ghost cell adds 0).
    CHECK(run.result.buffers.at("out_const") == run.result.buffers.at("out_global"));
    CHECK(run.result.buffers.at("out_tiled") == run.result.buffers.at("out_global"));
}

TEST_CASE("convolution-2d: the predicted times of the table at 512 x 512", "[lessons]") {
    auto us = predictedMicros("convolution-2d", {{"ROWS", "512"}, {"COLS", "512"}}, {32, 30, 32});
    REQUIRE(us.size() == 3);
    INFO("predicted: " << us[0] << ", " << us[1] << ", " << us[2] << " us");
    CHECK(us[0] == Approx(3.81).epsilon(0.1));
    CHECK(us[1] == Approx(3.57).epsilon(0.1));
    CHECK(us[2] == Approx(2.85).epsilon(0.1));
    CHECK(us[1] / us[2] == Approx(1.25).epsilon(0.1));   // "the tile 1.25 times faster"
}

TEST_CASE("histogram: 512 atomic requests, contention in sector-ops, 64 after privatization, runs aggregated", "[lessons]") {
    auto uniform = wst::runTraced("histogram", {}, nullptr, false);
    auto same = wst::runTraced("histogram", {{"VALUES", "1"}}, nullptr, false);
    auto four = wst::runTraced("histogram", {{"VALUES", "4"}}, nullptr, false);
    for (auto* r : {&uniform, &same, &four}) REQUIRE(r->result.allChecksPassed());
    // histo_global: one request per warp and step; about 22 sector-ops each for uniform bytes,
    // 32 when every lane hits one word.
    CHECK(uniform.launch(0).metric(kRedReq) == 512);
    CHECK(uniform.launch(0).metric(kRedSect) == 11258);
    CHECK(same.launch(0).metric(kRedReq) == 512);
    CHECK(same.launch(0).metric(kRedSect) == 16384);
    // histo_private: 8 requests of 4 sectors per block; with one value, one bin per block.
    CHECK(uniform.launch(1).metric(kRedReq) == 64);
    CHECK(uniform.launch(1).metric(kRedSect) == 256);
    CHECK(same.launch(1).metric(kRedReq) == 8);
    // Every bin of the three kernels agrees.
    CHECK(uniform.result.buffers.at("bins_private") == uniform.result.buffers.at("bins_global"));
    CHECK(uniform.result.buffers.at("bins_aggregate") == uniform.result.buffers.at("bins_global"));
    // histo_aggregate with one value: the atomic inside the loop (line 46) never runs, each thread
    // adds its run once on line 52 (8 warps x 8 blocks).
    const auto agg = same.launch(2).counters.byLine();
    CHECK((agg.count(46) == 0 || agg.at(46).inst == 0));
    CHECK(agg.at(52).inst > 0);
    // With four values the run test splits warps: 456 divergent branches against 8.
    CHECK(four.launch(2).metric(kDiv) == 456);
    CHECK(four.launch(1).metric(kDiv) == 8);
}

TEST_CASE("histogram: the predicted times of the table, N = 1048576", "[lessons]") {
    const std::vector<uint32_t> regs = {12, 12, 14};
    struct Row { const char* values; double global, priv, agg; };
    for (Row row : {Row{"4", 267, 4.0, 4.1}, Row{"1", 774, 4.0, 4.1}}) {
        auto us = predictedMicros("histogram", {{"N", "1048576"}, {"VALUES", row.values}}, regs);
        REQUIRE(us.size() == 3);
        INFO("VALUES " << row.values << ": " << us[0] << ", " << us[1] << ", " << us[2] << " us");
        CHECK(us[0] == Approx(row.global).epsilon(0.1));
        CHECK(us[1] == Approx(row.priv).epsilon(0.1));
        CHECK(us[2] == Approx(row.agg).epsilon(0.1));
    }
}

TEST_CASE("prefix-scan: Kogge-Stone's 4608 additions without conflicts, Brent-Kung's 1013 with them, three launches for the whole array", "[lessons]") {
    auto run = wst::runTraced("prefix-scan", {});
    REQUIRE(run.result.allChecksPassed());
    REQUIRE(run.launches.size() == 4);
    auto lanesOn = [&](size_t launch, std::set<uint32_t> lines) {
        int lanes = 0;
        for (auto& r : run.launch(launch).issued.all)
            if (r.block == 0 && r.isStore && lines.count(r.line)) lanes += r.lanes();
        return lanes;
    };
    // Kogge-Stone: 9 steps, every thread adds in each (line 16): 4608 per section of 512.
    CHECK(lanesOn(0, {16}) == 9 * 512);
    CHECK(run.launch(0).counters.byLine().at(16).sharedStRequests == 1152);   // 16 warps x 9 steps x 8 blocks
    CHECK(run.launch(0).metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") == 0);
    CHECK(run.launch(0).metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum") == 0);
    // Brent-Kung: 511 additions up (line 38), 502 down (line 44); conflicts from the strides.
    CHECK(lanesOn(1, {38}) == 511);
    CHECK(lanesOn(1, {44}) == 502);
    CHECK(run.launch(1).metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") == 2336);
    CHECK(run.launch(1).metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum") == 1168);
    const auto up = run.launch(1).counters.byLine().at(38);
    CHECK(double(up.threadInstPredOn) < 0.85 * 32 * double(up.inst));   // idle lanes as the stride grows
    CHECK(run.launch(0).metric("smsp__inst_executed.sum") == 20800);
    CHECK(run.launch(1).metric("smsp__inst_executed.sum") == 16600);
    CHECK(run.launch(0).metric("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == 2184);
    CHECK(run.launch(1).metric("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == 3096);
    // Section 3 (elements 1536..2047) adds scanned_sums[2]: block 6 of the last launch runs line 61.
    bool block6 = false;
    for (auto& r : run.launch(3).issued.all)
        if (r.block == 6 && r.line == 61) block6 = true;
    CHECK(block6);
    const auto in = run.buffer<int32_t>("in");
    const auto out = run.buffer<int32_t>("out");
    const auto sums = run.buffer<int32_t>("sums_scanned");
    int64_t before3 = 0;
    for (int k = 0; k < 1536; ++k) before3 += in[size_t(k)];
    CHECK(sums.at(2) == before3);
    CHECK(out.at(1536) == before3 + in.at(1536));
}

TEST_CASE("prefix-scan: the predicted times of the table, N = 262144", "[lessons]") {
    auto us = predictedMicros("prefix-scan", {{"N", "262144"}}, {14, 16, 14, 12});
    REQUIRE(us.size() == 4);
    INFO("predicted: " << us[0] << ", " << us[1] << ", " << us[2] << ", " << us[3] << " us");
    CHECK(us[0] == Approx(2.5).epsilon(0.1));
    CHECK(us[1] == Approx(3.0).epsilon(0.1));
    CHECK(us[2] == Approx(1.2).epsilon(0.1));
    CHECK(us[3] == Approx(1.2).epsilon(0.1));   // 512 one-section blocks: 4 per SM to hand out
    CHECK(us[0] < us[1]);   // Kogge-Stone predicted faster
}
