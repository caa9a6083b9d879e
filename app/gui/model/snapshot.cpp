// Lane states and snapshot helpers.
#include "gui/model/snapshot.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace warpscope::gui {

const char* laneStateName(LaneState s) {
    switch (s) {
    case LaneState::None: return "no thread";
    case LaneState::Active: return "active";
    case LaneState::Masked: return "masked by divergence";
    case LaneState::Predicated: return "predicated off";
    case LaneState::AtBarrier: return "waiting at barrier";
    case LaneState::Exited: return "exited";
    case LaneState::Count_: break;
    }
    return "?";
}

const char* runStateName(RunState s) {
    switch (s) {
    case RunState::NoLesson: return "no lesson";
    case RunState::Loading: return "loading";
    case RunState::Paused: return "paused";
    case RunState::Running: return "running";
    case RunState::LaunchDone: return "launch finished";
    case RunState::Finished: return "finished";
    case RunState::Faulted: return "faulted";
    case RunState::Failed: return "failed";
    }
    return "?";
}

// Priority: a lane that does not exist, then exited, then the whole warp waiting at a barrier,
// then active (or active but switched off by the guard predicate of the last instruction), and
// the remaining live lanes wait on another path of a divergent branch.
std::array<LaneState, 32> laneStates(const LaneMasks& m) {
    std::array<LaneState, 32> out{};
    uint32_t predicatedOff = 0;
    if (m.hasLast && !m.lastWasBranch) predicatedOff = m.lastActive & ~m.lastExec & m.active;
    for (int l = 0; l < 32; ++l) {
        uint32_t bit = 1u << l;
        LaneState s;
        if (!(m.valid & bit)) s = LaneState::None;
        else if ((m.exited & bit) || m.done) s = LaneState::Exited;
        else if (m.atBarrier) s = LaneState::AtBarrier;
        else if (predicatedOff & bit) s = LaneState::Predicated;
        else if (m.active & bit) s = LaneState::Active;
        else s = LaneState::Masked;
        out[static_cast<size_t>(l)] = s;
    }
    return out;
}

SiteTarget siteTarget(const FaultSite& f, const uint32_t grid[3], const uint32_t block[3]) {
    SiteTarget t;
    t.line = f.sourceLine.value_or(0);
    if (f.blockX && f.threadX) {
        t.hasThread = true;
        t.block = *f.blockX + grid[0] * (f.blockY.value_or(0) + grid[1] * f.blockZ.value_or(0));
        uint32_t linearThread = *f.threadX + block[0] * (f.threadY.value_or(0) + block[1] * f.threadZ.value_or(0));
        t.warp = linearThread / 32;
        t.lane = f.lane.value_or(linearThread % 32);
    }
    return t;
}

Snapshot::BlockStatus Snapshot::blockStatus(uint64_t linear) const {
    if (linear >= blocksLaunched) return BlockStatus::Pending;
    return residentBlock(static_cast<uint32_t>(linear)) ? BlockStatus::Resident : BlockStatus::Done;
}

const BlockView* Snapshot::residentBlock(uint32_t linear) const {
    for (auto& b : resident)
        if (b.linear == linear) return &b;
    return nullptr;
}

namespace {
bool sameMasks(const LaneMasks& a, const LaneMasks& b) {
    return a.valid == b.valid && a.exited == b.exited && a.active == b.active && a.atBarrier == b.atBarrier &&
           a.done == b.done && a.hasLast == b.hasLast && a.lastActive == b.lastActive && a.lastExec == b.lastExec &&
           a.lastWasBranch == b.lastWasBranch;
}
bool sameWarp(const WarpView& a, const WarpView& b) {
    return a.indexInBlock == b.indexInBlock && a.globalWarp == b.globalWarp && sameMasks(a.masks, b.masks) && a.pc == b.pc &&
           a.line == b.line && a.issued == b.issued && a.state == b.state && a.lanes == b.lanes;
}
bool sameStats(const trace::LineStats& a, const trace::LineStats& b) {
    return a.warpInstructions == b.warpInstructions && a.threadInstructions == b.threadInstructions &&
           a.activeLanes == b.activeLanes && a.branches == b.branches && a.divergentBranches == b.divergentBranches;
}
} // namespace

