// The divergence lesson's steps.md, claim by claim, on the simulator's counters and on the
// per-warp record of what each warp issued. Default parameters (N = 64, BLOCK = 64: two warps)
// unless a test says otherwise.
#include "lessons/lesson_trace.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <sstream>

using namespace warpscope;
using wst::IssuedInstr;

namespace {
const char* kDiv = "smsp__sass_branch_targets_threads_divergent.sum";
const char* kEff = "smsp__thread_inst_executed_per_inst_executed.ratio";
const char* kInst = "smsp__inst_executed.sum";
const char* kSectorsPerReq = "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio";

// The line of lessons/divergence/kernel.cu that contains `text` (the n-th such line, from 1),
// so the line numbers steps.md quotes are checked against the source too.
uint32_t lineOf(const std::string& text, int nth = 1) {
    std::istringstream in(wst::readFile(wst::sourcePath("lessons/divergence/kernel.cu")));
    std::string l;
    for (uint32_t n = 1; std::getline(in, l); ++n)
        if (l.find(text) != std::string::npos && --nth == 0) return n;
    FAIL("kernel.cu has no line containing " << text);
    return 0;
}

uint32_t lanesOf(uint32_t mask) { return static_cast<uint32_t>(std::popcount(mask)); }

// Warp-instructions and executing lanes of the given lines, over a list of issued instructions.
struct LineSum {
    uint64_t instr = 0, lanes = 0;
    double perInstr() const { return instr ? double(lanes) / double(instr) : 0; }
};
LineSum sumLines(const std::vector<IssuedInstr>& v, std::set<uint32_t> lines) {
    LineSum s;
    for (auto& r : v)
        if (lines.count(r.line)) {
            ++s.instr;
            s.lanes += uint64_t(r.lanes());
        }
    return s;
}

int collatzSteps(uint64_t x) {
    int n = 0;
    for (; x != 1; ++n) x = (x % 2 == 0) ? x / 2 : 3 * x + 1;
    return n;
}

const uint32_t kEven = 0x55555555u, kOdd = 0xAAAAAAAAu, kAll = 0xFFFFFFFFu;
} // namespace

TEST_CASE("divergence: the line numbers steps.md quotes", "[lessons]") {
    CHECK(lineOf("if (threadIdx.x % 2 == 0)") == 9);
    CHECK(lineOf("atomicAdd(&counters[0]") == 10);
    CHECK(lineOf("v = v * 2;") == 11);
    CHECK(lineOf("atomicAdd(&counters[1]") == 13);
    CHECK(lineOf("v = v + 100;") == 14);
    CHECK(lineOf("__syncthreads();") == 18);
    CHECK(lineOf("int v = e < n ? in[e] : 0;") == 30);
    CHECK(lineOf("if (warp % 2 == 0)") == 32);
    CHECK(lineOf("atomicAdd(&counters[0]", 2) == 33);
    CHECK(lineOf("v = v + 100;", 2) == 37);
    CHECK(lineOf("while (x != 1)") == 53);
    CHECK(lineOf("steps[i] = count;") == 61);
    CHECK(lineOf("steps[i] = count;") + 1 == 62);   // the closing brace: collatz's ret
}

TEST_CASE("divergence: warp 0 splits on line 9, the odd lanes' else runs first, 16 lanes a side, 32 at the barrier", "[lessons]") {
    auto run = wst::runTraced("divergence", {});
    REQUIRE(run.result.allChecksPassed());
    REQUIRE(run.launches.size() == 3);
    REQUIRE(run.result.launches[0].kernel == "diverge");
    auto w0 = run.launch(0).issued.warp(0, 0);
    REQUIRE_FALSE(w0.empty());

    // Step 1: up to line 9 all 32 lanes are active together, and line 9's branch splits the warp.
    auto split = std::find_if(w0.begin(), w0.end(), [](auto& r) { return r.divergent; });
    REQUIRE(split != w0.end());
    CHECK(split->line == 9);
    CHECK(split->activeMask == kAll);
    for (auto it = w0.begin(); it != split; ++it) CHECK(it->activeMask == kAll);

    // Steps 2-3: the else side (lines 13, 14) with the odd lanes, then the if side (10, 11) with
    // the even ones; every instruction of the else side issues before the first of the if side.
    uint64_t lastElse = 0, firstIf = ~0ull;
    for (auto& r : w0) {
        if (r.line == 13 || r.line == 14) {
            CHECK(r.activeMask == kOdd);
            lastElse = std::max(lastElse, r.index);
        }
        if (r.line == 10 || r.line == 11) {
            CHECK(r.activeMask == kEven);
            firstIf = std::min(firstIf, r.index);
        }
    }
    CHECK(lastElse < firstIf);
    // "When warp 0 reaches line 11": 16 active lanes (the even ones), the odd 16 done and waiting.
    auto at11 = std::find_if(w0.begin(), w0.end(), [](auto& r) { return r.line == 11; });
    REQUIRE(at11 != w0.end());
    CHECK(lanesOf(at11->activeMask) == 16);
    CHECK(at11->activeMask == kEven);
    // The barrier on line 18: all 32 lanes together again.
    auto bar = std::find_if(w0.begin(), w0.end(), [](auto& r) { return r.line == 18; });
    REQUIRE(bar != w0.end());
    CHECK(bar->activeMask == kAll);

    // The Divergence summary: 2 divergent branches on line 9 (one per warp), 16.0 lanes on lines
    // 10 to 14, and 27.6 active lanes per instruction over the launch.
    auto lines = run.launch(0).counters.byLine();
    const auto& all0 = run.launch(0).issued.all;
    uint64_t div9 = 0, divAll = 0;
    for (auto& r : all0) {
        divAll += r.divergent;
        div9 += r.divergent && r.line == 9;
    }
    CHECK(div9 == 2);
    CHECK(divAll == 2);
    CHECK(run.launch(0).metric(kDiv) == 2);
    CHECK(sumLines(all0, {10, 11, 13, 14}).perInstr() == 16.0);
    CHECK(run.launch(0).metric(kEff) == Approx(27.6).margin(0.05));
    CHECK(run.launch(0).metric(kEff) < 31);
}

