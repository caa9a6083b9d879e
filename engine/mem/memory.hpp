// Device memory of the simulated GPU: named, bounds-checked global allocations (cudaMalloc and
// module .global/.const variables) and the generic address map that places the shared, local
// and param windows beside them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::mem {

// Generic address map. Global allocations and module variables use their generic address as
// their global address (cvta to/from global and const is the identity); shared, local and param
// addresses are offsets inside windows.
constexpr uint64_t kSharedWindow = 0x0000'0001'0000'0000ull;
constexpr uint64_t kLocalWindow = 0x0000'0002'0000'0000ull;
constexpr uint64_t kParamWindow = 0x0000'0003'0000'0000ull;
constexpr uint64_t kWindowSize = 0x0000'0001'0000'0000ull;
constexpr uint64_t kConstBase = 0x0000'0006'0000'0000ull;
constexpr uint64_t kGlobalBase = 0x0000'0007'0000'0000ull;
// Device functions whose address is taken (function pointers, vtables: `mov.u64 %rd, f`, `.u64
// vt[] = {f, g}`) get an address here: function k of the module (its index in ptx::Module's
// functions) is kFunctionBase + k * kFunctionStride. No allocation lives here, so a load or store
// through a function pointer faults, and an indirect call to any other address is reported.
constexpr uint64_t kFunctionBase = 0x0000'0004'0000'0000ull;
constexpr uint64_t kFunctionStride = 16;
inline uint64_t functionAddress(size_t moduleIndex) { return kFunctionBase + uint64_t(moduleIndex) * kFunctionStride; }
constexpr uint64_t kAllocationAlign = 512;
constexpr uint64_t kMaxAllocation = uint64_t(4) << 30;   // per allocation: the host must hold it   // cudaMalloc aligns to at least 256 bytes

enum class Window : uint8_t { Global, Shared, Local, Param };
inline Window windowOf(uint64_t generic) {
    if (generic >= kSharedWindow && generic < kSharedWindow + kWindowSize) return Window::Shared;
    if (generic >= kLocalWindow && generic < kLocalWindow + kWindowSize) return Window::Local;
    if (generic >= kParamWindow && generic < kParamWindow + kWindowSize) return Window::Param;
    return Window::Global;
}

class AllocationJournal;   // journal.hpp

struct Allocation {
    uint64_t base = 0;
    uint64_t size = 0;
    std::string name;
    bool readOnly = false;     // .const data: kernels cannot store to it
    bool freed = false;
    std::unique_ptr<uint8_t[]> data;
    std::unique_ptr<uint8_t[]> init;   // initcheck shadow: 1 per written byte (only when tracking)
    // Set while a WriteJournal (journal.hpp) records first writes: every kernel store path calls
    // beforeStore / beforeWarpStore before it writes here.
    AllocationJournal* journal = nullptr;
};

class GlobalMemory {
public:
    // Allocates zeroed memory. `readOnly` is for the constant bank.
    uint64_t allocate(uint64_t bytes, std::string name, bool readOnly = false);
    void free(uint64_t base);     // throws Error(Input) for an address that is not an allocation base
    // Sandbox: the total of live allocations may not exceed this (0 = no limit); allocate()
    // throws a clear Error(Input) naming the limit instead of exhausting the host.
    void setLimit(uint64_t bytes) { limit_ = bytes; }
    uint64_t limit() const { return limit_; }
    uint64_t liveBytes() const { return live_; }
    void reset();
    // initcheck: allocations made from now on carry a shadow of written bytes; host writes
    // (markWritten) and kernel stores set it, kernel loads check it.
    void setTrackInit(bool on) { trackInit_ = on; }
    bool tracksInit() const { return trackInit_; }
    void markWritten(uint64_t addr, uint64_t bytes);

    // Lookup for the executor: the live allocation containing [addr, addr+bytes), or nullptr.
    // Uses a one-entry cache because consecutive lanes almost always hit the same allocation.
    Allocation* find(uint64_t addr, uint64_t bytes) const { return find(addr, bytes, last_); }
    // The same with a caller-owned cache: simulator threads running blocks of one launch side by
    // side each keep their own (allocations do not change while a launch runs).
    Allocation* find(uint64_t addr, uint64_t bytes, Allocation*& cache) const {
        if (cache && addr >= cache->base && addr + bytes <= cache->base + cache->size && !cache->freed)
            return cache;
        Allocation* a = findSlow(addr, bytes);
        if (a) cache = a;
        return a;
    }
    // The allocation nearest to addr (containing it, or the closest one below), for error messages.
    const Allocation* nearest(uint64_t addr) const;
    const Allocation* byName(const std::string& name) const;
    const std::vector<std::unique_ptr<Allocation>>& allocations() const { return allocs_; }

    // Host-side access with bounds checks (memcpy to/from device); throw Error(Input) when bad.
    uint8_t* hostPointer(uint64_t addr, uint64_t bytes, const char* what);

private:
    Allocation* findSlow(uint64_t addr, uint64_t bytes) const;
    std::vector<std::unique_ptr<Allocation>> allocs_;   // sorted by base
    mutable Allocation* last_ = nullptr;
    uint64_t nextGlobal_ = kGlobalBase;
    uint64_t nextConst_ = kConstBase;
    bool trackInit_ = false;
    uint64_t limit_ = 0, live_ = 0;
};

// The default device-memory limit of the simulator: half of this computer's physical memory.
uint64_t defaultDeviceMemoryLimit();
// "1.5 GiB", "512 MiB", "300 bytes".
std::string formatBytes(uint64_t bytes);

// Describes where an address falls, for fault messages: "c + 4096 (past the end of c, 4000 bytes)".
std::string describeAddress(const GlobalMemory& mem, uint64_t addr, std::string* allocName, std::optional<int64_t>* offset);

} // namespace warpscope::mem
