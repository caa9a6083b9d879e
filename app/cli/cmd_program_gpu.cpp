// A whole CUDA program on the real GPU and beside the simulator:
//   warpscope run prog.cu --backend gpu [--save-run FILE] [-- ARGS]
//   warpscope compare prog.cu [--gpu-run FILE] [-- ARGS]
//
// --backend gpu builds the same sources (-I, -D) with the CUDA toolkit's nvcc (-arch=native) and
// runs the executable natively, so its kernels are nvcc's code for this GPU; a launch timer linked
// in (engine/cudart/gpu_build.cpp) times each launch with CUDA events on its stream. The program
// runs with the CPU-time and wall-clock limits and a private folder, but without bubblewrap (whose
// /dev has no GPU) and without an address-space limit (the CUDA driver reserves terabytes of
// virtual memory): it is the learner's program on their own GPU, as nvcc's executable would be.
//
// compare runs the simulator (every kernel through the cycle model: WARPSCOPE_TIMED=1, its
// per-launch lines on stderr) and the GPU, then shows both stdouts side by side (differing lines
// marked) and each launch in issue order: predicted time, measured time, the simulator's counts.
// --gpu-run takes the GPU side from a run saved with --save-run (the GPU machine may have no clang
// for the simulator's build; scripts/compare-programs.sh records that way).
#include "cli.hpp"
#include "base/files.hpp"
#include "program_args.hpp"

#include "base/data_dir.hpp"
#include "hw/cuda_device.hpp"
#include "runtime/device.hpp"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

using namespace warpscope;
using nlohmann::json;

namespace {

struct CapturedRun {
    bool started = false;
    std::string startError;
    sandbox::Result result;
    std::string out, err, status;
};

// Runs the spec with stdout and stderr read into strings as they come (echoed where asked).
CapturedRun runCaptured(sandbox::Spec spec, bool echo, const std::string& launchesFile = "", std::string* launchesText = nullptr) {
    CapturedRun c;
    spec.captureOutput = true;
    sandbox::Runner run(spec);
    if (!run.start(&c.startError)) return c;
    c.started = true;
    run.pump([&](bool isOut, const char* data, size_t size) {
        (isOut ? c.out : c.err).append(data, size);
        if (echo) {
            std::fwrite(data, 1, size, isOut ? stdout : stderr);
            std::fflush(isOut ? stdout : stderr);
        }
    });
    c.result = run.result();
    std::ifstream st(run.workDir() + "/.warpscope-status");
    std::getline(st, c.status);
    if (launchesText && !launchesFile.empty()) {
        *launchesText = base::readFile(run.workDir() + "/" + launchesFile).value_or("");
        std::error_code ec;
        if (!spec.workDir.empty()) fs::remove(run.workDir() + "/" + launchesFile, ec);   // the learner's folder keeps only the program's files
    }
    return c;
}

std::string exitText(const CapturedRun& c) {
    if (!c.started) return "did not start: " + c.startError;
    const sandbox::Result& r = c.result;
    if (r.limit != sandbox::Limit::None) return r.message;
    if (!r.exited) return "ended by signal " + std::to_string(r.signal);
    std::string t = "exit code " + std::to_string(r.exitCode);
    if (c.status == "fault") t += " (a kernel faulted)";
    if (c.status == "check") t += " (a checker reported)";
    return t;
}

// Why the GPU side cannot run here ("" when nvcc and a GPU are both present).
std::string gpuUnavailable() {
    std::string why;
    if (cudart::findNvcc().empty())
        why = "the CUDA toolkit's nvcc is not installed (looked on PATH, in $CUDA_PATH/bin and /usr/local/cuda/bin; $WARPSCOPE_NVCC names it)";
    if (std::string gpu = hw::cudaAvailability(); !gpu.empty()) why += (why.empty() ? "" : "; ") + gpu;
    return why;
}

struct GpuRun {
    bool ok = false;
    std::string why;               // when not ok
    std::string device, nvcc;
    CapturedRun run;
    json launches = json::array();
};

GpuRun runOnGpu(ProgramArgs& a, bool echo) {
    GpuRun g;
    if (std::string why = gpuUnavailable(); !why.empty()) {
        g.why = why;
        return g;
    }
    std::string deviceWhy;
    if (auto dev = hw::openCudaDeviceOrWhy(deviceWhy)) g.device = dev->name();
    else {
        g.why = deviceWhy;
        return g;
    }
    g.nvcc = cudart::findNvcc();
    cudart::BuildOptions bo = a.build;
    bo.output.clear();
    const cudart::BuildResult b = cudart::buildProgramForGpu(bo);
    struct RemoveBuild {
        std::string exe;
        ~RemoveBuild() {
            std::error_code ec;
            if (!exe.empty()) fs::remove_all(fs::path(exe).parent_path(), ec);
        }
    } removeBuild{b.executable};
    if (!b.ok) {
        for (auto& d : b.diagnostics) std::cerr << d.text() << "\n";
        g.why = "nvcc could not build the program: " + b.error;
        if (std::getenv("WARPSCOPE_BUILD_LOG")) std::cerr << b.log;
        return g;
    }
    sandbox::Spec spec;
    spec.argv = {b.executable};
    spec.argv.insert(spec.argv.end(), a.programArgs.begin(), a.programArgs.end());
    spec.isolate = false;            // bwrap's /dev has no GPU
    spec.limits.memoryMb = 0;        // the CUDA driver reserves far more address space than any limit
    spec.limits.cpuSeconds = a.cpuSeconds;
    spec.limits.wallSeconds = a.timeoutSeconds;
    spec.limits.processes = a.processes;
    if (!a.workDir.empty()) spec.workDir = fs::absolute(a.workDir).lexically_normal().string();
    const std::string launchesFile = ".warpscope-gpu-launches";
    spec.env.push_back({"WARPSCOPE_GPU_LAUNCHES", launchesFile});   // relative: the program's working folder
    std::string text;
    g.run = runCaptured(spec, echo, launchesFile, &text);
    if (!g.run.started) {
        g.why = g.run.startError;
        return g;
    }
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (line.empty()) continue;
        try {
            g.launches.push_back(json::parse(line));
        } catch (const std::exception&) {
            // a line cut short by a crash: the launches before it stand
        }
    }
    g.ok = true;
    return g;
}

