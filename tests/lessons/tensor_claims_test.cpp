// The claims of lessons/tensor-cores/steps.md, checked on the simulator's counters, the fragment
// layouts of the lesson's own PTX, the cycle model (H100 preset, registers per thread from
// `ptxas -v` as lesson.json gives them) and the H100 times scripts/time-tensor-lesson.cu recorded
// (docs/measurements/tensor-cores-h100.txt).
#include "support.hpp"
#include "lessons/lesson_trace.hpp"

#include "ptx/parser.hpp"
#include "runtime/lesson.hpp"
#include "runtime/sim_device.hpp"
#include "sim/program.hpp"
#include "sim/tensor.hpp"
#include "timing/cycle_model.hpp"
#include "timing/gpu_spec.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

using namespace warpscope;

namespace {
// Matrix instructions issued, by kind.
struct MatrixCounter : sim::StepListener {
    std::map<sim::MatrixKind, uint64_t> byKind;
    void onStep(const sim::Step& s) override {
        if (s.instr && s.instr->matrix) ++byKind[s.instr->matrix->kind];
    }
};

struct Launch {
    trace::CounterCollector counters;
    MatrixCounter matrix;
    sim::FanOut fan;
    double metric(const std::string& m) const { return counters.metrics().at(m); }
};

struct Run {
    runtime::RunResult result;
    std::vector<std::unique_ptr<Launch>> launches;
};

Run runLesson(const std::map<std::string, std::string>& params) {
    runtime::Lesson l = runtime::loadLesson(wst::sourcePath("lessons/tensor-cores"));
    runtime::SimDevice dev;
    Run run;
    dev.onLaunch = [&](sim::Gpu& g) {
        run.launches.push_back(std::make_unique<Launch>());
        Launch& t = *run.launches.back();
        t.counters.setProgram(g.program());
        t.fan.add(&t.counters);
        t.fan.add(&t.matrix);
        g.setListener(&t.fan);
    };
    run.result = runtime::runLesson(l, runtime::resolveParams(l, params), dev);
    dev.onLaunch = nullptr;
    for (auto& c : run.result.checks) {
        INFO(c.buffer << ": " << c.detail);
        CHECK(c.passed);
    }
    return run;
}

std::vector<float> floats(const std::vector<uint8_t>& b) {
    std::vector<float> v(b.size() / 4);
    std::memcpy(v.data(), b.data(), v.size() * 4);
    return v;
}

const char* kLdReq = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
const char* kLdSect = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
const char* kTensor = "smsp__inst_executed_pipe_tensor.sum";
const char* kHmma = "smsp__inst_executed_pipe_tensor_op_hmma.sum";
const char* kInst = "smsp__inst_executed.sum";
} // namespace

