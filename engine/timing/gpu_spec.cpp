// GPU presets and their JSON form.
//
// Sections: 1. built-in presets (sources in the comments)  2. JSON  3. lookup
#include "timing/gpu_spec.hpp"

#include "base/error.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace warpscope::timing {

namespace fs = std::filesystem;
using nlohmann::json;

uint32_t GpuSpec::fp64Interval() const {
    // A warp-instruction is 32 results; each scheduler owns 1/schedulers of the SM's FP64 units.
    double perScheduler = fp64PerSMPerCycle / std::max(1u, schedulersPerSM);
    if (perScheduler <= 0) return 64;
    return static_cast<uint32_t>(std::max(1.0, std::ceil(32.0 / perScheduler)));
}

// ---------------------------------------------------------------- 1. built-in presets
namespace {

GpuSpec teaching() {
    // Small on purpose: a whole launch fits on one screen. Latencies are scaled-down versions of
    // a real GPU's so that memory stalls are visible but short.
    GpuSpec s;
    s.name = "teaching";
    s.description = "Teaching GPU: 2 SMs x 8 warps, 2 schedulers per SM (fits on one screen)";
    s.computeCapability = "teaching";
    s.smCount = 2;
    s.clockMHz = 1000;
    s.schedulersPerSM = 2;
    s.maxWarpsPerSM = 8;
    s.maxThreadsPerSM = 256;
    s.maxBlocksPerSM = 4;
    s.maxThreadsPerBlock = 256;
    s.registersPerSM = 8192;
    s.maxRegistersPerThread = 255;
    s.maxRegistersPerBlock = 8192;
    s.registerAllocUnit = 256;
    s.sharedPerSM = 16 * 1024;
    s.maxSharedPerBlock = 16 * 1024;
    s.defaultSharedPerBlock = 16 * 1024;
    s.sharedAllocUnit = 128;
    s.reservedSharedPerBlock = 0;
    s.l1SharedBytesPerSM = 32 * 1024;
    s.l2Bytes = 256 * 1024;
    s.dramGBs = 64;
    s.l2BytesPerCycle = 128;
    s.copyEngines = 1;
    s.pcieGBs = 8;
    s.pageableGBs = 3;
    s.sharedLatency = 20;
    s.l1HitLatency = 30;
    s.l2HitLatency = 100;
    s.dramLatency = 200;
    s.fmaInterval = 2;
    s.fp64PerSMPerCycle = 4;
    return s;
}

GpuSpec v100() {
    // Tesla V100 SXM2 (sm_70): Volta whitepaper; CUDA Programming Guide, compute capability 7.0;
    // Best Practices Guide (898 GB/s peak = 877 MHz x 4096 bit x 2); latencies from "Dissecting
    // the NVIDIA Volta GPU Architecture via Microbenchmarking" (Jia et al., 2018).
    GpuSpec s;
    s.name = "v100";
    s.description = "NVIDIA Tesla V100 SXM2 (Volta, sm_70), 80 SMs, HBM2";
    s.computeCapability = "7.0";
    s.smCount = 80;
    s.clockMHz = 1530;
    s.sharedPerSM = 96 * 1024;
    s.maxSharedPerBlock = 96 * 1024;
    s.sharedAllocUnit = 256;
    s.reservedSharedPerBlock = 0;
    s.l1SharedBytesPerSM = 128 * 1024;
    s.l2Bytes = 6ull << 20;
    s.dramGBs = 898;
    s.l2BytesPerCycle = 2048;   // A100 whitepaper: "2048 bytes/clk in V100"
    s.copyEngines = 6;
    s.pcieGBs = 12;             // Best Practices Guide: pinned PCIe Gen3 x16 "roughly 12 GB/s"
    s.pageableGBs = 6;
    s.sharedLatency = 19;
    s.l1HitLatency = 28;
    s.l2HitLatency = 193;
    s.dramLatency = 450;
    s.fmaInterval = 2;          // 16 FP32 lanes per scheduler
    s.fp64PerSMPerCycle = 32;
    s.fp64Latency = 8;
    // Fitted, not measured: the Best Practices Guide's C = AB table (Table 2) shows a global load
    // that hits in L1 costing Volta more than a shared-memory load (tile of A in shared memory:
    // 1.2x faster than no tile; tiles of A and B: 1.35x faster again). 1.5 cycles per request
    // reproduces that order; docs/timing-validation.md says so next to the numbers.
    s.globalRequestCycles = 1.5;
    return s;
}

GpuSpec a100() {
    // A100 SXM4 40 GB (sm_80): A100 whitepaper; Programming Guide, compute capability 8.0.
    GpuSpec s;
    s.name = "a100";
    s.description = "NVIDIA A100 SXM4 40GB (Ampere, sm_80), 108 SMs, HBM2";
    s.computeCapability = "8.0";
    s.smCount = 108;
    s.clockMHz = 1410;
    s.sharedPerSM = 164 * 1024;
    s.maxSharedPerBlock = 163 * 1024;
    s.l1SharedBytesPerSM = 192 * 1024;
    s.l2Bytes = 40ull << 20;
    s.dramGBs = 1555;
    s.l2BytesPerCycle = 5120;   // A100 whitepaper: "5120 bytes/clk"
    s.copyEngines = 3;
    s.pcieGBs = 25;
    s.sharedLatency = 23;
    s.l1HitLatency = 33;
    s.l2HitLatency = 200;
    s.dramLatency = 470;
    s.fmaInterval = 2;          // 64 FP32 lanes per SM
    s.fp64PerSMPerCycle = 32;
    return s;
}

GpuSpec h100() {
    // H100 SXM5 80 GB (sm_90): measured on the project's H100 (shared/HARDWARE-FACTS.md:
    // 132 SMs, 1980 MHz, HBM3 2619 MHz x 5120 bit, 3 copy engines, 54.7 GB/s pinned copies),
    // Hopper whitepaper for the rest.
    GpuSpec s;
    s.name = "h100";
    s.description = "NVIDIA H100 SXM5 80GB (Hopper, sm_90), 132 SMs, HBM3";
    s.computeCapability = "9.0";
    s.smCount = 132;
    s.clockMHz = 1980;
    s.sharedPerSM = 228 * 1024;
    s.maxSharedPerBlock = 227 * 1024;
    s.l1SharedBytesPerSM = 256 * 1024;
    s.l2Bytes = 50ull << 20;
    s.dramGBs = 2619.0 * 2 * 5120 / 8 / 1000;   // 3352 GB/s
    s.l2BytesPerCycle = 5120;
    s.copyEngines = 3;
    s.pcieGBs = 54.7;
    // Host runtime, measured on the project's H100 host with scripts/measure-runtime.sh
    // (tests/validation/runtime/h100-probe.json): pageable copies 8-12 GB/s with 14-17 us of fixed
    // cost (64 KiB copies take 21-24 us); pinned copies of 0.5-4 MiB take 5-11 us more than their
    // bandwidth time; 64 MiB both ways at once took 1.38 ms against 1.22 ms one way (0.88 of the
    // bandwidth each); 4.0 us of host time per launch, 2.2 us per cudaMemcpyAsync call, 1.9 us
    // between queued empty kernels, 2.2-2.9 us per graph launch, 0.82 us per empty graph node.
    // kernelOverheadUs is fitted to the streams-overlap lesson's graph variant (100 one-block
    // kernels took 2.43 us per node), so that variant is not an independent check of it.
    // Pageable copies inside a program (the probe's "pageable_in_program": chunks of 256 KiB to
    // 4 MiB from a freshly filled buffer on a non-default stream, a kernel between the copy in
    // and the copy out) cost more than isolated ones: host-to-device 11 us + 8.7 GB/s,
    // device-to-host 62 us + 10 GB/s (least-squares lines through the 5 sizes).
    s.pageableGBs = 8.7;
    s.copyLatencyUs = 7;
    s.pageableLatencyUs = 11;
    s.pageableDtoHGBs = 10;
    s.pageableDtoHLatencyUs = 62;
    s.launchHostUs = 4.0;
    s.copyHostUs = 2.2;
    s.kernelGapUs = 1.9;
    s.kernelOverheadUs = 1.5;
    s.duplexEfficiency = 0.85;
    s.graphLaunchHostUs = 2.5;
    s.graphNodeUs = 0.82;
    s.sharedLatency = 30;
    s.l1HitLatency = 35;
    s.l2HitLatency = 260;
    s.dramLatency = 550;
    s.fmaInterval = 1;          // 128 FP32 lanes per SM
    s.fp64PerSMPerCycle = 64;
    return s;
}

GpuSpec rtx4090() {
    // GeForce RTX 4090 (sm_89): Ada whitepaper; Programming Guide, compute capability 8.9
    // (48 warps, 1536 threads, 24 blocks, 100 KiB shared memory per SM).
    GpuSpec s;
    s.name = "rtx4090";
    s.description = "NVIDIA GeForce RTX 4090 (Ada Lovelace, sm_89), 128 SMs, GDDR6X";
    s.computeCapability = "8.9";
    s.smCount = 128;
    s.clockMHz = 2520;
    s.maxWarpsPerSM = 48;
    s.maxThreadsPerSM = 1536;
    s.maxBlocksPerSM = 24;
    s.sharedPerSM = 100 * 1024;
    s.maxSharedPerBlock = 99 * 1024;
    s.l1SharedBytesPerSM = 128 * 1024;
    s.l2Bytes = 72ull << 20;
    s.dramGBs = 1008;
    s.l2BytesPerCycle = 2048;
    s.copyEngines = 2;
    s.pcieGBs = 25;
    s.sharedLatency = 30;
    s.l1HitLatency = 33;
    s.l2HitLatency = 250;
    s.dramLatency = 500;
    s.fmaInterval = 1;
    s.fp64PerSMPerCycle = 2;   // 1/64 of the FP32 rate
    s.fp64Latency = 16;
    return s;
}

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

} // namespace