json gpuRunJson(const GpuRun& g) {
    json j;
    j["device"] = g.device;
    j["nvcc"] = g.nvcc;
    j["exit"] = exitText(g.run);
    j["exit_code"] = g.run.result.exited ? g.run.result.exitCode : 128 + g.run.result.signal;
    j["stdout"] = g.run.out;
    j["stderr"] = g.run.err;
    j["launches"] = g.launches;
    return j;
}

// --- compare

struct SimLaunch {
    std::string label;   // kernel<<<(grid), (block)>>>
    double us = 0;
    uint64_t cycles = 0, warpInstructions = 0;
    unsigned blocksPerSm = 0;
};

// The simulator's --timed lines out of its stderr (the rest is the program's).
std::vector<SimLaunch> takeTimedLines(std::string& err) {
    std::vector<SimLaunch> out;
    std::string rest;
    std::istringstream in(err);
    const std::string tag = "warpscope --timed: ";
    for (std::string line; std::getline(in, line);) {
        if (line.rfind(tag, 0) != 0) {
            rest += line + "\n";
            continue;
        }
        const size_t colon = line.rfind(": ");
        SimLaunch l;
        l.label = line.substr(tag.size(), colon - tag.size());
        double mhz = 0;
        unsigned long long cycles = 0, wi = 0;
        std::sscanf(line.c_str() + colon + 2, "%lf us (%llu cycles at %lf MHz, %u blocks per SM, %llu warp-instructions)", &l.us, &cycles, &mhz,
                    &l.blocksPerSm, &wi);
        l.cycles = cycles;
        l.warpInstructions = wi;
        out.push_back(l);
    }
    err = rest;
    return out;
}

std::vector<std::string> splitLines(const std::string& text) {
    std::vector<std::string> v;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) v.push_back(line);
    return v;
}

