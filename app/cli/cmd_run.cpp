// warpscope run: a lesson or launch spec on the simulator or a real GPU, with optional per-line
// statistics, Nsight Compute counters, checkers, the cycle model and the host timeline.
#include "cli.hpp"
#include "base/parse_number.hpp"
#include "run/run.hpp"
#include "runtime/lesson.hpp"
#include "sim/program.hpp"
#include "timing/cycle_model.hpp"
#include "timing/gpu_spec.hpp"
#include "trace/counters.hpp"
#include "trace/line_stats.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

using namespace warpscope;
using nlohmann::json;

namespace {

// A count stored in 32 bits (registers per thread, blocks per SM): the shared parser, then a range
// check, so "4294967297" is an error rather than 1.
uint32_t parseCount32(const std::string& text, const std::string& option) {
    uint64_t n = parseCount(text, option);
    if (n > UINT32_MAX) throw Error(Error::Kind::Input, option + " '" + text + "' is too large.");
    return static_cast<uint32_t>(n);
}

json errorJson(const Error& e) {
    json j;
    j["kind"] = Error::kindName(e.kind());
    j["message"] = e.what();
    const FaultSite& s = e.site();
    if (!s.kernel.empty()) j["kernel"] = s.kernel;
    if (s.blockX) j["block"] = {*s.blockX, *s.blockY, *s.blockZ};
    if (s.threadX) j["thread"] = {*s.threadX, *s.threadY, *s.threadZ};
    if (s.lane) j["lane"] = *s.lane;
    if (s.sourceLine) j["source_line"] = *s.sourceLine;
    if (s.ptxLine) j["ptx_line"] = *s.ptxLine;
    if (s.address) j["address"] = *s.address;
    if (!s.allocation.empty()) j["allocation"] = s.allocation;
    if (s.offset) j["offset"] = *s.offset;
    return j;
}

uint64_t fnv1a64(const std::vector<uint8_t>& b) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint8_t c : b) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    return h;
}

std::string hex64(uint64_t v) {
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

std::string dimText(const runtime::Dim3& d) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "(%u,%u,%u)", d.x, d.y, d.z);
    return buf;
}

std::vector<std::string> sourceLines(const runtime::Lesson& L) {
    std::vector<std::string> lines;
    if (L.sourcePath.empty()) return lines;
    std::ifstream f(L.sourcePath);
    std::string s;
    while (std::getline(f, s)) lines.push_back(s);
    return lines;
}

json timingJson(const timing::TimingResult& t, const timing::GpuSpec& spec) {
    json j;
    j["gpu"] = spec.name;
    j["gpu_description"] = spec.description;
    j["cycles"] = t.cycles;
    j["time_us"] = t.microseconds;
    // What Nsight Compute's duration (or events around back-to-back launches) would show: the
    // SMs' time plus the GPU's launch and drain (the preset's gap between queued kernels).
    j["time_with_launch_us"] = t.microseconds + spec.kernelGapUs;
    j["clock_mhz"] = spec.clockMHz;
    const auto& o = t.occupancy;
    j["occupancy"] = {{"active_blocks_per_sm", o.activeBlocksPerSM}, {"active_warps_per_sm", o.activeWarpsPerSM},
                      {"max_warps_per_sm", spec.maxWarpsPerSM}, {"occupancy", o.occupancy},
                      {"limiter", std::string(timing::limiterName(o.limiter))}, {"warps_per_block", o.warpsPerBlock},
                      {"blocks_by_warps", o.blocksByWarps}, {"blocks_by_registers", o.blocksByRegisters},
                      {"blocks_by_shared_memory", o.blocksBySharedMemory}, {"blocks_by_block_limit", o.blocksByBlockLimit},
                      {"registers_per_thread", t.registersPerThread}, {"registers_estimated", t.registersEstimated},
                      {"shared_bytes_per_block_allocated", o.sharedPerBlockAllocated}};
    for (int r = 0; r < timing::kStallReasonCount; ++r)
        j["stalls"][timing::stallMetricName(timing::StallReason(r))] = t.stalls[size_t(r)];
    for (auto& [line, c] : t.stallsByLine) {
        json jl = {{"line", line}};
        for (int r = 0; r < timing::kStallReasonCount; ++r)
            if (c[size_t(r)]) jl[timing::stallMetricName(timing::StallReason(r))] = c[size_t(r)];
        j["stalls_by_line"].push_back(jl);
    }
    j["l1_hit_rate"] = t.l1Lookups ? double(t.l1Hits) / double(t.l1Lookups) : 0.0;
    j["dram_sectors"] = t.dramSectors;
    j["l2"] = t.warmL2 ? "warm" : "cold";
    return j;
}

