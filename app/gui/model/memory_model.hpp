// Window-free models behind the memory panels: how one warp's memory instruction maps lanes to
// 32-byte sectors and 128-byte lines (global), or to the 32 banks of shared memory (rows =
// word index within a bank, phases for 64/128-bit accesses). The counts come from the engine's
// own coalescer and bank model (mem/access.hpp) so the panels agree with the metrics.
//
// Sections: 1. global  2. shared  3. heat-map helpers
#pragma once
#include "gui/model/snapshot.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::gui {

// ---------------------------------------------------------------- 1. global
struct SectorUse {
    uint64_t addr = 0;        // 32-byte aligned
    uint32_t line = 0;        // index into GlobalDiagram::lines
    uint32_t usedMask = 0;    // bit b: byte b of the sector is touched by at least one lane
    uint32_t usedBytes = 0;
    uint32_t lanes = 0;       // lanes that touch the sector
};
struct LineUse {
    uint64_t addr = 0;        // 128-byte aligned
    uint32_t sectorMask = 0;  // which of its 4 sectors the request moves
};
struct GlobalDiagram {
    bool valid = false;
    bool isLoad = true, isStore = false, isAtomic = false;
    uint32_t bytesPerLane = 0, activeLanes = 0;
    std::vector<SectorUse> sectors;            // ascending address
    std::vector<LineUse> lines;                // ascending address
    std::array<int, 32> laneSector{};          // first sector each lane touches, -1 when inactive
    std::array<int, 32> laneSectorLast{};      // last one (an access never spans more than 2)
    // Counts, as Nsight Compute names them for this one instruction.
    uint32_t requests = 0, sectorCount = 0, lineCount = 0;
    uint32_t bytesRequested = 0, bytesUsed = 0, bytesMoved = 0;
    double efficiency() const { return bytesMoved ? 100.0 * bytesUsed / bytesMoved : 0; }
    double sectorsPerRequest() const { return requests ? double(sectorCount) / requests : 0; }
    std::string opSuffix() const { return isAtomic ? "atom" : isStore ? "st" : "ld"; }
};
GlobalDiagram buildGlobalDiagram(const MemAccess& a);

// ---------------------------------------------------------------- 2. shared
struct BankWord {
    uint32_t row = 0;         // word index within its bank: byte offset / 128
    uint32_t lanes = 0;       // lanes that touch this word (2 or more: a broadcast)
};
struct SharedPhase {
    uint32_t laneMask = 0;                      // lanes this phase serves
    std::array<std::vector<BankWord>, 32> banks; // distinct words per bank, ascending row
    uint32_t ways = 0;                          // most distinct words any bank delivers
};
struct SharedDiagram {
    bool valid = false;
    bool isLoad = true;
    uint32_t bytesPerLane = 0, activeLanes = 0;
    std::vector<SharedPhase> phases;            // 1 (32-bit and narrower), 2 (64-bit), 4 (128-bit)
    uint32_t minRow = 0, maxRow = 0;
    std::array<int, 32> laneBank{}, laneRow{};  // first word of each lane; -1 when inactive
    // From mem::sharedWavefronts (the engine's bank model, including the load pairing rule).
    uint32_t wavefronts = 0, ideal = 0, conflicts = 0, worstBank = 0;
    uint32_t conflictBanks = 0;                 // banks asked for 2+ distinct words in some phase
    uint32_t broadcastWords = 0;                // words read by 2+ lanes
};
SharedDiagram buildSharedDiagram(const MemAccess& a);

// The instruction a memory panel shows: the newest global (or shared) access in the selected
// warp's history, or the one whose step index + 1 is `pick` when it is still there.
const MemAccess* pickAccess(const std::vector<MemAccess>& history, bool shared, uint64_t pick);

// ---------------------------------------------------------------- 3. heat-map helpers
uint32_t elementBytes(const std::string& type);         // "f32" -> 4, "u8" -> 1, unknown -> 4
uint64_t defaultHeatWidth(uint64_t count);              // a square side when count is a square, else a strip-ish width
std::string formatElement(const BufferHeat& b, uint64_t index);   // the element's value as text

} // namespace warpscope::gui