const std::vector<GpuSpec>& builtinPresets() {
    static const std::vector<GpuSpec> presets = {teaching(), v100(), a100(), h100(), rtx4090()};
    return presets;
}

// ---------------------------------------------------------------- 2. JSON
// X(field, json key): every GpuSpec field that a JSON preset may set.
#define WARPSCOPE_SPEC_FIELDS(X)                                                                     \
    X(smCount, "smCount") X(clockMHz, "clockMHz") X(schedulersPerSM, "schedulersPerSM")                \
    X(maxWarpsPerSM, "maxWarpsPerSM") X(maxThreadsPerSM, "maxThreadsPerSM")                            \
    X(maxBlocksPerSM, "maxBlocksPerSM") X(maxThreadsPerBlock, "maxThreadsPerBlock")                    \
    X(registersPerSM, "registersPerSM") X(maxRegistersPerThread, "maxRegistersPerThread")              \
    X(maxRegistersPerBlock, "maxRegistersPerBlock") X(registerAllocUnit, "registerAllocUnit")          \
    X(sharedPerSM, "sharedPerSM") X(maxSharedPerBlock, "maxSharedPerBlock")                            \
    X(defaultSharedPerBlock, "defaultSharedPerBlock") X(sharedAllocUnit, "sharedAllocUnit")            \
    X(reservedSharedPerBlock, "reservedSharedPerBlock") X(l1SharedBytesPerSM, "l1SharedBytesPerSM")    \
    X(l2Bytes, "l2Bytes") X(dramGBs, "dramGBs") X(dramEfficiency, "dramEfficiency")                    \
    X(l2BytesPerCycle, "l2BytesPerCycle") X(l1SectorsPerCycle, "l1SectorsPerCycle")                    \
    X(l1LinesPerCycle, "l1LinesPerCycle") X(globalRequestCycles, "globalRequestCycles")                     \
    X(l1DataLinesPerCycle, "l1DataLinesPerCycle") X(l2AtomicCycles, "l2AtomicCycles") X(copyEngines, "copyEngines") X(pcieGBs, "pcieGBs")         \
    X(pageableGBs, "pageableGBs") X(copyLatencyUs, "copyLatencyUs")                                    \
    X(pageableLatencyUs, "pageableLatencyUs") X(pageableDtoHGBs, "pageableDtoHGBs")                    \
    X(pageableDtoHLatencyUs, "pageableDtoHLatencyUs") X(launchHostUs, "launchHostUs")                          \
    X(copyHostUs, "copyHostUs") X(eventHostUs, "eventHostUs") X(launchLatencyUs, "launchLatencyUs")    \
    X(kernelGapUs, "kernelGapUs") X(graphLaunchHostUs, "graphLaunchHostUs")                            \
    X(graphNodeUs, "graphNodeUs") X(syncWakeUs, "syncWakeUs") X(kernelOverheadUs, "kernelOverheadUs")  \
    X(duplexEfficiency, "duplexEfficiency")                                                            \
    X(aluLatency, "aluLatency") X(sfuLatency, "sfuLatency") X(fp64Latency, "fp64Latency")              \
    X(sharedLatency, "sharedLatency") X(l1HitLatency, "l1HitLatency") X(l2HitLatency, "l2HitLatency")  \
    X(dramLatency, "dramLatency") X(blockLaunchLatency, "blockLaunchLatency")                          \
    X(aluInterval, "aluInterval") X(fmaInterval, "fmaInterval") X(sfuInterval, "sfuInterval")          \
    X(fp64PerSMPerCycle, "fp64PerSMPerCycle") X(mioQueueCycles, "mioQueueCycles")                 \
    X(intDivideSlots, "intDivideSlots")

