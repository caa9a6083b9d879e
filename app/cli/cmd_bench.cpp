// warpscope bench: how fast the interpreter runs, as simulated thread-instructions per second
// (one core, counting on: a per-line statistics listener sees every Step), next to the same
// computation written as a plain C++ loop, so the interpretive overhead is a ratio; and the same
// launches with the blocks spread over --threads T threads (default: every core). --only picks
// groups of lines (sim, all-cores, timed), so a scaling run need not repeat the one-core lines.
// Not a timed test: it prints numbers (medians of several runs).
#include "cli.hpp"
#include "base/files.hpp"
#include "base/error.hpp"
#include "runtime/lesson.hpp"
#include "run/run.hpp"
#include "runtime/sim_device.hpp"
#include "timing/cycle_model.hpp"
#include "trace/line_stats.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

using namespace warpscope;

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

std::string readText(const fs::path& p) {
    std::optional<std::string> text = base::readFile(p);
    if (!text) throw Error(Error::Kind::Input, "bench: cannot read " + p.string());
    return std::move(*text);
}

template <class T>
runtime::ParamBytes arg(T v) {
    runtime::ParamBytes b(sizeof v);
    std::memcpy(b.data(), &v, sizeof v);
    return b;
}

struct SimRun {
    double seconds;
    uint64_t threadInstructions;
};

// Runs one launch on a fresh simulator with inputs filled by `fill`; returns time and count.
SimRun simLaunch(const std::string& ptx, const std::string& kernel, const runtime::LaunchConfig& cfg,
                 const std::vector<std::pair<size_t, float>>& buffers, const std::vector<runtime::ParamBytes>& scalars, bool counting,
                 const timing::GpuSpec* timedOn = nullptr, uint32_t threads = 1) {
    sim::LaunchOptions opt;
    opt.threads = threads;
    runtime::SimDevice dev(opt);
    dev.loadModule(ptx, kernel);
    std::vector<runtime::ParamBytes> params;
    for (size_t i = 0; i < buffers.size(); ++i) {
        auto [count, value] = buffers[i];
        runtime::DevPtr p = dev.malloc(count * 4, "buf" + std::to_string(i));
        std::vector<float> host(count);
        for (size_t k = 0; k < count; ++k) host[k] = value + float(k % 97) * 0.25f;
        dev.memcpyHtoD(p, host.data(), count * 4);
        params.push_back(arg(p));
    }
    for (auto& s : scalars) params.push_back(s);
    trace::LineStatsCollector collector;
    // Timed mode: the cycle model chooses the issue order (and the same listener counts).
    if (counting || timedOn)
        dev.onLaunch = [&](sim::Gpu& g) {
            run::LaunchPipeline::Setup s;
            s.gpu = timedOn;
            s.timed = timedOn != nullptr;
            if (counting) s.observers.push_back(&collector);
            run::LaunchPipeline(g, s).run(threads);
        };
    auto t0 = std::chrono::steady_clock::now();
    runtime::LaunchResult r = dev.launch(kernel, cfg, params);
    auto t1 = std::chrono::steady_clock::now();
    return {std::chrono::duration<double>(t1 - t0).count(), r.threadInstructions};
}

} // namespace