std::string fit(const std::string& s, size_t w) {
    if (s.size() <= w) return s + std::string(w - s.size(), ' ');
    return s.substr(0, w - 1) + "~";
}

std::string gpuLabel(const json& l) {
    std::ostringstream s;
    std::string k = l.value("kernel", "?");
    s << k << "<<<(" << l["grid"][0] << "," << l["grid"][1] << "," << l["grid"][2] << "), (" << l["block"][0] << "," << l["block"][1] << ","
      << l["block"][2] << ")>>>";
    return s.str();
}

std::string noSpaces(std::string s) {
    s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
    return s;
}

} // namespace

int runProgramOnGpu(ProgramArgs& a) {
    GpuRun g = runOnGpu(a, true);
    if (!g.ok) {
        std::cerr << "warpscope: --backend gpu: " << g.why << "\n";
        return 2;
    }
    if (!a.saveRun.empty()) {
        std::ofstream f(a.saveRun, std::ios::binary);
        f << gpuRunJson(g).dump(2) << "\n";
        if (!f) {
            std::cerr << "warpscope: cannot write " << a.saveRun << "\n";
            return 2;
        }
    }
    std::cerr << "warpscope --backend gpu: " << g.device << ", " << g.launches.size() << " kernel launch" << (g.launches.size() == 1 ? "" : "es");
    double total = 0;
    size_t timed = 0;
    for (auto& l : g.launches)
        if (l.contains("ms")) total += l["ms"].get<double>(), ++timed;
    if (timed) std::cerr << ", " << timed << " timed, " << total << " ms on the GPU in all";
    std::cerr << "\n";
    return programExitCode(g.run.result, false);
}