namespace {

template <class T>
void readField(const json& j, const char* key, T& field, const std::string& origin) {
    if (!j.contains(key)) return;
    const json& v = j[key];
    if (!v.is_number()) throw Error(Error::Kind::Input, origin + ": \"" + key + "\" must be a number.");
    double d = v.get<double>();
    if (!(d >= 0) || !std::isfinite(d)) throw Error(Error::Kind::Input, origin + ": \"" + key + "\" must be a finite number >= 0.");
    if constexpr (std::is_integral_v<T>) {
        if (d != std::floor(d)) throw Error(Error::Kind::Input, origin + ": \"" + key + "\" must be a whole number.");
        field = static_cast<T>(d);
    } else {
        field = static_cast<T>(d);
    }
}

const std::vector<std::string>& knownKeys() {
    static const std::vector<std::string> keys = [] {
        std::vector<std::string> k = {"name", "description", "computeCapability", "base"};
#define WARPSCOPE_KEY(f, key) k.push_back(key);
        WARPSCOPE_SPEC_FIELDS(WARPSCOPE_KEY)
#undef WARPSCOPE_KEY
        return k;
    }();
    return keys;
}

} // namespace

GpuSpec presetFromJson(const std::string& text, const std::string& origin) {
    json j;
    try {
        j = json::parse(text);
    } catch (const std::exception& e) {
        throw Error(Error::Kind::Input, origin + ": not valid JSON (" + e.what() + ").");
    }
    if (!j.is_object()) throw Error(Error::Kind::Input, origin + ": a GPU preset is a JSON object.");
    for (auto& [k, v] : j.items()) {
        (void)v;
        if (std::find(knownKeys().begin(), knownKeys().end(), k) == knownKeys().end())
            throw Error(Error::Kind::Input, origin + ": unknown key \"" + k + "\" (see docs/gpu-presets.md).");
    }
    GpuSpec s = h100();
    if (j.contains("base")) {
        std::string base = lower(j["base"].get<std::string>());
        bool found = false;
        for (auto& p : builtinPresets())
            if (p.name == base) {
                s = p;
                found = true;
            }
        if (!found) throw Error(Error::Kind::Input, origin + ": \"base\" names no built-in preset ('" + base + "').");
    }
    if (!j.contains("name") || !j["name"].is_string() || j["name"].get<std::string>().empty())
        throw Error(Error::Kind::Input, origin + ": a GPU preset needs a \"name\".");
    s.name = lower(j["name"].get<std::string>());
    s.description = j.value("description", s.name);
    if (j.contains("computeCapability")) s.computeCapability = j["computeCapability"].get<std::string>();
#define WARPSCOPE_READ(f, key) readField(j, key, s.f, origin);
    WARPSCOPE_SPEC_FIELDS(WARPSCOPE_READ)
#undef WARPSCOPE_READ
    if (s.smCount == 0 || s.clockMHz <= 0 || s.schedulersPerSM == 0 || s.maxWarpsPerSM == 0 || s.maxBlocksPerSM == 0 ||
        s.registerAllocUnit == 0 || s.sharedAllocUnit == 0 || s.l1SectorsPerCycle == 0 || s.l1LinesPerCycle == 0 ||
        s.dramGBs <= 0 || s.l2BytesPerCycle <= 0)
        throw Error(Error::Kind::Input, origin + ": smCount, clockMHz, schedulersPerSM, maxWarpsPerSM, maxBlocksPerSM, allocation units, "
                                                 "L1 rates and bandwidths must be greater than 0.");
    return s;
}