int runBench(int argc, char** argv, const fs::path& lessonsDir) {
    bool quick = false;
    bool doSim = true, doAll = true, doTimed = true;
    uint32_t threads = std::max(1u, std::thread::hardware_concurrency());
    for (int i = 0; i < argc; ++i) {
        if (std::strcmp(argv[i], "--quick") == 0) {
            quick = true;
        } else if (std::strcmp(argv[i], "--threads") == 0) {
            char* end = nullptr;
            long t = i + 1 < argc ? std::strtol(argv[i + 1], &end, 10) : 0;
            if (t < 1 || t > 1024 || !end || *end) throw Error(Error::Kind::Input, "bench: --threads needs a number from 1 to 1024.");
            threads = static_cast<uint32_t>(t);
            ++i;
        } else if (std::strcmp(argv[i], "--only") == 0) {
            std::string groups = i + 1 < argc ? argv[++i] : "";
            doSim = doAll = doTimed = false;
            std::stringstream ss(groups);
            for (std::string g; std::getline(ss, g, ',');) {
                if (g == "sim") doSim = true;
                else if (g == "all-cores") doAll = true;
                else if (g == "timed") doTimed = true;
                else throw Error(Error::Kind::Input, "bench: --only takes sim, all-cores and timed, separated by commas; got '" + groups + "'.");
            }
        } else {
            throw Error(Error::Kind::Input, std::string("bench: unknown option '") + argv[i] + "' (use --quick, --threads T, --only GROUPS).");
        }
    }
    if (lessonsDir.empty()) throw Error(Error::Kind::Input, "bench: no lessons folder found (set WARPSCOPE_LESSONS).");
    const int reps = quick ? 1 : 3;
    const int vaddN = quick ? (1 << 18) : (1 << 22);
    const int mm = quick ? 128 : 512;

    std::string vaddPtx = readText(lessonsDir / "vector-add" / "kernel.ptx");
    const timing::GpuSpec timedGpu = timing::resolvePreset();
    std::vector<double> vTimedT, mTimedT;
    std::string mmPtx = readText(lessonsDir / "matmul" / "kernel.ptx");

    // --- vector add ---
    std::vector<double> simT, simNoCountT, nativeT, vAllT, mAllT;
    uint64_t vaddInsts = 0;
    for (int r = 0; r < reps; ++r) {
        runtime::LaunchConfig cfg;
        cfg.block.x = 256;
        cfg.grid.x = static_cast<uint32_t>((vaddN + 255) / 256);
        auto vadd = [&](bool counting, const timing::GpuSpec* timedOn, uint32_t t) {
            SimRun s = simLaunch(vaddPtx, "vadd", cfg, {{vaddN, 1.0f}, {vaddN, 2.0f}, {vaddN, 0.0f}}, {arg(int32_t(vaddN))}, counting, timedOn, t);
            vaddInsts = s.threadInstructions;
            return s.seconds;
        };
        if (doSim) {
            simT.push_back(vadd(true, nullptr, 1));
            simNoCountT.push_back(vadd(false, nullptr, 1));
        }
        if (doAll) vAllT.push_back(vadd(true, nullptr, threads));
        if (doTimed) vTimedT.push_back(vadd(true, &timedGpu, 1));
        if (!doSim) continue;
        std::vector<float> a(vaddN), b(vaddN), c(vaddN);
        for (int i = 0; i < vaddN; ++i) {
            a[size_t(i)] = 1.0f + float(i % 97) * 0.25f;
            b[size_t(i)] = 2.0f + float(i % 97) * 0.25f;
        }
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < vaddN; ++i) c[size_t(i)] = a[size_t(i)] + b[size_t(i)];
        auto t1 = std::chrono::steady_clock::now();
        volatile float sink = c[size_t(vaddN / 2)];
        (void)sink;
        nativeT.push_back(std::chrono::duration<double>(t1 - t0).count());
    }

    // --- tiled matrix multiply ---
    std::vector<double> mSimT, mNativeT;
    uint64_t mmInsts = 0;
    for (int r = 0; r < reps; ++r) {
        runtime::LaunchConfig cfg;
        cfg.block = {16, 16, 1};
        cfg.grid = {static_cast<uint32_t>(mm / 16), static_cast<uint32_t>(mm / 16), 1};
        size_t n = size_t(mm) * size_t(mm);
        auto matmul = [&](const timing::GpuSpec* timedOn, uint32_t t) {
            SimRun s = simLaunch(mmPtx, "matmul_tiled", cfg, {{n, 1.0f}, {n, 0.5f}, {n, 0.0f}},
                                 {arg(int32_t(mm)), arg(int32_t(mm)), arg(int32_t(mm))}, true, timedOn, t);
            mmInsts = s.threadInstructions;
            return s.seconds;
        };
        if (doSim) mSimT.push_back(matmul(nullptr, 1));
        if (doAll) mAllT.push_back(matmul(nullptr, threads));
        if (doTimed) mTimedT.push_back(matmul(&timedGpu, 1));
        if (!doSim) continue;
        std::vector<float> A(n), B(n), C(n, 0.0f);
        for (size_t k = 0; k < n; ++k) {
            A[k] = 1.0f + float(k % 97) * 0.25f;
            B[k] = 0.5f + float(k % 97) * 0.25f;
        }
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < mm; ++i)
            for (int j = 0; j < mm; ++j) {
                float acc = 0.0f;
                for (int k = 0; k < mm; ++k) acc += A[size_t(i * mm + k)] * B[size_t(k * mm + j)];
                C[size_t(i * mm + j)] = acc;
            }
        auto t1 = std::chrono::steady_clock::now();
        volatile float sink = C[n / 2];
        (void)sink;
        mNativeT.push_back(std::chrono::duration<double>(t1 - t0).count());
    }

    std::printf("# warpscope bench: %s, median of %d run(s), one core except *_all_cores (blocks spread over threads)\n",
                quick ? "quick sizes" : "full sizes", reps);
    std::printf("# vector add N=%d: %llu thread-instructions; tiled matmul %dx%d (16x16 tiles): %llu thread-instructions\n", vaddN,
                static_cast<unsigned long long>(vaddInsts), mm, mm, static_cast<unsigned long long>(mmInsts));
    auto rate = [](uint64_t insts, const std::vector<double>& t) { return double(insts) / median(t); };
    if (doSim) {
        std::printf("vector_add_sim: %.0f thread-instructions/s\n", rate(vaddInsts, simT));
        std::printf("vector_add_sim_no_listener: %.0f thread-instructions/s\n", rate(vaddInsts, simNoCountT));
        std::printf("vector_add_native: %.0f thread-instructions/s\n", rate(vaddInsts, nativeT));
        std::printf("matmul_tiled_sim: %.0f thread-instructions/s\n", rate(mmInsts, mSimT));
        std::printf("matmul_native: %.0f thread-instructions/s\n", rate(mmInsts, mNativeT));
    }
    if (doAll) {
        std::printf("vector_add_sim_all_cores: %.0f thread-instructions/s (%u threads)\n", rate(vaddInsts, vAllT), threads);
        std::printf("matmul_tiled_sim_all_cores: %.0f thread-instructions/s (%u threads)\n", rate(mmInsts, mAllT), threads);
    }
    if (doTimed) {
        std::printf("vector_add_timed: %.0f thread-instructions/s\n", rate(vaddInsts, vTimedT));
        std::printf("matmul_tiled_timed: %.0f thread-instructions/s\n", rate(mmInsts, mTimedT));
    }
    if (doSim && doTimed)
        std::printf("# timed mode: cycle model on the h100 preset, same listener; slowdown vs functional: vector add %.1fx, matmul %.1fx\n",
                    median(vTimedT) / median(simT), median(mTimedT) / median(mSimT));
    if (doSim)
        std::printf("# interpretive overhead (native / simulated): vector add %.1fx, matmul %.1fx\n", rate(vaddInsts, nativeT) / rate(vaddInsts, simT),
                    rate(mmInsts, mNativeT) / rate(mmInsts, mSimT));
    return 0;
}
