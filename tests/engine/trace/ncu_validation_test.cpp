// The simulator's memory counters against Nsight Compute on an H100: every launch of
// tests/validation/memory-patterns.json was profiled with ncu (scripts/validate-metrics.sh,
// tests/validation/ncu/memory-patterns.csv); requests, sectors, shared wavefronts and bank conflicts must be
// equal. Instruction counts are not compared: hardware counts SASS, the simulator counts PTX.
#include "support.hpp"

#include "hw/ncu_import.hpp"
#include "runtime/lesson.hpp"
#include "trace/counters.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace warpscope;


TEST_CASE("memory counters equal Nsight Compute's on an H100", "[trace]") {
    hw::NcuReport report = hw::parseNcuCsv(wst::readFile(wst::sourcePath("tests/validation/ncu/memory-patterns.csv")));
    runtime::Lesson spec = runtime::loadLesson(wst::sourcePath("tests/validation/memory-patterns.json"));
    runtime::SimDevice dev;
    std::vector<std::unique_ptr<trace::CounterCollector>> collectors;
    dev.onLaunch = [&](sim::Gpu& g) {
        collectors.push_back(std::make_unique<trace::CounterCollector>());
        g.setListener(collectors.back().get());
    };
    runtime::runLesson(spec, {}, dev);
    REQUIRE(report.rows.size() == collectors.size());

    const std::vector<std::string> exact = {
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
        "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
        "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"};
    int compared = 0;
    for (size_t i = 0; i < report.rows.size(); ++i) {
        auto sim = collectors[i]->metrics();
        const hw::NcuRow& row = report.rows[i];
        for (auto& m : exact) {
            REQUIRE(row.metrics.count(m));
            double hw = row.metrics.at(m);
            INFO("launch " << i << " (" << row.kernel << "): " << m << " hardware " << hw << ", simulator " << sim.at(m));
            CHECK(std::fabs(sim.at(m) - hw) <= (m.find(".pct") != std::string::npos ? 0.01 : 0.0));
            ++compared;
        }
    }
    WARN("Nsight Compute comparison: " << report.rows.size() << " launches, " << compared << " metric values, all equal");
}

TEST_CASE("tensor-pipe and LDSM counters equal Nsight Compute's on an H100", "[trace][tensor]") {
    // scripts/record-tensor.sh profiled the two golden tensor specs (tests/validation/ncu/tensor-*.csv).
    int compared = 0;
    for (const char* name : {"mma-sync", "wmma-gemm"}) {
        hw::NcuReport report =
            hw::parseNcuCsv(wst::readFile(wst::sourcePath(std::string("tests/validation/ncu/tensor-") + name + ".csv")));
        runtime::Lesson spec = runtime::loadLesson(wst::sourcePath(std::string("tests/golden/") + name + "/spec.json"));
        runtime::SimDevice dev;
        std::vector<std::unique_ptr<trace::CounterCollector>> collectors;
        dev.onLaunch = [&](sim::Gpu& g) {
            collectors.push_back(std::make_unique<trace::CounterCollector>());
            g.setListener(collectors.back().get());
        };
        runtime::runLesson(spec, {}, dev);
        REQUIRE(report.rows.size() == collectors.size());
        for (size_t i = 0; i < report.rows.size(); ++i) {
            auto sim = collectors[i]->metrics();
            const hw::NcuRow& row = report.rows[i];
            for (const char* m : {"smsp__inst_executed_pipe_tensor.sum", "smsp__inst_executed_pipe_tensor_op_hmma.sum",
                                  "smsp__inst_executed_pipe_tensor_op_imma.sum", "smsp__pipe_tensor_cycles_active.sum",
                                  "smsp__inst_executed_op_ldsm.sum"}) {
                REQUIRE(row.metrics.count(m));
                INFO(name << " launch " << i << " (" << row.kernel << "): " << m << " hardware " << row.metrics.at(m) << ", simulator " << sim.at(m));
                CHECK(sim.at(m) == row.metrics.at(m));
                ++compared;
            }
        }
    }
    CHECK(compared == 5 * (8 + 15));
}

TEST_CASE("cp.async (LDGSTS) counters equal Nsight Compute's on an H100", "[trace][async]") {
    // scripts/record-async.sh profiled tests/golden/async-copy (tests/validation/ncu/async-copy.csv):
    // LDGSTS instructions (.ca and .cg apart), their global requests and sectors, kernel by kernel.
    hw::NcuReport report = hw::parseNcuCsv(wst::readFile(wst::sourcePath("tests/validation/ncu/async-copy.csv")));
    runtime::Lesson spec = runtime::loadLesson(wst::sourcePath("tests/golden/async-copy/spec.json"));
    runtime::SimDevice dev;
    std::vector<std::unique_ptr<trace::CounterCollector>> collectors;
    dev.onLaunch = [&](sim::Gpu& g) {
        collectors.push_back(std::make_unique<trace::CounterCollector>());
        g.setListener(collectors.back().get());
    };
    runtime::runLesson(spec, runtime::resolveParams(spec, {}), dev);
    REQUIRE(report.rows.size() == collectors.size());
    int compared = 0;
    for (size_t i = 0; i < report.rows.size(); ++i) {
        auto sim = collectors[i]->metrics();
        const hw::NcuRow& row = report.rows[i];
        for (const char* m : {"smsp__sass_inst_executed_op_ldgsts.sum", "smsp__sass_inst_executed_op_ldgsts_cache_access.sum",
                              "smsp__sass_inst_executed_op_ldgsts_cache_bypass.sum",
                              "smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum",
                              "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum"}) {
            REQUIRE(row.metrics.count(m));
            INFO("launch " << i << " (" << row.kernel << "): " << m << " hardware " << row.metrics.at(m) << ", simulator " << sim.at(m));
            CHECK(sim.at(m) == row.metrics.at(m));
            ++compared;
        }
    }
    CHECK(compared == 5 * 5);
}