void printTiming(const timing::TimingResult& t, const timing::GpuSpec& spec, const std::string& kernel, const std::vector<std::string>& src) {
    const auto& o = t.occupancy;
    std::printf("  timed %s on %s (%s):\n", kernel.c_str(), spec.name.c_str(), spec.description.c_str());
    std::printf("    occupancy: %u blocks x %u warps = %u of %u warps per SM (%.0f%%), limited by %s; %u registers per thread%s\n",
                o.activeBlocksPerSM, o.warpsPerBlock, o.activeWarpsPerSM, spec.maxWarpsPerSM, o.occupancy * 100.0,
                std::string(timing::limiterName(o.limiter)).c_str(), t.registersPerThread,
                t.registersEstimated ? " (estimated; give --registers N from ptxas -v)" : "");
    auto lim = [](uint32_t v) { return v == UINT32_MAX ? std::string("-") : std::to_string(v); };
    std::printf("    blocks per SM allowed by: warps %s, registers %s, shared memory %s, block limit %s\n", lim(o.blocksByWarps).c_str(),
                lim(o.blocksByRegisters).c_str(), lim(o.blocksBySharedMemory).c_str(), lim(o.blocksByBlockLimit).c_str());
    std::printf("    predicted: %llu cycles = %.3f us at %.0f MHz on the SMs; %.3f us with the launch and drain (+%.1f us, as Nsight Compute's duration counts it) (%s)\n",
                static_cast<unsigned long long>(t.cycles), t.microseconds, spec.clockMHz, t.microseconds + spec.kernelGapUs, spec.kernelGapUs,
                t.warmL2 ? "warm: the L2 as the earlier launches left it" : "cold: caches flushed");
    uint64_t total = 0;
    for (auto v : t.stalls) total += v;
    std::vector<int> order;
    for (int r = 0; r < timing::kStallReasonCount; ++r)
        if (t.stalls[size_t(r)]) order.push_back(r);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return t.stalls[size_t(a)] > t.stalls[size_t(b)]; });
    std::printf("    warp states (warp-cycles, as Nsight Compute's stall reasons):");
    for (int r : order)
        std::printf(" %s %.1f%%", std::string(timing::stallShortName(timing::StallReason(r))).c_str(),
                    total ? 100.0 * double(t.stalls[size_t(r)]) / double(total) : 0.0);
    std::printf("\n    per source line (warp-cycles): line  total  top reasons\n");
    for (auto& [line, c] : t.stallsByLine) {
        uint64_t lt = 0;
        for (auto v : c) lt += v;
        std::vector<int> lo;
        for (int r = 0; r < timing::kStallReasonCount; ++r)
            if (c[size_t(r)]) lo.push_back(r);
        std::sort(lo.begin(), lo.end(), [&](int a, int b) { return c[size_t(a)] > c[size_t(b)]; });
        std::string reasons;
        for (size_t k = 0; k < lo.size() && k < 3; ++k) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%s%s %.0f%%", k ? ", " : "", std::string(timing::stallShortName(timing::StallReason(lo[k]))).c_str(),
                          100.0 * double(c[size_t(lo[k])]) / double(lt));
            reasons += buf;
        }
        std::string text = line >= 1 && line <= src.size() ? src[line - 1] : "";
        std::printf("    %4u %10llu  %-52s %s\n", line, static_cast<unsigned long long>(lt), reasons.c_str(), text.c_str());
    }
}

} // namespace

