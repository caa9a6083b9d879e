// The one exception type the engine throws for user-facing failures (bad input, kernel faults,
// missing GPU). Messages are complete sentences meant to be shown as they are.
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace warpscope {

// Where in a launch a fault happened. Every field is optional because not every fault has all.
struct FaultSite {
    std::string kernel;
    std::optional<uint32_t> blockX, blockY, blockZ;
    std::optional<uint32_t> threadX, threadY, threadZ;
    std::optional<uint32_t> lane;
    std::optional<uint32_t> sourceLine;   // CUDA source line (from .loc)
    std::optional<uint32_t> ptxLine;      // line in the PTX text
    std::optional<uint64_t> address;
    std::string allocation;               // name of the allocation involved, if any
    std::optional<int64_t> offset;        // offset into that allocation
};

class Error : public std::runtime_error {
public:
    enum class Kind {
        Input,        // malformed PTX, lesson file, spec, parameter
        Unsupported,  // valid PTX the engine does not implement
        Fault,        // the kernel did something illegal (out of bounds, misaligned, trap)
        Deadlock,     // a barrier that can never complete, or a barrier in divergent code
        Budget,       // the runaway-loop instruction budget ran out
        Device,       // no GPU, driver error, JIT failure
        Cancelled,    // the user stopped the run (the app's Cancel); not a fault of the kernel
    };
    Error(Kind kind, std::string message, FaultSite site = {})
        : std::runtime_error(std::move(message)), kind_(kind), site_(std::move(site)) {}
    Kind kind() const { return kind_; }
    const FaultSite& site() const { return site_; }
    static const char* kindName(Kind k);

private:
    Kind kind_;
    FaultSite site_;
};

} // namespace warpscope
