#include "hw/compare.hpp"

#include "base/error.hpp"
#include "hw/cuda_device.hpp"
#include "hw/cupti_counters.hpp"

namespace warpscope::hw {

const std::vector<ComparedMetric>& comparedMetrics() {
    static const std::vector<ComparedMetric> list = {
        {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", true},
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", true},
        {"l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", false},
        {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", true},
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", true},
        {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", true},
        {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum", true},
        {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", true},
        {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", true},
        {"smsp__inst_executed.sum", true},
        {"smsp__thread_inst_executed.sum", false},
        {"smsp__thread_inst_executed_per_inst_executed.ratio", false},
        {"smsp__sass_branch_targets.sum", false},
        {"smsp__sass_branch_targets_threads_divergent.sum", true},
        // Tensor cores: counted per HMMA/IMMA/LDSM as sm_90 compiles each PTX instruction
        // (tests/validation/ncu/tensor-*.csv).
        {"smsp__inst_executed_pipe_tensor.sum", true},
        {"smsp__pipe_tensor_cycles_active.sum", true},
        {"smsp__inst_executed_op_ldsm.sum", true},
        // cp.async (LDGSTS): tests/validation/ncu/async-copy.csv (scripts/record-async.sh).
        {"smsp__sass_inst_executed_op_ldgsts.sum", true},
        {"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum", true},
        {"l1tex__t_sector_hit_rate.pct", false},
        {"lts__t_sector_hit_rate.pct", false},
        {"dram__bytes_read.sum", false},
        {"dram__bytes_write.sum", false},
    };
    return list;
}

std::vector<std::string> comparedMetricNames(bool validatedOnly) {
    std::vector<std::string> names;
    for (const ComparedMetric& m : comparedMetrics())
        if (m.validated || !validatedOnly) names.emplace_back(m.name);
    return names;
}

bool isSassVsPtx(const std::string& m) {
    if (m.rfind("smsp__", 0) != 0) return false;
    // The tensor-pipe and LDSM counts already count machine instructions (sim/tensor.hpp).
    if (m.find("pipe_tensor") != std::string::npos || m.find("op_ldsm") != std::string::npos) return false;
    return m.find("inst_executed") != std::string::npos || m.find("branch") != std::string::npos;
}

LiveCounters readLiveCounters(runtime::Device& gpu, const runtime::Lesson& lesson, const runtime::ParamValues& params,
                              const std::vector<std::string>& metrics) {
    LiveCounters live;
    live.unavailable = cuptiAvailability();
    if (!live.unavailable.empty()) return live;
    auto* cuda = dynamic_cast<CudaDevice*>(&gpu);
    if (!cuda) {
        live.unavailable = "Live hardware counters need the CUDA device.";
        return live;
    }
    try {
        live.launches = profileWithCupti(*cuda, metrics, [&] { runtime::runLesson(lesson, params, gpu); });
    } catch (const Error& e) {
        live.unavailable = e.what();
    }
    return live;
}

} // namespace warpscope::hw
