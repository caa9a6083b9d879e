#include "trace/write_watch.hpp"

#include "sim/program.hpp"

namespace warpscope::trace {

size_t WriteWatch::watch(uint64_t address, uint32_t bytes) {
    ranges_.push_back({address, address + bytes, std::nullopt});
    return ranges_.size() - 1;
}

void WriteWatch::onLaunchStart() { ++launches_; }

void WriteWatch::onStep(const sim::Step& s) {
    if (!(s.isStore || s.isAtomic) || s.space != ptx::StateSpace::Global || !s.addresses || ranges_.empty()) return;
    for (uint32_t lane = 0; lane < 32; ++lane) {
        if (!(s.execMask >> lane & 1u)) continue;
        const uint64_t a = s.addresses[lane], e = a + s.accessBytes;
        for (Range& r : ranges_) {
            if (a >= r.end || e <= r.begin) continue;
            Write w;
            w.launch = launches_ ? launches_ - 1 : 0;
            w.step = s.index;
            w.block = s.block;
            w.warpInBlock = s.warpInBlock;
            w.lane = lane;
            w.atomic = s.isAtomic;
            if (s.instr) {
                w.line = s.instr->line;
                w.ptxLine = s.instr->ptxLine;
                w.instruction = s.instr->text;
            }
            r.last = std::move(w);
        }
    }
}

} // namespace warpscope::trace
