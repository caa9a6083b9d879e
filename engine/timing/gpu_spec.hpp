// GPU presets (GpuSpec): the bundled ones (assets/gpus/*.json, from public specifications and the
// project's measurements) and a user's own, all read from JSON files.
//
// Sections: 1. GpuSpec  2. bundled presets  3. JSON (docs/gpu-presets.md describes the format)
#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace warpscope::timing {

// ---------------------------------------------------------------- 1. GpuSpec
// Every number comes from a preset file (assets/gpus/*.json, docs/gpu-presets.md); a
// default-constructed GpuSpec is all zeros and describes no GPU.
struct GpuSpec {
    std::string name;                 // preset id ("h100", "teaching", ...)
    std::string description;
    std::string computeCapability;    // "9.0"
    std::string released;             // "2022-03": orders the bundled list (empty: first)
    // Chip
    uint32_t smCount = 0;
    double clockMHz = 0;              // SM clock used to turn cycles into time (boost clock)
    uint32_t schedulersPerSM = 0;
    // Per-SM limits (the occupancy calculator's inputs)
    uint32_t maxWarpsPerSM = 0;
    uint32_t maxThreadsPerSM = 0;
    uint32_t maxBlocksPerSM = 0;
    uint32_t maxThreadsPerBlock = 0;
    uint32_t registersPerSM = 0;
    uint32_t maxRegistersPerThread = 0;
    uint32_t maxRegistersPerBlock = 0;
    uint32_t registerAllocUnit = 0;      // registers, allocated per warp
    uint32_t sharedPerSM = 0;     // largest shared-memory carveout
    uint32_t maxSharedPerBlock = 0;   // with opt-in (cudaFuncAttributeMaxDynamicSharedMemorySize)
    uint32_t defaultSharedPerBlock = 0;
    uint32_t sharedAllocUnit = 0;
    uint32_t reservedSharedPerBlock = 0;   // sm_80 and later reserve 1 KiB per block
    uint32_t l1SharedBytesPerSM = 0; // unified L1 + shared
    // Memory system
    uint64_t l2Bytes = 0;
    double dramGBs = 0;                 // peak DRAM bandwidth, GB/s
    double dramEfficiency = 0;           // achievable fraction of the peak (streaming copies reach ~90 %)
    double l2BytesPerCycle = 0;         // whole-GPU L2 bandwidth, bytes per SM clock
    uint32_t l1SectorsPerCycle = 0;        // per SM: 128 bytes per cycle of L1 / shared data
    uint32_t l1LinesPerCycle = 0;          // per SM: tag lookups (distinct 128-byte lines) per cycle
    double l1DataLinesPerCycle = 0;        // per SM: distinct 128-byte lines the data stage reads per
                                           // cycle (a request over 32 lines takes 32 cycles there)
    double l1StoreLineCycles = 0;          // per SM: L1 data-pipe cycles a global store takes per
                                           // 128-byte line beyond its first (write-through: each line
                                           // leaves for L2 as its own write; 0: not modelled)
    double l2AtomicCycles = 0;           // a global atomic's L2 unit serves one warp request per
                                           // address every this many SM cycles (same-address
                                           // atomics serialise; measured on the H100)
    // Global atomics by sector-op (mem/atomics.hpp: one per distinct sector per pass of repeated
    // addresses), measured on the H100 (docs/timing-validation.md). l2AtomicOpCycles > 0 replaces
    // l2AtomicCycles: the atomics of one l2AtomicRegionBytes-aligned region queue at one L2 unit,
    // which applies a sector-op every l2AtomicOpCycles SM cycles (l2AtomicF32OpCycles for a
    // floating-point add, 0: the same); an ATOM's old value returns l2AtomicLatency SM cycles after
    // its turn (0: l2HitLatency).
    double l2AtomicOpCycles = 0;
    double l2AtomicF32OpCycles = 0;
    uint32_t l2AtomicRegionBytes = 0;
    double l2AtomicLatency = 0;
    // L2 write-back and DRAM under load (docs/timing-validation.md, "Write-back"). l2DirtyBytes > 0:
    // the L2 keeps up to this many dirty bytes and writes a dirty sector to DRAM when it is evicted;
    // beyond it, a newly dirtied sector is written at once (and held clean). 0: every sector a
    // kernel first dirties is written once, at once. l2PartialWriteFill: a sector a store wrote in
    // part, never held whole, is completed by a DRAM read when it is written back (ECC per sector).
    // dramWriteCost: DRAM time of a written sector in reads' time (0: 1).
    uint64_t l2DirtyBytes = 0;
    uint32_t l2PartialWriteFill = 0;
    double dramWriteCost = 0;
    // dramQueueCycles > 0: the loaded DRAM latency grows as in a queue with random arrivals,
    // dramLatency + dramQueueCycles * u / (1 - u), u the DRAM's busy share over the last
    // dramLoadWindow SM cycles (at most dramMaxLoad).
    double dramQueueCycles = 0;
    double dramLoadWindow = 0;
    double dramMaxLoad = 0;
    double globalRequestCycles = 0;        // per SM: the fewest L1 data-pipe cycles one global request
                                           // takes, however few lines and sectors it touches
    uint32_t copyEngines = 0;
    double pcieGBs = 0;                   // pinned host<->device copies
    // Host runtime (the stream timeline model; engine/runtime/timeline.hpp)
    double pageableGBs = 0;               // copies from/to pageable host memory (staged by the driver)
    double copyLatencyUs = 0;            // fixed cost of one pinned copy on a copy engine
    double pageableLatencyUs = 0;         // fixed cost of one pageable copy
    double pageableDtoHGBs = 0;            // device-to-host pageable copies, when they differ from
    double pageableDtoHLatencyUs = 0;      // host-to-device ones (0: the same as pageableGBs / -LatencyUs)
    // Copy engines as the H100 runs them (0 each: the simpler model of the other presets):
    double copyQueuedLatencyUs = 0;        // fixed cost of a pinned copy that waits for its engine: its
                                           // setup overlaps the copy ahead of it (a lone one pays copyLatencyUs)
    double copyAfterKernelUs = 0;          // a pinned copy issued while its stream's kernel still runs
                                           // starts this long after the kernel ends (cross-engine wait)
    double pageableAfterKernelUs = 0;      // the same for a pageable copy (the host waits, wakes, stages)
    double pageableStageBytes = 0;         // pageable host-to-device copies are staged by the host in
                                           // pieces of this size: the call returns when the last piece is
                                           // staged, its DMA (pcieGBs) follows on the engine
    double launchHostUs = 0;               // host time of one kernel launch call
    double copyHostUs = 0;                 // host time of one cudaMemcpyAsync call
    double eventHostUs = 0;              // host time of an event record / stream-wait call
    double launchLatencyUs = 0;            // from a launch call's return to the kernel's first block
    double kernelGapUs = 0;                // the smallest gap between dependent kernels on the GPU
    double kernelOverheadUs = 0;           // added to each kernel's modelled time: launch processing,
                                           // block dispatch and the final drain the cycle model omits
    double duplexEfficiency = 0;        // share of its bandwidth a copy keeps while the other
                                           // direction copies at the same time (PCIe and DMA contention)
    double graphLaunchHostUs = 0;          // host time of one cudaGraphLaunch
    double graphNodeUs = 0;              // per-kernel gap inside a graph launch
    double syncWakeUs = 0;                 // host wake-up after a synchronize call returns
    double hostFuncLatencyUs = 0;          // from a stream's work done to its host function running and
                                           // the stream going on after it returns (cudaLaunchHostFunc)
    // Mapped (zero-copy) host memory that kernels read and write over PCIe (docs/guide-topics.md):
    double mappedGBs = 0;                  // bandwidth of kernels' accesses to it (0: pcieGBs)
    uint32_t mappedLatency = 0;            // SM cycles from a load to its data coming back over PCIe
    // Latencies in cycles
    uint32_t aluLatency = 0;
    uint32_t sfuLatency = 0;
    uint32_t fp64Latency = 0;
    uint32_t sharedLatency = 0;
    uint32_t l1HitLatency = 0;
    uint32_t l2HitLatency = 0;
    uint32_t dramLatency = 0;
    uint32_t blockLaunchLatency = 0;      // cycles from a free slot to a block's first issue
    uint32_t blockDispatchCycles = 0;     // an SM takes at most one new block per this many cycles
    // A retired block's slot (its warps, registers, shared memory) takes the next block only this
    // many cycles after its last warp exits, plus blockRetireCyclesPerWarp per warp of the block
    // (measured on the H100 with empty blocks, one per SM: docs/timing-validation.md).
    uint32_t blockRetireCycles = 0;
    double blockRetireCyclesPerWarp = 0;
    // Pipe throughput: cycles a scheduler's pipe stays busy per warp-instruction
    uint32_t aluInterval = 0;              // 16 INT32 lanes per scheduler
    uint32_t fmaInterval = 0;              // 32 FP32 lanes per scheduler (Hopper, Ada); 2 on Volta/Ampere GA100
    uint32_t sfuInterval = 0;              // 4 SFU lanes per scheduler
    double fp64PerSMPerCycle = 0;         // FP64 results per SM per cycle
    uint32_t mioQueueCycles = 0;           // backlog of the L1/shared pipe beyond which issue throttles
    uint32_t intDivideSlots = 0;          // issue slots of a 32-bit integer div/rem by a register
                                           // (ptxas's expansion for sm_90; 4x that for 64-bit)