bool sameMachineState(const Snapshot& a, const Snapshot& b, std::string* why) {
    auto fail = [&](const std::string& w) {
        if (why) *why = w;
        return false;
    };
    if (a.state != b.state) return fail(std::string("state ") + runStateName(a.state) + " vs " + runStateName(b.state));
    if (a.launchIndex != b.launchIndex) return fail("launch index");
    if (a.stepInLaunch != b.stepInLaunch || a.totalSteps != b.totalSteps)
        return fail("step count " + std::to_string(a.totalSteps) + " vs " + std::to_string(b.totalSteps));
    if (a.blocksLaunched != b.blocksLaunched || a.blockCount != b.blockCount) return fail("blocks launched");
    if (a.branches != b.branches || a.divergentBranches != b.divergentBranches || a.barriers != b.barriers ||
        a.blocksCompleted != b.blocksCompleted || a.threadInstructions != b.threadInstructions)
        return fail("launch statistics");
    if (a.resident.size() != b.resident.size()) return fail("resident block count");
    for (size_t i = 0; i < a.resident.size(); ++i) {
        const BlockView &x = a.resident[i], &y = b.resident[i];
        if (x.linear != y.linear || x.warps.size() != y.warps.size()) return fail("resident block " + std::to_string(i));
        for (size_t w = 0; w < x.warps.size(); ++w)
            if (!sameWarp(x.warps[w], y.warps[w]))
                return fail("block " + std::to_string(x.linear) + " warp " + std::to_string(w));
    }
    if (a.selected.has_value() != b.selected.has_value()) return fail("selected warp presence");
    if (a.selected) {
        const WarpDetail &x = *a.selected, &y = *b.selected;
        if (x.block != y.block || x.warpInBlock != y.warpInBlock) return fail("selected warp");
        if (x.regs != y.regs) return fail("selected warp registers");
        if (x.preds != y.preds) return fail("selected warp predicates");
        if (x.frames.size() != y.frames.size()) return fail("selected warp frames");
        for (size_t f = 0; f < x.frames.size(); ++f) {
            if (x.frames[f].stack.size() != y.frames[f].stack.size()) return fail("SIMT stack depth");
            for (size_t e = 0; e < x.frames[f].stack.size(); ++e) {
                const auto &p = x.frames[f].stack[e], &q = y.frames[f].stack[e];
                if (p.pc != q.pc || p.rpc != q.rpc || p.mask != q.mask) return fail("SIMT stack entry");
            }
        }
    }
    if (a.lineStats.size() != b.lineStats.size()) return fail("per-line statistics (lines)");
    for (auto& [line, s] : a.lineStats) {
        auto it = b.lineStats.find(line);
        if (it == b.lineStats.end() || !sameStats(s, it->second)) return fail("per-line statistics of line " + std::to_string(line));
    }
    if (a.recent.size() != b.recent.size()) return fail("recent steps");
    for (size_t i = 0; i < a.recent.size(); ++i) {
        const auto &p = a.recent[i], &q = b.recent[i];
        if (p.index != q.index || p.block != q.block || p.warpInBlock != q.warpInBlock || p.pc != q.pc || p.execMask != q.execMask)
            return fail("recent step " + std::to_string(i));
    }
    if (a.error.has_value() != b.error.has_value()) return fail("error presence");
    return true;
}

