// The SIMT engine on real nvcc PTX (tests/kernels/simt.cu): results against CPU references, and
// the active masks the Step records show for divergence and reconvergence.
#include "support.hpp"

#include "base/error.hpp"
#include "runtime/lesson.hpp"
#include "sim/gpu.hpp"
#include "sim/step.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <filesystem>
#include <map>
#include <set>

using namespace warpscope;
using wst::arg;

namespace {
constexpr const char* kSimt = "tests/kernels/simt.ptx";

struct Recorder : sim::StepListener {
    std::vector<sim::Step> steps;
    void onStep(const sim::Step& s) override { steps.push_back(s); }
};

// Steps `g` to its end one instruction at a time (the lean path when no listener is attached)
// and checks after every issue that each resident warp's flat position (Warp::top, regs, preds)
// agrees with its frames. Returns the number of issues; `deepest`: the most frames seen.
uint64_t stepChecked(sim::Gpu& g, size_t* deepest = nullptr) {
    uint64_t issues = 0, bad = 0;
    auto checkAll = [&] {
        for (const auto& b : g.residentBlocks()) {
            if (!b->countersConsistent()) ++bad;   // ready and waiting warps, by barrier id
            for (const sim::Warp& w : b->warps) {
                if (!w.positionConsistent()) ++bad;
                if (deepest) *deepest = std::max(*deepest, w.frames.size());
                // The app's view of the stack ends with the top entry while the warp runs.
                if (w.state != sim::WarpState::Done && !w.frames.empty()) {
                    const auto st = w.simtStack(w.frames.size() - 1);
                    if (st.empty() || st.back().pc != w.pc() || st.back().mask != w.activeMask()) ++bad;
                }
            }
        }
    };
    checkAll();
    while (g.step()) {
        ++issues;
        checkAll();
    }
    CHECK(bad == 0);
    return issues;
}

// Runs `kernel` and records every Step.
template <class F>
Recorder recordLaunch(wst::Sim& sim, F&& launch) {
    Recorder rec;
    sim.dev.onLaunch = [&](sim::Gpu& g) { g.setListener(&rec); };
    launch();
    sim.dev.onLaunch = nullptr;
    return rec;
}

// What call_divergent writes for input v: the Collatz steps from v to 1 (at most 1000), -1 for v <= 0.
int collatzSteps(int v) {
    if (v <= 0) return -1;
    int x = v, n = 0;
    while (x != 1 && n < 1000) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        ++n;
    }
    return n;
}
} // namespace

TEST_CASE("nested if/else: every lane takes its own path and the warp reconverges", "[sim]") {
    wst::Sim sim(kSimt);
    std::vector<int> in(64);
    for (int i = 0; i < 64; ++i) in[size_t(i)] = (i * 37 + 5) % 23;
    auto din = sim.upload(in), dout = sim.upload(std::vector<int>(64, 0)), dseen = sim.upload(std::vector<int>(5, 0));
    Recorder rec = recordLaunch(sim, [&] { sim.launch("nested_branches", 1, 64, {arg(din), arg(dout), arg(dseen)}); });
    auto out = sim.download<int>(dout, 64);
    auto seen = sim.download<int>(dseen, 5);
    int count[5] = {};
    for (int i = 0; i < 64; ++i) {
        int v = in[size_t(i)];
        int code = v % 2 == 0 ? (v % 4 == 0 ? 1 : 2) : (v > 10 ? 3 : 4);
        ++count[code];
        CHECK(out[size_t(i)] == code * 100 + v);
    }
    for (int c = 1; c <= 4; ++c) CHECK(seen[size_t(c)] == count[c]);
    // The final store (source line 29) runs once per warp with every lane active again.
    int stores = 0;
    for (auto& s : rec.steps) {
        if (s.isStore) {
            ++stores;
            CHECK(s.instr->line == 29);
            CHECK(s.execMask == 0xffffffffu);
        }
    }
    CHECK(stores == 2);
    // Some branch split a warp, and no instruction ran with an empty mask.
    bool diverged = false;
    for (auto& s : rec.steps) {
        diverged = diverged || s.divergent;
        CHECK(s.activeMask != 0);
    }
    CHECK(diverged);
}