int compareProgram(int argc, char** argv) {
    ProgramArgs a;
    if (!parseProgramArgs(argc, argv, a, ProgramCommand::Compare)) return 2;
    if (!checkPreset(a)) return 2;
    // The GPU side first, where it is read from a file: a bad file is bad input before a long run.
    GpuRun g;
    if (!a.gpuRun.empty()) {
        std::ifstream f(a.gpuRun, std::ios::binary);
        if (!f) {
            std::cerr << "warpscope: --gpu-run: cannot read " << a.gpuRun << "\n";
            return 2;
        }
        try {
            json j = json::parse(f);
            g.device = j.at("device").get<std::string>();
            g.nvcc = j.value("nvcc", "");
            g.run.started = true;
            g.run.out = j.at("stdout").get<std::string>();
            g.run.err = j.value("stderr", "");
            g.run.result.exited = true;
            g.run.result.exitCode = j.at("exit_code").get<int>();
            g.launches = j.at("launches");
            g.ok = true;
        } catch (const std::exception& e) {
            std::cerr << "warpscope: --gpu-run: " << a.gpuRun << " is not a saved GPU run (run --backend gpu --save-run FILE): " << e.what() << "\n";
            return 2;
        }
    }

    std::string exe;
    if (!buildForSimulator(a, &exe)) return 2;
    a.timed = true;
    sandbox::Spec spec;
    if (!simulatorSpec(a, exe, spec)) return 2;
    std::fprintf(stderr, "warpscope compare: running on the simulator (every kernel through the cycle model)...\n");
    CapturedRun sim = runCaptured(spec, false);
    if (!sim.started) {
        std::cerr << "warpscope: " << sim.startError << "\n";
        return 2;
    }
    std::vector<SimLaunch> simLaunches = takeTimedLines(sim.err);

    if (a.gpuRun.empty()) {
        if (gpuUnavailable().empty()) std::fprintf(stderr, "warpscope compare: building with nvcc and running on the GPU...\n");
        g = runOnGpu(a, false);
    }

    const std::string program = fs::path(a.build.sources[0]).filename().string();
    std::printf("compare %s: simulator (%s preset, cycle model) vs %s\n", program.c_str(), a.gpu.empty() ? "h100" : a.gpu.c_str(),
                g.ok ? (g.device + (a.gpuRun.empty() ? "" : " (saved run " + a.gpuRun + ")")).c_str() : "(no GPU)");
    if (!g.ok) std::printf("  GPU unavailable: %s\n", g.why.c_str());

    // Both stdouts side by side.
    const size_t w = 52;
    const auto so = splitLines(sim.out), go = splitLines(g.run.out);
    size_t differing = 0;
    std::printf("\n  stdout%s\n  %s   %s\n", g.ok ? " ('*' marks a line that differs)" : "", fit("simulator", w).c_str(), g.ok ? "GPU" : "");
    for (size_t i = 0; i < std::max(so.size(), g.ok ? go.size() : 0); ++i) {
        const std::string s = i < so.size() ? so[i] : "", h = g.ok && i < go.size() ? go[i] : "";
        const bool same = !g.ok || (i < so.size() && i < go.size() && so[i] == go[i]);
        if (!same) ++differing;
        std::printf("%s %s %s %s\n", same ? " " : "*", fit(s, w).c_str(), g.ok ? "|" : "", h.c_str());
    }
    std::printf("  %s   %s\n", fit("(" + exitText(sim) + ")", w).c_str(), g.ok ? ("(" + exitText(g.run) + ")").c_str() : "");
    if (g.ok) std::printf("  stdout: %zu of %zu lines differ\n", differing, std::max(so.size(), go.size()));
    if (!sim.err.empty()) std::printf("\n  simulator stderr:\n%s", sim.err.c_str());
    if (g.ok && !g.run.err.empty()) std::printf("\n  GPU stderr:\n%s", g.run.err.c_str());

    // Launches, in issue order.
    std::printf("\n  kernel launches in issue order: predicted (cycle model) vs measured (CUDA events around each launch on the GPU)\n");
    std::printf("  %3s %12s %12s %8s %14s %9s  %s\n", "#", "predicted us", "GPU us", "GPU/pred", "warp-instr.", "blocks/SM", "kernel<<<grid, block>>>");
    const size_t n = std::max(simLaunches.size(), g.ok ? size_t(g.launches.size()) : size_t(0));
    for (size_t i = 0; i < n; ++i) {
        const SimLaunch* s = i < simLaunches.size() ? &simLaunches[i] : nullptr;
        const json* h = g.ok && i < g.launches.size() ? &g.launches[i] : nullptr;
        std::string label = s ? s->label : gpuLabel(*h);
        std::string pred = s ? std::to_string(s->us).substr(0, std::to_string(s->us).find('.') + 3) : "-";
        std::string meas = "-", ratio = "-";
        if (h && h->contains("ms")) {
            const double us = (*h)["ms"].get<double>() * 1000.0;
            char b[32];
            std::snprintf(b, sizeof b, "%.2f", us);
            meas = b;
            if (s && s->us > 0) {
                std::snprintf(b, sizeof b, "%.2f", us / s->us);
                ratio = b;
            }
        } else if (h) {
            meas = "untimed";
        }
        std::printf("  %3zu %12s %12s %8s %14s %9s  %s\n", i + 1, pred.c_str(), meas.c_str(), ratio.c_str(),
                    s ? std::to_string(s->warpInstructions).c_str() : "-", s ? std::to_string(s->blocksPerSm).c_str() : "-", label.c_str());
        if (s && h && noSpaces(gpuLabel(*h)) != noSpaces(s->label)) std::printf("  %58s GPU: %s\n", "", gpuLabel(*h).c_str());
        if (h && h->contains("untimed")) std::printf("  %58s GPU: not timed: %s\n", "", (*h)["untimed"].get<std::string>().c_str());
        if (!s) std::printf("       (the simulator made no launch here)\n");
        if (s && g.ok && !h) std::printf("       (the GPU run made no launch here)\n");
    }
    if (n == 0) std::printf("  (no kernel launches)\n");
    std::printf("\n  predicted: the %s preset's cycle model, each launch from flushed caches; GPU: nvcc -arch=native's build of the same\n"
                "  sources, each launch timed by two CUDA events on its stream (includes the launch's start-up on the GPU)\n",
                a.gpu.empty() ? "h100" : a.gpu.c_str());
    return g.ok ? 0 : 4;
}
