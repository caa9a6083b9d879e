// Who wrote an element: a listener that watches a few global-memory byte ranges and keeps, for
// each, the last store (st, atom, red) of any launch that touched it, with the thread and the
// instruction. "Show why" uses it to point from a wrong element of a result to the line that
// wrote it (grade/why.hpp).
#pragma once
#include "sim/step.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::trace {

struct Write {
    size_t launch = 0;          // ordinal of the launch among those this listener saw, from 0
    uint64_t step = 0;          // Step::index within that launch
    uint32_t block = 0;         // linear block index
    uint32_t warpInBlock = 0;
    uint32_t lane = 0;
    uint32_t line = 0;          // CUDA source line, 0 if unknown
    uint32_t ptxLine = 0;
    std::string instruction;    // the PTX text
    bool atomic = false;
};

class WriteWatch : public sim::StepListener {
public:
    // Watches [address, address + bytes); returns the range's index for write().
    size_t watch(uint64_t address, uint32_t bytes);
    // The last write that touched range `i` (any of its bytes), if any.
    const std::optional<Write>& write(size_t i) const { return ranges_[i].last; }

    void onLaunchStart() override;
    void onStep(const sim::Step& s) override;

private:
    struct Range {
        uint64_t begin = 0, end = 0;
        std::optional<Write> last;
    };
    std::vector<Range> ranges_;
    size_t launches_ = 0;   // launches begun (onLaunchStart)
};

} // namespace warpscope::trace