TEST_CASE("if/else on lane < 16 runs each side with half the warp", "[sim]") {
    wst::Sim sim(kSimt);
    auto dout = sim.upload(std::vector<float>(64, 0));
    auto dsides = sim.upload(std::vector<int>(2, 0));
    Recorder rec = recordLaunch(sim, [&] { sim.launch("half_warp", 1, 64, {arg(dout), arg(dsides)}); });
    CHECK(sim.download<int>(dsides, 2) == std::vector<int>{32, 32});
    auto out = sim.download<float>(dout, 64);
    for (int t = 0; t < 64; ++t) CHECK(out[size_t(t)] == (t % 32 < 16 ? t * 2.0f : t * 0.5f) + 1.0f);
    std::map<uint32_t, std::set<uint32_t>> masksByLine;
    uint64_t divergent = 0;
    for (auto& s : rec.steps) {
        if (s.warp != 0) continue;
        masksByLine[s.instr->line].insert(s.activeMask);
        if (s.divergent) ++divergent;
    }
    CHECK(divergent == 1);   // one divergent branch per warp, as the hardware counts it
    CHECK(masksByLine[66].count(0x0000ffffu) == 1);   // v = t * 2.0f
    CHECK(masksByLine[69].count(0xffff0000u) == 1);   // v = t * 0.5f
    CHECK(masksByLine[72] == std::set<uint32_t>{0xffffffffu});   // reconverged: out[t] = v + 1
}

TEST_CASE("loops with data-dependent trip counts, continue and break", "[sim]") {
    wst::Sim sim(kSimt);
    const int n = 96;
    std::vector<int> trips(n);
    for (int i = 0; i < n; ++i) trips[size_t(i)] = (i * 13) % 40;
    auto dtrips = sim.upload(trips), dout = sim.upload(std::vector<int>(n, -7));
    auto r = sim.launch("data_loop", 3, 32, {arg(dtrips), arg(dout)});
    auto out = sim.download<int>(dout, n);
    for (int t = 0; t < n; ++t) {
        int acc = 0;
        for (int k = 0; k < trips[size_t(t)]; ++k) {
            if (k % 3 == 1) continue;
            acc += k * k + t;
            if (acc > 5000) break;
        }
        CHECK(out[size_t(t)] == acc);
    }
    CHECK(r.divergentBranches > 0);
    CHECK(r.threadInstructions < r.warpInstructions * 32);   // lanes sat idle while others looped
}

TEST_CASE("early exit: exited lanes stay gone, the others finish", "[sim]") {
    wst::Sim sim(kSimt);
    const int n = 100;
    auto dout = sim.upload(std::vector<int>(128, -1));
    sim.launch("early_exit", 2, 64, {arg(dout), arg(int32_t(n))});
    auto out = sim.download<int>(dout, 128);
    for (int i = 0; i < 128; ++i) CHECK(out[size_t(i)] == ((i < n && (i & 3) != 0) ? i * 3 : -1));
}

TEST_CASE("__syncthreads tree reduction in dynamic shared memory", "[sim]") {
    wst::Sim sim(kSimt);
    const int blocks = 5, threads = 256;
    std::vector<int> in(size_t(blocks * threads));
    for (size_t i = 0; i < in.size(); ++i) in[i] = int((i * 2654435761u) % 1000);
    auto din = sim.upload(in), dout = sim.upload(std::vector<int>(blocks, 0));
    auto r = sim.launch("block_sum", blocks, threads, {arg(din), arg(dout)}, threads * 4);
    auto out = sim.download<int>(dout, blocks);
    for (int b = 0; b < blocks; ++b) {
        int s = 0;
        for (int t = 0; t < threads; ++t) s += in[size_t(b * threads + t)];
        CHECK(out[size_t(b)] == s);
    }
    CHECK(sim.dev.lastStats().barriers == uint64_t(blocks) * 9);   // 1 + log2(256) barriers per block
}