TEST_CASE("divergence: uniform does the same work with no divergence and 32 lanes per instruction", "[lessons]") {
    auto run = wst::runTraced("divergence", {});
    REQUIRE(run.result.launches[1].kernel == "uniform");
    auto& u = run.launch(1);
    // The same results (the lesson's check, and here element by element).
    CHECK(run.buffer<int32_t>("out_uniform") == run.buffer<int32_t>("out"));
    CHECK(run.buffer<int32_t>("counters_uniform") == run.buffer<int32_t>("counters"));
    // No divergent branch; 32.0 lanes per instruction issued (27.6 in diverge).
    CHECK(u.metric(kDiv) == 0);
    CHECK(u.metric(kEff) == 32.0);
    CHECK(run.launch(0).metric(kEff) < u.metric(kEff));
    // Warp 0 takes the even elements and the if side only, warp 1 the odd elements and the else
    // side only; lines 33 to 37 run with 32 lanes.
    auto w0 = u.issued.warp(0, 0), w1 = u.issued.warp(0, 1);
    CHECK(sumLines(w0, {33, 34}).instr > 0);
    CHECK(sumLines(w0, {36, 37}).instr == 0);
    CHECK(sumLines(w1, {36, 37}).instr > 0);
    CHECK(sumLines(w1, {33, 34}).instr == 0);
    CHECK(sumLines(u.issued.all, {33, 34, 36, 37}).perInstr() == 32.0);
    auto store = [](const std::vector<IssuedInstr>& v) {
        for (auto& r : v)
            if (r.isStore && r.line == 42) return r;
        FAIL("no store on line 42");
        return IssuedInstr{};
    };
    auto s0 = store(w0), s1 = store(w1);
    REQUIRE(s0.execMask == kAll);
    REQUIRE(s1.execMask == kAll);
    for (uint32_t k = 0; k < 32; ++k) {
        CHECK(s0.addresses[k] - s0.addresses[0] == 8 * k);        // out[2k]
        CHECK(s1.addresses[k] - s0.addresses[0] == 8 * k + 4);    // out[2k + 1]
    }
    // What it costs: 101 warp-instructions against 80, and 8 sectors per load request against 4.
    CHECK(run.launch(0).metric(kInst) == 80);
    CHECK(u.metric(kInst) == 101);
    CHECK(run.launch(0).metric(kSectorsPerReq) == 4.0);
    CHECK(u.metric(kSectorsPerReq) == 8.0);
    // The load the Global access panel shows at line 32: warp 0's load on line 30 spans 256 bytes.
    for (auto& r : w0)
        if (r.isLoad && r.line == 30) CHECK(r.addresses[31] - r.addresses[0] == 248);
}