TEST_CASE("tensor-cores: naive 16384 requests and 69376 instructions; wmma 64 mma = 128 HMMA in 1472; staged 64 requests", "[lessons]") {
    Run r = runLesson({});
    REQUIRE(r.launches.size() == 3);
    Launch& naive = *r.launches[0];
    Launch& wmma = *r.launches[1];
    Launch& staged = *r.launches[2];
    // Step 1: 128 warps x 64 trips x 2 loads, nothing on the tensor pipe.
    CHECK(naive.metric(kLdReq) == 16384);
    CHECK(naive.metric(kInst) == 69376);
    CHECK(naive.metric(kTensor) == 0);
    // Step 4: 16 warps x 4 trips of one wmma.mma; 2 HMMA each; 1472 warp-instructions.
    CHECK(wmma.matrix.byKind[sim::MatrixKind::WmmaMma] == 64);
    CHECK(wmma.metric(kTensor) == 128);
    CHECK(wmma.metric(kHmma) == 128);
    CHECK(wmma.metric(kInst) == 1472);
    CHECK(wmma.matrix.byKind[sim::MatrixKind::WmmaStore] == 16);
    // Step 5: 128 wmma.load of 16 x 16 halves (512 bytes): 64 KiB, each value of A and B read 4 times;
    // their traffic is not counted (no requests or sectors).
    CHECK(wmma.matrix.byKind[sim::MatrixKind::WmmaLoad] == 128);
    CHECK(wmma.matrix.byKind[sim::MatrixKind::WmmaLoad] * 512 == 64 * 1024);
    CHECK(wmma.metric(kLdReq) == 0);
    CHECK(wmma.metric(kLdSect) == 0);
    // The staged kernel: 64 requests, 1024 sectors = 32 KiB with every byte used, 256 shared-store
    // wavefronts without conflicts, 128 fragment loads from shared memory (LDSM), the same mma work.
    CHECK(staged.metric(kLdReq) == 64);
    CHECK(staged.metric(kLdSect) == 1024);
    CHECK(staged.metric(kLdSect) * 32 == 32 * 1024);
    CHECK(staged.metric("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct") == 100);
    CHECK(staged.metric("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum") == 256);
    CHECK(staged.metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum") == 0);
    CHECK(staged.metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") == 0);
    CHECK(staged.metric("smsp__inst_executed_op_ldsm.sum") == 128);
    CHECK(staged.metric(kTensor) == 128);
    CHECK(staged.metric("smsp__sass_branch_targets_threads_divergent.sum") == 0);   // t < 64 splits by warps
    // Step 4: within 1e-4 of the naive kernel, not bit for bit; the staged kernel's tile is the same bits.
    auto cn = floats(r.result.buffers.at("C_naive")), cw = floats(r.result.buffers.at("C_wmma"));
    double worst = 0;
    size_t differ = 0;
    for (size_t i = 0; i < cn.size(); ++i) {
        worst = std::max(worst, std::fabs(double(cn[i]) - cw[i]));
        differ += cn[i] != cw[i];
    }
    CHECK(worst < 1e-4);
    CHECK(differ > 0);
    CHECK(r.result.buffers.at("C_shared") == r.result.buffers.at("C_wmma"));
}

TEST_CASE("tensor-cores: lane l holds rows l/4 and l/4+8, columns 2(l%4)+{0,1} and +8 of A; 8 registers, the second 4 a copy", "[lessons]") {
    runtime::Lesson l = runtime::loadLesson(wst::sourcePath("lessons/tensor-cores"));
    ptx::Module m = ptx::parse(l.ptxText);
    sim::Program p = sim::compile(m, "gemm_wmma", {});
    const sim::MatrixOp* loadA = nullptr;
    const sim::MatrixOp* mma = nullptr;
    for (const sim::Instr& in : p.code) {
        if (!in.matrix) continue;
        if (!loadA && in.matrix->kind == sim::MatrixKind::WmmaLoad && in.matrix->frag == sim::Frag::A) loadA = in.matrix.get();
        if (!mma && in.matrix->kind == sim::MatrixKind::WmmaMma) mma = in.matrix.get();
    }
    REQUIRE(loadA);
    REQUIRE(mma);
    // Step 2's answer: lane 0.
    std::set<std::pair<int, int>> lane0;
    auto e0 = sim::fragmentElements(*loadA, sim::Frag::A, 0);
    CHECK(e0.size() == 16);   // 8 registers x 2 halves
    for (const sim::FragElem& e : e0) lane0.insert({e.row, e.col});
    CHECK(lane0 == std::set<std::pair<int, int>>{{0, 0}, {0, 1}, {8, 0}, {8, 1}, {0, 8}, {0, 9}, {8, 8}, {8, 9}});
    for (int lane = 0; lane < 32; ++lane) {
        auto es = sim::fragmentElements(*loadA, sim::Frag::A, lane);
        REQUIRE(es.size() == 16);
        for (size_t i = 0; i < 8; ++i) {
            CHECK((es[i].row == lane / 4 || es[i].row == lane / 4 + 8));
            CHECK((es[i].col % 8 == 2 * (lane % 4) || es[i].col % 8 == 2 * (lane % 4) + 1));
            CHECK(es[i + 8].row == es[i].row);   // registers 4..7 repeat 0..3
            CHECK(es[i + 8].col == es[i].col);
            CHECK(es[i + 8].reg == es[i].reg + 4);
        }
        // Step 3: B by columns l/4 (+8), rows 2(l%4)+{0,1} (+8); C/D: 8 floats, rows like A's.
        for (const sim::FragElem& e : sim::fragmentElements(*mma, sim::Frag::B, lane)) {
            CHECK(e.col % 8 == lane / 4);
            CHECK(e.row % 8 / 2 == lane % 4);
        }
        auto d = sim::fragmentElements(*mma, sim::Frag::D, lane);
        CHECK(d.size() == 8);
        for (const sim::FragElem& e : d) {
            CHECK(e.row % 8 == lane / 4);
            CHECK(e.col % 8 / 2 == lane % 4);
        }
        CHECK(sim::fragmentElements(*mma, sim::Frag::C, lane).size() == 8);
    }
}

TEST_CASE("tensor-cores: predicted at 128 x 128 x 128: naive 9.7 us, staged 2.5 us (3.9x), wmma too fast (loads not modelled)", "[lessons]") {
    runtime::Lesson l = runtime::loadLesson(wst::sourcePath("lessons/tensor-cores"));
    runtime::SimDevice dev;
    static const timing::GpuSpec h100 = timing::findPreset("h100", {});
    const std::vector<uint32_t> regs = {25, 32, 48};   // lesson.json "registers", from ptxas -v
    std::vector<double> us;
    dev.onLaunch = [&](sim::Gpu& g) {
        timing::TimingOptions opt;
        opt.registersPerThread = regs.at(us.size());
        opt.registersEstimated = false;
        timing::TimedRun run(g, h100, opt);
        run.run();
        us.push_back(run.result().microseconds);
    };
    runtime::RunResult r = runtime::runLesson(l, runtime::resolveParams(l, {{"M", "128"}, {"N", "128"}, {"K", "128"}}), dev);
    REQUIRE(r.allChecksPassed());
    REQUIRE(us.size() == 3);
    INFO("predicted: naive " << us[0] << ", wmma " << us[1] << ", staged " << us[2] << " us");
    CHECK(us[0] == Approx(9.7).epsilon(0.1));
    CHECK(us[2] == Approx(2.5).epsilon(0.1));
    CHECK(us[0] / us[2] == Approx(3.9).epsilon(0.1));
    CHECK(us[1] < 0.5);   // "only 0.2 us": a wmma.load costs a fixed latency and no traffic
}

TEST_CASE("tensor-cores: the H100 times steps.md quotes are the recorded ones", "[lessons]") {
    std::ifstream f(wst::sourcePath("docs/measurements/tensor-cores-h100.txt"));
    REQUIRE(f);
    std::regex row(R"(M=N=K=(\d+) warm: gemm_naive ([\d.]+) gemm_wmma ([\d.]+) gemm_wmma_shared ([\d.]+) us)");
    std::map<int, std::vector<std::array<double, 3>>> bySize;
    for (std::string line; std::getline(f, line);) {
        std::smatch m;
        if (std::regex_search(line, m, row))
            bySize[std::stoi(m[1])].push_back({std::stod(m[2]), std::stod(m[3]), std::stod(m[4])});
    }
    REQUIRE(bySize[128].size() == 3);   // three rounds
    REQUIRE(bySize[1024].size() == 3);
    auto mean = [&](int n, int k) {
        double s = 0;
        for (auto& r : bySize[n]) s += r[size_t(k)];
        return s / double(bySize[n].size());
    };
    // "8.9, 4.5 and 4.4 us at this size", "511 us, 81 us and 53 us", "6 times faster", "another 1.5 times".
    CHECK(mean(128, 0) == Approx(8.9).margin(0.05));
    CHECK(mean(128, 1) == Approx(4.5).margin(0.06));
    CHECK(mean(128, 2) == Approx(4.4).margin(0.05));
    CHECK(mean(1024, 0) == Approx(511).margin(1));
    CHECK(mean(1024, 1) == Approx(81).margin(1));
    CHECK(mean(1024, 2) == Approx(53).margin(1));
    CHECK(mean(1024, 0) / mean(1024, 1) == Approx(6).margin(0.5));
    CHECK(mean(1024, 1) / mean(1024, 2) == Approx(1.5).margin(0.1));
    for (auto& r : bySize[1024]) {   // every round, not only the mean
        CHECK(r[1] < r[0]);
        CHECK(r[2] < r[1]);
    }
}