TEST_CASE("atomics under contention give exact totals", "[sim]") {
    wst::Sim sim(kSimt);
    const int blocks = 4, threads = 128, total = blocks * threads;
    auto counters = sim.upload(std::vector<int>{0, 0, 0, 0, 0, 0}, "counters");
    auto wrap = sim.upload(std::vector<unsigned>{0, 0}, "wrap");
    auto maxv = sim.upload(std::vector<int>{INT32_MIN, INT32_MAX}, "maxv");
    auto big = sim.upload(std::vector<unsigned long long>{0}, "big");
    sim.launch("contention", blocks, threads, {arg(counters), arg(wrap), arg(maxv), arg(big)});
    auto c = sim.download<int>(counters, 6);
    auto w = sim.download<unsigned>(wrap, 2);
    auto m = sim.download<int>(maxv, 2);
    auto b = sim.download<unsigned long long>(big, 1);
    CHECK(c[0] == total);
    CHECK(c[1] == -2 * total);
    int orv = 0, xorv = 0, mx = INT32_MIN, mn = INT32_MAX;
    for (int i = 0; i < total; ++i) {
        orv |= 1 << (i % 31);
        xorv ^= i;
        mx = std::max(mx, (i * 7919) % 1000);
        mn = std::min(mn, -((i * 104729) % 1000));
    }
    CHECK(c[2] == orv);
    CHECK(c[3] == xorv);
    CHECK(c[4] == 3 * total);     // the CAS loop only adds up if every CAS is atomic
    CHECK(c[5] == total);         // shared-memory atomics, summed per block
    CHECK(w[0] == unsigned(total % 100));        // atomicInc wraps at 99
    unsigned dec = 0;
    for (int i = 0; i < total; ++i) dec = (dec == 0 || dec > 7) ? 7 : dec - 1;
    CHECK(w[1] == dec);
    CHECK(m[0] == mx);
    CHECK(m[1] == mn);
    CHECK(b[0] == (unsigned long long)total << 33);
}

TEST_CASE("shuffles and votes", "[sim]") {
    wst::Sim sim(kSimt);
    const int n = 64;
    std::vector<int> in(n);
    for (int i = 0; i < n; ++i) in[size_t(i)] = (i * 29 + 3) % 100;
    auto din = sim.upload(in), dout = sim.upload(std::vector<int>(size_t(n) * 8, 0));
    sim.launch("warp_ops", 1, n, {arg(din), arg(dout)});
    auto out = sim.download<int>(dout, size_t(n) * 8);
    for (int t = 0; t < n; ++t) {
        int w = t / 32 * 32, lane = t % 32;
        auto at = [&](int l) { return in[size_t(w + l)]; };
        const int* o = &out[size_t(t) * 8];
        CHECK(o[0] == (lane + 3 < 32 ? at(lane + 3) : at(lane)));
        CHECK(o[1] == (lane >= 5 ? at(lane - 5) : at(lane)));
        CHECK(o[2] == at(lane ^ 6));
        CHECK(o[3] == at((lane * 7) & 31));
        CHECK(o[4] == ((lane % 8) + 1 < 8 ? at(lane + 1) : at(lane)));
        unsigned ballot = 0;
        bool all = true, any = false;
        int sum = 0;
        for (int l = 0; l < 32; ++l) {
            if (at(l) > 50) ballot |= 1u << l;
            all = all && at(l) >= 0;
            any = any || at(l) > 95;
            sum += at(l);
        }
        CHECK(unsigned(o[5]) == ballot);
        CHECK(o[6] == int(all) + 2 * int(any));
        CHECK(o[7] == sum);
    }
}

TEST_CASE("votes in divergent code see only the active lanes", "[sim]") {
    wst::Sim sim(kSimt);
    std::vector<int> in(32);
    for (int i = 0; i < 32; ++i) in[size_t(i)] = (i * 11) % 64;
    auto din = sim.upload(in), dout = sim.upload(std::vector<unsigned>(32, 0));
    sim.launch("divergent_vote", 1, 32, {arg(din), arg(dout)});
    auto out = sim.download<unsigned>(dout, 32);
    unsigned odd = 0, evenBig = 0;
    for (int l = 0; l < 32; ++l) {
        if (in[size_t(l)] & 1) odd |= 1u << l;
        else if (in[size_t(l)] > 40) evenBig |= 1u << l;
    }
    for (int l = 0; l < 32; ++l) CHECK(out[size_t(l)] == ((in[size_t(l)] & 1) ? odd : evenBig));
}

TEST_CASE(".func called from divergent code", "[sim]") {
    wst::Sim sim(kSimt);
    std::vector<int> in(64);
    for (int i = 0; i < 64; ++i) in[size_t(i)] = i % 5 == 0 ? -i : i * 3 + 1;
    auto din = sim.upload(in), dout = sim.upload(std::vector<int>(64, 0));
    sim.launch("call_divergent", 1, 64, {arg(din), arg(dout)});
    auto out = sim.download<int>(dout, 64);
    for (int t = 0; t < 64; ++t) CHECK(out[size_t(t)] == collatzSteps(in[size_t(t)]));
}