int cmdRun(int argc, char** argv, const fs::path& lessonsDir) {
    // A .cu/.cpp file is a whole CUDA program (host code and kernels): cmd_program.cpp.
    if (argc > 0 && isWholeProgramArg(argv[0])) return runProgram(argc, argv);
    std::string target, backend = "sim", saveAll;
    bool asJson = false, lines = false, metrics = false;
    uint64_t budget = 0, maxBlocks = 0, deviceMemory = 0, raceTrackMb = 0;
    bool initcheck = false, racecheck = false;
    uint64_t threads = std::max(1u, std::thread::hardware_concurrency());   // blocks spread over cores (Gpu::runToEnd)
    bool timed = false, warm = false, wantTimeline = false;
    std::string gpuName = timing::kDefaultPreset, traceFile;
    timing::TimingOptions timingOpt;
    std::map<std::string, std::string> overrides;
    std::vector<std::pair<std::string, std::string>> saves;
    for (int i = 0; i < argc; ++i) {
        std::string a = argv[i];
        auto val = [&](const char* opt) -> std::string {
            if (i + 1 >= argc) throw Error(Error::Kind::Input, std::string(opt) + " needs a value.");
            return argv[++i];
        };
        if (a == "--json") asJson = true;
        else if (a == "--lines") lines = true;
        else if (a == "--metrics") metrics = true;
        else if (a == "--backend") backend = val("--backend");
        else if (a == "--save-all") saveAll = val("--save-all");
        else if (a == "--budget") budget = parseCount(val("--budget"), "--budget");
        else if (a == "--threads") {
            threads = parseCount(val("--threads"), "--threads");
            if (threads < 1 || threads > 1024) throw Error(Error::Kind::Input, "--threads needs a number from 1 to 1024.");
        }
        else if (a == "--max-blocks") maxBlocks = parseCount(val("--max-blocks"), "--max-blocks");
        else if (a == "--race-track-mb") raceTrackMb = parseCount(val("--race-track-mb"), "--race-track-mb");
        else if (a == "--device-memory") deviceMemory = parseSize(val("--device-memory"), "--device-memory");
        else if (a == "--timed") timed = true;
        else if (a == "--warm") timed = warm = true;
        else if (a == "--timeline") wantTimeline = true;
        else if (a == "--trace") {
            traceFile = val("--trace");
            wantTimeline = true;
        } else if (a == "--gpu") {
            gpuName = val("--gpu");
            timed = true;
        } else if (a == "--registers") {
            timingOpt.registersPerThread = parseCount32(val("--registers"), "--registers");
            timingOpt.registersEstimated = false;
        } else if (a == "--blocks-per-sm") {
            timingOpt.forceBlocksPerSM = parseCount32(val("--blocks-per-sm"), "--blocks-per-sm");
        } else if (a == "--policy") {
            std::string v = val("--policy");
            if (v == "gto") timingOpt.policy = timing::SchedulerPolicy::GreedyThenOldest;
            else if (v == "lrr") timingOpt.policy = timing::SchedulerPolicy::LooseRoundRobin;
            else throw Error(Error::Kind::Input, "--policy is 'gto' (greedy-then-oldest) or 'lrr' (loose round-robin).");
        }
        else if (a == "--check") {
            std::stringstream list(val("--check"));
            std::string tool;
            while (std::getline(list, tool, ',')) {
                if (tool == "initcheck") initcheck = true;
                else if (tool == "racecheck") racecheck = true;
                else if (tool != "memcheck" && tool != "synccheck")
                    throw Error(Error::Kind::Input, "Unknown checker '" + tool + "' (memcheck, initcheck, racecheck, synccheck).");
            }
        }
        else if (a == "--param" || a == "--save") {
            std::string kv = val(a.c_str());
            auto eq = kv.find('=');
            if (eq == std::string::npos || eq == 0) throw Error(Error::Kind::Input, a + " expects NAME=VALUE, got '" + kv + "'.");
            if (a == "--param") overrides[kv.substr(0, eq)] = kv.substr(eq + 1);
            else saves.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
        } else if (!a.empty() && a[0] == '-') throw Error(Error::Kind::Input, "Unknown option '" + a + "' for run.");
        else if (target.empty()) target = a;
        else throw Error(Error::Kind::Input, "run takes one lesson or spec; got '" + target + "' and '" + a + "'.");
    }
    if (target.empty()) throw Error(Error::Kind::Input, "run needs a lesson folder, lesson id or spec file.");
    if (backend != "sim" && backend != "gpu") throw Error(Error::Kind::Input, "--backend is 'sim' or 'gpu'.");
    if (timed && backend != "sim") throw Error(Error::Kind::Input, "--timed needs the simulator (--backend sim).");
    // A simulated timeline needs each kernel's predicted duration: the cycle model runs.
    if (wantTimeline && backend == "sim") timed = true;
    runtime::Lesson lesson = runtime::loadLesson(resolveLessonArg(target, lessonsDir));
    runtime::ParamValues params = runtime::resolveParams(lesson, overrides);

    run::RunSpec spec;
    spec.backend = backend == "gpu" ? run::Backend::Gpu : run::Backend::Sim;
    spec.preset = gpuName;
    spec.timed = timed;
    spec.warm = warm;
    spec.counters = metrics && backend == "sim";
    spec.lineStats = lines;
    spec.timeline = wantTimeline;
    spec.timing = timingOpt;
    if (budget) spec.sim.instructionBudget = budget;
    if (maxBlocks) spec.sim.maxBlocks = maxBlocks;
    if (deviceMemory) spec.sim.deviceMemoryBytes = deviceMemory;
    if (raceTrackMb) spec.sim.raceTrackBytes = raceTrackMb << 20;
    spec.sim.initcheck = initcheck;
    spec.sim.racecheck = racecheck;
    spec.sim.threads = static_cast<uint32_t>(threads);
    const bool sim = backend == "sim";
    run::RunReport rep = run::run(lesson, params, spec);
    const timing::GpuSpec& gpuSpec = rep.gpu;

    json out;
    out["lesson"] = lesson.id;
    out["title"] = lesson.title;
    out["backend"] = backend;
    out["device"] = rep.device;
    for (auto& [k, v] : params) out["params"][k] = v;
    if (rep.error) {
        const Error& e = *rep.error;
        if (asJson) {
            out["error"] = errorJson(e);
            for (auto& r : rep.reports) out["reports"].push_back({{"tool", r.tool}, {"hazard", r.hazard}, {"message", r.message}});
            std::cout << out.dump(2) << "\n";
        } else {
            for (auto& r : rep.reports) std::cerr << r.tool << " (" << r.hazard << "): " << r.message << "\n";
            for (auto& n : rep.notes) std::cerr << "note: " << n << "\n";
            std::cerr << "error (" << Error::kindName(e.kind()) << "): " << e.what() << "\n";
        }
        return exitCodeFor(e);
    }
    const runtime::RunResult& result = rep.result;
    const auto& reports = rep.reports;
    for (auto& r : reports) {
        json jr = {{"tool", r.tool}, {"hazard", r.hazard}, {"message", r.message}};
        if (!r.site.kernel.empty()) jr["kernel"] = r.site.kernel;
        if (r.site.blockX) jr["block"] = {*r.site.blockX, *r.site.blockY, *r.site.blockZ};
        if (r.site.threadX) jr["thread"] = {*r.site.threadX, *r.site.threadY, *r.site.threadZ};
        if (r.site.sourceLine) jr["source_line"] = *r.site.sourceLine;
        if (r.site.ptxLine) jr["ptx_line"] = *r.site.ptxLine;
        if (r.site.lane) jr["lane"] = *r.site.lane;
        if (r.site.address) jr["address"] = *r.site.address;
        if (!r.site.allocation.empty()) jr["allocation"] = r.site.allocation;
        if (r.site.offset) jr["offset"] = *r.site.offset;
        out["reports"].push_back(jr);
    }
    for (auto& n : rep.notes) out["notes"].push_back(n);
    if (sim && racecheck) out["race_shadow_bytes"] = rep.raceShadowBytes;
    for (auto& [name, bytes] : result.buffers) {
        out["buffers"][name] = {{"bytes", bytes.size()}, {"fnv1a64", hex64(fnv1a64(bytes))}};
    }
    auto writeFile = [](const fs::path& p, const std::vector<uint8_t>& b) {
        std::ofstream f(p, std::ios::binary);
        if (!f) throw Error(Error::Kind::Input, "Cannot write '" + p.string() + "'.");
        f.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
    };
    for (auto& [buf, path] : saves) {
        auto it = result.buffers.find(buf);
        if (it == result.buffers.end()) throw Error(Error::Kind::Input, "--save: no buffer named '" + buf + "'.");
        writeFile(path, it->second);
    }
    if (!saveAll.empty()) {
        fs::create_directories(saveAll);
        for (auto& [name, bytes] : result.buffers) writeFile(fs::path(saveAll) / (name + ".bin"), bytes);
    }
    for (auto& l : result.launches) {
        json j = {{"kernel", l.kernel}, {"grid", {l.grid.x, l.grid.y, l.grid.z}}, {"block", {l.block.x, l.block.y, l.block.z}},
                  {"dynamic_shared_bytes", l.dynamicSharedBytes}, {"elapsed_ms", l.elapsedMs}};
        if (sim) {
            j["smsp__inst_executed.sum"] = l.warpInstructions;
            j["smsp__thread_inst_executed.sum"] = l.threadInstructions;
            j["smsp__thread_inst_executed_per_inst_executed.ratio"] =
                l.warpInstructions ? double(l.threadInstructions) / double(l.warpInstructions) : 0.0;
            j["branches"] = l.branches;
            j["divergent_branches"] = l.divergentBranches;
        }
        size_t li = out["launches"].size();
        const run::LaunchReport* lr = li < rep.launches.size() ? &rep.launches[li] : nullptr;
        if (lr && lr->timing) j["timing"] = timingJson(*lr->timing, gpuSpec);
        if (lr && lr->counters) {
            for (auto& [name, v] : lr->counters->metrics()) j["metrics"][name] = v;
            j["estimated_metrics"] = trace::CounterCollector::estimatedMetrics();
            for (auto& [line, c] : lr->counters->byLine())
                j["metrics_by_line"].push_back({{"line", line}, {"smsp__inst_executed.sum", c.inst},
                                                {"smsp__thread_inst_executed.sum", c.threadInst},
                                                {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", c.globalLdRequests},
                                                {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", c.globalLdSectors},
                                                {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", c.globalStRequests},
                                                {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", c.globalStSectors},
                                                {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", c.sharedLdWavefronts},
                                                {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", c.sharedStWavefronts},
                                                {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", c.sharedLdConflicts},
                                                {"ptx__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", c.sharedLdWavefrontsPtx},
                                                {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", c.sharedStConflicts},
                                                {"smsp__sass_branch_targets_threads_divergent.sum", c.divergentBranches}});
        }
        out["launches"].push_back(j);
    }
    for (auto& c : result.checks) out["checks"].push_back({{"buffer", c.buffer}, {"passed", c.passed}, {"detail", c.detail}});
    if (lines && rep.lines) {
        for (auto& [line, s] : rep.lines->byLine())
            out["lines"].push_back({{"line", line}, {"warp_instructions", s.warpInstructions}, {"thread_instructions", s.threadInstructions},
                                    {"efficiency", s.efficiency()}, {"branches", s.branches}, {"divergent_branches", s.divergentBranches}});
    }
    out["passed"] = result.allChecksPassed();
    if (wantTimeline) out["timeline"] = timelineJson(result.timeline);
    for (auto& [name, ms] : result.timers) out["timers"][name] = ms;
    if (!traceFile.empty()) {
        std::ofstream f(traceFile);
        if (!f) throw Error(Error::Kind::Input, "Cannot write '" + traceFile + "'.");
        f << runtime::toChromeTrace(result.timeline) << "\n";
    }

    if (asJson) {
        std::cout << out.dump(2) << "\n";
    } else {
        std::cout << lesson.id << ": " << lesson.title << "  [" << rep.device << "]\n";
        if (!params.empty()) {
            std::cout << "  params:";
            for (auto& [k, v] : params) {
                std::ostringstream num;
                num.precision(15);
                num << v;   // integers print whole (1048576, not 1.04858e+06)
                std::cout << " " << k << "=" << num.str();
            }
            std::cout << "\n";
        }
        for (auto& l : result.launches) {
            std::printf("  launch %s grid %s block %s: %.3f ms", l.kernel.c_str(), dimText(l.grid).c_str(), dimText(l.block).c_str(), l.elapsedMs);
            if (sim)
                std::printf(", %llu warp-instructions, %llu thread-instructions (%.1f active lanes on average), %llu branches (%llu divergent)",
                            static_cast<unsigned long long>(l.warpInstructions), static_cast<unsigned long long>(l.threadInstructions),
                            l.warpInstructions ? double(l.threadInstructions) / double(l.warpInstructions) : 0.0,
                            static_cast<unsigned long long>(l.branches), static_cast<unsigned long long>(l.divergentBranches));
            std::printf("\n");
        }
        if (metrics && !sim) std::cout << "  (--metrics needs the simulator; hardware counters come from Nsight Compute)\n";
        for (size_t li = 0; li < rep.launches.size() && li < result.launches.size(); ++li)
            if (rep.launches[li].timing) printTiming(*rep.launches[li].timing, gpuSpec, result.launches[li].kernel, sourceLines(lesson));
        for (size_t li = 0; li < rep.launches.size() && li < result.launches.size(); ++li) {
            const auto* counters = rep.launches[li].counters.get();
            if (!counters) continue;
            const auto& est = trace::CounterCollector::estimatedMetrics();
            std::cout << "  metrics of launch " << li << " (" << result.launches[li].kernel
                      << "), as Nsight Compute names them (shared loads as the SASS runs them; ptx__: the PTX as written):\n";
            for (auto& [name, v] : counters->metrics()) {
                bool e = std::find(est.begin(), est.end(), name) != est.end();
                std::printf("    %-72s %14.6g%s\n", name.c_str(), v, e ? "  (estimated)" : "");
            }
            auto src = sourceLines(lesson);
            std::cout << "    per source line:  inst  lanes/inst  gld req  gld sect  gst req  gst sect  shared ld/st wavefronts (conflicts)  divergent\n";
            for (auto& [line, c] : counters->byLine()) {
                std::string text = line >= 1 && line <= src.size() ? src[line - 1] : "";
                std::printf("    %4u %9llu %8.1f %8llu %9llu %8llu %9llu %12llu/%llu (%llu/%llu) %6llu  %s\n", line,
                            (unsigned long long)c.inst, c.inst ? double(c.threadInst) / double(c.inst) : 0.0,
                            (unsigned long long)c.globalLdRequests, (unsigned long long)c.globalLdSectors,
                            (unsigned long long)c.globalStRequests, (unsigned long long)c.globalStSectors,
                            (unsigned long long)c.sharedLdWavefronts, (unsigned long long)c.sharedStWavefronts,
                            (unsigned long long)c.sharedLdConflicts, (unsigned long long)c.sharedStConflicts,
                            (unsigned long long)c.divergentBranches, text.c_str());
            }
        }
        for (auto& r : reports) std::cout << "  " << r.tool << " (" << r.hazard << "): " << r.message << "\n";
        for (auto& n : rep.notes) std::cout << "  note: " << n << "\n";
        for (auto& c : result.checks) std::cout << "  check " << c.buffer << ": " << (c.passed ? "PASS" : "FAIL") << " (" << c.detail << ")\n";
        if (result.checks.empty()) std::cout << "  (no checks in this lesson)\n";
        for (auto& [name, ms] : result.timers) std::printf("  timer %s: %.4f ms\n", name.c_str(), ms);
        if (wantTimeline) {
            std::istringstream summary(runtime::summarize(result.timeline));
            for (std::string line; std::getline(summary, line);) std::cout << "  " << line << "\n";
            if (!traceFile.empty()) std::cout << "  Chrome trace written to " << traceFile << " (open it in https://ui.perfetto.dev)\n";
        }
        if (lines && rep.lines) {
            auto src = sourceLines(lesson);
            std::cout << "  per source line: warp-instr  thread-instr  lanes/instr  divergent\n";
            for (auto& [line, s] : rep.lines->byLine()) {
                std::string text = line >= 1 && line <= src.size() ? src[line - 1] : "";
                std::printf("  %4u %10llu %13llu %10.1f %10llu  %s\n", line, static_cast<unsigned long long>(s.warpInstructions),
                            static_cast<unsigned long long>(s.threadInstructions), s.efficiency(),
                            static_cast<unsigned long long>(s.divergentBranches), text.c_str());
            }
        }
    }
    if (!reports.empty()) return 3;
    return result.allChecksPassed() ? 0 : 1;
}