std::string presetToJson(const GpuSpec& s) {
    json j;
    j["name"] = s.name;
    j["description"] = s.description;
    j["computeCapability"] = s.computeCapability;
#define WARPSCOPE_WRITE(f, key) j[key] = s.f;
    WARPSCOPE_SPEC_FIELDS(WARPSCOPE_WRITE)
#undef WARPSCOPE_WRITE
    return j.dump(2);
}

// ---------------------------------------------------------------- 3. lookup
std::vector<fs::path> presetFolders() {
    std::vector<fs::path> out;
    if (const char* env = std::getenv("WARPSCOPE_GPUS"); env && *env) {
        std::stringstream ss(env);
        std::string part;
        while (std::getline(ss, part, ':'))
            if (!part.empty()) out.emplace_back(part);
    }
    out.emplace_back("gpus");
    if (const char* home = std::getenv("HOME"); home && *home) out.push_back(fs::path(home) / ".config" / "warpscope" / "gpus");
    return out;
}

std::vector<GpuSpec> allPresets(const std::vector<fs::path>& folders, std::vector<std::string>* errors) {
    std::vector<GpuSpec> out = builtinPresets();
    for (auto& dir : folders) {
        std::error_code ec;
        if (!fs::is_directory(dir, ec)) continue;
        std::vector<fs::path> files;
        for (auto& e : fs::directory_iterator(dir, ec))
            if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (auto& f : files) {
            try {
                std::ifstream in(f, std::ios::binary);
                std::stringstream ss;
                ss << in.rdbuf();
                GpuSpec s = presetFromJson(ss.str(), f.string());
                auto it = std::find_if(out.begin(), out.end(), [&](const GpuSpec& p) { return p.name == s.name; });
                if (it != out.end()) *it = s;
                else out.push_back(s);
            } catch (const Error& e) {
                if (errors) errors->push_back(e.what());
            }
        }
    }
    return out;
}

GpuSpec findPreset(const std::string& nameOrPath, const std::vector<fs::path>& folders) {
    std::error_code ec;
    if (nameOrPath.size() > 5 && nameOrPath.substr(nameOrPath.size() - 5) == ".json" && fs::is_regular_file(nameOrPath, ec)) {
        std::ifstream in(nameOrPath, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        return presetFromJson(ss.str(), nameOrPath);
    }
    std::string want = lower(nameOrPath);
    auto presets = allPresets(folders);
    for (auto& p : presets)
        if (p.name == want) return p;
    std::string names;
    for (auto& p : presets) names += (names.empty() ? "" : ", ") + p.name;
    throw Error(Error::Kind::Input, "No GPU preset named '" + nameOrPath + "' (known: " + names + "; or give a .json file).");
}

} // namespace warpscope::timing