std::string formatRegister(uint64_t v, const std::string& type, int fmt) {
    char buf[48];
    bool is64 = type.size() >= 2 && type.substr(type.size() - 2) == "64";
    bool is16 = type.size() >= 2 && type.substr(type.size() - 2) == "16";
    if (fmt == kRegByType) fmt = !type.empty() && type[0] == 'f' ? kRegFloat : kRegDecimal;
    if (fmt == kRegHex) {
        std::snprintf(buf, sizeof buf, is64 ? "%016llx" : is16 ? "%04llx" : "%08llx", static_cast<unsigned long long>(is64 ? v : v & 0xffffffffull));
    } else if (fmt == kRegDecimal) {
        if (is64) std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
        else if (!type.empty() && (type[0] == 'u' || type[0] == 'b')) std::snprintf(buf, sizeof buf, "%u", static_cast<uint32_t>(v));
        else std::snprintf(buf, sizeof buf, "%d", static_cast<int32_t>(v));
    } else if (is64) {
        double d;
        std::memcpy(&d, &v, 8);
        std::snprintf(buf, sizeof buf, "%.6g", d);
    } else {
        float f;
        uint32_t u = static_cast<uint32_t>(v);
        std::memcpy(&f, &u, 4);
        std::snprintf(buf, sizeof buf, "%.6g", f);
    }
    return buf;
}

namespace {
// "mov.u32 %r3, %tid.x" or "@%p1 add.s32 %r3, ...": is `reg` the first (destination) operand?
bool writesRegister(const std::string& text, const std::string& reg) {
    size_t i = text.find_first_not_of(" \t");
    if (i != std::string::npos && text[i] == '@') i = text.find_first_of(" \t", i);   // guard
    i = i == std::string::npos ? i : text.find_first_not_of(" \t", i);
    i = i == std::string::npos ? i : text.find_first_of(" \t", i);                    // opcode
    i = i == std::string::npos ? i : text.find_first_not_of(" \t", i);
    if (i == std::string::npos) return false;
    size_t e = text.find_first_of(", \t;", i);
    return text.compare(i, e == std::string::npos ? std::string::npos : e - i, reg) == 0;
}
} // namespace

std::vector<VariableRow> variableRows(const Snapshot& s) {
    std::vector<VariableRow> out;
    if (!s.lesson || !s.program || !s.selected) return out;
    const WarpDetail& d = *s.selected;
    const ProgramInfo& prog = *s.program;
    if (d.func >= prog.functions.size()) return out;
    const FunctionInfo& fn = prog.functions[d.func];
    uint32_t threads = s.block[0] * s.block[1] * s.block[2];
    uint32_t first = d.warpInBlock * 32;
    uint32_t lanes = threads > first ? std::min<uint32_t>(32, threads - first) : 0;
    for (const LessonVariable& v : s.lesson->variables) {
        if (!v.kernel.empty() && v.kernel != prog.kernelName) continue;
        auto it = std::find(fn.regNames.begin(), fn.regNames.end(), v.reg);
        if (it == fn.regNames.end()) continue;
        size_t idx = static_cast<size_t>(it - fn.regNames.begin());
        if (d.regs.size() < (idx + 1) * 32) continue;
        VariableRow r;
        r.name = v.name;
        r.reg = v.reg;
        r.line = v.line;
        r.lanes = lanes;
        // Set once an instruction that writes the register, before the warp's pc in this
        // function, has run (a finished warp has run them all). PTX interleaves lines, so the
        // variable's line alone does not say when.
        int32_t pc = d.warp.pc;
        for (size_t p = 0; p < prog.code.size(); ++p) {
            if (pc >= 0 && static_cast<int32_t>(p) >= pc) break;
            if (prog.code[p].func == d.func && writesRegister(prog.code[p].text, v.reg)) r.set = true;
        }
        const std::string& rt = fn.regTypes[idx];
        int fmt = v.type == "hex" ? kRegHex : v.type == "float" ? kRegFloat : v.type == "int" ? kRegDecimal : kRegByType;
        for (uint32_t l = 0; l < lanes; ++l) r.values[l] = formatRegister(d.regs[idx * 32 + l], rt, fmt);
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace warpscope::gui
