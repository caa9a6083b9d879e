// GPU presets (GpuSpec) from public specifications, and user presets loaded from JSON files.
//
// Sections: 1. GpuSpec  2. built-in presets  3. JSON (docs/gpu-presets.md describes the format)
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace warpscope::timing {

// ---------------------------------------------------------------- 1. GpuSpec
struct GpuSpec {
    std::string name;                 // preset id ("h100", "teaching", ...)
    std::string description;
    std::string computeCapability;    // "9.0"
    // Chip
    uint32_t smCount = 0;
    double clockMHz = 0;              // SM clock used to turn cycles into time (boost clock)
    uint32_t schedulersPerSM = 4;
    // Per-SM limits (the occupancy calculator's inputs)
    uint32_t maxWarpsPerSM = 64;
    uint32_t maxThreadsPerSM = 2048;
    uint32_t maxBlocksPerSM = 32;
    uint32_t maxThreadsPerBlock = 1024;
    uint32_t registersPerSM = 65536;
    uint32_t maxRegistersPerThread = 255;
    uint32_t maxRegistersPerBlock = 65536;
    uint32_t registerAllocUnit = 256;      // registers, allocated per warp
    uint32_t sharedPerSM = 228 * 1024;     // largest shared-memory carveout
    uint32_t maxSharedPerBlock = 227 * 1024;   // with opt-in (cudaFuncAttributeMaxDynamicSharedMemorySize)
    uint32_t defaultSharedPerBlock = 48 * 1024;
    uint32_t sharedAllocUnit = 128;
    uint32_t reservedSharedPerBlock = 1024;   // sm_80 and later reserve 1 KiB per block
    uint32_t l1SharedBytesPerSM = 256 * 1024; // unified L1 + shared
    // Memory system
    uint64_t l2Bytes = 50ull << 20;
    double dramGBs = 3352;                 // peak DRAM bandwidth, GB/s
    double dramEfficiency = 0.9;           // achievable fraction of the peak (streaming copies reach ~90 %)
    double l2BytesPerCycle = 5120;         // whole-GPU L2 bandwidth, bytes per SM clock
    uint32_t l1SectorsPerCycle = 4;        // per SM: 128 bytes per cycle of L1 / shared data
    uint32_t l1LinesPerCycle = 4;          // per SM: tag lookups (distinct 128-byte lines) per cycle
    double l1DataLinesPerCycle = 1;        // per SM: distinct 128-byte lines the data stage reads per
                                           // cycle (a request over 32 lines takes 32 cycles there)
    double l2AtomicCycles = 3.3;           // a global atomic's L2 unit serves one warp request per
                                           // address every this many SM cycles (same-address
                                           // atomics serialise; measured on the H100)
    double globalRequestCycles = 1;        // per SM: the fewest L1 data-pipe cycles one global request
                                           // takes, however few lines and sectors it touches
    uint32_t copyEngines = 3;
    double pcieGBs = 25;                   // pinned host<->device copies
    // Host runtime (the stream timeline model; engine/runtime/timeline.hpp)
    double pageableGBs = 10;               // copies from/to pageable host memory (staged by the driver)
    double copyLatencyUs = 4.5;            // fixed cost of one pinned copy on a copy engine
    double pageableLatencyUs = 10;         // fixed cost of one pageable copy
    double pageableDtoHGBs = 0;            // device-to-host pageable copies, when they differ from
    double pageableDtoHLatencyUs = 0;      // host-to-device ones (0: the same as pageableGBs / -LatencyUs)
    double launchHostUs = 4;               // host time of one kernel launch call
    double copyHostUs = 3;                 // host time of one cudaMemcpyAsync call
    double eventHostUs = 0.5;              // host time of an event record / stream-wait call
    double launchLatencyUs = 3;            // from a launch call's return to the kernel's first block
    double kernelGapUs = 1;                // the smallest gap between dependent kernels on the GPU
    double kernelOverheadUs = 1;           // added to each kernel's modelled time: launch processing,
                                           // block dispatch and the final drain the cycle model omits
    double duplexEfficiency = 0.85;        // share of its bandwidth a copy keeps while the other
                                           // direction copies at the same time (PCIe and DMA contention)
    double graphLaunchHostUs = 3;          // host time of one cudaGraphLaunch
    double graphNodeUs = 0.8;              // per-kernel gap inside a graph launch
    double syncWakeUs = 2;                 // host wake-up after a synchronize call returns
    // Latencies in cycles
    uint32_t aluLatency = 4;
    uint32_t sfuLatency = 20;
    uint32_t fp64Latency = 8;
    uint32_t sharedLatency = 30;
    uint32_t l1HitLatency = 35;
    uint32_t l2HitLatency = 230;
    uint32_t dramLatency = 520;
    uint32_t blockLaunchLatency = 20;      // cycles from a free slot to a block's first issue
    // Pipe throughput: cycles a scheduler's pipe stays busy per warp-instruction
    uint32_t aluInterval = 2;              // 16 INT32 lanes per scheduler
    uint32_t fmaInterval = 1;              // 32 FP32 lanes per scheduler (Hopper, Ada); 2 on Volta/Ampere GA100
    uint32_t sfuInterval = 8;              // 4 SFU lanes per scheduler
    double fp64PerSMPerCycle = 64;         // FP64 results per SM per cycle
    uint32_t mioQueueCycles = 32;
    uint32_t intDivideSlots = 18;          // issue slots of a 32-bit integer div/rem by a register
                                           // (ptxas's expansion for sm_90; 4x that for 64-bit)          // backlog of the L1/shared pipe beyond which issue throttles

    double dramBytesPerCycle() const { return dramGBs * dramEfficiency * 1e3 / clockMHz; }
    uint32_t fp64Interval() const;
};

// ---------------------------------------------------------------- 2. built-in presets
const std::vector<GpuSpec>& builtinPresets();

// Every preset: built-ins, then JSON files from the folders (a user file with a built-in's name
// replaces it). Folders that do not exist are skipped; malformed files are reported in `errors`.
std::vector<GpuSpec> allPresets(const std::vector<std::filesystem::path>& folders, std::vector<std::string>* errors = nullptr);

// The folders searched for user presets: $WARPSCOPE_GPUS (colon-separated), ./gpus, and
// ~/.config/warpscope/gpus.
std::vector<std::filesystem::path> presetFolders();

// Finds a preset by name (case-insensitive), or a JSON file path. Throws Error(Input) listing
// the known names when there is none.
GpuSpec findPreset(const std::string& nameOrPath, const std::vector<std::filesystem::path>& folders);

// ---------------------------------------------------------------- 3. JSON
// Parses one preset; missing keys keep the values of `base` (by default the built-in named by
// "base", or the H100). Throws Error(Input) naming the key for bad values.
GpuSpec presetFromJson(const std::string& text, const std::string& origin);
std::string presetToJson(const GpuSpec& spec);

} // namespace warpscope::timing
