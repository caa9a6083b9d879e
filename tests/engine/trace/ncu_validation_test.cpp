// The simulator's memory counters against Nsight Compute on an H100: every launch of
// tests/validation/memory-patterns.json was profiled with ncu (scripts/validate-metrics.sh,
// tests/validation/ncu-h100.csv); requests, sectors, shared wavefronts and bank conflicts must be
// equal. Instruction counts are not compared: hardware counts SASS, the simulator counts PTX.
#include "support.hpp"

#include "runtime/lesson.hpp"
#include "trace/counters.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>

using namespace warpscope;

namespace {
std::vector<std::string> splitCsvLine(const std::string& line) {
    std::vector<std::string> out;
    std::string cur;
    bool quoted = false;
    for (char c : line) {
        if (c == '"') quoted = !quoted;
        else if (c == ',' && !quoted) {
            out.push_back(cur);
            cur.clear();
        } else if (c != ',' || quoted) {
            if (!(quoted && c == ',')) cur += c;   // drop thousands separators inside numbers
        }
    }
    out.push_back(cur);
    return out;
}
} // namespace

TEST_CASE("memory counters equal Nsight Compute's on an H100", "[trace]") {
    std::istringstream csv(wst::readFile(wst::sourcePath("tests/validation/ncu-h100.csv")));
    std::string line;
    std::getline(csv, line);
    const auto header = splitCsvLine(line);
    std::getline(csv, line);   // units
    std::vector<std::vector<std::string>> rows;
    while (std::getline(csv, line))
        if (!line.empty()) rows.push_back(splitCsvLine(line));

    runtime::Lesson spec = runtime::loadLesson(wst::sourcePath("tests/validation/memory-patterns.json"));
    runtime::SimDevice dev;
    std::vector<std::unique_ptr<trace::CounterCollector>> collectors;
    dev.onLaunch = [&](sim::Gpu& g) {
        collectors.push_back(std::make_unique<trace::CounterCollector>());
        g.setListener(collectors.back().get());
    };
    runtime::runLesson(spec, {}, dev);
    REQUIRE(rows.size() == collectors.size());

    const std::vector<std::string> exact = {
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
        "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
        "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"};
    int compared = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
        auto sim = collectors[i]->metrics();
        const std::string kernel = rows[i][size_t(std::find(header.begin(), header.end(), "Kernel Name") - header.begin())];
        for (auto& m : exact) {
            auto col = std::find(header.begin(), header.end(), m);
            REQUIRE(col != header.end());
            double hw = std::stod(rows[i][size_t(col - header.begin())]);
            INFO("launch " << i << " (" << kernel << "): " << m << " hardware " << hw << ", simulator " << sim.at(m));
            CHECK(std::fabs(sim.at(m) - hw) <= (m.find(".pct") != std::string::npos ? 0.01 : 0.0));
            ++compared;
        }
    }
    WARN("Nsight Compute comparison: " << rows.size() << " launches, " << compared << " metric values, all equal");
}