TEST_CASE("divergence: the Collatz loop runs as long as the slowest lane; no branch inside its body", "[lessons]") {
    auto run = wst::runTraced("divergence", {});
    REQUIRE(run.result.launches[2].kernel == "collatz");
    auto steps = run.buffer<int32_t>("steps");
    CHECK(steps.at(0) == 0);     // lane 0, input 1
    CHECK(steps.at(26) == 111);  // lane 26, input 27
    auto& c = run.launch(2);
    const uint32_t body = lineOf("++count;");
    auto w0 = c.issued.warp(0, 0), w1 = c.issued.warp(0, 1);
    // ++count issues once per iteration of the warp: 111 for warp 0, 112 for warp 1.
    CHECK(sumLines(w0, {body}).instr == 111);
    CHECK(sumLines(w1, {body}).instr == 112);
    CHECK(*std::max_element(steps.begin(), steps.begin() + 32) == 111);
    // Warp 0's lanes need 552 iterations between them: about 5 lanes doing work in the loop.
    CHECK(sumLines(w0, {body}).lanes == 552);
    CHECK(sumLines(w0, {53, 54, 55, 57, 58}).perInstr() == Approx(5.0).margin(0.1));
    // Over both warps the loop lines average 7.6.
    CHECK(sumLines(c.issued.all, {53, 54, 55, 57, 58}).perInstr() == Approx(7.6).margin(0.05));
    // Lane 0 never enters the loop; lane 26 is in it for all 111 iterations.
    int lane0 = 0, lane26 = 0;
    for (auto& r : w0)
        if (r.line == body) {
            lane0 += (r.execMask >> 0) & 1;
            lane26 += (r.execMask >> 26) & 1;
        }
    CHECK(lane0 == 0);
    CHECK(lane26 == 111);
    // The if inside the loop became a selp: no branch instruction on lines 54 to 58; the only
    // divergent branches are the loop's own (line 53).
    for (auto& r : c.issued.all) {
        if (r.line >= 54 && r.line <= 58) CHECK_FALSE(r.branch);
        if (r.divergent) CHECK(r.line == 53);
    }
    CHECK(c.metric(kDiv) > 0);
    std::string ptx = wst::readFile(wst::sourcePath("lessons/divergence/kernel.ptx"));
    auto collatz = ptx.substr(ptx.find(".entry collatz"));
    CHECK(collatz.find("selp.b64") != std::string::npos);
    // ... while diverge and uniform keep a real branch (nvcc did not turn them into selects).
    auto diverge = ptx.substr(ptx.find(".entry diverge"), ptx.find(".entry uniform") - ptx.find(".entry diverge"));
    CHECK(diverge.find("@%p5 bra \t$L__BB0_4") != std::string::npos);   // the branch steps.md names
    CHECK(diverge.find("bra.uni") != std::string::npos);
}

TEST_CASE("divergence: BLOCK does not change the divergence (N = 1024)", "[lessons]") {
    std::vector<double> collatzDiv, collatzInst, collatzEff;
    for (int block : {32, 64, 128, 256}) {
        INFO("BLOCK " << block);
        auto run = wst::runTraced("divergence", {{"N", "1024"}, {"BLOCK", std::to_string(block)}}, nullptr, false);
        for (auto& c : run.result.checks) {
            INFO(c.buffer << ": " << c.detail);
            CHECK(c.passed);
        }
        REQUIRE(run.launches.size() == 3);
        CHECK(run.launch(0).metric(kDiv) == 32);   // one per warp, 32 warps
        CHECK(run.launch(1).metric(kDiv) == 0);
        CHECK(run.launch(1).metric(kEff) == 32.0);
        CHECK(run.launch(0).metric(kEff) == Approx(27.6).margin(0.05));
        collatzDiv.push_back(run.launch(2).metric(kDiv));
        collatzInst.push_back(run.launch(2).metric(kInst));
        collatzEff.push_back(run.launch(2).metric(kEff));
    }
    for (size_t k = 1; k < collatzDiv.size(); ++k) {
        CHECK(collatzDiv[k] == collatzDiv[0]);
        CHECK(collatzInst[k] == collatzInst[0]);
        CHECK(collatzEff[k] == collatzEff[0]);
    }
    CHECK(collatzDiv[0] > 32);
}

TEST_CASE("divergence: every output against a CPU reference, at sizes that are not multiples of 64", "[lessons]") {
    // 120000 passes 113383, the first input whose sequence climbs past 2^31 (it needs 64 bits).
    for (auto [n, block] : {std::pair{16, 32}, std::pair{1000, 32}, std::pair{4099, 256}, std::pair{120000, 256}}) {
        INFO("N " << n << " BLOCK " << block);
        auto run = wst::runTraced("divergence", {{"N", std::to_string(n)}, {"BLOCK", std::to_string(block)}}, nullptr, false);
        for (auto& c : run.result.checks) {
            INFO(c.buffer << ": " << c.detail);
            CHECK(c.passed);
        }
        std::vector<int32_t> out(static_cast<size_t>(n)), steps(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) {
            int v = i + 1;   // in = iota from 1
            out[size_t(i)] = i % 2 == 0 ? v * 2 : v + 100;
            steps[size_t(i)] = collatzSteps(uint64_t(v));
        }
        const std::vector<int32_t> counters = {(n + 1) / 2, n / 2};
        CHECK(run.buffer<int32_t>("out") == out);
        CHECK(run.buffer<int32_t>("out_uniform") == out);
        CHECK(run.buffer<int32_t>("counters") == counters);
        CHECK(run.buffer<int32_t>("counters_uniform") == counters);
        CHECK(run.buffer<int32_t>("steps") == steps);
    }
}