TEST_CASE("stepping controls: one instruction, a source line, to the next barrier", "[sim]") {
    wst::Sim sim(kSimt);
    const sim::Program& prog = sim.dev.program("block_sum");
    std::vector<int> in(64, 1);
    auto din = sim.upload(in), dout = sim.upload(std::vector<int>(1, 0));
    runtime::LaunchConfig cfg;
    cfg.grid.x = 1;
    cfg.block.x = 64;
    cfg.dynamicSharedBytes = 256;
    sim::Gpu gpu(prog, sim.dev.memory(), cfg, {arg(din), arg(dout)});
    REQUIRE(gpu.step());
    CHECK(gpu.stepCount() == 1);
    // Step warp 0 of resident block 0 to its next source line.
    uint32_t before = prog.code[size_t(gpu.residentBlocks()[0]->warps[0].pc())].line;
    REQUIRE(gpu.stepLine(0, 0));
    uint32_t after = prog.code[size_t(gpu.residentBlocks()[0]->warps[0].pc())].line;
    CHECK(after != before);
    uint64_t barriersBefore = gpu.stats().barriers;
    REQUIRE(gpu.runToBarrier());
    CHECK(gpu.stats().barriers == barriersBefore + 1);
    gpu.run();
    CHECK(gpu.state() == sim::LaunchState::Finished);
    CHECK(sim.download<int>(dout, 1)[0] == 64);
}

TEST_CASE("the same launch gives the same trace twice (determinism)", "[sim]") {
    auto once = [] {
        wst::Sim sim(kSimt);
        std::vector<int> trips(64);
        for (int i = 0; i < 64; ++i) trips[size_t(i)] = (i * 7) % 19;
        auto d = sim.upload(trips), o = sim.upload(std::vector<int>(64, 0));
        Recorder rec = recordLaunch(sim, [&] { sim.launch("data_loop", 2, 32, {arg(d), arg(o)}); });
        std::vector<std::tuple<uint32_t, int32_t, uint32_t>> t;
        for (auto& s : rec.steps) t.emplace_back(s.warp, s.pc, s.activeMask);
        return t;
    };
    CHECK(once() == once());
}

TEST_CASE("the flat warp position agrees with the frames after every issue: SIMT kernels with calls, exits, barriers", "[sim][flat]") {
    // call_divergent pushes and pops a .func frame from divergent code; early_exit, block_sum and
    // nested_branches exit, wait at barriers and diverge. Stepped on the lean path and with a
    // Step listener (the general path); results as in the tests above.
    for (bool watched : {false, true}) {
        INFO((watched ? "with a Step listener" : "lean path"));
        wst::Sim sim(kSimt);
        Recorder rec;
        size_t deepest = 0;
        uint64_t issues = 0;
        sim.dev.onLaunch = [&](sim::Gpu& g) {
            if (watched) g.setListener(&rec);
            issues += stepChecked(g, &deepest);
        };
        std::vector<int> in(64);
        for (int i = 0; i < 64; ++i) in[size_t(i)] = i % 5 == 0 ? -i : i * 3 + 1;
        auto din = sim.upload(in), dout = sim.upload(std::vector<int>(64, 0));
        sim.launch("call_divergent", 1, 64, {arg(din), arg(dout)});
        CHECK(deepest == 2);
        auto out = sim.download<int>(dout, 64);
        for (int t = 0; t < 64; ++t) CHECK(out[size_t(t)] == collatzSteps(in[size_t(t)]));
        std::vector<int> ones(64, 1);
        auto dsum = sim.upload(std::vector<int>(1, 0));
        sim.launch("block_sum", 1, 64, {arg(sim.upload(ones)), arg(dsum)}, 256);
        CHECK(sim.download<int>(dsum, 1)[0] == 64);
        auto dseen = sim.upload(std::vector<int>(5, 0));
        sim.launch("nested_branches", 1, 64, {arg(din), arg(dout), arg(dseen)});
        CHECK(issues > 0);
        if (watched) CHECK(rec.steps.size() == issues);
    }
}

TEST_CASE("the flat warp position agrees with the frames after every issue: every lesson and planted bug", "[sim][flat][lessons]") {
    const std::vector<std::string> specs = wst::everySpec();
    REQUIRE(specs.size() >= 60);
    for (const auto& spec : specs) {
        INFO(spec);
        // Stepped on the lean path with checks; then run to the end as usual: same memory,
        // statistics and error.
        const wst::LessonOutcome stepped = wst::runLessonSpec(spec, false, [&](sim::Gpu& g) { stepChecked(g); });
        const wst::LessonOutcome plain = wst::runLessonSpec(spec, false);
        CHECK(stepped.memory == plain.memory);
        CHECK(stepped.stats == plain.stats);
        CHECK(stepped.error == plain.error);
    }
}
