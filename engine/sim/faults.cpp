// Faults and checker reports: where a fault happened (kernel, block, thread, lines, address,
// allocation), raising it, recording it, and the deduplicated checker reports.
#include "sim/exec.hpp"

namespace warpscope::sim {

std::vector<uint64_t> registerValues(const Function& fn, const Frame& f, const uint32_t* offsets) {
    const size_t n = fn.regOffset.size();
    if (!offsets) offsets = fn.regOffset.data();
    std::vector<uint64_t> out(n * 32, 0);
    for (size_t r = 0; r < n; ++r) {
        const size_t end = offsets[r] + (fn.regWide[r] ? 64 : 32);
        if (end > f.regWords.size()) continue;
        for (uint32_t l = 0; l < 32; ++l) out[r * 32 + l] = fn.regWide[r] ? f.wide(offsets[r])[l] : f.narrow(offsets[r])[l];
    }
    return out;
}

void Gpu::recordFault(const Error& e) {
    state_ = LaunchState::Faulted;
    fault_ = e;
}

// ---------------------------------------------------------------- 4. Faults
CheckReport Gpu::locate(const std::string& what, const Block& b, const Warp& w, int lane, const Instr* in,
                        std::optional<uint64_t> address, bool describeGlobal) const {
    CheckReport r;
    FaultSite& s = r.site;
    s.kernel = prog_.kernelName;
    s.blockX = b.idx.x;
    s.blockY = b.idx.y;
    s.blockZ = b.idx.z;
    std::ostringstream os;
    os << what;
    if (lane >= 0 && lane < 32) {
        const base::Dim3 t = cfg_.block.at(uint64_t(w.indexInBlock) * 32 + static_cast<uint32_t>(lane));
        s.threadX = t.x;
        s.threadY = t.y;
        s.threadZ = t.z;
        s.lane = static_cast<uint32_t>(lane);
    }
    if (address) {
        s.address = *address;
        if (describeGlobal) {
            std::string name;
            std::optional<int64_t> off;
            os << " Address " << mem::describeAddress(mem_, *address, &name, &off) << ".";
            s.allocation = name;
            s.offset = off;
        }
    }
    os << " [kernel " << prog_.kernelName << ", block (" << b.idx.x << "," << b.idx.y << "," << b.idx.z << ")";
    if (s.threadX) os << ", thread (" << *s.threadX << "," << *s.threadY << "," << *s.threadZ << "), warp "
                      << w.indexInBlock << " lane " << lane;
    if (in) {
        s.ptxLine = in->ptxLine;
        if (in->line) {
            s.sourceLine = in->line;
            os << ", source line " << in->line;
        }
        os << ", PTX line " << in->ptxLine << ": " << in->text;
    }
    os << "]";
    r.message = os.str();
    return r;
}

void Gpu::raise(Error::Kind kind, const std::string& what, const Block& b, const Warp& w, int lane, const Instr* in,
                std::optional<uint64_t> address, bool describeGlobal) {
    CheckReport r = locate(what, b, w, lane, in, address, describeGlobal);
    throw Error(kind, r.message, r.site);
}

void Gpu::report(const std::string& tool, const std::string& hazard, const std::string& what, const Block& b, const Warp& w, int lane,
                 const Instr* in, std::optional<uint64_t> address) {
    if (!reportWanted(tool, hazard, in)) return;
    CheckReport r = locate(what, b, w, lane, in, address, hazard.find("global") != std::string::npos);
    r.tool = tool;
    r.hazard = hazard;
    keepReport(std::move(r));
}

void Gpu::keepReport(CheckReport r) {
    if (reports_.size() < opt_.maxReports && reportKeys_.insert(reportKey(r.tool, r.hazard, r.site.ptxLine.value_or(0))).second)
        reports_.push_back(std::move(r));
}

} // namespace warpscope::sim