    // Where the numbers come from: "<key>[, <key>...]" -> text (the preset file's "sources").
    std::map<std::string, std::string> sources;

    double dramBytesPerCycle() const { return dramGBs * dramEfficiency * 1e3 / clockMHz; }
    uint32_t fp64Interval() const;
};

// ---------------------------------------------------------------- 2. bundled presets
// The folder of the bundled presets: assets/gpus in the data folder (base/data_dir.hpp), or
// empty when it is missing.
std::filesystem::path shippedPresetFolder();
// The bundled presets, read once: teaching first, then by release date. Empty when the
// folder is missing; allPresets() reports why.
const std::vector<GpuSpec>& builtinPresets();

// Every preset: the bundled ones, then JSON files from the folders (a user file with a bundled
// preset's name replaces it). Folders that do not exist are skipped; malformed files, and a
// missing bundled folder, are reported in `errors`.
std::vector<GpuSpec> allPresets(const std::vector<std::filesystem::path>& folders, std::vector<std::string>* errors = nullptr);

// The folders searched for user presets: $WARPSCOPE_GPUS (colon-separated), ./gpus, and
// ~/.config/warpscope/gpus.
std::vector<std::filesystem::path> presetFolders();

// Finds a preset by name (case-insensitive), or a JSON file path. Throws Error(Input) listing
// the known names when there is none.
GpuSpec findPreset(const std::string& nameOrPath, const std::vector<std::filesystem::path>& folders);

// The preset every front end uses when none is named: the GPU the project measures against.
inline constexpr const char* kDefaultPreset = "h100";
// The one way a front end resolves a preset: a name or a .json file, looked up in the bundled
// presets and presetFolders(); empty means kDefaultPreset. Throws as findPreset does.
GpuSpec resolvePreset(const std::string& nameOrPath = kDefaultPreset);

// ---------------------------------------------------------------- 3. JSON
// Parses one preset; missing keys keep the values of the bundled preset named by "base" (the
// H100 when there is none). Throws Error(Input) naming the key for bad values. A `bundled`
// preset (assets/gpus) must give every numeric key and no "base".
GpuSpec presetFromJson(const std::string& text, const std::string& origin, bool bundled = false);
std::string presetToJson(const GpuSpec& spec);
// The numeric keys a preset may set, in file order.
std::vector<std::string> numericPresetKeys();
// The preset keys one "sources" entry names ("smCount, clockMHz" -> both).
std::vector<std::string> sourceKeys(const std::string& keys);

} // namespace warpscope::timing
